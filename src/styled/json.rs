//! JSON highlighting with syntect: loaded lazily once, per block, capped.
//! Blocks over the cap keep the rest plain and say how much was left plain.

use super::{Chrome, Line, Look, Span, ThemeName};
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme, ThemeSet};
use syntect::parsing::SyntaxSet;

/// Lines highlighted per block; the rest stays plain.
pub const MAX_HIGHLIGHT_LINES: usize = 2000;
/// Longer lines are not highlighted (regex cost grows with line length).
pub const MAX_HIGHLIGHT_LINE_BYTES: usize = 4000;

struct Assets {
    syntaxes: SyntaxSet,
    themes: ThemeSet,
}

fn assets() -> &'static Assets {
    static ASSETS: OnceLock<Assets> = OnceLock::new();
    ASSETS.get_or_init(|| Assets { syntaxes: SyntaxSet::load_defaults_newlines(), themes: ThemeSet::load_defaults() })
}

/// The syntaxes syntect ships, loaded once for every highlighter here.
pub(super) fn syntax_set() -> &'static SyntaxSet {
    &assets().syntaxes
}

fn theme(dark: bool) -> &'static Theme {
    let a = assets();
    let name = if dark { "base16-ocean.dark" } else { "InspiredGitHub" };
    a.themes.themes.get(name).or_else(|| a.themes.themes.values().next()).expect("syntect ships default themes")
}

/// Highlight sanitized JSON text into lines: syntax colours for the dark or
/// the light theme, plain lines for the no-colour one.
pub fn json_lines(text: &str, theme_name: ThemeName) -> Vec<Line> {
    let lines: Vec<&str> = text.split('\n').collect();
    if theme_name == ThemeName::Mono {
        return lines.into_iter().map(Line::bare).collect();
    }
    let a = assets();
    let Some(syntax) = a.syntaxes.find_syntax_by_extension("json") else {
        return lines.into_iter().map(Line::bare).collect();
    };
    let mut h = HighlightLines::new(syntax, theme(theme_name == ThemeName::Dark));
    let mut out = Vec::with_capacity(lines.len() + 1);
    let mut plain_from = None;
    for (i, line) in lines.iter().enumerate() {
        if i >= MAX_HIGHLIGHT_LINES || line.len() > MAX_HIGHLIGHT_LINE_BYTES {
            plain_from = Some(i);
            break;
        }
        let with_newline = format!("{line}\n");
        match h.highlight_line(&with_newline, &a.syntaxes) {
            Ok(ranges) => out.push(Line::new(
                ranges
                    .into_iter()
                    .map(|(style, piece)| Span::new(piece.trim_end_matches('\n'), look(style)))
                    .collect::<Vec<_>>(),
            )),
            Err(_) => out.push(Line::bare(*line)),
        }
    }
    if let Some(from) = plain_from {
        out.extend(lines[from..].iter().map(|l| Line::bare(*l)));
        out.push(Line::chrome(crate::view::chrome::highlight_stopped(from, lines.len() - from), Chrome::Faint));
    }
    out
}

fn look(style: syntect::highlighting::Style) -> Look {
    let c = style.foreground;
    Look::Syntax {
        rgb: (c.r, c.g, c.b),
        bold: style.font_style.contains(FontStyle::BOLD),
        italic: style.font_style.contains(FontStyle::ITALIC),
    }
}
