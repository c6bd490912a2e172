//! The selection across a reload (`--watch`, `--follow`, the whole file
//! after its preview): the same event, found by what it is, not by where it
//! was. An event inserted before it moves it; its address then names
//! another event. Found by its kind (ids, names, status) and its text, the
//! nearest such event to where it was; else, for a kind with an id (a tool
//! or subagent call), the nearest event of that kind; else its address.

use super::App;
use crate::model::derive::TurnAddr;
use crate::model::document::Attempt;
use crate::model::event::{Event, EventKind};
use crate::model::timeline::RowKind;

/// How far from where it was the event is looked for, each way: a reload
/// inserts a few events, and a search of a million would stall the frame.
const RADIUS: usize = 20_000;

/// The selected row, as it can be found again.
pub(super) struct Kept {
    addr: TurnAddr,
    row_kind: RowKind,
    event: Option<KeptEvent>,
}

struct KeptEvent {
    index: usize,
    /// Its place among the attempt's events, in order.
    flat: usize,
    kind: EventKind,
    /// Its text's length and hash; `None` when it cannot be read again.
    text: Option<(usize, u64)>,
}

/// Length and hash of an event's JSON text; `None` for text its file no
/// longer holds (a raw event of a file rewritten in place reads `null`).
fn text_of(e: &Event) -> Option<(usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut text = Vec::new();
    e.head().write_compact(&mut text);
    if text == b"null" {
        return None;
    }
    let mut h = std::hash::DefaultHasher::new();
    text.hash(&mut h);
    Some((text.len(), h.finish()))
}

/// Each turn's address and where its events start among the attempt's.
fn turn_starts(attempt: &Attempt) -> Vec<(TurnAddr, usize)> {
    let mut at = 0;
    let mut out = Vec::new();
    for (si, s) in attempt.sessions.iter().enumerate() {
        for (ti, t) in s.turns.iter().enumerate() {
            out.push((TurnAddr { session: si, turn: ti }, at));
            at += t.turn.events.len();
        }
    }
    out
}

fn has_id(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::ToolStarted { .. }
            | EventKind::ToolFinished { .. }
            | EventKind::SubagentStarted { .. }
            | EventKind::SubagentFinished { .. }
            | EventKind::SkillLoaded { operation_id: Some(_), .. }
    )
}

impl Kept {
    /// What is selected now, before the document is replaced.
    pub(super) fn capture(app: &App) -> Option<Kept> {
        let ri = app.selected_row()?;
        let row = app.view()?.timeline.rows.get(ri)?;
        let (addr, row_kind) = (row.addr(), row.kind);
        let event = row.event().and_then(|index| {
            let attempt = app.attempt()?;
            let e = attempt.sessions.get(addr.session)?.turns.get(addr.turn)?.turn.events.get(index)?;
            let start = turn_starts(attempt).into_iter().find(|(a, _)| *a == addr)?.1;
            Some(KeptEvent { index, flat: start + index, kind: e.kind.clone(), text: text_of(e) })
        });
        Some(Kept { addr, row_kind, event })
    }

    /// Its row in the new document.
    pub(super) fn find(&self, app: &App) -> Option<usize> {
        let timeline = &app.view()?.timeline;
        let Some(kept) = &self.event else {
            let header = *timeline.by_turn.get(&self.addr)?;
            return Some(header + usize::from(self.row_kind != RowKind::TurnHeader));
        };
        let at = self.event_in(app.attempt()?, kept).unwrap_or((self.addr, kept.index));
        timeline.row_of_event(at.0, at.1)
    }

    /// Where the kept event is now: the same event nearest to where it was,
    /// else (a call) the nearest with its kind.
    fn event_in(&self, attempt: &Attempt, kept: &KeptEvent) -> Option<(TurnAddr, usize)> {
        let starts = turn_starts(attempt);
        let total: usize = attempt.sessions.iter().flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
        let event_at = |flat: usize| -> Option<((TurnAddr, usize), &Event)> {
            let t = starts.partition_point(|(_, s)| *s <= flat).checked_sub(1)?;
            let (addr, start) = starts[t];
            let e = attempt.sessions[addr.session].turns[addr.turn].turn.events.get(flat - start)?;
            Some(((addr, flat - start), e))
        };
        // Outward from where it was: 0, +1, -1, +2, -2, …
        let near = (0..=RADIUS).flat_map(|d| {
            let after = kept.flat.checked_add(d).filter(|&p| p < total);
            let before = kept.flat.checked_sub(d).filter(|_| d > 0);
            after.into_iter().chain(before)
        });
        let same_kind = near.filter_map(event_at).filter(|(_, e)| e.kind == kept.kind);
        let mut first_of_kind = None;
        for (at, e) in same_kind {
            if kept.text.is_some() && text_of(e) == kept.text {
                return Some(at);
            }
            first_of_kind.get_or_insert(at);
        }
        first_of_kind.filter(|_| has_id(&kept.kind))
    }
}
