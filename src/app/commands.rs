//! Commands on the selection and the lists' modes: copy, the pager, the
//! merge of lifecycle rows, the attempts' and tools' filters and the sort.

use super::{App, Effect, ListState, ToolFilter, VerdictFilter};
use crate::view::note::Note;

/// The most bytes `y` sends over OSC 52: terminals and multiplexers cut or
/// drop longer sequences, and a value of many megabytes stalls the terminal.
pub const COPY_AT_MOST: usize = 100_000;

impl App {
    /// `y`: the selected value over OSC 52, at most [`COPY_AT_MOST`] bytes.
    pub(super) fn copy_selected(&mut self) {
        let Some((_, text)) = super::selection::selected_value(self) else {
            return self.say(Note::NothingToCopy);
        };
        self.copy_text(text);
    }

    /// Copy `text` over OSC 52, sanitised (see [`handed_out`]) and cut at
    /// [`COPY_AT_MOST`] bytes (the flash says both).
    pub(super) fn copy_text(&mut self, text: String) {
        let (mut text, replaced) = handed_out(&text);
        let n = text.chars().count();
        if text.len() <= COPY_AT_MOST {
            self.effects.push(Effect::Copy(text));
            return self.say(Note::Copied { chars: n, replaced });
        }
        let mut cut = COPY_AT_MOST;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        let copied = text.chars().count();
        self.effects.push(Effect::Copy(text));
        self.say(Note::CopiedPart { copied, of: n, at_most_kb: COPY_AT_MOST / 1000, replaced });
    }

    /// `o`: the selected value in $PAGER.
    pub(super) fn page_selected(&mut self) {
        match super::selection::selected_value(self) {
            Some((_, text)) => self.page_text(&text),
            None => self.say(Note::NothingToOpen),
        }
    }

    /// Show `text` in $PAGER, sanitised as a copy is (the flash says what was replaced).
    pub(super) fn page_text(&mut self, text: &str) {
        let (text, replaced) = handed_out(text);
        self.effects.push(Effect::Page(text));
        if replaced > 0 {
            self.say(Note::Paged { replaced });
        }
    }

    /// `m`: merged lifecycle rows or every raw event, keeping the selection.
    pub(super) fn toggle_merge(&mut self) {
        let current = self.selected_row();
        self.merge = !self.merge;
        self.rebuild_visible();
        if let Some(row) = current {
            self.select_row(row);
        }
        self.say(Note::Merged(self.merge));
    }

    /// `f` in the attempts list: all, to review, passed.
    pub(super) fn cycle_verdict_filter(&mut self) {
        self.verdict_filter = match self.verdict_filter {
            VerdictFilter::All => VerdictFilter::Failing,
            VerdictFilter::Failing => VerdictFilter::Passed,
            VerdictFilter::Passed => VerdictFilter::All,
        };
        self.rebuild_nav();
        self.nav_state = ListState::default();
        let shown = self.nav.iter().filter(|n| n.depth == 0).count();
        self.say(Note::AttemptsFilter { filter: self.verdict_filter, shown });
    }

    /// `f` elsewhere: the tools by status.
    pub(super) fn cycle_tool_filter(&mut self) {
        self.tool_filter = match self.tool_filter {
            ToolFilter::All => ToolFilter::Failed,
            ToolFilter::Failed => ToolFilter::Pending,
            ToolFilter::Pending => ToolFilter::Problems,
            ToolFilter::Problems => ToolFilter::All,
        };
        self.rebuild_tool_rows();
        self.lists.tools = ListState::default();
        self.say(Note::ToolsFilter(self.tool_filter));
    }

    /// `s`: tools by position or by name.
    pub(super) fn toggle_tool_sort(&mut self) {
        self.tool_sort_by_name = !self.tool_sort_by_name;
        self.rebuild_tool_rows();
        self.say(Note::ToolsSorted { by_name: self.tool_sort_by_name });
    }
}

/// Text as it leaves the viewer for the clipboard or the pager: every
/// character the screen replaces (C0 and C1 controls, so every escape
/// sequence's ESC, DEL, bidi and other format characters) replaced by the
/// screen's placeholder; newlines and tabs kept, a CR before a newline
/// dropped. Also how many characters were replaced.
pub fn handed_out(text: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut replaced = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' if chars.peek() == Some(&'\n') => {}
            _ => match crate::model::text::placeholder(c) {
                Some(p) => {
                    replaced += 1;
                    out.push_str(&p);
                }
                None => out.push(c),
            },
        }
    }
    (out, replaced)
}
