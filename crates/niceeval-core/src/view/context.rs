//! What every section and inspector page of one attempt reads: the
//! document, the attempt and its view, the selection, and the attempt's
//! findings. `show` makes one per attempt; the viewer makes one for the
//! inspector (always `full`: it scrolls).

use super::address::TurnSelector;
use super::attempt::AttemptView;
use super::blocks::Block;
use super::format::number;
use super::preview::value_preview;
use super::text::{Text, Tone, clean, clean_owned};
use super::verdict::row_status_text;
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::Finding;
use crate::model::document::{Attempt, Document};
use crate::model::occurrence::{Lifecycle, Occurrence};
use crate::model::timeline::{RowStatus, finish_status, tool_status_in};
use serde_json::Value;

/// Rows and turns to show.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub session: Option<u64>,
    pub turn: Option<TurnSelector>,
    /// Attempt locator, with or without the leading `@`.
    pub locator: Option<String>,
    pub grep: Option<regex::Regex>,
    /// Whole payloads (pretty JSON) instead of cut one-line previews.
    pub full: bool,
    /// No table is drawn wider than this, when the renderer knows it (text
    /// is; a screen is resized). Rows are then measured only as far as
    /// their widths can change the layout.
    pub widest: Option<usize>,
    /// How independent parts are spread over threads (the renderer that
    /// has cores to spare gives `analysis::parallel::SPREAD`).
    pub spread: crate::model::spread::Spread,
    /// `--source=FILE`: only the recorded source file this names.
    pub source_file: Option<String>,
    /// `--diff=PATH`: only the file change at this path.
    pub diff_path: Option<String>,
    /// `--timing=full`: every interval's id, offsets and parent as well.
    pub timing_full: bool,
    /// Colours the eval source's code by its syntax (a renderer that draws colour gives one).
    pub highlight: Option<super::highlight::Highlighter>,
}

impl Selection {
    pub fn session_index(&self) -> Option<u64> {
        self.session.or(self.turn.as_ref().and_then(TurnSelector::session))
    }

    /// Whether an attempt with this locator is selected (`@` optional on both).
    pub fn locator_matches(&self, locator: Option<&str>) -> bool {
        match &self.locator {
            None => true,
            Some(want) => {
                let want = want.strip_prefix('@').unwrap_or(want);
                locator.is_some_and(|l| l.strip_prefix('@').unwrap_or(l) == want)
            }
        }
    }
}

/// Everything a section needs to draw one attempt.
pub struct Ctx<'a> {
    pub doc: &'a Document,
    pub attempt: &'a Attempt,
    pub index: usize,
    pub derived: &'a DerivedAttempt,
    /// Requests, timeline rows, badges: built once for every surface.
    pub view: &'a AttemptView,
    pub sel: &'a Selection,
    /// Every finding of the document; [`Ctx::findings`] keeps this
    /// attempt's, picked out only when a section asks (a `show` of many
    /// row blocks makes a context per block, and most never ask).
    all_findings: &'a [Finding],
    findings: std::sync::OnceLock<Vec<&'a Finding>>,
}

/// Previews outside `--full` keep this many characters (then say how many more).
pub const COMPACT_CHARS: usize = 160;

impl<'a> Ctx<'a> {
    /// The context of attempt `index`, with the findings about it.
    pub fn of(
        doc: &'a Document,
        views: &'a [AttemptView],
        findings: &'a [Finding],
        sel: &'a Selection,
        index: usize,
    ) -> Option<Self> {
        let (attempt, view) = (doc.attempts.get(index)?, views.get(index)?);
        Some(Ctx {
            doc,
            attempt,
            index,
            derived: &view.derived,
            view,
            sel,
            all_findings: findings,
            findings: std::sync::OnceLock::new(),
        })
    }

    /// The findings about this attempt.
    pub fn findings(&self) -> &[&'a Finding] {
        self.findings.get_or_init(|| self.all_findings.iter().filter(|f| f.location.attempt() == self.index).collect())
    }

    /// The contexts of the attempts `sel` chooses, in document order.
    pub fn selected(
        doc: &'a Document,
        views: &'a [AttemptView],
        findings: &'a [Finding],
        sel: &'a Selection,
    ) -> impl Iterator<Item = Ctx<'a>> + 'a {
        (0..doc.attempts.len().min(views.len()))
            .filter(move |&i| sel.locator_matches(doc.attempts[i].locator.as_deref()))
            .filter_map(move |i| Ctx::of(doc, views, findings, sel, i))
    }

    /// Turn addresses in derive order.
    pub fn addrs(&self) -> impl Iterator<Item = (usize, TurnAddr)> + '_ {
        self.derived.turns.iter().enumerate().map(|(i, t)| (i, t.addr))
    }

    pub fn session_selected(&self, session: usize) -> bool {
        match self.sel.session_index() {
            Some(k) => self.attempt.sessions.get(session).is_some_and(|s| s.index == k),
            None => true,
        }
    }

    pub fn turn_selected(&self, addr: TurnAddr) -> bool {
        self.session_selected(addr.session)
            && self.sel.turn.as_ref().is_none_or(|t| t.matches(self.attempt, self.derived, addr))
    }

    /// Whether `--grep` keeps a thing, `text` being what it is searched
    /// for; the text is made only when there is a pattern.
    pub fn grep<S: AsRef<str>>(&self, text: impl FnOnce() -> S) -> bool {
        self.sel.grep.as_ref().is_none_or(|re| re.is_match(text().as_ref()))
    }

    /// "turn 6 · session2/turn1".
    pub fn turn_title(&self, addr: TurnAddr) -> String {
        super::address::turn_title(self.attempt, self.derived, addr)
    }

    /// The attempt's events as its occurrences' refs address them.
    pub fn events(&self) -> crate::model::derive::AttemptEvents<'a> {
        self.derived.events(self.attempt)
    }

    /// `N:i` of an event of the turn at `addr` (`None`: the input).
    pub fn at(&self, addr: TurnAddr, event: Option<usize>) -> String {
        super::address::event_at(self.derived, addr, event)
    }

    /// A string from a file for one line: whole with `--full`, else cut at
    /// [`COMPACT_CHARS`] with the count of what was left out.
    pub fn line_text(&self, s: &str) -> String {
        if self.sel.full { clean(s) } else { cut_count(&clean(s), COMPACT_CHARS) }
    }

    /// "label  lead" and a payload: its blocks with `--full` (and always in
    /// the viewer), else one line after the lead, cut with a count.
    pub fn field(&self, label: Text, lead: Text, value: &Value) -> Block {
        if self.sel.full {
            return Block::Field { label, lead, value: value.clone() };
        }
        let mut line = lead;
        if !line.is_empty() {
            line.push(" · ", Tone::Soft);
        }
        line.push(cut_count(&one_line_value(value), COMPACT_CHARS), Tone::Plain);
        Block::Kv(label, line)
    }
}

/// Compact one-line JSON (strings as they are), sanitized.
pub fn one_line_value(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "\"\" (empty string)".into(),
        other => clean_owned(value_preview(other)),
    }
}

/// Cut to `limit` characters, stating how many were left out.
pub fn cut_count(s: &str, limit: usize) -> String {
    let n = s.chars().count();
    if n <= limit {
        return s.to_string();
    }
    let head: String = s.chars().take(limit).collect();
    let more = n - limit;
    format!("{head}… ({} more character{})", number(more as f64), if more == 1 { "" } else { "s" })
}

/// A finish status as written, with its mark (`? as written` outside the enum).
pub fn status_text(status: &str) -> Text {
    row_status_text(finish_status(status), Some(status))
}

/// A tool lifecycle in `a` with its mark and word; an opaque lifecycle of
/// an id reused while open reads `? ambiguous`; a start a Record keeps no
/// finish for reads `? finish not recorded`.
pub fn lifecycle_text(a: &Attempt, o: &Occurrence) -> Text {
    match &o.lifecycle {
        Lifecycle::Opaque { .. } if o.ambiguous => row_status_text(RowStatus::Ambiguous, None),
        Lifecycle::Finished { status, .. } => status_text(status),
        other => row_status_text(tool_status_in(a, other), None),
    }
}
