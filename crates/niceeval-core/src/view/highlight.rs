//! Eval source code coloured by its syntax: which syntax kinds take which
//! colour of the terminal's own palette (a comment dim, a string green, a
//! keyword magenta, a number yellow, a function blue, a type cyan, so it
//! reads on a light terminal as on a dark one), decided here once; a
//! renderer that draws colour parses the code ([`Highlighter`], syntect in
//! `plain`) and the view turns its pieces into [`Text`]. Only colour: the
//! words and the gutter carry the meaning.

use super::text::{Text, Tone};
use crate::model::sgr::{AnsiColor, Sgr};

/// Syntax scopes (TextMate selectors) and the palette colour each takes.
pub const PALETTE: [(&str, u8); 6] = [
    ("comment", 8),
    ("string, constant.character", 2),
    ("constant.numeric, constant.language", 3),
    ("keyword, storage", 5),
    ("entity.name.function, support.function, variable.function", 4),
    ("entity.name.type, support.class, support.type", 6),
];

/// Files longer than this are not coloured (the parser's cost grows with them).
pub const MAX_LINES: usize = 5000;
/// A line longer than this stays plain, and so does the rest of the file.
pub const MAX_LINE_BYTES: usize = 4000;

/// One line's pieces with the palette colour each takes (`None`: the terminal's own).
pub type Spans = Vec<(String, Option<u8>)>;

/// A renderer's parser: a file's lines as coloured pieces, given its text
/// and the syntax to read it as ([`syntax_of`]); `None` when it cannot.
pub type Highlighter = fn(&str, &str) -> Option<Vec<Spans>>;

/// The syntax a file is read as, by its name: TypeScript and the module
/// forms of JavaScript as JavaScript (the closest the parser knows).
pub fn syntax_of(path: &str) -> &str {
    match path.rsplit('.').next().unwrap_or("") {
        "ts" | "mts" | "cts" | "tsx" | "jsx" | "mjs" | "cjs" => "js",
        other => other,
    }
}

/// A coloured line as [`Text`], its first `indent` columns left out (the
/// gutter draws the indent so a wrapped line hangs under its code).
pub fn text(spans: &Spans, indent: usize) -> Text {
    let mut t = Text::new();
    let mut skip = indent;
    for (piece, colour) in spans {
        let piece = super::text::clean(piece);
        let cut = piece.len().min(skip);
        skip -= cut;
        let tone = match colour {
            Some(c) => Tone::Ansi(Sgr { fg: Some(AnsiColor::Indexed(*c)), ..Sgr::default() }),
            None => Tone::Plain,
        };
        t.push(piece[cut..].to_string(), tone);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_indent_is_left_to_the_gutter_and_colours_are_the_palettes() {
        let spans: Spans = vec![("  const".into(), Some(5)), (" x".into(), None)];
        let t = text(&spans, 2);
        assert_eq!(t.as_plain(), "const x");
        assert!(matches!(t.spans()[0].1, Tone::Ansi(Sgr { fg: Some(AnsiColor::Indexed(5)), .. })));
        assert_eq!(syntax_of("evals/a.eval.ts"), "js");
        assert_eq!(syntax_of("x.py"), "py");
    }
}
