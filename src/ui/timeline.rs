//! Timeline: one row per event for the selected scope. Only visible rows are
//! built; what each says is the view's (`view::timeline::row_view`).

use super::panel;
use super::theme::Theme;
use crate::app::{App, Focus};
use crate::model::text::{fit, truncate, width};
use crate::model::timeline::RowKind;
use crate::view::timeline::{kind_marker, kind_tone, kind_word, row_view_as, summary_tone};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Focus::List;
    let title = crate::view::chrome::timeline_title(
        app.visible.len().saturating_sub(app.timeline_turns()),
        app.timeline_turns(),
        app.merge,
    );
    let block = panel(Line::styled(title, theme.title), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (Some(view), Some(attempt)) = (app.view(), app.attempt()) else {
        // No attempt at all: what the input is, or what is awaited.
        let lines: Vec<Line> = crate::view::chrome::no_attempts(&app.doc)
            .iter()
            .flat_map(|t| t.wrap(inner.width as usize))
            .map(|t| Line::from(theme.spans(&t)))
            .collect();
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    };
    if app.visible.is_empty() {
        let empty = crate::view::chrome::timeline_empty(attempt);
        frame.render_widget(Paragraph::new(Line::styled(empty, theme.dim)), inner);
        return;
    }
    let w = inner.width as usize;
    let list = app.lists.timeline;
    let query = app.search.query.as_ref().map(|q| &q.matcher);

    let pos_w =
        crate::view::timeline::position_width(attempt, view, app.merge, crate::view::timeline::POSITION_COLUMNS);
    let mut lines = Vec::with_capacity(inner.height as usize);
    for (pos, &ri) in app.visible.iter().enumerate().skip(list.offset).take(inner.height as usize) {
        let folded = app.is_folded(view.timeline.rows[ri].addr());
        let look = RowLook { pos_w, merged: app.merge, compact: false };
        let Some(mut line) = row_line(attempt, view, ri, w, folded, query, theme, look) else { continue };
        let selected = pos == list.selected;
        let is_match = app.search.matches.binary_search(&ri).is_ok();
        if selected {
            line = line.style(if focused { theme.selected } else { theme.selected_unfocused });
        } else if is_match {
            line = line.style(Style::default().add_modifier(ratatui::style::Modifier::BOLD));
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// How a timeline row is laid out: its position column's width (the
/// view's, from the attempt's largest address), merged lifecycle rows or
/// raw events (`m`), and `compact` (the kind's mark without its word, for
/// the split view's half-width panel).
#[derive(Debug, Clone, Copy)]
pub struct RowLook {
    pub pos_w: usize,
    pub merged: bool,
    pub compact: bool,
}

/// Timeline row `ri` of an attempt as the viewer draws it at `w` columns
/// (the split view draws each side's rows with it too).
#[allow(clippy::too_many_arguments)]
pub fn row_line(
    attempt: &crate::model::document::Attempt,
    view: &crate::view::AttemptView,
    ri: usize,
    w: usize,
    folded: bool,
    query: Option<&crate::view::search::Matcher>,
    theme: &Theme,
    look: RowLook,
) -> Option<Line<'static>> {
    let row = row_view_as(attempt, view, ri, look.merged)?;
    let mut spans: Vec<Span> = Vec::new();
    if row.kind == RowKind::TurnHeader {
        spans.push(Span::styled(crate::view::chrome::turn_lead(folded), theme.title));
        let summary = row.summary.truncate(w.saturating_sub(2));
        spans.extend(theme.spans(&summary));
        return Some(Line::from(spans));
    }
    let (narrow, pos_w) = (look.compact, look.pos_w);
    spans.push(Span::styled(fit(&truncate(&row.pos, pos_w), pos_w), theme.dim));
    // The status mark only: the word is in the inspector and in `show`.
    match &row.status {
        Some(s) => {
            let mark = s.as_plain().chars().next().unwrap_or(' ');
            let tone = s.first_tone();
            spans.push(Span::styled(format!("{mark} "), theme.tone(tone)));
        }
        None => spans.push(Span::raw("  ")),
    }
    let kind = if narrow {
        format!("{} ", kind_marker(row.kind))
    } else {
        format!("{} {:<10} ", kind_marker(row.kind), kind_word(row.kind))
    };
    let kind_w = width(&kind);
    spans.push(Span::styled(kind, theme.tone(kind_tone(row.kind))));
    let badges = row.badges();
    let used = pos_w + 2 + kind_w + if badges.is_empty() { 0 } else { width(&badges) + 1 };
    let budget = w.saturating_sub(used);
    let summary = truncate(&row.summary.as_plain(), budget);
    let style = theme.tone(summary_tone(row.kind));
    spans.extend(highlight_matches(&summary, query, style, theme.matched));
    if !badges.is_empty() {
        let pad = budget.saturating_sub(width(&summary));
        spans.push(Span::raw(" ".repeat(pad + 1)));
        spans.push(Span::styled(badges, theme.warn));
    }
    Some(Line::from(spans))
}

/// Split `text` into spans with every match of `matcher` highlighted.
pub fn highlight_matches(
    text: &str,
    matcher: Option<&crate::view::search::Matcher>,
    base: Style,
    hit: Style,
) -> Vec<Span<'static>> {
    let Some(m) = matcher else { return vec![Span::styled(text.to_string(), base)] };
    let mut spans = Vec::new();
    let mut at = 0;
    for r in m.ranges(text) {
        if r.start > at {
            spans.push(Span::styled(text[at..r.start].to_string(), base));
        }
        spans.push(Span::styled(text[r.clone()].to_string(), hit));
        at = r.end;
    }
    spans.push(Span::styled(text[at..].to_string(), base));
    spans
}
