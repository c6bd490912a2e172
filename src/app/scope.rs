//! Changing what the other panels show: the attempt, session or turn the
//! navigator selected.

use super::rows::RowNumbers;
use super::{App, ListState, Scope};

/// Change the scope of the other panels, keeping the selected row when it is still in scope.
pub(super) fn set_scope(app: &mut App, scope: Scope) {
    if app.scope == scope {
        return;
    }
    let keep = app.selected_row();
    let attempt_changed = app.scope.attempt != scope.attempt;
    app.scope = scope;
    app.rebuild_visible();
    // Every other tab's list starts over; the timeline keeps its row when it can.
    let timeline = app.lists.timeline;
    app.lists = crate::app::Lists { timeline, ..Default::default() };
    if attempt_changed {
        app.lists.timeline = ListState::default();
    }
    match keep.filter(|_| !attempt_changed) {
        Some(row) if app.visible().holds(row) => app.select_row(row),
        _ => app.lists.timeline = ListState::default(),
    }
    app.inspector_scroll = 0;
}
