//! The Commands tab's jump: Enter on a sandbox command linked to a timing
//! interval shows that interval in the Timing tab, opening the folds and
//! nodes it is under; and the links of where a failure began, which lead
//! to a row, a command, an assertion or a recorded diagnostic. All are
//! jumps (Ctrl-o returns).

use super::{App, Focus, Panel};
use crate::view::first_failure::{BeganRow, Target};
use crate::view::note::Note;
use crate::view::waterfall::Target as RowTarget;

impl App {
    /// Whether the attempt shown records sandbox commands, or says it ran none.
    pub fn has_commands(&self) -> bool {
        self.attempt().is_some_and(|a| !a.review.commands.is_empty() || a.review.commands_state.is_some())
    }

    /// Enter in the Commands tab: the command's interval in the Timing tab.
    pub(super) fn command_to_timing(&mut self) {
        let number = self.lists.commands.selected + 1;
        let node = self.view().and_then(|v| v.timing.nodes.iter().position(|n| n.command == Some(number)));
        match node {
            Some(n) => self.show_timing_node(n),
            None => self.say(Note::CommandNotTimed),
        }
    }

    /// Select timing node `n` in the Timing tab, opening what hides it.
    pub(super) fn show_timing_node(&mut self, n: usize) {
        // Each pass opens one fold or closed node above `n`; the tree is drawn a bounded depth.
        for _ in 0..=crate::view::waterfall::DEPTH_DRAWN * 2 {
            if let Some(i) = self.timing_rows.iter().position(|r| r.target == RowTarget::Node(n)) {
                self.tab = Panel::Timing;
                self.focus = Focus::List;
                self.lists.timing.selected = i;
                self.inspector_scroll = 0;
                self.clamp_open_list();
                return;
            }
            let Some(view) = self.view() else { return };
            let tree = &view.timing;
            let above = |m: usize| {
                let mut at = Some(n);
                while let Some(x) = at {
                    if x == m {
                        return true;
                    }
                    at = tree.nodes[x].parent;
                }
                false
            };
            let hiding = self.timing_rows.iter().find(|r| match &r.target {
                RowTarget::Fold { nodes, .. } => nodes.iter().any(|&m| above(m)),
                RowTarget::Node(m) => r.expandable && !r.expanded && above(*m),
            });
            let Some(key) = hiding.map(|r| r.key.clone()) else { break };
            // A fold opens when its key is set, a node when its key is cleared.
            let set = self.timing_toggled.entry(self.scope.attempt).or_default();
            if !set.remove(&key) {
                set.insert(key);
            }
            self.rebuild_timing();
        }
        self.say(Note::PositionNotInTimeline);
    }

    /// Enter on a row of where the failure began: where its link leads.
    pub(super) fn follow_began(&mut self, row: BeganRow) {
        let target = match row {
            BeganRow::Link(k) => {
                self.began().and_then(|f| crate::view::first_failure::link(f, k)).and_then(|l| l.target)
            }
            BeganRow::More(_) => {
                let offset = self.assertion_offset();
                self.lists.assertions.selected = offset;
                return self.clamp_open_list();
            }
        };
        match target {
            Some(Target::Row(ri)) => {
                self.select_row(ri);
                self.focus = Focus::List;
            }
            Some(Target::Command(number)) => {
                self.tab = Panel::Commands;
                self.focus = Focus::List;
                self.lists.commands.selected = number.saturating_sub(1);
                self.inspector_scroll = 0;
                self.clamp_open_list();
            }
            Some(Target::Assertion(i)) => self.show_assertion(i),
            Some(Target::Diagnostic(i)) => {
                self.tab = Panel::Diagnostics;
                self.focus = Focus::List;
                self.lists.diagnostics.selected = self.finding_rows().len() + i;
                self.inspector_scroll = 0;
                self.clamp_open_list();
            }
            None => self.say(Note::StepNamesNothing),
        }
    }
}
