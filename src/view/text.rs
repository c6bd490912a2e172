//! Styled text, the unit every surface draws: spans of words with a
//! semantic tone. The view decides the words and the tone; a renderer
//! (`plain`: SGR codes or none, `ui`: the theme's styles) decides the look.
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through [`clean`] (or `model::text::sanitize`).

use crate::model::text::{self, Lines};
use crate::model::timeline::RowKind;

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
    /// The lane of a timeline row kind (a categorical colour).
    Kind(RowKind),
    /// One of five categorical colours (a waterfall bar's kind); none is red.
    Series(u8),
}

/// Input text made safe for one line.
pub fn clean(s: &str) -> String {
    text::sanitize(s, Lines::Single).into_owned()
}

/// A line of styled spans. Widths are display widths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text {
    pub spans: Vec<(String, Tone)>,
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// Trusted text (our own words); input-derived text must be [`clean`]ed first.
    pub fn plain(s: impl Into<String>) -> Text {
        Text { spans: vec![(s.into(), Tone::Plain)] }
    }

    pub fn toned(s: impl Into<String>, tone: Tone) -> Text {
        Text { spans: vec![(s.into(), tone)] }
    }

    pub fn push(&mut self, s: impl Into<String>, tone: Tone) -> &mut Self {
        let s = s.into();
        if !s.is_empty() {
            self.spans.push((s, tone));
        }
        self
    }

    pub fn with(mut self, s: impl Into<String>, tone: Tone) -> Text {
        self.push(s, tone);
        self
    }

    pub fn append(&mut self, other: Text) {
        self.spans.extend(other.spans);
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

    /// Cut to `width` columns with `…` when anything was cut.
    pub fn truncate(&self, width: usize) -> Text {
        if self.width() <= width {
            return self.clone();
        }
        let mut out = Text::new();
        if width == 0 {
            return out;
        }
        let mut left = width - 1;
        let mut last_tone = Tone::Plain;
        for (s, tone) in &self.spans {
            last_tone = *tone;
            let w = text::width(s);
            if w <= left {
                out.push(s.clone(), *tone);
                left -= w;
                continue;
            }
            let mut cut = String::new();
            let mut used = 0;
            for c in s.chars() {
                let cw = text::width(c.encode_utf8(&mut [0u8; 4]));
                if used + cw > left {
                    break;
                }
                used += cw;
                cut.push(c);
            }
            out.push(cut, *tone);
            break;
        }
        out.push("…", last_tone);
        out
    }

    /// Wrap at spaces to `width` columns; overlong words break by characters.
    pub fn wrap(&self, width: usize) -> Vec<Text> {
        let width = width.max(4);
        if self.width() <= width {
            return vec![self.clone()];
        }
        // Words keep their tone per character.
        let chars: Vec<(char, Tone)> = self.spans.iter().flat_map(|(s, t)| s.chars().map(move |c| (c, *t))).collect();
        let mut words: Vec<Vec<(char, Tone)>> = Vec::new();
        let mut current = Vec::new();
        for &(c, t) in &chars {
            current.push((c, t));
            if c == ' ' {
                words.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
        let cw = |c: char| text::width(c.encode_utf8(&mut [0u8; 4]));
        let mut lines: Vec<Vec<(char, Tone)>> = vec![Vec::new()];
        let mut used = 0usize;
        for word in words {
            let trimmed_w: usize = word.iter().filter(|(c, _)| *c != ' ').map(|(c, _)| cw(*c)).sum();
            let word_w: usize = word.iter().map(|(c, _)| cw(*c)).sum();
            if used > 0 && used + trimmed_w > width {
                lines.push(Vec::new());
                used = 0;
            }
            for (c, t) in word {
                let w = cw(c);
                if used + w > width && used > 0 {
                    if c == ' ' {
                        continue;
                    }
                    lines.push(Vec::new());
                    used = 0;
                }
                if let Some(line) = lines.last_mut() {
                    line.push((c, t));
                }
                used += w;
            }
            let _ = word_w;
        }
        lines
            .into_iter()
            .map(|line| {
                let mut t = Text::new();
                let mut buf = String::new();
                let mut tone = None;
                for (c, tn) in line {
                    if tone.is_some_and(|x| x != tn) {
                        t.push(std::mem::take(&mut buf), tone.unwrap_or_default());
                    }
                    tone = Some(tn);
                    buf.push(c);
                }
                t.push(buf.trim_end().to_string(), tone.unwrap_or_default());
                t
            })
            .collect()
    }

    /// Pad with spaces to `width` columns (never cuts).
    pub fn pad_to(&self, width: usize) -> Text {
        let w = self.width();
        let mut t = self.clone();
        if w < width {
            t.push(" ".repeat(width - w), Tone::Plain);
        }
        t
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
