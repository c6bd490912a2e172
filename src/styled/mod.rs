//! Styled lines: text laid out at a width, each piece with a look named by
//! its meaning, never by a colour. The screen model is made of them, and
//! `update` measures with them (how far the inspector scrolls, where its
//! search matches are), so no size has to flow back from a drawn frame.
//! The theme (`ui::theme`) gives each look its colour.

pub mod blocks;
pub mod json;
pub mod syntax;

use crate::view::{Text, Tone};

/// Which palette the lines are made for: syntax colours differ on a dark
/// and a light background, and the no-colour theme keeps JSON plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThemeName {
    Dark,
    Light,
    /// NO_COLOR: modifiers only; marks and words carry the meaning.
    Mono,
}

/// The screen's own furniture, beside the view's tones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chrome {
    /// No style of its own (what the line or panel gives).
    Bare,
    Text,
    Dim,
    Title,
    Accent,
    Key,
    Error,
    Warn,
    Hitl,
    /// A search match.
    Matched,
    /// The search match the inspector is on.
    MatchedHere,
    /// A timeline row that matches the search (bold, no colour).
    Emphasis,
    /// A note under highlighted JSON (dim, no colour).
    Faint,
    TabActive,
    /// The selected row of the focused panel.
    Selected,
    /// The selected row of a panel without focus.
    SelectedUnfocused,
}

/// How a span looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Look {
    /// A view tone: every word the view decides carries one.
    Tone(Tone),
    Chrome(Chrome),
    /// A JSON token's colour from the syntax highlighter.
    Syntax {
        rgb: (u8, u8, u8),
        bold: bool,
        italic: bool,
    },
}

/// A piece of text with one look, and optionally a second look laid over
/// it (a selection or a search match over a coloured cell).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Span {
    pub text: String,
    pub look: Look,
    pub over: Option<Chrome>,
}

impl Span {
    pub fn new(text: impl Into<String>, look: Look) -> Span {
        Span { text: text.into(), look, over: None }
    }

    pub fn chrome(text: impl Into<String>, chrome: Chrome) -> Span {
        Span::new(text, Look::Chrome(chrome))
    }

    /// Text with no look of its own.
    pub fn bare(text: impl Into<String>) -> Span {
        Span::chrome(text, Chrome::Bare)
    }

    pub fn width(&self) -> usize {
        crate::model::text::width(&self.text)
    }
}

/// One line of spans, and the look of the whole line (a selection bar
/// across the panel's width).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Line {
    pub spans: Vec<Span>,
    pub over: Option<Chrome>,
}

impl Line {
    pub fn new(spans: Vec<Span>) -> Line {
        Line { spans, over: None }
    }

    /// One span of `chrome`.
    pub fn chrome(text: impl Into<String>, chrome: Chrome) -> Line {
        Line::new(vec![Span::chrome(text, chrome)])
    }

    /// A line with no look of its own.
    pub fn bare(text: impl Into<String>) -> Line {
        Line::new(vec![Span::bare(text)])
    }

    /// The view's text, span for span.
    pub fn of(text: &Text) -> Line {
        Line::new(spans(text))
    }

    pub fn with_over(mut self, over: Chrome) -> Line {
        self.over = Some(over);
        self
    }

    pub fn width(&self) -> usize {
        self.spans.iter().map(Span::width).sum()
    }

    /// The characters, without looks (what a search matches).
    pub fn plain(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }
}

/// The view's text as spans.
pub fn spans(text: &Text) -> Vec<Span> {
    text.spans().iter().map(|(s, tone)| Span::new(s.clone(), Look::Tone(*tone))).collect()
}

/// `line` with the bytes in `ranges` (of its text as a whole) laid over with `over`.
pub fn mark(line: Line, ranges: &[std::ops::Range<usize>], over: Chrome) -> Line {
    let mut out = Vec::new();
    let mut offset = 0;
    for span in line.spans {
        let text = span.text.as_str();
        let end = offset + text.len();
        let mut at = 0;
        for r in ranges.iter().filter(|r| r.start < end && r.end > offset) {
            let (s, e) = (r.start.max(offset) - offset, r.end.min(end) - offset);
            if s > at {
                out.push(Span { text: text[at..s].to_string(), ..span.clone() });
            }
            out.push(Span { text: text[s..e].to_string(), look: span.look, over: Some(over) });
            at = e;
        }
        if at < text.len() {
            out.push(Span { text: text[at..].to_string(), ..span.clone() });
        }
        offset = end;
    }
    Line { spans: out, ..line }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lays_its_look_over_the_bytes_it_covers_only() {
        let line = Line::new(vec![Span::chrome("abc", Chrome::Dim), Span::chrome("def", Chrome::Key)]);
        let ranges = [std::ops::Range { start: 2, end: 4 }];
        let marked = mark(line, &ranges, Chrome::Matched);
        let pieces: Vec<(&str, Option<Chrome>)> = marked.spans.iter().map(|s| (s.text.as_str(), s.over)).collect();
        assert_eq!(pieces, [("ab", None), ("c", Some(Chrome::Matched)), ("d", Some(Chrome::Matched)), ("ef", None)]);
        assert_eq!(marked.spans[2].look, Look::Chrome(Chrome::Key), "the span keeps its own look under the mark");
    }
}
