//! Timeline: one row per event for the selected scope. Only visible rows are built.

use super::theme::{Theme, kind_marker};
use super::{cell, panel};
use crate::app::{App, Focus};
use crate::model::text::{fit, truncate, width};
use crate::model::timeline::{RowKind, row_summary};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Focus::List;
    let mode = if app.merge { "merged" } else { "raw events" };
    let title = format!(" Timeline · {} rows · {mode} ", app.visible.len());
    let block = panel(Line::styled(title, theme.title), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (Some(view), Some(attempt)) = (app.view(), app.attempt()) else { return };
    if app.visible.is_empty() {
        frame.render_widget(Paragraph::new(Line::styled("no events in this scope", theme.dim)), inner);
        return;
    }
    let w = inner.width as usize;
    let list = app.lists[0];
    let query = app.search.query.as_deref();

    let mut lines = Vec::with_capacity(inner.height as usize);
    for (pos, &ri) in app.visible.iter().enumerate().skip(list.offset).take(inner.height as usize) {
        let row = &view.timeline.rows[ri];
        let selected = pos == list.selected;
        let is_match = app.search.matches.binary_search(&ri).is_ok();
        let mut spans: Vec<Span> = Vec::new();
        if row.kind == RowKind::TurnHeader {
            let status = row.status.unwrap_or(crate::model::timeline::RowStatus::TurnUnknown);
            spans.push(Span::styled(format!("▌ turn {:<4}", row.position()), theme.title));
            spans.push(Span::styled(format!("{} ", status.mark()), theme.status(status)));
            let summary = row_summary(attempt, &view.derived, &view.requests, row);
            spans.push(Span::styled(truncate(&summary, w.saturating_sub(14)), theme.title));
        } else {
            spans.push(Span::styled(fit(&row.position(), 7), theme.dim));
            match row.status {
                Some(s) => spans.push(Span::styled(format!("{} ", s.mark()), theme.status(s))),
                None => spans.push(Span::raw("  ")),
            }
            spans
                .push(Span::styled(format!("{} {:<9} ", kind_marker(row.kind), row.kind.word()), theme.kind(row.kind)));
            let mut badges = String::new();
            if view.flagged.contains(&(row.addr, row.event)) {
                badges.push('⚑');
            }
            let asserted = view.badges.get(&(row.addr, row.event)).map(Vec::len).unwrap_or(0);
            if asserted > 0 {
                badges.push_str(&format!("◆{asserted}"));
            }
            let used = 7 + 2 + 12 + if badges.is_empty() { 0 } else { width(&badges) + 1 };
            let budget = w.saturating_sub(used);
            let summary = truncate(&row_summary(attempt, &view.derived, &view.requests, row), budget);
            let style = match row.kind {
                RowKind::Error | RowKind::Unrecognized | RowKind::Thinking | RowKind::InputRequest => {
                    theme.kind(row.kind)
                }
                _ => theme.text,
            };
            spans.extend(highlight_matches(&summary, query, style, theme.matched));
            if !badges.is_empty() {
                let pad = budget.saturating_sub(width(&summary));
                spans.push(Span::raw(" ".repeat(pad + 1)));
                spans.push(Span::styled(badges, theme.warn));
            }
        }
        let mut line = Line::from(spans);
        if selected {
            line = line.style(if focused { theme.selected } else { theme.selected_unfocused });
        } else if is_match {
            line = line.style(Style::default().add_modifier(ratatui::style::Modifier::BOLD));
        }
        lines.push(line);
    }
    let _ = cell;
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Split `text` into spans with every case-insensitive occurrence of `query` highlighted.
pub fn highlight_matches(text: &str, query: Option<&str>, base: Style, hit: Style) -> Vec<Span<'static>> {
    let Some(q) = query.filter(|q| !q.is_empty()) else { return vec![Span::styled(text.to_string(), base)] };
    let sensitive = q.chars().any(char::is_uppercase);
    let (hay, needle) =
        if sensitive { (text.to_string(), q.to_string()) } else { (text.to_lowercase(), q.to_lowercase()) };
    // Lower-casing can change byte lengths; fall back to no highlight then.
    if hay.len() != text.len() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(found) = hay[at..].find(&needle) {
        let start = at + found;
        let end = start + needle.len();
        if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            break;
        }
        if start > at {
            spans.push(Span::styled(text[at..start].to_string(), base));
        }
        spans.push(Span::styled(text[start..end].to_string(), hit));
        at = end;
    }
    spans.push(Span::styled(text[at..].to_string(), base));
    spans
}
