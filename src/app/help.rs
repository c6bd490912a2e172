//! The help overlay's lines at its width, from the key table: the screen
//! draws them and `update` measures how far they scroll.

use super::keymap::{self, Mode};
use super::layout::Rect;
use crate::styled::{Chrome, Line, Span};

/// Where the help overlay goes on a terminal of `width`×`height`.
pub fn area(width: u16, height: u16) -> Rect {
    let w = width.saturating_sub(4).min(76);
    let h = height.saturating_sub(2);
    Rect::new((width - w) / 2, 1, w, h)
}

/// The overlay's lines for its width (inside the border).
pub fn lines(width: u16) -> Vec<Line> {
    // Descriptions wrap under themselves, beside an 18-column key column.
    let text_w = (width as usize).saturating_sub(2 + 20).max(10);
    let row = |lines: &mut Vec<Line>, keys: &str, what: &str| {
        for (i, piece) in crate::view::Text::plain(what).wrap(text_w).into_iter().enumerate() {
            let lead = if i == 0 { format!("{keys:>18}  ") } else { " ".repeat(20) };
            lines.push(Line::new(vec![Span::chrome(lead, Chrome::Key), Span::bare(piece.as_plain())]));
        }
    };
    let mut lines = vec![Line::chrome(crate::view::chrome::HELP_KEYS, Chrome::Title), Line::default()];
    for (keys, what) in keymap::help_rows(Mode::Normal) {
        row(&mut lines, &keys, &what);
    }
    lines.push(Line::default());
    lines.push(Line::chrome(crate::view::chrome::HELP_SEARCH, Chrome::Title));
    for (keys, what) in keymap::help_rows(Mode::Search) {
        row(&mut lines, &keys, &what);
    }
    lines.push(Line::default());
    lines.push(Line::chrome(crate::view::chrome::HELP_MARKS, Chrome::Title));
    for (mark, what) in crate::view::chrome::marks() {
        row(&mut lines, mark, &what);
    }
    lines
}

/// How far the help scrolls on a terminal of `width`×`height`.
pub fn extent(width: u16, height: u16) -> usize {
    let popup = area(width, height);
    lines(popup.width).len().saturating_sub(popup.height.saturating_sub(2) as usize)
}
