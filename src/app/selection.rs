//! What is selected, in the view's terms: the inspector shows it, `y` copies
//! it, Enter follows it. Built from the tab, the focus and the list state.

use super::{App, Focus, Tab};
use crate::view::context::Ctx;
use crate::view::inspect::Selected;
use crate::view::report::Selection;

impl App {
    /// The selection the inspector shows (the scope while the navigator has focus).
    pub fn selected(&self) -> Option<Selected> {
        if self.focus == Focus::Nav && !self.raw {
            return Some(Selected::Scope { session: self.scope.session, turn: self.scope.turn });
        }
        let at = self.list().selected;
        match self.tab {
            Tab::Timeline => self.selected_row().map(Selected::Row),
            Tab::Tools => self.tool_rows().get(at).map(|r| match r {
                Ok(i) => Selected::Tool(*i),
                Err(i) => Selected::Orphan(*i),
            }),
            Tab::Hitl => self.hitl_rows().get(at).map(|&i| Selected::Request(i)),
            Tab::Usage => Some(Selected::Cost),
            Tab::Assertions => self.assertion_rows().get(at).map(|&i| Selected::Assertion(i)),
            Tab::Diagnostics => {
                let findings = self.finding_rows();
                match findings.get(at) {
                    Some(&(i, _)) => Some(Selected::Finding(i)),
                    None => {
                        let recorded = self.attempt().map(|a| a.review.diagnostics.len()).unwrap_or(0);
                        let i = at - findings.len();
                        (i < recorded).then_some(Selected::Diagnostic(i))
                    }
                }
            }
            Tab::Changes => {
                let n =
                    self.attempt().and_then(|a| a.review.file_changes.as_ref()).map(|f| f.changes.len()).unwrap_or(0);
                (at < n).then_some(Selected::Change(at))
            }
        }
    }

    /// The view's context for the attempt shown (`sel` decides how much a
    /// value shows; the viewer passes a `full` one: it scrolls).
    pub fn context<'a>(&'a self, sel: &'a Selection) -> Option<Ctx<'a>> {
        let index = self.scope.attempt;
        let (attempt, view) = (self.doc.attempts.get(index)?, self.views.get(index)?);
        Some(Ctx {
            doc: &self.doc,
            attempt,
            index,
            derived: &view.derived,
            view,
            sel,
            findings: self.findings.iter().filter(|f| f.location.attempt == index).collect(),
        })
    }
}
