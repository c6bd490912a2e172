//! Eval source code parsed for colour with syntect, in the palette the
//! view decides (`view::highlight::PALETTE`): the `Highlighter` `show`
//! hands the view when it draws colour, and the viewer's Source tab's colours.

use crate::view::highlight::{MAX_LINE_BYTES, MAX_LINES, PALETTE, Spans};
use std::str::FromStr;
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{Color, ScopeSelectors, StyleModifier, Theme, ThemeItem, ThemeSettings};

/// A palette colour as a syntect colour: alpha 0 marks "palette index `r`".
fn palette(index: u8) -> Color {
    Color { r: index, g: 0, b: 0, a: 0 }
}

fn theme() -> &'static Theme {
    static THEME: OnceLock<Theme> = OnceLock::new();
    THEME.get_or_init(|| Theme {
        settings: ThemeSettings { foreground: Some(Color::WHITE), ..ThemeSettings::default() },
        scopes: PALETTE
            .iter()
            .map(|(scope, colour)| ThemeItem {
                scope: ScopeSelectors::from_str(scope).unwrap_or_default(),
                style: StyleModifier { foreground: Some(palette(*colour)), background: None, font_style: None },
            })
            .collect(),
        ..Theme::default()
    })
}

/// `content`'s lines as coloured pieces, read as `syntax` (a file
/// extension); `None` when syntect does not know it or the file is too
/// long. Lines past one too long to colour are left out (drawn plain).
pub fn lines(content: &str, syntax: &str) -> Option<Vec<Spans>> {
    let set = super::json::syntax_set();
    let syntax = set.find_syntax_by_extension(syntax)?;
    if content.lines().count() > MAX_LINES {
        return None;
    }
    let mut h = HighlightLines::new(syntax, theme());
    let mut out = Vec::new();
    for line in content.lines() {
        if line.len() > MAX_LINE_BYTES {
            break;
        }
        let with_newline = format!("{line}\n");
        let ranges = h.highlight_line(&with_newline, set).ok()?;
        let pieces = ranges
            .into_iter()
            .map(|(style, piece)| {
                let c = style.foreground;
                (piece.trim_end_matches('\n').to_string(), (c.a == 0).then_some(c.r))
            })
            .filter(|(piece, _)| !piece.is_empty());
        out.push(pieces.collect());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typescript_is_coloured_in_the_palette_and_keeps_its_text() {
        let code = "// hi\nconst x = \"a\";\n";
        let coloured = lines(code, crate::view::highlight::syntax_of("evals/a.eval.ts")).expect("js syntax");
        assert_eq!(coloured.len(), 2);
        let joined: String = coloured[1].iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(joined, "const x = \"a\";");
        assert!(coloured[0].iter().any(|(_, c)| *c == Some(8)), "{:?}", coloured[0]);
        assert!(coloured[1].iter().any(|(p, c)| p.contains('a') && *c == Some(2)), "{:?}", coloured[1]);
        assert_eq!(lines(code, "unknownext"), None);
    }
}
