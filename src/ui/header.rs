//! Header: file and format, verdict or status, counts, tokens, costs, diagnostics.

use super::cell;
use super::theme::Theme;
use crate::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let width = area.width as usize;
    let source = app.doc.sources.join(", ");
    let mut top = vec![Span::styled("niceeval ", theme.title)];
    // Still loading comes first, so a narrow terminal shows it too.
    if let Some(loading) = &app.loading {
        top.push(Span::styled(format!("{}  ", crate::view::chrome::loading_text(loading)), theme.warn));
    }
    top.push(Span::styled(cell(&source, width / 2), theme.text));
    top.push(Span::styled(format!("  {}", cell(&app.doc.format, width / 3)), theme.dim));
    if app.doc.attempts.len() > 1 {
        let to_review = app.views.iter().filter(|v| v.summary.to_review).count();
        top.push(Span::styled(
            format!(
                "  {} · {to_review} to review",
                crate::view::format::count(app.doc.attempts.len(), "attempt", "attempts")
            ),
            theme.dim,
        ));
    }
    let mut second: Vec<Span> = Vec::new();
    if let (Some(attempt), Some(view)) = (app.attempt(), app.view()) {
        let notices = crate::view::summary::notices(&app.doc, attempt).len();
        let parts = crate::view::header::header_parts(&view.summary, notices);
        for (i, part) in crate::view::header::header_line(parts, width).into_iter().enumerate() {
            if i > 0 {
                second.push(Span::styled(" │ ", theme.dim));
            }
            second.extend(theme.spans(&part));
        }
    }
    frame.render_widget(Paragraph::new(vec![Line::from(top), Line::from(second)]), area);
}
