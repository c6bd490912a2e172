//! What the compare screens of `view --compare` hold: which screen is shown,
//! the matrix's cursor and mark, the split view's tab, side and cursors,
//! and the step from either into the usual viewer.

use super::{App, Focus, ListState, Mode, Panel, Scope};
use crate::view::compare::Comparing;
use crate::view::compare::split::Split;
use crate::view::inspect::Selected;

/// Which compare screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Matrix,
    Split,
    /// The usual viewer, on one of the compared attempts.
    Viewer,
}

/// The split view's state: its tab, the side the keys act on, one cursor
/// per tab (both sides move together: the lines are aligned).
#[derive(Debug, Clone)]
pub struct SplitState {
    pub split: Split,
    pub tab: Panel,
    /// 0: before (left), 1: after (right).
    pub side: usize,
    pub lists: [ListState; 4],
    /// The inspector of the side's selection is open (Enter; Esc closes it).
    pub inspector: bool,
}

impl SplitState {
    fn tab_index(&self) -> usize {
        Panel::SPLIT.iter().position(|t| *t == self.tab).unwrap_or(0)
    }

    pub fn list(&self) -> &ListState {
        &self.lists[self.tab_index()]
    }

    pub(super) fn list_mut(&mut self) -> &mut ListState {
        let i = self.tab_index();
        &mut self.lists[i]
    }

    /// What the focused side has selected.
    pub fn selected(&self) -> Option<Selected> {
        self.split.selected(self.tab, self.list().selected, self.side)
    }
}

pub struct CompareState {
    pub comparing: Comparing,
    pub screen: Screen,
    /// The matrix's selected row and scroll.
    pub rows: ListState,
    /// The selected cell's column.
    pub column: usize,
    /// A cell marked with Space: Enter on another opens the two (row, column).
    pub mark: Option<(usize, usize)>,
    pub split: Option<SplitState>,
}

/// Show `attempt` in the usual viewer (on `selected`, when given); Esc at
/// the top comes back to the comparison.
pub(super) fn open_in_viewer(app: &mut App, attempt: usize, selected: Option<Selected>) {
    if let Some(c) = app.compare.as_mut() {
        c.screen = Screen::Viewer;
    }
    app.mode = Mode::Normal;
    super::scope::set_scope(app, Scope { attempt, session: None, turn: None });
    app.sync_nav_to_scope();
    app.focus = Focus::List;
    app.tab = Panel::Timeline;
    match selected {
        Some(Selected::Row(r)) => app.select_row(r),
        Some(Selected::Tool(i)) => {
            app.tab = Panel::Tools;
            let at = app.tool_rows().iter().position(|r| r.get() == Ok(i)).unwrap_or(0);
            app.lists.tools = ListState { selected: at, offset: 0 };
        }
        Some(Selected::Assertion(i)) => {
            app.tab = Panel::Assertions;
            let at = app.assertion_rows().iter().position(|&x| x == i).unwrap_or(0);
            app.lists.assertions = ListState { selected: app.assertion_offset() + at, offset: 0 };
        }
        Some(Selected::Cost) => app.tab = Panel::Usage,
        _ => app.open_first_failure(),
    }
    let rows = app.viewport.list_rows;
    let len = app.list_len();
    app.list_mut().clamp(len, rows);
    // With two sources both sides' attempts can read alike in the viewer: say which side this is.
    let side = app.cv().and_then(|cv| {
        let word = crate::view::compare::side_word(cv.side_of(attempt))?;
        let source = cv.sources.iter().find(|s| s.attempts.contains(&attempt))?;
        Some((word.to_string(), crate::view::clean(&source.paths.join(", "))))
    });
    app.say(crate::view::note::Note::EscBackToComparison { side });
}
