//! `update(&mut App, Action)`: the only place UI state changes.

use super::selection::selected_value;
use super::{Action, App, Effect, Focus, JumpTo, ListState, Mode, Scope, Tab, ToolFilter, VerdictFilter};

pub fn update(app: &mut App, action: Action) {
    // The flash message lives until the next key.
    if !matches!(action, Action::ScrollAt { .. }) {
        app.flash = None;
    }
    let turn_jump = app.before_turn_jump.take();
    match app.mode {
        Mode::Search => return search_key(app, action),
        Mode::Help => return help_key(app, action),
        Mode::Normal => {}
    }
    match action {
        Action::Quit => app.should_quit = true,
        Action::Up => move_by(app, -1),
        Action::Down => move_by(app, 1),
        Action::PageUp => move_by(app, -(page(app) as isize)),
        Action::PageDown => move_by(app, page(app) as isize),
        Action::HalfPageUp => move_by(app, -(page(app) as isize / 2).max(1)),
        Action::HalfPageDown => move_by(app, (page(app) as isize / 2).max(1)),
        Action::Top => move_by(app, isize::MIN / 2),
        Action::Bottom => move_by(app, isize::MAX / 2),
        Action::PrevTurn | Action::NextTurn => {
            app.before_turn_jump = Some((app.lists.timeline, action == Action::NextTurn));
            jump_turn(app, action == Action::NextTurn);
        }
        Action::FocusNext | Action::FocusPrev => {
            let order = [Focus::Nav, Focus::List, Focus::Inspector];
            let i = order.iter().position(|f| *f == app.focus).unwrap_or(1);
            let step = if action == Action::FocusNext { 1 } else { order.len() - 1 };
            app.focus = order[(i + step) % order.len()];
        }
        Action::ShowTab(tab) => {
            app.tab = tab;
            app.inspector_scroll = 0;
            if app.focus == Focus::Inspector {
                app.focus = Focus::List;
            }
            clamp_list(app);
        }
        Action::Enter => enter(app),
        Action::Back => back(app),
        Action::SearchStart => {
            app.mode = Mode::Search;
            app.search.input.clear();
        }
        Action::SearchNext | Action::SearchPrev => search_step(app, action == Action::SearchNext),
        Action::NextFailure if app.tab != Tab::Timeline || app.focus != Focus::List => {
            // From a review tab: the earliest failing evidence in the transcript.
            app.tab = Tab::Timeline;
            app.focus = Focus::List;
            app.lists.timeline = ListState::default();
            let first_is_failure =
                app.view().is_some_and(|v| app.visible.first().is_some_and(|&r| v.timeline.rows[r].is_failure()));
            if !first_is_failure {
                jump_failure(app, true);
            }
        }
        Action::NextFailure | Action::PrevFailure => jump_failure(app, action == Action::NextFailure),
        Action::NextWaiting => jump_waiting(app),
        Action::NextFinding | Action::PrevFinding => {
            let mut forward = action == Action::NextFinding;
            // `]d` / `[d`: the bracket moved a turn; start from where it was.
            if action == Action::NextFinding
                && let Some((saved, next)) = turn_jump
            {
                app.lists.timeline = saved;
                forward = next;
            }
            jump_finding(app, forward);
        }
        Action::ToggleRaw => {
            app.raw = !app.raw;
            app.inspector_scroll = 0;
        }
        Action::ToggleMerge => {
            let current = app.selected_row();
            app.merge = !app.merge;
            app.rebuild_visible();
            if let Some(row) = current {
                app.select_row(row);
            }
            app.flash(if app.merge {
                "timeline: lifecycle rows merged"
            } else {
                "timeline: every raw event on its own row"
            });
        }
        Action::CycleFilter if app.focus == Focus::Nav && app.doc.attempts.len() > 1 => {
            app.verdict_filter = match app.verdict_filter {
                VerdictFilter::All => VerdictFilter::Failing,
                VerdictFilter::Failing => VerdictFilter::Passed,
                VerdictFilter::Passed => VerdictFilter::All,
            };
            app.rebuild_nav();
            app.nav_state = ListState::default();
            let shown = app.nav.iter().filter(|n| n.depth == 0).count();
            app.flash(format!("attempts: {} ({shown} shown)", app.verdict_filter.word()));
        }
        Action::CycleFilter => {
            app.tool_filter = match app.tool_filter {
                ToolFilter::All => ToolFilter::Failed,
                ToolFilter::Failed => ToolFilter::Pending,
                ToolFilter::Pending => ToolFilter::Problems,
                ToolFilter::Problems => ToolFilter::All,
            };
            app.rebuild_tool_rows();
            app.lists.tools = ListState::default();
            app.flash(format!("tools filter: {}", app.tool_filter.word()));
        }
        Action::CycleSort => {
            app.tool_sort_by_name = !app.tool_sort_by_name;
            app.rebuild_tool_rows();
            app.flash(if app.tool_sort_by_name { "tools sorted by name" } else { "tools sorted by position" });
        }
        Action::Copy => match selected_value(app) {
            Some((_, text)) => {
                let n = text.chars().count();
                app.effects.push(Effect::Copy(text));
                app.flash(format!("copied {n} characters (OSC 52)"));
            }
            None => app.flash("nothing selected to copy"),
        },
        Action::OpenPager => match selected_value(app) {
            Some((_, text)) => app.effects.push(Effect::Page(text)),
            None => app.flash("nothing selected to open"),
        },
        Action::Help => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Action::FollowBottom => {
            app.follow = true;
            app.tab = Tab::Timeline;
            move_by(app, isize::MAX / 2);
            app.flash("following: sticking to the newest event");
        }
        Action::Redraw => app.effects.push(Effect::Redraw),
        Action::ScrollAt { column, row, down } => mouse_scroll(app, column, row, down),
        Action::ClickAt { column, row } => mouse_click(app, column, row),
        Action::DebugPanic => {
            if app.debug_keys {
                panic!("panic requested with the debug key (NICEEVAL_DEBUG_PANIC_KEY)");
            }
        }
        Action::SearchChar(_) | Action::SearchBackspace | Action::SearchCommit | Action::SearchCancel => {}
    }
}

fn page(app: &App) -> usize {
    match app.focus {
        Focus::Nav => app.viewport.nav_rows,
        Focus::List => app.viewport.list_rows,
        Focus::Inspector => app.viewport.inspector_rows,
    }
    .max(1)
}

fn clamp_list(app: &mut App) {
    let len = app.list_len();
    let rows = app.viewport.list_rows;
    app.list_mut().clamp(len, rows);
}

fn step(index: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (index as isize).saturating_add(delta).clamp(0, len as isize - 1) as usize
}

fn move_by(app: &mut App, delta: isize) {
    match app.focus {
        Focus::Nav => {
            let len = app.nav.len();
            app.nav_state.selected = step(app.nav_state.selected, delta, len);
            let rows = app.viewport.nav_rows;
            app.nav_state.clamp(len, rows);
            if let Some(node) = app.nav.get(app.nav_state.selected) {
                set_scope(app, node.scope);
            }
        }
        Focus::List => {
            let len = app.list_len();
            let list = app.list_mut();
            list.selected = step(list.selected, delta, len);
            clamp_list(app);
            app.inspector_scroll = 0;
            if app.tab == Tab::Timeline && delta < 0 {
                app.follow = false;
            }
        }
        Focus::Inspector => {
            app.inspector_scroll = (app.inspector_scroll as isize).saturating_add(delta).max(0) as usize;
        }
    }
}

/// Change the scope of the other panels, keeping the selected row when it is still in scope.
pub fn set_scope(app: &mut App, scope: Scope) {
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
        Some(row) if app.visible.binary_search(&row).is_ok() => app.select_row(row),
        _ => app.lists.timeline = ListState::default(),
    }
    app.inspector_scroll = 0;
}

fn jump_turn(app: &mut App, forward: bool) {
    let target = app.selected_row().and_then(|current| {
        if forward { next_after(app, JumpTo::Turn, current) } else { last_before(app, JumpTo::Turn, current) }
    });
    match target {
        Some(i) => {
            app.tab = Tab::Timeline;
            app.lists.timeline.selected = i;
            // Show the turn header at the top.
            app.lists.timeline.offset = i;
            let rows = app.viewport.list_rows;
            app.lists.timeline.clamp(app.visible.len(), rows);
        }
        None => app.flash(if forward { "last turn" } else { "first turn" }),
    }
}

/// Position in `visible` of the first `to` row at or after timeline row `row`
/// (binary searches: jump keys never walk the rows).
fn first_from(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    let targets = app.jump_rows(to);
    let last = *app.visible.last()?;
    let from = targets.partition_point(|&r| r < row);
    targets[from..].iter().take_while(|&&r| r <= last).find_map(|r| app.visible.binary_search(r).ok())
}

/// Position in `visible` of the last `to` row at or before timeline row `row`.
fn last_to(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    let targets = app.jump_rows(to);
    let first = *app.visible.first()?;
    let end = targets.partition_point(|&r| r <= row);
    targets[..end].iter().rev().take_while(|&&r| r >= first).find_map(|r| app.visible.binary_search(r).ok())
}

fn next_after(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    first_from(app, to, row.checked_add(1)?)
}

fn last_before(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    last_to(app, to, row.checked_sub(1)?)
}

fn enter(app: &mut App) {
    match app.focus {
        Focus::Nav => {
            if let Some(node) = app.nav.get(app.nav_state.selected).cloned() {
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
                    app.tab = Tab::Timeline;
                    app.open_first_failure();
                }
            }
        }
        Focus::List | Focus::Inspector => match app.tab {
            Tab::Timeline => {
                app.focus = Focus::Inspector;
            }
            Tab::Tools => {
                let rows = app.tool_rows();
                let Some(view) = app.view() else { return };
                let target = rows.get(app.lists.tools.selected).and_then(|r| {
                    let (scope_turn, event) = match r {
                        Ok(o) => {
                            let occ = &view.derived.occurrences.occurrences[*o];
                            (occ.start_ref.scope_turn, occ.start_ref.event)
                        }
                        Err(o) => {
                            let orphan = &view.derived.occurrences.orphan_finishes[*o];
                            (orphan.event_ref.scope_turn, orphan.event_ref.event)
                        }
                    };
                    view.timeline.row_of_event(view.derived.turns[scope_turn].addr, event)
                });
                if let Some(row) = target {
                    app.select_row(row);
                    app.focus = Focus::List;
                }
            }
            Tab::Hitl => {
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
            Tab::Diagnostics => {
                let target =
                    app.scoped_findings().get(app.lists.diagnostics.selected).map(|&i| app.findings[i].location);
                if let Some(loc) = target {
                    jump_to_location(app, loc.session, loc.turn, loc.event);
                }
            }
            Tab::Assertions => match app.assertion_at(app.lists.assertions.selected) {
                Some(super::timing::AssertionRow::FixPrompt) => app.focus = Focus::Inspector,
                _ => jump_to_assertion_evidence(app),
            },
            Tab::Timing => {
                if !app.toggle_timing() {
                    app.focus = Focus::Inspector;
                }
            }
            Tab::Usage | Tab::Changes => {}
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
        None => app.flash_error("that position is not in the timeline"),
    }
}

/// Follow the first evidence link of the selected assertion to its row.
fn jump_to_assertion_evidence(app: &mut App) {
    let Some(super::timing::AssertionRow::Assertion(ai)) = app.assertion_at(app.lists.assertions.selected) else {
        return;
    };
    let (Some(attempt), Some(view)) = (app.attempt(), app.view()) else { return };
    let Some(assertion) = attempt.review.assertions.as_ref().and_then(|l| l.get(ai)) else { return };
    let links = crate::view::assertions::evidence_links(attempt, view, assertion);
    let Some(link) = links.first() else {
        app.flash("this assertion points at no transcript row");
        return;
    };
    match (link.row, link.target) {
        (Some(row), Some(target)) => {
            app.select_row(row);
            app.focus = Focus::List;
            if !target.exact {
                app.flash("approximate: the evidence's turn or event was not found exactly; this is the best match");
            }
        }
        _ => app.flash_error(format!("evidence {} is not in this transcript", crate::view::clean(&link.evidence.id))),
    }
}

fn back(app: &mut App) {
    if app.focus == Focus::Nav && app.nav_query.is_some() {
        app.nav_query = None;
        app.rebuild_nav();
        app.flash("attempt filter cleared");
        return;
    }
    if app.focus == Focus::Inspector {
        app.focus = Focus::List;
    } else if app.search.query.is_some() {
        app.search = Default::default();
        app.flash("search cleared");
    } else if app.scope.turn.is_some() || app.scope.session.is_some() {
        let s = app.scope;
        let parent = if s.turn.is_some() { Scope { turn: None, ..s } } else { Scope { session: None, ..s } };
        set_scope(app, parent);
        app.sync_nav_to_scope();
    } else if app.focus == Focus::List {
        app.focus = Focus::Nav;
    }
}

fn search_key(app: &mut App, action: Action) {
    match action {
        Action::SearchChar(c) => app.search.input.push(c),
        Action::SearchBackspace => {
            app.search.input.pop();
        }
        Action::SearchCancel => app.mode = Mode::Normal,
        Action::SearchCommit if app.focus == Focus::Nav && app.doc.attempts.len() > 1 => {
            app.mode = Mode::Normal;
            let query = app.search.input.trim().to_string();
            app.nav_query = (!query.is_empty()).then_some(query.clone());
            app.rebuild_nav();
            app.nav_state = ListState::default();
            let shown = app.nav.iter().filter(|n| n.depth == 0).count();
            app.flash(if query.is_empty() {
                "attempt filter cleared".to_string()
            } else {
                format!("attempts matching \"{query}\": {shown}")
            });
        }
        Action::SearchCommit => {
            app.mode = Mode::Normal;
            let query = app.search.input.trim().to_string();
            if query.is_empty() {
                app.search = Default::default();
                return;
            }
            app.tab = Tab::Timeline;
            app.focus = Focus::List;
            app.commit_search(query);
        }
        Action::Quit => app.should_quit = true,
        _ => {}
    }
}

fn help_key(app: &mut App, action: Action) {
    match action {
        Action::Back => app.mode = Mode::Normal,
        Action::Quit => app.should_quit = true,
        Action::Down => app.help_scroll += 1,
        Action::Up => app.help_scroll = app.help_scroll.saturating_sub(1),
        _ => {}
    }
}

fn search_step(app: &mut App, forward: bool) {
    if app.search.matches.is_empty() {
        app.flash(if app.search.query.is_some() { "no matches" } else { "no search: press / to search" });
        return;
    }
    let current = app.selected_row().unwrap_or(0);
    // Matches are in row order.
    let m = &app.search.matches;
    let at = if forward {
        Some(m.partition_point(|&r| r <= current)).filter(|&i| i < m.len()).unwrap_or(0)
    } else {
        m.partition_point(|&r| r < current).checked_sub(1).unwrap_or(m.len() - 1)
    };
    let target = m[at];
    let n = at + 1;
    let total = m.len();
    app.select_row(target);
    app.flash(format!("match {n} of {total}"));
}

/// Select the next (or previous) `to` row in scope after the selection,
/// wrapping around to the selection itself.
fn jump_where(app: &mut App, forward: bool, what: &str, to: JumpTo) {
    let Some(current) = app.selected_row() else {
        app.flash(format!("no {what} in this scope"));
        return;
    };
    // Past the last one, wrap around (back to the selection itself at worst).
    let found = if forward {
        next_after(app, to, current).or_else(|| first_from(app, to, 0))
    } else {
        last_before(app, to, current).or_else(|| last_to(app, to, usize::MAX))
    };
    match found {
        Some(i) => {
            let row = app.visible[i];
            app.select_row(row);
            app.focus = Focus::List;
        }
        None => app.flash(format!("no {what} in this scope")),
    }
}

fn jump_failure(app: &mut App, forward: bool) {
    jump_where(app, forward, "failures or errors", JumpTo::Failure);
}

fn jump_waiting(app: &mut App) {
    jump_where(app, true, "waiting input requests", JumpTo::Waiting);
}

fn jump_finding(app: &mut App, forward: bool) {
    if app.jump_rows(JumpTo::Finding).is_empty() {
        app.flash("no diagnostic findings");
        return;
    }
    jump_where(app, forward, "findings", JumpTo::Finding);
}

fn mouse_scroll(app: &mut App, column: u16, row: u16, down: bool) {
    let areas = crate::app::layout::areas(app.viewport.width, app.viewport.height, app);
    let previous = app.focus;
    if let Some(focus) = areas.focus_at(column, row) {
        app.focus = focus;
        move_by(app, if down { 3 } else { -3 });
        app.focus = previous;
    }
}

fn mouse_click(app: &mut App, column: u16, row: u16) {
    let areas = crate::app::layout::areas(app.viewport.width, app.viewport.height, app);
    if let Some(tab) = areas.tab_at(column, row) {
        update(app, Action::ShowTab(tab));
        return;
    }
    let Some(focus) = areas.focus_at(column, row) else { return };
    app.focus = focus;
    let Some(index) = areas.row_at(focus, row) else { return };
    match focus {
        Focus::Nav => {
            let target = app.nav_state.offset + index;
            if target < app.nav.len() {
                let delta = target as isize - app.nav_state.selected as isize;
                move_by(app, delta);
            }
        }
        Focus::List => {
            let target = app.list().offset + index;
            if target < app.list_len() {
                let delta = target as isize - app.list().selected as isize;
                move_by(app, delta);
            }
        }
        Focus::Inspector => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::timeline::RowKind;
    use crate::model::usage::PriceTable;
    use serde_json::Value;
    use serde_json::json;

    fn app(v: Value) -> App {
        let doc = crate::load::load_bytes("t.json", v.to_string().as_bytes()).unwrap();
        App::new(doc, None, PriceTable::default())
    }

    fn two_turns() -> App {
        app(json!({"sessions":[{"sessionIndex":1,"turns":[
            {"input":{"text":"go"},"turn":{"status":"waiting","events":[
                {"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"rm","input":{}}},
                {"type":"input.requested","request":{"id":"r1","prompt":"Delete?","options":[{"id":"approve"},{"id":"deny"}]}}]}},
            {"input":{"text":"approve","responses":[{"requestId":"r1","optionId":"approve"}]},"turn":{"status":"completed","events":[
                {"type":"operation.finished","operationId":"c1","kind":"tool","status":"failed","output":"boom"},
                {"type":"error","message":"it broke"}]}}]}]}))
    }

    #[test]
    fn movement_clamps_at_both_ends() {
        let mut a = two_turns();
        update(&mut a, Action::Up);
        assert_eq!(a.lists.timeline.selected, 0);
        update(&mut a, Action::Bottom);
        assert_eq!(a.lists.timeline.selected, a.visible.len() - 1);
        update(&mut a, Action::Down);
        assert_eq!(a.lists.timeline.selected, a.visible.len() - 1);
    }

    #[test]
    fn turn_jumps_land_on_headers() {
        let mut a = two_turns();
        update(&mut a, Action::NextTurn);
        let view = a.view().unwrap();
        let row = &view.timeline.rows[a.selected_row().unwrap()];
        assert_eq!(row.kind, RowKind::TurnHeader);
        assert_eq!(row.addr.turn, 1);
    }

    #[test]
    fn failure_jump_finds_failed_tool_and_error() {
        let mut a = two_turns();
        update(&mut a, Action::NextFailure);
        let first = a.selected_row().unwrap();
        let view = a.view().unwrap();
        assert!(view.timeline.rows[first].is_failure());
        update(&mut a, Action::NextFailure);
        let second = a.selected_row().unwrap();
        assert_ne!(first, second);
    }

    #[test]
    fn search_is_case_insensitive_and_cycles() {
        let mut a = two_turns();
        update(&mut a, Action::SearchStart);
        for c in "BOOM".to_lowercase().chars() {
            update(&mut a, Action::SearchChar(c));
        }
        update(&mut a, Action::SearchCommit);
        assert_eq!(a.mode, Mode::Normal);
        assert!(!a.search.matches.is_empty());
        let at = a.selected_row().unwrap();
        assert!(a.search.matches.contains(&at));
        update(&mut a, Action::Back);
        assert!(a.search.query.is_none());
    }

    #[test]
    fn help_opens_and_closes() {
        let mut a = two_turns();
        update(&mut a, Action::Help);
        assert_eq!(a.mode, Mode::Help);
        update(&mut a, Action::Back);
        assert_eq!(a.mode, Mode::Normal);
        update(&mut a, Action::Quit);
        assert!(a.should_quit);
    }

    #[test]
    fn nav_selection_scopes_the_timeline() {
        let mut a = two_turns();
        let all = a.visible.len();
        a.focus = Focus::Nav;
        update(&mut a, Action::Bottom);
        assert_eq!(a.scope.turn, Some(1));
        assert!(a.visible.len() < all);
        update(&mut a, Action::Back);
        assert_eq!(a.scope.turn, None);
    }

    #[test]
    fn mouse_click_selects_the_row_under_the_pointer() {
        let mut a = two_turns();
        a.viewport = crate::app::Viewport { width: 140, height: 40, list_rows: 33, inspector_rows: 33, nav_rows: 33 };
        let areas = crate::app::layout::areas(140, 40, &a);
        // Third content row of the timeline panel.
        update(&mut a, Action::ClickAt { column: areas.list.x + 3, row: areas.list.y + 3 });
        assert_eq!(a.focus, Focus::List);
        assert_eq!(a.lists.timeline.selected, 2);
        update(&mut a, Action::ScrollAt { column: areas.list.x + 3, row: areas.list.y + 3, down: true });
        assert_eq!(a.lists.timeline.selected, 5);
        update(&mut a, Action::ClickAt { column: areas.tab_spans[2].0 + 1, row: areas.tabs.y });
        assert_eq!(a.tab, Tab::Hitl);
    }

    #[test]
    fn waiting_jump_and_copy() {
        let mut a =
            app(json!({"events":[{"type":"input.requested","request":{"id":"r","prompt":"ok?"}}],"status":"waiting"}));
        update(&mut a, Action::NextWaiting);
        let row = a.selected_row().unwrap();
        assert_eq!(a.view().unwrap().timeline.rows[row].kind, RowKind::InputRequest);
        update(&mut a, Action::ToggleRaw);
        update(&mut a, Action::Copy);
        assert!(matches!(a.effects.last(), Some(Effect::Copy(t)) if t.contains("ok?")));
    }
}
