//! Header: file and format, verdict or status, counts, tokens, costs, diagnostics.

use super::cell;
use super::theme::Theme;
use crate::app::App;
use crate::model::timeline::{compact_number, usd};
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
        top.push(Span::styled(format!("{}  ", loading_text(loading)), theme.warn));
    }
    top.push(Span::styled(cell(&source, width / 2), theme.text));
    top.push(Span::styled(format!("  {}", cell(&app.doc.format, width / 3)), theme.dim));
    if app.doc.attempts.len() > 1 {
        let failed = app.doc.attempts.iter().filter(|a| crate::model::verdict::needs_review(a)).count();
        top.push(Span::styled(format!("  {} attempts, {failed} failed/errored", app.doc.attempts.len()), theme.dim));
    }
    let mut second: Vec<Span> = Vec::new();
    if let (Some(attempt), Some(view)) = (app.attempt(), app.view()) {
        // Verdict (results) or the status of the last turn (captures).
        let headline = crate::view::verdict::headline(attempt.verdict, crate::model::verdict::attempt_status(attempt));
        second.extend(theme.spans(&headline));
        second.push(Span::raw("  "));
        if let Some(eval) = &attempt.eval_id {
            second.push(Span::styled(cell(eval, 28), theme.text));
            second.push(Span::raw(" "));
        }
        if let Some(n) = attempt.attempt_number {
            second.push(Span::styled(format!("#{n} "), theme.dim));
        }
        if let Some(l) = &attempt.locator {
            second.push(Span::styled(format!("{} ", cell(l, 16)), theme.accent));
        }
        let turns: usize = attempt.sessions.iter().map(|s| s.turns.len()).sum();
        let events: usize = attempt.sessions.iter().flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
        second.push(Span::styled(
            format!(
                "│ {} sess · {turns} turns · {events} events · {} tools ",
                attempt.sessions.len(),
                view.derived.occurrences.occurrences.len()
            ),
            theme.text,
        ));
        let usage = attempt.reported_usage.unwrap_or(view.derived.usage);
        let tokens = usage.total_tokens().map(compact_number).unwrap_or_else(|| "—".into());
        let observed = usage.cost_usd.map(usd).unwrap_or_else(|| "—".into());
        let estimate = match view.derived.estimate.total() {
            Some(t) => usd(t),
            None if view.derived.model.is_none() => "— (no model)".into(),
            None => "—".into(),
        };
        second.push(Span::styled(format!("│ {tokens} tok · cost {observed} · est {estimate} "), theme.text));
        let (errors, warnings) = app.finding_counts();
        if errors + warnings > 0 {
            second.push(Span::styled(
                format!("│ ⚑ {errors} err {warnings} warn "),
                if errors > 0 { theme.err } else { theme.warn },
            ));
        }
        let waiting = view.requests.iter().filter(|r| r.state == crate::model::hitl::HitlState::Waiting).count();
        if waiting > 0 {
            second.push(Span::styled(
                format!(" ⏸ WAITING FOR INPUT ({waiting}) "),
                theme.hitl.add_modifier(ratatui::style::Modifier::REVERSED),
            ));
        }
        let notices = app.doc.notices.len()
            + attempt.notices.iter().filter(|n| !app.doc.notices.iter().any(|d| d.message == n.message)).count();
        if notices > 0 {
            second.push(Span::styled(format!(" ! {notices} notices"), theme.warn));
        }
    }
    frame.render_widget(Paragraph::new(vec![Line::from(top), Line::from(second)]), area);
}

/// `⟳ preview of 4.2 MB · loading 312.4 of 1000.0 MB, 53210 events · 2.3 s`.
pub fn loading_text(l: &crate::app::Loading) -> String {
    use crate::load::preview::megabytes;
    let step = if l.building && l.parsed_lines > 0 {
        format!("building the views of {} events", l.parsed_lines)
    } else if l.building {
        "building the views".to_string()
    } else if l.parsed_bytes > 0 {
        // JSONL counts its lines (events) as it goes; a JSON document only bytes.
        let events = if l.parsed_lines > 0 { format!(", {} events", l.parsed_lines) } else { String::new() };
        format!("loading {} of {}{events}", megabytes(l.parsed_bytes).trim_end_matches(" MB"), megabytes(l.total_bytes))
    } else {
        format!("loading {}", megabytes(l.total_bytes))
    };
    format!("⟳ preview of the first {} · {step} · {:.1} s", megabytes(l.preview_bytes), l.elapsed_ms as f64 / 1000.0)
}
