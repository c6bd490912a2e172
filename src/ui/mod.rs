//! Draws the screen model (`screen::Screen`) with ratatui: each part in its
//! area, each look in the theme's style. Nothing here decides what is
//! shown or where; that is the screen model's.

pub mod theme;

use crate::screen::{Part, Screen};
use crate::styled::{Line as StyledLine, Span as StyledSpan};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};
pub use theme::{Theme, ThemeName};

/// Draw `screen` into the frame.
pub fn draw(frame: &mut Frame, screen: &Screen, theme: &Theme) {
    for part in &screen.parts {
        match part {
            Part::Lines { area, lines } => {
                frame.render_widget(Paragraph::new(ratatui_lines(lines, theme)), rect(*area));
            }
            Part::Panel { area, title, focused, lines } => {
                let block = Block::default()
                    .borders(Borders::ALL)
                    .border_type(BorderType::Rounded)
                    .border_style(if *focused { theme.border_focus } else { theme.border })
                    .title(line(title, theme));
                let inner = block.inner(rect(*area));
                frame.render_widget(block, rect(*area));
                frame.render_widget(Paragraph::new(ratatui_lines(lines, theme)), inner);
            }
            Part::Clear(area) => frame.render_widget(Clear, rect(*area)),
        }
    }
}

fn rect(r: crate::screen::Rect) -> Rect {
    Rect::new(r.x, r.y, r.width, r.height)
}

fn ratatui_lines(lines: &[StyledLine], theme: &Theme) -> Vec<Line<'static>> {
    lines.iter().map(|l| line(l, theme)).collect()
}

fn line(l: &StyledLine, theme: &Theme) -> Line<'static> {
    let out = Line::from(l.spans.iter().map(|s| span(s, theme)).collect::<Vec<_>>());
    match l.over {
        Some(over) => out.style(theme.chrome(over)),
        None => out,
    }
}

fn span(s: &StyledSpan, theme: &Theme) -> Span<'static> {
    let style = theme.look(s.look);
    let style = match s.over {
        Some(over) => style.patch(theme.chrome(over)),
        None => style,
    };
    Span::styled(s.text.clone(), style)
}
