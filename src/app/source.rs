//! What the app keeps per attempt shown, made when the attempt (or the
//! document) changes: the Source tab's rows, where the failure began (the
//! rows above the fix prompt), and each eval file's colours, parsed once
//! when it is first drawn. And the Source tab's jumps: Enter from an
//! assertion line to its assertion, from a send line to its turn, and `t`
//! back from a turn or an assertion to its line. All are jumps (Ctrl-o
//! returns).

use super::timing::AssertionRow;
use super::{App, Focus, ListState, Panel};
use crate::model::TurnAddr;
use crate::view::first_failure::{BeganRow, FirstFailure};
use crate::view::highlight::Spans;
use crate::view::note::Note;
use crate::view::report::Selection;
use crate::view::source_rows::{Leads, SourceRow};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The rows of the attempt shown that depend on the attempt only.
#[derive(Default)]
pub struct AttemptRows {
    /// The (document generation, attempt) they were made for.
    built_for: Option<(u64, usize)>,
    source: Vec<SourceRow>,
    began: Option<FirstFailure>,
    began_rows: Vec<BeganRow>,
    /// Each recorded file's lines as coloured pieces, by its index (`None`: drawn plain).
    colours: RefCell<HashMap<usize, Rc<Option<Vec<Spans>>>>>,
}

impl App {
    /// Make the rows again when the attempt or the document changed.
    pub(super) fn rebuild_attempt_rows(&mut self) {
        let key = (self.generation, self.scope.attempt);
        if self.attempt_rows.built_for == Some(key) {
            return;
        }
        let sel = Selection::default();
        // Where it began is listed above the fix prompt for an attempt with a
        // verdict (a capture has no assertions to lead to).
        let (source, began) = match self.context(&sel) {
            Some(ctx) => {
                let judged = ctx.view.summary.verdict.is_some();
                (crate::view::source_rows::rows(&ctx), judged.then(|| crate::view::first_failure::of(&ctx)).flatten())
            }
            None => (Vec::new(), None),
        };
        let began_rows = began.as_ref().map(crate::view::first_failure::list_rows).unwrap_or_default();
        self.attempt_rows = AttemptRows { built_for: Some(key), source, began, began_rows, ..Default::default() };
    }

    /// The Source tab's rows.
    pub fn source_rows(&self) -> &[SourceRow] {
        &self.attempt_rows.source
    }

    /// Where the attempt shown began to fail, when it is one to review and has a verdict.
    pub fn began(&self) -> Option<&FirstFailure> {
        self.attempt_rows.began.as_ref()
    }

    /// The rows of where it began, above the fix prompt.
    pub fn began_rows(&self) -> &[BeganRow] {
        &self.attempt_rows.began_rows
    }

    /// Recorded file `file`'s lines coloured by its syntax (the no-colour
    /// theme draws them plain), parsed the first time they are asked for.
    pub fn source_colours(&self, file: usize) -> Rc<Option<Vec<Spans>>> {
        if let Some(made) = self.attempt_rows.colours.borrow().get(&file) {
            return made.clone();
        }
        let made = match (self.theme, self.attempt().and_then(|a| a.review.sources.get(file))) {
            (crate::styled::ThemeName::Mono, _) | (_, None) => None,
            (_, Some(f)) => f
                .content
                .as_deref()
                .and_then(|content| crate::styled::syntax::lines(content, crate::view::highlight::syntax_of(&f.path))),
        };
        let made = Rc::new(made);
        self.attempt_rows.colours.borrow_mut().insert(file, made.clone());
        made
    }

    /// Whether the attempt shown records eval source files (the Source tab is shown).
    pub fn has_source(&self) -> bool {
        self.attempt().is_some_and(|a| !a.review.sources.is_empty())
    }

    /// Enter in the Source tab: an assertion line to its assertion, a send
    /// line to the turn it made; a file's header to the inspector.
    pub(super) fn enter_source(&mut self) {
        let Some(row) = self.source_rows().get(self.lists.source.selected) else { return };
        if matches!(row, SourceRow::File { .. }) {
            self.focus = Focus::Inspector;
            return;
        }
        match crate::view::source_rows::leads(row) {
            Leads::Assertion(i) => self.show_assertion(i),
            Leads::Turn(addr) => self.show_turn(addr),
            Leads::UnknownTurn => self.say(Note::SendTurnUnknown),
            Leads::Nowhere => self.say(Note::NothingOnLine),
        }
    }

    /// Select assertion `i` (its index in the attempt's list) in the Assertions tab.
    pub(super) fn show_assertion(&mut self, i: usize) {
        let Some(at) = self.assertion_rows().iter().position(|&x| x == i) else { return };
        self.tab = Panel::Assertions;
        self.focus = Focus::List;
        self.lists.assertions.selected = self.assertion_offset() + at;
        self.clamp_open_list();
    }

    /// Select turn `addr`'s header in the Timeline.
    fn show_turn(&mut self, addr: TurnAddr) {
        match self.view().and_then(|v| v.timeline.by_turn.get(&addr).copied()) {
            Some(row) => {
                self.select_row(row);
                self.focus = Focus::List;
            }
            None => self.say(Note::PositionNotInTimeline),
        }
    }

    /// `t`: from where the selection is to where it came from: a native
    /// log's row to its line (the Translation tab); a turn's row to its send
    /// in the eval source, an assertion to its line (the Source tab).
    pub(super) fn go_to_source(&mut self) {
        if self.tab == Panel::Timeline && self.provenance().is_some() {
            return self.row_to_native_line();
        }
        let target = match (self.tab, self.assertion_at(self.lists.assertions.selected)) {
            (Panel::Assertions, Some(AssertionRow::Assertion(i))) => {
                crate::view::source_rows::row_of_assertion(self.source_rows(), i).ok_or(Note::NoSource)
            }
            (Panel::Timeline, _) => match self.selected_row().and_then(|r| self.view()?.timeline.rows.get(r)) {
                Some(row) => {
                    let addr = row.addr();
                    crate::view::source_rows::row_of_turn(self.source_rows(), addr).ok_or(Note::TurnHasNoSendLine)
                }
                None => Err(Note::NothingSelected),
            },
            // Elsewhere: a native log's lines, as before.
            _ if self.provenance().is_some() => return self.row_to_native_line(),
            _ => Err(Note::NothingSelected),
        };
        match target {
            _ if !self.has_source() && self.provenance().is_none() => self.say(Note::NoSource),
            Ok(at) => {
                self.tab = Panel::Source;
                self.focus = Focus::List;
                self.lists.source = ListState { selected: at, offset: self.lists.source.offset };
                self.inspector_scroll = 0;
                self.clamp_open_list();
                // The line in the middle of the panel, with its context above it.
                let rows = self.viewport.list_rows;
                self.lists.source.offset = at.saturating_sub(rows / 3);
                self.clamp_open_list();
            }
            Err(note) => self.say(note),
        }
    }

    /// Keep the open list's selection inside it and on screen.
    pub(super) fn clamp_open_list(&mut self) {
        let (len, rows) = (self.list_len(), self.viewport.list_rows);
        self.list_mut().clamp(len, rows);
    }
}
