//! Keys in the split view: the usual moves act on the side Tab chose (both
//! sides scroll together, their lines are aligned), 1 2 4 5 pick the tab,
//! Enter opens the side's inspector, r y o act on its selection as in the
//! viewer, v opens the side in the viewer, Esc goes back.

use super::compare_state::{Screen, SplitState, open_in_viewer};
use super::{App, Intent, Panel};
use crate::model::timeline::RowKind;
use crate::view::compare::split::{AssertionChange, Slot};
use crate::view::context::{Ctx, Selection};
use crate::view::note::Note;

pub fn split_key(app: &mut App, action: Intent) {
    let page = (super::compare_layout::split_rows_shown(app) as isize).max(1);
    let inspector_open = app.compare.as_ref().and_then(|c| c.split.as_ref()).is_some_and(|s| s.inspector);
    let scrolls_inspector = inspector_open
        && matches!(action, Intent::PageDown | Intent::PageUp | Intent::HalfPageDown | Intent::HalfPageUp);
    if let Some(delta) = super::motion::movement(action, page).filter(|_| !scrolls_inspector) {
        move_by(app, delta);
        return clamp(app);
    }
    match action {
        Intent::Back => {
            if let Some(c) = app.compare.as_mut() {
                match c.split.as_mut() {
                    Some(s) if s.inspector => s.inspector = false,
                    _ => {
                        c.split = None;
                        c.screen = Screen::Matrix;
                    }
                }
            }
        }
        Intent::Enter => {
            if let Some(s) = split_mut(app) {
                s.inspector = true;
            }
            app.inspector_scroll = 0;
        }
        Intent::FocusNext | Intent::FocusPrev => {
            if let Some(s) = split_mut(app) {
                s.side = 1 - s.side;
            }
            app.inspector_scroll = 0;
        }
        Intent::ShowTab(tab) => {
            let to = match tab {
                Panel::Timeline => Some(Panel::Timeline),
                Panel::Tools => Some(Panel::Tools),
                Panel::Usage => Some(Panel::Usage),
                Panel::Assertions => Some(Panel::Assertions),
                _ => None,
            };
            match to {
                Some(t) => {
                    if let Some(s) = split_mut(app) {
                        s.tab = t;
                    }
                    app.inspector_scroll = 0;
                }
                None => app.say(Note::SplitPanels),
            }
        }
        Intent::PageDown | Intent::PageUp | Intent::HalfPageDown | Intent::HalfPageUp if inspector_open => {
            let step = super::motion::movement(action, page).unwrap_or(0);
            let max = app.inspector_extent();
            app.inspector_scroll =
                (app.inspector_scroll.min(max) as isize).saturating_add(step).clamp(0, max as isize) as usize;
        }
        Intent::NextTurn | Intent::PrevTurn => jump(app, action == Intent::NextTurn, Jump::Turn),
        Intent::NextFailure | Intent::PrevFailure => jump(app, action == Intent::NextFailure, Jump::Change),
        Intent::ToggleRaw => {
            app.raw = !app.raw;
            app.inspector_scroll = 0;
        }
        Intent::Copy | Intent::OpenPager => match selected_json(app) {
            Some(text) if action == Intent::Copy => app.copy_text(text),
            Some(text) => app.page_text(&text),
            None => app.say(Note::NothingOnThisSide),
        },
        Intent::ViewAttempt => {
            let Some(s) = app.compare.as_ref().and_then(|c| c.split.as_ref()) else { return };
            let (attempt, selected) = (s.split.attempts[s.side], s.selected());
            open_in_viewer(app, attempt, selected);
        }
        Intent::SearchStart => app.say(Note::SearchInViewer),
        _ => {}
    }
    clamp(app);
}

fn split_mut(app: &mut App) -> Option<&mut SplitState> {
    app.compare.as_mut()?.split.as_mut()
}

/// Keep the split's cursor inside its list and on screen.
pub fn clamp(app: &mut App) {
    let rows = super::compare_layout::split_rows_shown(app);
    if let Some(s) = split_mut(app) {
        let len = s.split.len(s.tab);
        s.list_mut().clamp(len, rows);
    }
}

impl SplitState {
    /// Lines the keys stop at: on the Timeline, the lines where the side has a row.
    fn stops(&self) -> Vec<usize> {
        let len = self.split.len(self.tab);
        match self.tab {
            Panel::Timeline => {
                (0..len).filter(|&i| matches!(self.split.timeline[i].sides[self.side], Slot::Row(_))).collect()
            }
            _ => (0..len).collect(),
        }
    }
}

fn move_by(app: &mut App, delta: isize) {
    let Some(s) = split_mut(app) else { return };
    let stops = s.stops();
    if stops.is_empty() {
        return;
    }
    let at = s.list().selected;
    let here = stops.partition_point(|&x| x < at);
    let target = if delta > 0 {
        // From a line that is not a stop, the first step lands on the next stop.
        let from = if stops.get(here) == Some(&at) { here } else { here.saturating_sub(1) };
        (from as isize).saturating_add(delta).clamp(0, stops.len() as isize - 1) as usize
    } else {
        (here as isize).saturating_add(delta).clamp(0, stops.len() as isize - 1) as usize
    };
    s.list_mut().selected = stops[target];
    app.inspector_scroll = 0;
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Jump {
    Turn,
    Change,
}

/// `[` `]` to a turn header, `e` `E` to the next change: a failing row of
/// the side's timeline, a changed call or assertion.
fn jump(app: &mut App, forward: bool, to: Jump) {
    let Some(cv) = app.cv() else { return };
    let Some(s) = app.compare.as_ref().and_then(|c| c.split.as_ref()) else { return };
    let attempt = s.split.attempts[s.side];
    let hit = |i: usize| -> bool {
        match (s.tab, to) {
            (Panel::Timeline, Jump::Turn) => s.split.timeline[i].header,
            (Panel::Timeline, Jump::Change) => match s.split.timeline[i].sides[s.side] {
                Slot::Row(r) => cv.views[attempt]
                    .timeline
                    .rows
                    .get(r)
                    .is_some_and(|row| row.is_failure() && row.kind != RowKind::TurnHeader),
                _ => false,
            },
            (Panel::Tools, _) => s.split.tools[i].change.is_change(),
            (Panel::Assertions, _) => s.split.assertions[i].change != AssertionChange::Same,
            // Usage has no lines to stop at; the split view has no other panel.
            _ => false,
        }
    };
    let len = s.split.len(s.tab);
    let at = s.list().selected;
    let found = if forward { (at + 1..len).find(|&i| hit(i)) } else { (0..at).rev().find(|&i| hit(i)) };
    match found {
        Some(i) => {
            if let Some(s) = split_mut(app) {
                s.list_mut().selected = i;
            }
            app.inspector_scroll = 0;
        }
        None => app.say(Note::NoFurtherOnSide { forward, turn: to == Jump::Turn }),
    }
}

/// The JSON behind the side's selection, pretty (what `y` copies and `o` opens).
fn selected_json(app: &App) -> Option<String> {
    let cv = app.cv()?;
    let s = app.compare.as_ref()?.split.as_ref()?;
    let sel = s.selected()?;
    let full = Selection { full: true, ..Selection::default() };
    let ctx = Ctx::of(cv.doc, cv.views, cv.findings, &full, s.split.attempts[s.side])?;
    crate::view::inspect::raw(&ctx, sel).blocks.into_iter().find_map(|b| match b {
        crate::view::blocks::Block::Json(v) => Some(serde_json::to_string_pretty(&v).unwrap_or_default()),
        _ => None,
    })
}
