//! A timeline row's position (`N:i`, `N:i→j`, `turn N`) and how wide the
//! position column must be for the attempt's largest addresses.

use crate::model::document::Attempt;
use crate::model::timeline::{Row, RowKind};
use crate::view::address::{event_address, turn_number};
use crate::view::attempt::AttemptView;
use std::fmt::Write as _;

/// `N:i` of a row; `N:i→j` when a finish is merged into it; `turn N` for a header.
pub fn position(row: &Row) -> String {
    position_as(row, true)
}

/// [`position`], or with `merged` false (raw events, `m`) a start's own `N:i`
/// (its finish is a row of its own then).
pub fn position_as(row: &Row, merged: bool) -> String {
    match (row.kind, row.merged_finish().filter(|_| merged)) {
        (RowKind::TurnHeader, _) => format!("turn {}", row.turn_ordinal),
        (_, Some(f)) => {
            let mut pos = event_address(row.turn_ordinal, row.event());
            let _ = write!(pos, "→{}", f + 1);
            pos
        }
        (_, None) => event_address(row.turn_ordinal, row.event()),
    }
}

/// The fewest columns the viewer's position field takes (`12:104→105`).
pub const POSITION_COLUMNS: usize = 9;
/// The fewest in the split view's half-width panels.
pub const COMPACT_POSITION_COLUMNS: usize = 7;

/// Columns the position field takes: at least `floor`, and as wide as the
/// attempt's largest `N:i→j` can be (its turn number, its turn's last event
/// twice), so no address is cut (`3:3999→4000`).
pub fn position_width(attempt: &Attempt, view: &AttemptView, merged: bool, floor: usize) -> usize {
    let digits = |n: u64| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    let widest = view.derived.turns.iter().map(|t| {
        let events = attempt
            .sessions
            .get(t.addr.session)
            .and_then(|s| s.turns.get(t.addr.turn))
            .map_or(0, |r| r.turn.events.len() as u64);
        let at = digits(turn_number(&view.derived, t.addr)) + 1 + digits(events);
        if merged { at + 1 + digits(events) } else { at }
    });
    // One column of space after the address.
    widest.max().map_or(floor, |w| (w + 1).max(floor))
}
