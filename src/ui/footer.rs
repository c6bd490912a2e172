//! The compare screens' footer: a flash message, or the screen's key hints.

use super::{Theme, hint_spans};
use crate::app::App;
use crate::view::chrome::HintsFor;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The footer: a flash message, else the hints for the screen.
pub fn render(frame: &mut Frame, area: Rect, app: &App, at: HintsFor, theme: &Theme) {
    let line = match &app.flash {
        Some(f) => Line::from(Span::styled(
            super::cell(&f.text, area.width as usize),
            if f.error { theme.err } else { theme.accent },
        )),
        None => Line::from(hint_spans(at, 0, area.width as usize, theme)),
    };
    frame.render_widget(Paragraph::new(line), area);
}
