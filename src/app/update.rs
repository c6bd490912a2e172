//! `update(&mut App, Action)`: the one place UI state changes. Keys,
//! clicks, the terminal's size, a search's steps, background loads and
//! reloads all arrive here as actions.

use super::rows::RowNumbers;
use super::scope::set_scope;
use super::{Action, App, Effect, Focus, Intent, JumpTo, ListState, Mode, Panel, Scope};
use crate::view::note::{Cleared, Note, Sought};

/// Apply `action` (an [`Action`], or a key's [`Intent`]); what the terminal
/// is to do (copy, page, redraw) is returned.
pub fn update(app: &mut App, action: impl Into<Action>) -> Vec<Effect> {
    let focus = app.focus;
    apply(app, action.into());
    if app.focus != focus {
        // The stacked layout depends on focus.
        resize(app, app.viewport.width, app.viewport.height);
    }
    std::mem::take(&mut app.effects)
}

fn apply(app: &mut App, action: Action) {
    // A source's document or progress: the flash and the mode stay.
    if app.source_action(&action) {
        return;
    }
    // The terminal's own: the flash and the mode stay.
    match action {
        Action::Resize { width, height } => return resize(app, width, height),
        Action::SearchStep => return app.search_step(),
        Action::PagerFailed { program, why } => return app.say(Note::PagerFailed { program, why }),
        Action::SuspendRefused => return app.say(Note::SuspendRefused),
        _ => {}
    }
    // The flash message lives until the next key.
    if !matches!(action, Action::ScrollAt { .. }) {
        app.flash = None;
    }
    // The matrix and the split view have keys of their own (help is shared).
    if app.mode == Mode::Normal && app.compare_screen().is_some() {
        return super::compare::key(app, action);
    }
    let turn_jump = app.before_turn_jump.take();
    let before = app.place();
    match app.mode {
        Mode::Search => {
            search_key(app, action);
            return app.record_jump(before);
        }
        Mode::Help => return help_key(app, action),
        Mode::Normal => {}
    }
    let intent = match action {
        Action::Intent(intent) => intent,
        Action::Focus(focus) => return app.focus = focus,
        Action::Scope(scope) => return set_scope(app, scope),
        Action::ShowRow(row) => return app.select_row(row),
        Action::SelectRow(n) => return select_row(app, n),
        Action::ScrollAt { column, row, down } => return mouse_scroll(app, column, row, down),
        Action::ClickAt { column, row } => return mouse_click(app, column, row),
        Action::DebugPanic if app.debug_keys() => {
            panic!("panic requested with the debug key (NICEEVAL_DEBUG_PANIC_KEY)")
        }
        _ => return,
    };
    let jump = is_jump(intent);
    normal_key(app, intent, turn_jump);
    if jump {
        app.record_jump(before);
    }
}

/// Select the open list's `n`-th row (the last, past its end).
fn select_row(app: &mut App, n: usize) {
    app.list_mut().selected = n;
    clamp_list(app);
    app.inspector_scroll = 0;
}

/// Size the panels for a terminal of `width`×`height`.
fn resize(app: &mut App, width: u16, height: u16) {
    app.viewport = crate::app::layout::viewport(width, height, app);
    clamp_list(app);
    let nav_len = app.nav.len();
    app.nav_state.clamp(nav_len, app.viewport.nav_rows);
    app.clamp_compare();
}

/// Moves the jump list remembers where they left from.
fn is_jump(intent: Intent) -> bool {
    matches!(
        intent,
        Intent::Enter
            | Intent::NextFailure
            | Intent::PrevFailure
            | Intent::NextWaiting
            | Intent::NextFinding
            | Intent::PrevFinding
            | Intent::PrevTurn
            | Intent::NextTurn
            | Intent::SearchNext
            | Intent::SearchPrev
            | Intent::Top
            | Intent::Bottom
            | Intent::ToSource
    )
}

fn normal_key(app: &mut App, action: Intent, turn_jump: Option<(ListState, bool)>) {
    if let Some(delta) = super::motion::movement(action, page(app) as isize) {
        return move_by(app, delta);
    }
    match action {
        Intent::Quit => app.should_quit = true,
        Intent::Up
        | Intent::Down
        | Intent::PageUp
        | Intent::PageDown
        | Intent::HalfPageUp
        | Intent::HalfPageDown
        | Intent::Top
        | Intent::Bottom => {}
        Intent::PrevTurn | Intent::NextTurn => {
            app.before_turn_jump = Some((app.lists.timeline, action == Intent::NextTurn));
            jump_turn(app, action == Intent::NextTurn);
        }
        Intent::FocusNext | Intent::FocusPrev => {
            let order = [Focus::Nav, Focus::List, Focus::Inspector];
            let i = order.iter().position(|f| *f == app.focus).unwrap_or(1);
            let step = if action == Intent::FocusNext { 1 } else { order.len() - 1 };
            app.focus = order[(i + step) % order.len()];
        }
        Intent::ShowTab(Panel::Translation) if app.provenance().is_none() => app.say(Note::NoNativeLines),
        Intent::ShowTab(Panel::Source) if !app.has_source() => app.say(Note::NoSource),
        Intent::ShowTab(Panel::Commands) if !app.has_commands() => app.say(Note::NoCommands),
        Intent::ShowTab(tab) => {
            app.tab = tab;
            app.inspector_scroll = 0;
            if app.focus == Focus::Inspector {
                app.focus = Focus::List;
            }
            clamp_list(app);
        }
        Intent::Enter => super::enter::enter(app),
        Intent::ToSource => app.go_to_source(),
        Intent::Back => back(app),
        Intent::SearchStart => app.open_search(),
        Intent::SearchNext | Intent::SearchPrev => app.next_match(action == Intent::SearchNext),
        Intent::NextFailure if app.tab != Panel::Timeline || app.focus != Focus::List => first_failure(app),
        Intent::NextFailure | Intent::PrevFailure => jump_failure(app, action == Intent::NextFailure),
        Intent::NextWaiting => jump_waiting(app),
        Intent::NextFinding | Intent::PrevFinding => {
            let mut forward = action == Intent::NextFinding;
            // `]d` / `[d`: the bracket moved a turn; start from where it was.
            if action == Intent::NextFinding
                && let Some((saved, next)) = turn_jump
            {
                app.lists.timeline = saved;
                forward = next;
            }
            jump_finding(app, forward);
        }
        Intent::ToggleRaw => {
            app.raw = !app.raw;
            app.inspector_scroll = 0;
        }
        Intent::ToggleMerge => app.toggle_merge(),
        Intent::CycleFilter if app.focus == Focus::Nav && app.doc.attempts.len() > 1 => app.cycle_verdict_filter(),
        Intent::CycleFilter => app.cycle_tool_filter(),
        Intent::CycleSort => app.toggle_tool_sort(),
        Intent::Copy => app.copy_selected(),
        Intent::OpenPager => app.page_selected(),
        Intent::Help => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Intent::FollowBottom => {
            app.tab = Panel::Timeline;
            move_by(app, isize::MAX / 2);
            // A file read once never grows here: `F` goes to its end and says it cannot follow.
            app.follow = app.live;
            app.say(Note::Follow { live: app.live });
        }
        Intent::Redraw => app.effects.push(Effect::Redraw),
        Intent::ToggleFold => app.toggle_fold(),
        Intent::FoldAll => app.fold_all(true),
        Intent::UnfoldAll => app.fold_all(false),
        Intent::NavNarrower | Intent::NavWider => app.resize_nav(action == Intent::NavWider),
        // Compare-screen keys; in the viewer `v` is where it already is.
        Intent::CellLeft | Intent::CellRight | Intent::Mark | Intent::ViewAttempt => {}
        Intent::JumpBack => app.jump_back(),
        Intent::JumpForward => app.jump_forward(),
        // Keys of the prompt, handled in `search_key`.
        Intent::SearchBackspace | Intent::SearchCommit | Intent::SearchCancel | Intent::SearchToggleRegex => {}
    }
}

/// `e` from a review tab: the earliest failing evidence in the transcript.
fn first_failure(app: &mut App) {
    // No failing row in scope: an errored attempt's reason is where `e` goes.
    if first_from(app, JumpTo::Failure, 0).is_none() && app.jump_to_cause(false) {
        return;
    }
    app.tab = Panel::Timeline;
    app.focus = Focus::List;
    app.lists.timeline = ListState::default();
    let first_is_failure =
        app.view().is_some_and(|v| app.visible().first().is_some_and(|&r| v.timeline.rows[r as usize].is_failure()));
    if !first_is_failure {
        jump_failure(app, true);
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

pub(super) fn step(index: usize, delta: isize, len: usize) -> usize {
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
            if app.tab == Panel::Timeline && delta < 0 {
                app.follow = false;
            }
        }
        Focus::Inspector => {
            let max = app.inspector_extent();
            let from = app.inspector_scroll.min(max) as isize;
            app.inspector_scroll = (from.saturating_add(delta).max(0) as usize).min(max);
        }
    }
}

fn jump_turn(app: &mut App, forward: bool) {
    let target = app.selected_row().and_then(|current| {
        if forward { next_after(app, JumpTo::Turn, current) } else { last_before(app, JumpTo::Turn, current) }
    });
    // Turn headers are never folded away.
    match target.and_then(|row| app.visible().position(row).ok()) {
        Some(i) => {
            app.tab = Panel::Timeline;
            app.lists.timeline.selected = i;
            // Show the turn header at the top.
            app.lists.timeline.offset = i;
            let rows = app.viewport.list_rows;
            app.lists.timeline.clamp(app.visible().len(), rows);
        }
        None => app.say(if forward { Note::LastTurn } else { Note::FirstTurn }),
    }
}

/// The first `to` row in scope at or after timeline row `row`, folded
/// turns included (binary searches: jump keys never walk the rows).
fn first_from(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    let targets = app.jump_rows(to);
    let last = *app.scope_rows().last()? as usize;
    let from = targets.partition_point(|&r| (r as usize) < row);
    let mut after = targets[from..].iter().map(|&r| r as usize).take_while(|&r| r <= last);
    after.find(|&r| app.scope_rows().holds(r))
}

/// The last `to` row in scope at or before timeline row `row`.
fn last_to(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    let targets = app.jump_rows(to);
    let first = *app.scope_rows().first()? as usize;
    let end = targets.partition_point(|&r| (r as usize) <= row);
    let mut before = targets[..end].iter().rev().map(|&r| r as usize).take_while(|&r| r >= first);
    before.find(|&r| app.scope_rows().holds(r))
}

fn next_after(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    first_from(app, to, row.checked_add(1)?)
}

fn last_before(app: &App, to: JumpTo, row: usize) -> Option<usize> {
    last_to(app, to, row.checked_sub(1)?)
}

fn back(app: &mut App) {
    if app.focus == Focus::Nav && app.nav_query.is_some() {
        app.nav_query = None;
        app.rebuild_nav();
        app.say(Note::Cleared(Cleared::Attempts));
        return;
    }
    if app.focus == Focus::Inspector && app.inspector_search.is_some() {
        app.inspector_search = None;
        app.say(Note::Cleared(Cleared::Inspector));
    } else if app.focus == Focus::Inspector {
        app.focus = Focus::List;
    } else if app.focus == Focus::List && app.tab == Panel::Tools && app.tool_query.is_some() {
        app.tool_query = None;
        app.rebuild_tool_rows();
        app.say(Note::Cleared(Cleared::Tools));
    } else if app.search.query.is_some() {
        (app.search.query, app.search.scan) = (None, None);
        app.search.matches.clear();
        app.say(Note::Cleared(Cleared::Search));
    } else if app.scope.turn.is_some() || app.scope.session.is_some() {
        let s = app.scope;
        let parent = if s.turn.is_some() { Scope { turn: None, ..s } } else { Scope { session: None, ..s } };
        set_scope(app, parent);
        app.sync_nav_to_scope();
    } else if app.focus == Focus::List {
        app.focus = Focus::Nav;
    } else {
        // At the top of the viewer opened from a comparison: back to it.
        app.back_to_compare();
    }
}

fn search_key(app: &mut App, action: Action) {
    let intent = match action {
        Action::SearchChar(c) => {
            app.search.input.push(c);
            return app.search_typed();
        }
        Action::Intent(intent) => intent,
        _ => return,
    };
    match intent {
        Intent::SearchBackspace => {
            app.search.input.pop();
            app.search_typed();
        }
        Intent::SearchToggleRegex => app.toggle_search_regex(),
        Intent::SearchCancel => app.cancel_search(),
        Intent::SearchCommit => app.keep_search(),
        Intent::Quit => app.should_quit = true,
        _ => {}
    }
}

fn help_key(app: &mut App, action: Action) {
    let Action::Intent(intent) = action else { return };
    match intent {
        Intent::Back => app.mode = Mode::Normal,
        Intent::Quit => app.should_quit = true,
        Intent::Help => app.mode = Mode::Normal,
        other => {
            let page = app.viewport.height.saturating_sub(4).max(1) as isize;
            let Some(delta) = super::motion::movement(other, page) else { return };
            let max = super::help::extent(app.viewport.width, app.viewport.height);
            let from = app.help_scroll.min(max) as isize;
            app.help_scroll = (from.saturating_add(delta).max(0) as usize).min(max);
        }
    }
}

/// Select the next (or previous) `to` row in scope after the selection,
/// wrapping around to the selection itself.
fn jump_where(app: &mut App, forward: bool, what: Sought, to: JumpTo) {
    let Some(current) = app.selected_row() else {
        app.say(Note::NoneInScope(what));
        return;
    };
    // Past the last one, wrap around (back to the selection itself at worst).
    let found = if forward {
        next_after(app, to, current).or_else(|| first_from(app, to, 0))
    } else {
        last_before(app, to, current).or_else(|| last_to(app, to, usize::MAX))
    };
    match found {
        Some(row) => {
            app.select_row(row);
            app.focus = Focus::List;
        }
        None => app.say(Note::NoneInScope(what)),
    }
}

fn jump_failure(app: &mut App, forward: bool) {
    // Past the last failing row (or with none), an errored attempt's reason comes next.
    let none = first_from(app, JumpTo::Failure, 0).is_none();
    let past_last = none || app.selected_row().is_none_or(|r| forward && next_after(app, JumpTo::Failure, r).is_none());
    if past_last && app.jump_to_cause(!none) {
        return;
    }
    jump_where(app, forward, Sought::Failures, JumpTo::Failure);
}

fn jump_waiting(app: &mut App) {
    jump_where(app, true, Sought::Waiting, JumpTo::Waiting);
}

fn jump_finding(app: &mut App, forward: bool) {
    if app.jump_rows(JumpTo::Finding).is_empty() {
        app.say(Note::NoFindings);
        return;
    }
    jump_where(app, forward, Sought::Findings, JumpTo::Finding);
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
        return apply(app, Intent::ShowTab(tab).into());
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
#[path = "update_tests.rs"]
mod tests;
