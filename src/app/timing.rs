//! The Timing tab's rows (the view's waterfall rows, for the attempt shown)
//! and what opens or closes them; and the fix prompt pinned above the
//! Assertions list.

use super::App;
use crate::view::waterfall::{Expand, Row, rows};
use std::collections::HashSet;

/// A row of the Assertions list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssertionRow {
    /// Where the failure began: a link of the chain, pinned first.
    Began(crate::view::first_failure::BeganRow),
    /// The fix prompt, pinned first when the attempt has one.
    FixPrompt,
    /// An assertion (index into the attempt's).
    Assertion(usize),
}

impl App {
    /// The waterfall rows of the attempt shown.
    pub fn timing_rows(&self) -> &[Row] {
        &self.timing_rows
    }

    /// Rebuild the rows after a scope change, a reload or a toggle.
    pub(super) fn rebuild_timing(&mut self) {
        let attempt = self.scope.attempt;
        let none = HashSet::new();
        let toggled = self.timing_toggled.get(&attempt).unwrap_or(&none);
        self.timing_rows = match self.views.get(attempt) {
            Some(v) => rows(&v.timing, Expand { toggled, all_folds: false }),
            None => Vec::new(),
        };
        let rows = self.viewport.list_rows;
        self.lists.timing.clamp(self.timing_rows.len(), rows);
    }

    /// Open or close the selected row (a node with children, or a fold).
    /// Returns whether it could be.
    pub fn toggle_timing(&mut self) -> bool {
        let Some(row) = self.timing_rows.get(self.lists.timing.selected).filter(|r| r.expandable) else {
            return false;
        };
        let key = row.key.clone();
        let set = self.timing_toggled.entry(self.scope.attempt).or_default();
        if !set.remove(&key) {
            set.insert(key);
        }
        self.rebuild_timing();
        true
    }

    /// The fix prompt of the attempt shown, or why it has none.
    pub fn fix_prompt(&self) -> Result<String, &'static str> {
        match (self.attempt(), self.view()) {
            (Some(a), Some(v)) => crate::view::fix_prompt::compose(a, &v.summary),
            _ => Err("nothing is shown"),
        }
    }

    /// Rows above the assertions in the Assertions list (where the failure
    /// began, then the fix prompt).
    pub fn assertion_offset(&self) -> usize {
        self.began_rows().len() + usize::from(self.fix_prompt().is_ok())
    }

    /// What row `at` of the Assertions list is.
    pub fn assertion_at(&self, at: usize) -> Option<AssertionRow> {
        if let Some(row) = self.began_rows().get(at) {
            return Some(AssertionRow::Began(*row));
        }
        let offset = self.assertion_offset();
        if at < offset {
            return Some(AssertionRow::FixPrompt);
        }
        self.assertion_rows().get(at - offset).map(|&i| AssertionRow::Assertion(i))
    }
}
