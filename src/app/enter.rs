//! Enter: open the navigator's node, or follow the selected row where it
//! leads (a tool call, a request, a finding, an assertion's evidence, a
//! native line, a source line, a command, a link of where a failure began).

use super::scope::set_scope;
use super::timing::AssertionRow;
use super::{App, Focus, Panel};
use crate::view::note::Note;

pub(super) fn enter(app: &mut App) {
    match app.focus {
        Focus::Nav => {
            if let Some(node) = app.nav.get(app.nav_state.selected).cloned() {
                // A folder's session not read yet is read now, and opens.
                if node.scope.session.is_none() && app.open_listed(node.scope.attempt) {
                    app.collapsed.remove(&node.scope);
                    app.rebuild_nav();
                }
                let was_collapsed = app.collapsed.contains(&node.scope);
                if node.has_children {
                    if !app.collapsed.remove(&node.scope) {
                        app.collapsed.insert(node.scope);
                    }
                    app.rebuild_nav();
                }
                set_scope(app, node.scope);
                // Opening an attempt: a failed one opens on its first failing assertion.
                if node.scope.session.is_none() && app.doc.attempts.len() > 1 && was_collapsed {
                    app.tab = Panel::Timeline;
                    app.open_first_failure();
                }
            }
        }
        // Enter on an empty list says so rather than nothing.
        Focus::List if app.list_len() == 0 => app.say(Note::NothingSelected),
        Focus::List | Focus::Inspector => match app.tab {
            // Enter in the inspector of a native log's row: the line it came from.
            Panel::Timeline if app.focus == Focus::Inspector && app.provenance().is_some() => app.row_to_native_line(),
            Panel::Timeline => {
                app.focus = Focus::Inspector;
            }
            Panel::Tools => {
                let rows = app.tool_rows();
                let Some(view) = app.view() else { return };
                let target = rows.get(app.lists.tools.selected).and_then(|r| {
                    let (scope_turn, event) = match r.get() {
                        Ok(o) => {
                            let occ = &view.derived.occurrences.occurrences[o];
                            (occ.start_ref.scope_turn(), occ.start_ref.event())
                        }
                        Err(o) => {
                            let orphan = &view.derived.occurrences.orphan_finishes[o];
                            (orphan.event_ref.scope_turn(), orphan.event_ref.event())
                        }
                    };
                    view.timeline.row_of_event(view.derived.turns[scope_turn].addr, event)
                });
                if let Some(row) = target {
                    app.select_row(row);
                    app.focus = Focus::List;
                }
            }
            Panel::Hitl => {
                let rows = app.hitl_rows();
                let target = app.view().and_then(|v| {
                    rows.get(app.lists.hitl.selected).and_then(|&i| {
                        let r = &v.requests[i];
                        v.timeline.row_of_event(r.addr, r.event)
                    })
                });
                if let Some(row) = target {
                    app.select_row(row);
                    app.focus = Focus::List;
                }
            }
            Panel::Diagnostics => {
                let target =
                    app.finding_rows().get(app.lists.diagnostics.selected).map(|&(i, _)| app.findings[i].location);
                match target {
                    Some(loc) => jump_to_location(app, loc.session(), loc.turn(), loc.event()),
                    // Below the findings: the diagnostics NiceEval recorded, which name no event.
                    None => app.say(Note::RecordedDiagnosticHasNoRow),
                }
            }
            Panel::Assertions => match app.assertion_at(app.lists.assertions.selected) {
                Some(AssertionRow::FixPrompt) => app.focus = Focus::Inspector,
                Some(AssertionRow::Began(row)) => app.follow_began(row),
                _ => jump_to_assertion_evidence(app),
            },
            Panel::Timing => {
                if !app.toggle_timing() {
                    app.focus = Focus::Inspector;
                }
            }
            Panel::Translation => app.native_line_to_events(),
            Panel::Source => app.enter_source(),
            Panel::Commands => app.command_to_timing(),
            Panel::Usage | Panel::Changes => {}
        },
    }
}

/// Jump to a (session, turn, event) of the current attempt's timeline.
pub fn jump_to_location(app: &mut App, session: usize, turn: Option<usize>, event: Option<usize>) {
    let Some(view) = app.view() else { return };
    let addr = crate::model::TurnAddr { session, turn: turn.unwrap_or(0) };
    let row = match event {
        Some(e) => view.timeline.row_of_event(addr, e),
        None => view.timeline.by_turn.get(&addr).copied(),
    };
    match row {
        Some(r) => {
            app.select_row(r);
            app.focus = Focus::List;
        }
        None => app.say(Note::PositionNotInTimeline),
    }
}

/// Follow the first evidence link of the selected assertion to its row.
fn jump_to_assertion_evidence(app: &mut App) {
    let Some(AssertionRow::Assertion(ai)) = app.assertion_at(app.lists.assertions.selected) else {
        return;
    };
    let (Some(attempt), Some(view)) = (app.attempt(), app.view()) else { return };
    let Some(assertion) = attempt.review.assertions.as_ref().and_then(|l| l.get(ai)) else { return };
    let links = crate::view::assertions::evidence_links(attempt, view, assertion);
    let Some(link) = links.first() else {
        app.say(Note::AssertionPointsAtNoRow);
        return;
    };
    match (link.row, link.target) {
        (Some(row), Some(target)) => {
            app.select_row(row);
            app.focus = Focus::List;
            if !target.exact {
                app.say(Note::EvidenceApproximate);
            }
        }
        (None, Some(target)) if !target.in_transcript() => {
            let sel = crate::view::report::Selection::default();
            let words = app.context(&sel).map(|ctx| crate::view::assertions::link_text(&ctx, link).as_plain());
            app.say(Note::EvidenceElsewhere(words.unwrap_or_default()));
        }
        _ => app.say(Note::EvidenceNotInTranscript(link.source_text())),
    }
}
