//! Header: file and format, verdict or status, counts, tokens, costs, diagnostics.

use super::cell;
use super::theme::Theme;
use crate::app::App;
use crate::view::Text;
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
        for (i, part) in fit_by_priority(parts, width).into_iter().enumerate() {
            if i > 0 {
                second.push(Span::styled(" │ ", theme.dim));
            }
            second.extend(theme.spans(&part));
        }
    }
    frame.render_widget(Paragraph::new(vec![Line::from(top), Line::from(second)]), area);
}

/// Keep the parts that fit in `width` (separated by " │ "), dropping the
/// least important first, in their original order.
fn fit_by_priority(parts: Vec<(u8, Text)>, width: usize) -> Vec<Text> {
    let mut keep: Vec<bool> = vec![true; parts.len()];
    let total = |keep: &[bool]| {
        let shown: Vec<usize> = parts.iter().zip(keep).filter(|(_, k)| **k).map(|((_, t), _)| t.width()).collect();
        shown.iter().sum::<usize>() + 3 * shown.len().saturating_sub(1)
    };
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(parts[i].0));
    for i in order {
        if total(&keep) <= width {
            break;
        }
        if keep.iter().filter(|k| **k).count() > 1 {
            keep[i] = false;
        }
    }
    let mut out: Vec<Text> = parts.into_iter().zip(keep).filter(|(_, k)| *k).map(|((_, t), _)| t).collect();
    if let [only] = out.as_mut_slice() {
        *only = only.truncate(width);
    }
    out
}
