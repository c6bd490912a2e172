//! Styled text, the unit every surface draws: spans of words with a
//! semantic tone. The view decides the words and the tone; a renderer
//! (`plain`: SGR codes or none, `ui`: the theme's styles) decides the look.
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through [`clean`] (or `model::text::sanitize`).

use crate::model::text::{self, Lines};

/// Semantic tone of a span. Colour is only a second channel: every tone is
/// always accompanied by a word or mark that carries the meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tone {
    #[default]
    Plain,
    /// Passed, matched, completed.
    Good,
    /// Failed, mismatched, errors.
    Bad,
    /// Errored, unavailable, rejected, warnings.
    Warn,
    /// Secondary text: missing values, metadata.
    Soft,
    /// Locators, keys, links.
    Accent,
    /// Titles and totals.
    Bold,
    /// Waiting for a human.
    Hitl,
    /// Started, not finished.
    Pending,
    /// Text a diff removed (expected, not received): bad, and struck out where a screen can.
    Removed,
    /// Text a diff added (received, not expected): good, and underlined where a screen can.
    Added,
    /// The colours a file's own SGR codes gave the text (tool output).
    Ansi(crate::model::sgr::Sgr),
    /// The colour lane of a timeline row kind ([`Lane`]).
    Lane(Lane),
    /// One of five categorical colours (a waterfall bar's kind); none is red.
    Series(u8),
}

/// The colour lane of a timeline row kind: which kinds share a colour and
/// which stand out, decided once (`view::timeline::kind_lane`) for every
/// surface; each renderer's palette gives a lane its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The runner's input and the user's messages (bold).
    User,
    Assistant,
    /// Tool calls and skills.
    Tool,
    Subagent,
    /// An input request: waiting for a human.
    Hitl,
    /// Thinking: secondary and slanted.
    Thinking,
    Context,
    Compaction,
    Error,
    /// An event kept as written: the error colour, slanted.
    Unrecognized,
}

/// Text from a file, line by line, each line as a [`Text`] in `tone`; SGR
/// colour codes in it become the tone of the text they cover (a colour
/// goes on across lines until reset), every other control is made visible.
pub fn body_lines(s: &str, tone: Tone, each: &mut dyn FnMut(Text)) {
    let mut style = crate::model::sgr::Sgr::default();
    for line in s.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let (runs, end) = crate::model::sgr::runs(line, style);
        style = end;
        let mut t = Text::new();
        for (run, sgr) in runs {
            let run_tone = if sgr.is_plain() { tone } else { Tone::Ansi(sgr) };
            t.push(text::sanitize(run, Lines::Multi).into_owned(), run_tone);
        }
        each(t);
    }
}

/// Input text made safe for one line.
pub fn clean(s: &str) -> String {
    text::sanitize(s, Lines::Single).into_owned()
}

/// [`clean`] of a string made for the purpose: kept, not copied, when it is
/// safe. Every span of a [`Text`] goes through it, so a span is measured as
/// what a renderer writes: a control or zero-width character cannot make the
/// drawn line wider than the measured one.
pub fn clean_owned(s: String) -> String {
    match text::sanitize(&s, Lines::Single) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(safe) => safe,
    }
}

/// A line of styled spans. Widths are display widths, per grapheme cluster;
/// every span boundary is a cluster boundary (see [`Text::push`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text {
    /// Drawable by construction (see [`clean_owned`]): only the view layer
    /// makes spans, so renderers write them as they are.
    pub(super) spans: Vec<(String, Tone)>,
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// Trusted text (our own words); input-derived text must be [`clean`]ed first.
    pub fn plain(s: impl Into<String>) -> Text {
        Text::toned(s, Tone::Plain)
    }

    pub fn toned(s: impl Into<String>, tone: Tone) -> Text {
        Text { spans: vec![(clean_owned(s.into()), tone)] }
    }

    /// Add a span; one that would continue the last span's final cluster
    /// (a skin tone, a combining mark) joins that span instead.
    pub fn push(&mut self, s: impl Into<String>, tone: Tone) -> &mut Self {
        self.push_drawable(clean_owned(s.into()), tone);
        self
    }

    pub fn with(mut self, s: impl Into<String>, tone: Tone) -> Text {
        self.push(s, tone);
        self
    }

    pub fn append(&mut self, other: Text) {
        // Another Text's spans are drawable already: only the cluster join is checked.
        for (s, tone) in other.spans {
            self.push_drawable(s, tone);
        }
    }

    /// [`Text::push`] of a span already made by [`clean_owned`].
    pub(super) fn push_drawable(&mut self, s: String, tone: Tone) {
        if s.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some((last, _)) if crate::model::text::continues_cluster(last, &s) => last.push_str(&s),
            _ => self.spans.push((s, tone)),
        }
    }

    /// The spans, each already drawable: a renderer writes them as they are.
    pub fn spans(&self) -> &[(String, Tone)] {
        &self.spans
    }

    /// The tone of the first span (plain for an empty text).
    pub fn first_tone(&self) -> Tone {
        self.spans.first().map(|(_, tone)| *tone).unwrap_or_default()
    }

    pub fn width(&self) -> usize {
        self.spans.iter().map(|(s, _)| text::width(s)).sum()
    }

    pub fn as_plain(&self) -> String {
        self.spans.iter().map(|(s, _)| s.as_str()).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.iter().all(|(s, _)| s.is_empty())
    }

    /// Pad with spaces to `width` columns (never cuts).
    pub fn pad_to(&self, width: usize) -> Text {
        self.clone().pad_into(width)
    }

    /// [`Text::pad_to`] of an owned text, without a copy.
    pub fn pad_into(mut self, width: usize) -> Text {
        let w = self.width();
        if w < width {
            self.push_drawable(" ".repeat(width - w), Tone::Plain);
        }
        self
    }

    /// `indent` (plain spaces) and then this text: what `Text::plain(indent).with_text(self)`
    /// gives, without building the line again when it starts with a character
    /// no space can join (a combining mark after a space would).
    pub fn indented(mut self, indent: &'static str) -> Text {
        match self.spans.first() {
            Some((s, _)) if s.starts_with(|c: char| c.is_ascii()) => {
                self.spans.insert(0, (indent.to_string(), Tone::Plain));
                self
            }
            _ => Text::plain(indent).with_text(self),
        }
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::plain(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::plain(s)
    }
}

impl Text {
    pub fn with_text(mut self, other: Text) -> Text {
        self.append(other);
        self
    }
}
