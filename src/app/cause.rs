//! `e` on an errored attempt: why it errored is no timeline row, so `e`
//! goes where that reason is listed (an execution error in Diagnostics, an
//! undecided required assertion in Assertions) and says it in the status
//! line. What the reason is, and its words, are the view's (`view::errored`).

use super::{App, Focus, Panel};
use crate::view::errored::Cause;

impl App {
    /// Show why the attempt in view errored; false when it did not error,
    /// or when its reason is nowhere to go and `rows` (failing timeline
    /// rows in scope) are, so `e` keeps cycling through them.
    pub(super) fn jump_to_cause(&mut self, rows: bool) -> bool {
        let Some(why) = self.view().and_then(|v| v.summary.why.clone()) else { return false };
        let target = match why.cause {
            Cause::Execution(i) => Some((Panel::Diagnostics, self.finding_rows().len() + i)),
            Cause::Assertion(i) => self
                .assertion_rows()
                .iter()
                .position(|&r| r == i)
                .map(|p| (Panel::Assertions, self.assertion_offset() + p)),
            Cause::NotRecorded => None,
        };
        if target.is_none() && rows {
            return false;
        }
        if let Some((tab, row)) = target {
            self.tab = tab;
            self.focus = Focus::List;
            self.inspector_scroll = 0;
            self.list_mut().selected = row;
            let (len, rows) = (self.list_len(), self.viewport.list_rows);
            self.list_mut().clamp(len, rows);
        }
        self.say(crate::view::note::Note::Errored(why.jump_note()));
        true
    }
}
