//! The list panel of the Tools, HITL, Usage, Assertions and Diagnostics tabs.

use super::theme::{Theme, verdict_mark};
use super::{cell, panel};
use crate::app::{App, Focus, Tab};
use crate::model::hitl::HitlState;
use crate::model::occurrence::Lifecycle;
use crate::model::text::fit;
use crate::model::timeline::{RowStatus, usd};
use crate::model::usage::Usage;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub use crate::model::timeline::lifecycle_status;

pub fn render(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Focus::List;
    let list = app.list();
    // Only the rows on screen are built: lists can hold hundreds of thousands of calls.
    let win = Window { start: list.offset, len: area.height.saturating_sub(2) as usize };
    let w = area.width.saturating_sub(2) as usize;
    let (title, total, rows) = match app.tab {
        Tab::Tools => tools(app, theme, w, win),
        Tab::Hitl => hitl(app, theme, w, win),
        Tab::Usage => usage(app, theme, win),
        Tab::Assertions => assertions(app, theme, w, win),
        Tab::Diagnostics => diagnostics(app, theme, w, win),
        Tab::Changes => changes(app, theme, w, win),
        Tab::Timeline => (String::new(), 0, Vec::new()),
    };
    let block = panel(Line::styled(title, theme.title), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = Vec::new();
    if total == 0 {
        lines.push(Line::styled(empty_text(app), theme.dim));
    }
    for (k, line) in rows.into_iter().enumerate() {
        let i = win.start + k;
        let line = if i == list.selected && app.tab != Tab::Usage {
            line.style(if focused { theme.selected } else { theme.selected_unfocused })
        } else {
            line
        };
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The rows of a list that are on screen.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: usize,
    len: usize,
}

fn empty_text(app: &App) -> String {
    match app.tab {
        Tab::Tools => "no tool calls in this scope".into(),
        Tab::Hitl => "no input requests in this scope".into(),
        Tab::Assertions => match app.attempt().map(|a| a.review.assertions.is_some()) {
            Some(true) => "no assertions".into(),
            _ => "assertions not recorded in this input (open a Record, InvocationSummary or show --json)".into(),
        },
        Tab::Diagnostics => "no findings: the event stream follows the contract".into(),
        Tab::Changes => {
            use crate::model::document::Completeness;
            match app.attempt().and_then(|a| a.review.file_changes.as_ref()).map(|f| f.state.clone()) {
                None | Some(Some(Completeness::NotRecorded)) => "file changes not recorded in this input".into(),
                Some(Some(Completeness::Complete)) => "no file changes (complete collection)".into(),
                Some(Some(Completeness::Partial(r))) => format!("no file changes recorded (partial: {})", r.join("; ")),
                Some(None) => "no file changes listed".into(),
            }
        }
        _ => String::new(),
    }
}

fn tools(app: &App, theme: &Theme, w: usize, win: Window) -> (String, usize, Vec<Line<'static>>) {
    let rows = app.tool_rows();
    let Some(view) = app.view() else { return (String::new(), 0, Vec::new()) };
    let d = &view.derived;
    let orphans = app.tool_orphans();
    let title = format!(
        " Tools · {} occurrences · {orphans} orphan finishes · filter {} · sort {} ",
        rows.len() - orphans,
        app.tool_filter.word(),
        if app.tool_sort_by_name { "name" } else { "position" }
    );
    let name_w = (w / 4).clamp(10, 28);
    let lines = rows
        .iter()
        .skip(win.start)
        .take(win.len)
        .map(|r| match r {
            Ok(oi) => {
                let o = &d.occurrences.occurrences[*oi];
                let status = lifecycle_status(&o.lifecycle);
                let st = &d.turns[o.start_ref.scope_turn];
                let finish = match (&o.lifecycle, o.finish_ref) {
                    (Lifecycle::Finished { .. }, Some(f)) => {
                        format!("{}:{}", d.turns[f.scope_turn].turn_ordinal, f.event + 1)
                    }
                    _ => "—".into(),
                };
                let name = match &o.canonical_name {
                    Some(c) if c != &o.original_name => format!("{} [{c}]", o.original_name),
                    _ => o.original_name.to_string(),
                };
                let input = attempt_event(app, o.start_ref.scope_turn, o.start_ref.event)
                    .map(crate::model::timeline::tool_input_preview)
                    .unwrap_or_default();
                Line::from(vec![
                    Span::styled(format!("{} ", status.mark()), theme.status(status)),
                    Span::styled(fit(status.word(), 10), theme.status(status)),
                    Span::styled(fit(&cell(&name, name_w), name_w + 1), theme.text),
                    Span::styled(
                        format!("{:>6} → {:<6} ", format!("{}:{}", st.turn_ordinal, o.start_ref.event + 1), finish),
                        theme.dim,
                    ),
                    Span::raw(cell(&input, w.saturating_sub(name_w + 30))),
                ])
            }
            Err(oi) => {
                let o = &d.occurrences.orphan_finishes[*oi];
                let why = if o.ambiguous_id { "finish of an ambiguous id" } else { "finish without a start" };
                Line::from(vec![
                    Span::styled("? ", theme.warn),
                    Span::styled(fit("orphan", 10), theme.warn),
                    Span::styled(fit(&cell(&o.operation_id, name_w), name_w + 1), theme.text),
                    Span::styled(
                        format!("{:>6}          ", format!("{}:{}", o.position.turn_ordinal, o.position.event_ordinal)),
                        theme.dim,
                    ),
                    Span::raw(format!("{why} ({})", o.status)),
                ])
            }
        })
        .collect();
    (title, rows.len(), lines)
}

fn attempt_event(app: &App, scope_turn: usize, event: usize) -> Option<&crate::model::Event> {
    let view = app.view()?;
    let addr = view.derived.turns.get(scope_turn)?.addr;
    app.attempt()?.sessions.get(addr.session)?.turns.get(addr.turn)?.turn.events.get(event)
}

fn hitl(app: &App, theme: &Theme, w: usize, win: Window) -> (String, usize, Vec<Line<'static>>) {
    let rows = app.hitl_rows();
    let Some(view) = app.view() else { return (String::new(), 0, Vec::new()) };
    let waiting = app.hitl_waiting();
    let title = format!(" HITL · {} requests · {waiting} waiting ", rows.len());
    let lines = rows
        .iter()
        .skip(win.start)
        .take(win.len)
        .map(|&i| {
            let r = &view.requests[i];
            let st = match r.state {
                HitlState::Waiting => RowStatus::Waiting,
                HitlState::Answered { .. } => RowStatus::Answered,
                _ => RowStatus::Unanswered,
            };
            let turn = view.derived.turn(r.addr).map(|t| t.turn_ordinal).unwrap_or(0);
            let state = match &r.state {
                HitlState::Waiting => "WAITING".to_string(),
                s => s.word().to_string(),
            };
            Line::from(vec![
                Span::styled(format!("{} ", st.mark()), theme.status(st)),
                Span::styled(fit(&state, 15), theme.status(st)),
                Span::styled(fit(&format!("{turn}:{}", r.event + 1), 7), theme.dim),
                Span::styled(fit(&cell(r.id.as_deref().unwrap_or("(no id)"), 14), 15), theme.text),
                Span::raw(cell(r.question().unwrap_or("(no prompt)"), w.saturating_sub(40))),
            ])
        })
        .collect();
    (title, rows.len(), lines)
}

fn num(x: Option<f64>) -> String {
    x.map(
        |v| if v.abs() >= 1e7 { crate::model::timeline::compact_number(v) } else { crate::model::timeline::grouped(v) },
    )
    .unwrap_or_else(|| "—".into())
}

pub fn usage_cells(u: Option<&Usage>) -> Vec<String> {
    let get = |f: fn(&Usage) -> Option<f64>| num(u.and_then(f));
    vec![
        get(|u| u.input_tokens),
        get(|u| u.output_tokens),
        get(|u| u.cache_read_tokens),
        get(|u| u.cache_creation_tokens),
        get(|u| u.reasoning_tokens),
        get(|u| u.requests),
        u.and_then(|u| u.cost_usd).map(usd).unwrap_or_else(|| "—".into()),
    ]
}

fn usage(app: &App, theme: &Theme, win: Window) -> (String, usize, Vec<Line<'static>>) {
    let Some(view) = app.view() else { return (String::new(), 0, Vec::new()) };
    let Some(attempt) = app.attempt() else { return (String::new(), 0, Vec::new()) };
    let title = " Usage       input  output cache rd cache wr  reason  req     cost  tok/turn ".to_string();
    let max_tokens = app.max_turn_tokens();
    let row = |label: String, u: Option<&Usage>, style: Style, bar: Option<f64>| {
        let cells = usage_cells(u);
        let mut spans = vec![Span::styled(fit(&label, 12), style)];
        for (i, c) in cells.iter().enumerate() {
            let w = match i {
                5 => 5,
                6 => 9,
                _ => 8,
            };
            spans.push(Span::styled(format!("{c:>w$}"), style));
        }
        if let Some(t) = bar {
            let n = if max_tokens > 0.0 { ((t / max_tokens) * 12.0).round() as usize } else { 0 };
            spans.push(Span::styled(format!("  {}", "█".repeat(n.max(1))), theme.accent));
        }
        Line::from(spans)
    };
    // Rows: the turns in scope, the sessions, the total, what was reported;
    // only those in the window are built.
    let turns = app.usage_turns();
    let sessions = &view.derived.sessions;
    let reported = attempt.reported_usage.as_ref();
    let total = turns.len() + sessions.len() + 1 + usize::from(reported.is_some());
    let lines = (win.start..total.min(win.start.saturating_add(win.len)))
        .map(|i| match i.checked_sub(turns.len()) {
            None => {
                let t = &view.derived.turns[turns[i]];
                let record = &attempt.sessions[t.addr.session].turns[t.addr.turn];
                let u = record.turn.usage.as_ref();
                row(format!("turn {}", t.turn_ordinal), u, theme.text, u.and_then(|u| u.total_tokens()))
            }
            Some(s) if s < sessions.len() => row(sessions[s].name.clone(), Some(&sessions[s].usage), theme.title, None),
            Some(s) if s == sessions.len() => row("total".into(), Some(&view.derived.usage), theme.title, None),
            Some(_) => row("reported".into(), reported, theme.accent, None),
        })
        .collect();
    (title, total, lines)
}

fn assertions(app: &App, theme: &Theme, w: usize, win: Window) -> (String, usize, Vec<Line<'static>>) {
    let Some(list) = app.attempt().and_then(|a| a.review.assertions.as_ref()) else {
        return (" Assertions · not recorded ".into(), 0, Vec::new());
    };
    let rows = app.assertion_rows();
    let failing = app.failing_gates();
    let title = format!(" Assertions · {} · {failing} failing gates ", list.len());
    let lines = rows
        .iter()
        .skip(win.start)
        .take(win.len)
        .map(|&i| {
            let a = &list[i];
            let result = a.result.as_deref().unwrap_or("—");
            let gate = a.gate.as_deref().unwrap_or("—");
            let word = match (gate, result) {
                ("failed", _) => "failed",
                ("unavailable", _) | (_, "unavailable") => "unavailable",
                (_, "errored") => "errored",
                (_, "matched") => "passed",
                (_, "mismatched") => "mismatched",
                _ => result,
            };
            let required = if a.requirement.as_deref() == Some("optional") { "opt" } else { "req" };
            let mut label = a.group_path.join(" › ");
            if !label.is_empty() {
                label.push_str(" › ");
            }
            label.push_str(&super::inspector::assertion_label(a));
            Line::from(vec![
                Span::styled(format!("{} ", verdict_mark(word)), theme.verdict(word)),
                Span::styled(fit(word, 12), theme.verdict(word)),
                Span::styled(fit(required, 4), theme.dim),
                Span::styled(fit(&cell(a.criterion.as_deref().unwrap_or("—"), 18), 19), theme.dim),
                Span::raw(cell(&label, w.saturating_sub(40))),
            ])
        })
        .collect();
    (title, rows.len(), lines)
}

fn diagnostics(app: &App, theme: &Theme, w: usize, win: Window) -> (String, usize, Vec<Line<'static>>) {
    let findings = app.scoped_findings();
    let (errors, warnings) = app.finding_counts();
    let all = &app.findings;
    let title = format!(" Diagnostics · {errors} errors · {warnings} warnings ");
    let view = app.view();
    let mut lines: Vec<Line<'static>> = findings
        .iter()
        .skip(win.start)
        .take(win.len)
        .map(|&i| {
            let f = &all[i];
            let style = match f.severity {
                crate::model::diagnostics::Severity::Error => theme.err,
                crate::model::diagnostics::Severity::Warning => theme.warn,
            };
            let pos = match (f.location.turn, view) {
                (Some(t), Some(v)) => {
                    let ord = v
                        .derived
                        .turn(crate::model::TurnAddr { session: f.location.session, turn: t })
                        .map(|x| x.turn_ordinal)
                        .unwrap_or(0);
                    match f.location.event {
                        Some(e) => format!("{ord}:{}", e + 1),
                        None => format!("{ord}"),
                    }
                }
                _ => "—".into(),
            };
            Line::from(vec![
                Span::styled(format!("{} ", if style == theme.err { "✗" } else { "!" }), style),
                Span::styled(fit(f.severity.as_str(), 8), style),
                Span::styled(fit(&pos, 7), theme.dim),
                Span::styled(fit(f.code, 26), theme.accent),
                Span::raw(cell(&f.message, w.saturating_sub(44))),
            ])
        })
        .collect();
    let recorded = app.attempt().map(|a| a.review.diagnostics.as_slice()).unwrap_or(&[]);
    let total = findings.len() + recorded.len();
    let skip_recorded = win.start.saturating_sub(findings.len());
    let room = win.len.saturating_sub(lines.len());
    {
        for d in recorded.iter().skip(skip_recorded).take(room) {
            lines.push(Line::from(vec![
                Span::styled("‼ ", theme.err),
                Span::styled(fit(&d.kind, 16), theme.err),
                Span::styled(fit(&cell(&d.code, 24), 26), theme.accent),
                Span::raw(cell(&d.message, w.saturating_sub(44))),
            ]));
        }
    }
    (title, total, lines)
}

fn changes(app: &App, theme: &Theme, w: usize, win: Window) -> (String, usize, Vec<Line<'static>>) {
    use crate::model::document::Completeness;
    let Some(fc) = app.attempt().and_then(|a| a.review.file_changes.as_ref()) else {
        return (" Changes · not recorded ".into(), 0, Vec::new());
    };
    let state = match &fc.state {
        Some(Completeness::Complete) => "complete".to_string(),
        Some(Completeness::Partial(r)) => format!("partial: {}", r.join("; ")),
        Some(Completeness::NotRecorded) => "not recorded".into(),
        None => "—".into(),
    };
    let title = format!(" Changes · {} files · {state} ", fc.changes.len());
    let lines = fc
        .changes
        .iter()
        .skip(win.start)
        .take(win.len)
        .map(|c| {
            let style = match c.kind {
                'A' => theme.ok,
                'D' => theme.err,
                _ => theme.warn,
            };
            Line::from(vec![
                Span::styled(format!("{} ", c.kind), style),
                Span::styled(fit(&cell(c.window.as_deref().unwrap_or("—"), 16), 17), theme.dim),
                Span::raw(cell(&c.path, w.saturating_sub(22))),
            ])
        })
        .collect();
    (title, fc.changes.len(), lines)
}
