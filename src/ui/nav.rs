//! Navigator: attempt → session → turn. Selecting a node scopes the other panels.

use super::theme::Theme;
use super::{cell, panel};
use crate::app::{App, Focus};
use crate::model::timeline::{compact_number, turn_status};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Focus::Nav;
    let title = if app.doc.attempts.len() > 1 {
        format!(" Attempts ({}) ", app.doc.attempts.len())
    } else {
        " Sessions & turns ".into()
    };
    let block = panel(Line::styled(title, theme.title), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let height = inner.height as usize;
    let mut lines = Vec::with_capacity(height);
    for (i, node) in app.nav.iter().enumerate().skip(app.nav_state.offset).take(height) {
        let Some(attempt) = app.doc.attempts.get(node.scope.attempt) else { continue };
        let indent = "  ".repeat(node.depth as usize);
        let fold =
            if node.has_children { if app.collapsed.contains(&node.scope) { "▸ " } else { "▾ " } } else { "  " };
        let mut spans = vec![Span::raw(format!("{indent}{fold}"))];
        match (node.scope.session, node.scope.turn) {
            (None, _) => {
                let verdict = attempt.verdict;
                if let Some(v) = verdict {
                    let mark = crate::view::verdict::verdict_mark(v);
                    spans.push(Span::styled(format!("{mark} "), theme.tone(crate::view::verdict::verdict_tone(v))));
                }
                let name = attempt.eval_id.clone().unwrap_or_else(|| "attempt".into());
                let n = attempt.attempt_number.map(|n| format!(" #{n}")).unwrap_or_default();
                spans.push(Span::styled(cell(&format!("{name}{n}"), width.saturating_sub(12)), theme.text));
                if let Some(v) = verdict {
                    spans.push(Span::styled(
                        format!(" {}", v.as_str()),
                        theme.tone(crate::view::verdict::verdict_tone(v)),
                    ));
                }
                if let Some(l) = &attempt.locator {
                    spans.push(Span::styled(format!(" {}", cell(l, 15)), theme.dim));
                }
            }
            (Some(si), None) => {
                let session = &attempt.sessions[si];
                let id = session.id.as_deref().map(|i| format!(" {}", cell(i, 16))).unwrap_or_default();
                spans.push(Span::styled(format!("{}{id}", session.scope_name()), theme.title));
                spans.push(Span::styled(format!(" {} turns", session.turns.len()), theme.dim));
            }
            (Some(si), Some(ti)) => {
                let record = &attempt.sessions[si].turns[ti];
                let status = turn_status(record.turn.status.as_deref());
                spans.push(Span::styled(format!("{} ", status.mark()), theme.status(status)));
                let label = record.label.clone().unwrap_or_else(|| format!("turn {}", ti + 1));
                spans.push(Span::styled(cell(&label, 16), theme.status(status)));
                let tools = app
                    .view()
                    .and_then(|v| v.derived.turn(crate::model::TurnAddr { session: si, turn: ti }))
                    .map(|t| t.occurrences.occurrences.len())
                    .unwrap_or(0);
                let tokens =
                    record.turn.usage.and_then(|u| u.total_tokens()).map(compact_number).unwrap_or_else(|| "—".into());
                spans.push(Span::styled(format!(" {}ev {tools}⚙ {tokens}t", record.turn.events.len()), theme.dim));
            }
        }
        let mut line = Line::from(spans);
        if i == app.nav_state.selected {
            line = line.style(if focused { theme.selected } else { theme.selected_unfocused });
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
