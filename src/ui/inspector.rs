//! Inspector for the selected item: Preview (readable) and Raw (exact JSON).
//! Built lines are cached per selection, mode and width.

use super::highlight::json_lines;
use super::lists::{lifecycle_status, usage_cells};
use super::theme::{Theme, ThemeName, verdict_mark};
use super::{RenderCache, kv, panel};
use crate::app::{App, Focus, Tab};
use crate::model::command::describe;
use crate::model::document::{Assertion, Fact};
use crate::model::hitl::{Answer, HitlState};
use crate::model::occurrence::{Evidence, Lifecycle, Occurrence};
use crate::model::text::{Lines, sanitize, wrap};
use crate::model::timeline::{RowKind, grouped, usd};
use crate::model::usage::Estimate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use serde_json::Value;
use std::hash::{Hash, Hasher};

pub struct Built {
    pub title: String,
    pub lines: Vec<Line<'static>>,
}

/// Text values longer than this are cut in the preview with a stated count (full value: `o` / `y`).
const PREVIEW_CHARS: usize = 200_000;

pub fn render(frame: &mut Frame, area: Rect, app: &App, cache: &mut RenderCache) {
    let width = area.width.saturating_sub(2) as usize;
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (app.tab_index(), app.scope, app.list().selected, app.raw, width, app.focus == Focus::Nav).hash(&mut h);
        app.selected_row().hash(&mut h);
        // The tool filter and sort change which occurrence sits at a position.
        if app.tab == Tab::Tools {
            app.tool_rows().get(app.list().selected).hash(&mut h);
        }
        (cache.theme.name as u8).hash(&mut h);
        h.finish()
    };
    let theme = cache.theme.clone();
    let built = cache.inspector_lines(key, || {
        let mut b = build(app, &theme, width);
        b.lines = b.lines.into_iter().flat_map(|l| wrap_line(l, width)).collect();
        b
    });
    let focused = app.focus == Focus::Inspector;
    let mode = if app.raw { "Preview │ [Raw]" } else { "[Preview] │ Raw" };
    let title = Line::from(vec![
        Span::styled(format!(" {} ", built.title), theme.title),
        Span::styled(format!(" {mode} (r) "), theme.dim),
    ]);
    let block = panel(title, focused, &theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    let max_scroll = built.lines.len().saturating_sub(height);
    let scroll = app.inspector_scroll.min(max_scroll);
    let mut lines: Vec<Line> = built.lines.iter().skip(scroll).take(height).cloned().collect();
    if built.lines.len() > height && !lines.is_empty() {
        let last = lines.len() - 1;
        let more = built.lines.len() - scroll - height.min(built.lines.len() - scroll);
        if more > 0 {
            lines[last] = Line::styled(format!("↓ {more} more lines (Tab to focus, j/k to scroll)"), theme.dim);
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Wrap a styled line at `width` columns, keeping span styles.
pub fn wrap_line(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    use unicode_width::UnicodeWidthChar;
    if width < 4 || line.width() <= width {
        return vec![line];
    }
    let mut out = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width {
                if !piece.is_empty() {
                    current.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                out.push(Line::from(std::mem::take(&mut current)).style(line.style));
                used = 0;
            }
            used += w;
            piece.push(c);
        }
        if !piece.is_empty() {
            current.push(Span::styled(piece, span.style));
        }
    }
    if !current.is_empty() {
        out.push(Line::from(current).style(line.style));
    }
    out
}

fn text_block(text: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    let (shown, cut) = cut(text);
    let mut out: Vec<Line<'static>> =
        wrap(&sanitize(shown, Lines::Multi), width.max(8)).into_iter().map(|l| Line::styled(l, style)).collect();
    if cut > 0 {
        out.push(Line::raw(format!("… ({cut} more characters; o opens the whole value in $PAGER)")));
    }
    out
}

fn cut(text: &str) -> (&str, usize) {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((at, _)) => (&text[..at], text[at..].chars().count()),
        None => (text, 0),
    }
}

fn json_block(v: &Value, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    if let Value::String(s) = v {
        return text_block(s, width, theme.text);
    }
    if let Some(lines) = terminal_block(v, width, theme) {
        return lines;
    }
    let pretty = serde_json::to_string_pretty(v).unwrap_or_default();
    let (shown, cut_chars) = cut(&pretty);
    let safe = sanitize(shown, Lines::Multi);
    let color = theme.name != ThemeName::Mono;
    let mut out = Vec::new();
    for line in json_lines(&safe, color, theme.name == ThemeName::Dark) {
        // Long JSON lines wrap as plain text rather than run off the panel.
        if line.width() > width && width > 8 {
            let plain: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            out.extend(wrap(&plain, width).into_iter().map(Line::raw));
        } else {
            out.push(line);
        }
    }
    if cut_chars > 0 {
        out.push(Line::raw(format!("… ({cut_chars} more characters; o opens the whole value in $PAGER)")));
    }
    out
}

/// Command results `{exit_code|exitCode, stdout, stderr}` read like a terminal:
/// exit code (red when not 0), stdout, then stderr; other keys follow as JSON.
fn terminal_block(v: &Value, width: usize, theme: &Theme) -> Option<Vec<Line<'static>>> {
    let obj = v.as_object()?;
    let stdout = obj.get("stdout").or_else(|| obj.get("output"))?.as_str()?;
    let exit = obj.get("exit_code").or_else(|| obj.get("exitCode")).and_then(Value::as_f64);
    let mut out = Vec::new();
    match exit {
        Some(code) => {
            let style = if code == 0.0 { theme.ok } else { theme.err };
            out.push(Line::styled(format!("exit code {code}"), style));
        }
        None => out.push(Line::styled("exit code —", theme.dim)),
    }
    out.push(Line::styled("stdout", theme.dim));
    if stdout.is_empty() {
        out.push(Line::styled("(no output)", theme.dim));
    } else {
        out.extend(text_block(stdout, width, theme.text));
    }
    if let Some(stderr) = obj.get("stderr").and_then(Value::as_str) {
        out.push(Line::styled("stderr", theme.dim));
        if stderr.is_empty() {
            out.push(Line::styled("(empty)", theme.dim));
        } else {
            out.extend(text_block(stderr, width, theme.warn));
        }
    }
    let rest: serde_json::Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "stdout" | "output" | "stderr" | "exit_code" | "exitCode"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !rest.is_empty() {
        let pretty = serde_json::to_string_pretty(&Value::Object(rest)).unwrap_or_default();
        out.extend(json_lines(
            &sanitize(&pretty, Lines::Multi),
            theme.name != ThemeName::Mono,
            theme.name == ThemeName::Dark,
        ));
    }
    Some(out)
}

fn heading(text: &str, theme: &Theme) -> Line<'static> {
    Line::styled(text.to_string(), theme.title)
}

fn evidence_lines(label: &str, e: &Evidence, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![];
    match e {
        Evidence::Complete { value } => {
            out.push(heading(&format!("{label} · complete"), theme));
            match value {
                Some(v) => out.extend(json_block(v, width, theme)),
                None => out.push(Line::styled("(absent: the event has no value for it)", theme.dim)),
            }
        }
        Evidence::Partial { value, opaque_pointers, reason } => {
            out.push(Line::from(vec![
                Span::styled(format!("{label} · "), theme.title),
                Span::styled(format!("partial ({}): {}", reason.as_str(), opaque_pointers.join(", ")), theme.warn),
            ]));
            if let Some(v) = value {
                out.extend(json_block(v, width, theme));
            }
        }
        Evidence::Unavailable { reason } => {
            out.push(Line::from(vec![
                Span::styled(format!("{label} · "), theme.title),
                Span::styled(format!("unavailable: {reason}"), theme.warn),
            ]));
        }
    }
    out
}

fn occurrence_lines(app: &App, o: &Occurrence, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let Some(view) = app.view() else { return Vec::new() };
    let d = &view.derived;
    let status = lifecycle_status(&o.lifecycle);
    let mut out = vec![
        Line::from(vec![
            Span::styled(format!("{} ", status.mark()), theme.status(status)),
            Span::styled(sanitize(&o.original_name, Lines::Single).into_owned(), theme.title),
            Span::styled(
                match &o.canonical_name {
                    Some(c) => format!("  canonical: {c}"),
                    None => "  canonical: (not given)".into(),
                },
                theme.dim,
            ),
        ]),
        kv("status", status.word(), theme, theme.status(status)),
        kv("call id", sanitize(&o.operation_id, Lines::Single).into_owned(), theme, theme.text),
        kv("start", format!("{}:{}", o.start.turn_ordinal, o.start.event_ordinal), theme, theme.text),
    ];
    match &o.lifecycle {
        Lifecycle::Finished { finish, .. } => {
            out.push(kv("finish", format!("{}:{}", finish.turn_ordinal, finish.event_ordinal), theme, theme.text))
        }
        Lifecycle::Pending => out.push(kv("finish", "— (never finished)", theme, theme.pending)),
        Lifecycle::Opaque { reason } => out.push(kv(
            "lifecycle",
            match reason {
                crate::model::occurrence::OpaqueReason::MissingLifecycleEvidence => {
                    format!("opaque: {} (the id was reused while still open)", reason.as_str())
                }
                crate::model::occurrence::OpaqueReason::PartialStream => {
                    format!("opaque: {} (no turn status: the stream may not be finished)", reason.as_str())
                }
            },
            theme,
            theme.warn,
        )),
    }
    out.push(kv("command", sanitize(&describe(o.command.as_deref()), Lines::Single).into_owned(), theme, theme.text));
    out.push(kv("occurrence", sanitize(&o.id(), Lines::Single).into_owned(), theme, theme.dim));
    out.push(Line::raw(""));
    out.extend(evidence_lines("input", &o.input, width, theme));
    out.push(Line::raw(""));
    out.extend(evidence_lines("output", &o.output, width, theme));
    let target = crate::model::evidence::EvidenceTarget {
        addr: d.turns[o.start_ref.scope_turn].addr,
        event: Some(o.start_ref.event),
    };
    if let Some(list) = view.badges.get(&(target.addr, target.event))
        && let Some(assertions) = app.attempt().and_then(|a| a.review.assertions.as_ref())
    {
        out.push(Line::raw(""));
        out.push(heading(&format!("◆ asserted by {} (5: Assertions tab)", list.len()), theme));
        for &i in list {
            if let Some(a) = assertions.get(i) {
                out.push(Line::raw(format!("  {}", sanitize(&a.label, Lines::Single))));
            }
        }
    }
    out
}

fn build(app: &App, theme: &Theme, width: usize) -> Built {
    let empty = |t: &str| Built { title: t.to_string(), lines: vec![Line::styled("nothing selected", theme.dim)] };
    let (Some(view), Some(attempt)) = (app.view(), app.attempt()) else { return empty("Inspector") };
    let pretty = |v: &Value| json_block(v, width, theme);
    if app.focus == Focus::Nav && !app.raw {
        return Built { title: "Scope".into(), lines: scope_summary(app, theme, width) };
    }
    match app.tab {
        Tab::Timeline => {
            let Some(ri) = app.selected_row() else { return empty("Inspector") };
            let row = &view.timeline.rows[ri];
            let record = &attempt.sessions[row.addr.session].turns[row.addr.turn];
            let event = row.event.and_then(|e| record.turn.events.get(e));
            let title = format!("{} {}", row.kind.word(), row.position());
            if app.raw {
                let mut lines = Vec::new();
                match (row.kind, event) {
                    (RowKind::TurnHeader, _) => {
                        lines.push(heading("turn (without events)", theme));
                        let mut t = serde_json::Map::new();
                        t.insert("status".into(), record.turn.status.clone().map(Value::from).unwrap_or(Value::Null));
                        if let Some(u) = &record.turn.usage_raw {
                            t.insert("usage".into(), u.clone());
                        }
                        if let Some(d) = &record.turn.data {
                            t.insert("data".into(), d.clone());
                        }
                        if let Some(c) = &record.turn.evidence_coverage {
                            t.insert("evidenceCoverage".into(), c.clone());
                        }
                        lines.extend(pretty(&Value::Object(t)));
                    }
                    (RowKind::Input, _) => match &record.input {
                        Some(i) => lines.extend(pretty(i)),
                        None => lines.push(Line::styled("input not recorded", theme.dim)),
                    },
                    (_, Some(e)) => {
                        lines.extend(pretty(e.raw()));
                        if let Some(f) = row.merged_finish.and_then(|i| record.turn.events.get(i)) {
                            lines.push(Line::raw(""));
                            lines.push(heading(
                                &format!("finish {}:{}", row.turn_ordinal, row.merged_finish.unwrap_or(0) + 1),
                                theme,
                            ));
                            lines.extend(pretty(f.raw()));
                        }
                    }
                    _ => {}
                }
                return Built { title, lines };
            }
            let mut lines = Vec::new();
            match (row.kind, event) {
                (RowKind::TurnHeader, _) => {
                    let dt = view.derived.turn(row.addr);
                    let status = record.turn.status.as_deref().unwrap_or("not recorded");
                    lines.push(kv(
                        "status",
                        format!("{} {status}", verdict_mark(status)),
                        theme,
                        theme.verdict(status),
                    ));
                    if let Some(l) = &record.label {
                        lines.push(kv("label", sanitize(l, Lines::Single).into_owned(), theme, theme.text));
                    }
                    if let Some(t) = dt {
                        lines.push(kv(
                            "scope",
                            format!("{}/{} (turnOrdinal {})", t.session_name, t.turn_name, t.turn_ordinal),
                            theme,
                            theme.text,
                        ));
                        lines.push(kv(
                            "tools",
                            format!(
                                "{} occurrences, {} orphan finishes",
                                t.occurrences.occurrences.len(),
                                t.occurrences.orphan_finishes.len()
                            ),
                            theme,
                            theme.text,
                        ));
                    }
                    lines.push(kv("events", record.turn.events.len().to_string(), theme, theme.text));
                    lines.push(kv(
                        "duration",
                        record.duration_ms.map(|d| format!("{d} ms")).unwrap_or_else(|| "—".into()),
                        theme,
                        theme.text,
                    ));
                    if let Some(tr) = &record.trace_id {
                        lines.push(kv("trace", sanitize(tr, Lines::Single).into_owned(), theme, theme.text));
                    }
                    lines.push(Line::raw(""));
                    lines.push(heading("usage (as reported for this turn)", theme));
                    let names = ["input", "output", "cache read", "cache creation", "reasoning", "requests", "costUSD"];
                    for (n, c) in names.iter().zip(usage_cells(record.turn.usage.as_ref())) {
                        lines.push(kv(n, c, theme, theme.text));
                    }
                    if let Some(t) = dt
                        && !t.coverage.is_complete()
                    {
                        lines.push(Line::raw(""));
                        lines.push(heading("evidence coverage (downgraded by the turn)", theme));
                        for (i, ch) in crate::model::coverage::CHANNELS.iter().enumerate() {
                            let e = &t.coverage.entries[i];
                            if e.status != crate::model::coverage::CoverageStatus::Complete {
                                let reason = e.reason.clone().unwrap_or_default();
                                lines.push(kv(
                                    ch,
                                    format!("{}: {}", e.status.as_str(), sanitize(&reason, Lines::Single)),
                                    theme,
                                    theme.warn,
                                ));
                            }
                        }
                    }
                    if let Some(d) = &record.turn.data {
                        lines.push(Line::raw(""));
                        lines.push(heading("data (structured output)", theme));
                        lines.extend(pretty(d));
                    }
                }
                (RowKind::Input, _) => {
                    lines.push(heading("the eval's input (runner's user message, ordinal 0)", theme));
                    match record.input_text() {
                        Some(t) => lines.extend(text_block(t, width, theme.text)),
                        None => lines.push(Line::styled("input not recorded", theme.dim)),
                    }
                    let responses = record.responses();
                    if !responses.is_empty() {
                        lines.push(Line::raw(""));
                        lines.push(heading("responses to input requests", theme));
                        for r in responses {
                            lines.extend(pretty(r));
                        }
                    }
                    if let Some(files) = record.input.as_ref().and_then(|i| i.get("files")).and_then(Value::as_array) {
                        lines.push(kv("files", format!("{} attached", files.len()), theme, theme.text));
                    }
                }
                (RowKind::ToolStart | RowKind::ToolFinish, _) if row.occurrence.is_some() => {
                    let o = &view.derived.occurrences.occurrences[row.occurrence.unwrap_or(0)];
                    lines.extend(occurrence_lines(app, o, width, theme));
                }
                (RowKind::ToolFinish, Some(e)) => {
                    let orphan = row.orphan.map(|i| &view.derived.occurrences.orphan_finishes[i]);
                    let why = match orphan {
                        Some(o) if o.ambiguous_id => {
                            "orphan: this id was reused while open earlier in the session (ambiguous), so no finish of it can be trusted"
                        }
                        _ => "orphan: no open start with this id in its session (pairing never crosses sessions)",
                    };
                    lines.push(Line::styled(why, theme.warn));
                    lines.push(kv(
                        "call id",
                        sanitize(e.operation_id().unwrap_or(""), Lines::Single).into_owned(),
                        theme,
                        theme.text,
                    ));
                    lines.push(Line::raw(""));
                    lines.push(heading("output", theme));
                    match e.output() {
                        Some(v) => lines.extend(pretty(&v)),
                        None => lines.push(Line::styled("(absent)", theme.dim)),
                    }
                }
                (RowKind::InputRequest, _) if row.request.is_some() => {
                    lines.extend(request_lines(app, row.request.unwrap_or(0), width, theme));
                }
                (RowKind::Unrecognized, Some(e)) => {
                    if let crate::model::EventKind::Unrecognized { reason } = &e.kind {
                        lines.push(Line::styled(
                            format!("unrecognized: {}", sanitize(reason, Lines::Single)),
                            theme.err,
                        ));
                    }
                    lines.push(Line::styled("kept as written (never dropped):", theme.dim));
                    lines.extend(pretty(e.raw()));
                }
                (_, Some(e)) => {
                    if let Some(src) = e.source() {
                        lines.push(kv("source", sanitize(src, Lines::Single).into_owned(), theme, theme.text));
                    }
                    if let Some(id) = e.operation_id() {
                        lines.push(kv("id", sanitize(id, Lines::Single).into_owned(), theme, theme.text));
                    }
                    match e.text().or(e.reason().map(std::borrow::Cow::Borrowed)) {
                        Some(t) => lines.extend(text_block(&t, width, theme.kind(row.kind))),
                        None => lines.extend(pretty(e.raw())),
                    }
                    if let Some(out) = e.output() {
                        lines.push(Line::raw(""));
                        lines.push(heading("output", theme));
                        lines.extend(pretty(&out));
                    }
                }
                _ => {}
            }
            Built { title, lines }
        }
        Tab::Tools => {
            let rows = app.tool_rows();
            let Some(r) = rows.get(app.lists[1].selected) else { return empty("Tool") };
            let lines = match r {
                Ok(o) => {
                    let occ = &view.derived.occurrences.occurrences[*o];
                    if app.raw { pretty(&occ.to_json()) } else { occurrence_lines(app, occ, width, theme) }
                }
                Err(o) => {
                    let orphan = &view.derived.occurrences.orphan_finishes[*o];
                    let mut l = vec![Line::styled(
                        if orphan.ambiguous_id {
                            "finish of an id that was reused while open (ambiguous): not trusted"
                        } else {
                            "finish with no start in its session"
                        },
                        theme.warn,
                    )];
                    l.extend(pretty(&orphan.to_json()));
                    l
                }
            };
            Built { title: "Tool occurrence".into(), lines }
        }
        Tab::Hitl => {
            let rows = app.hitl_rows();
            match rows.get(app.lists[2].selected) {
                Some(&i) => {
                    let r = &view.requests[i];
                    let lines = if app.raw {
                        attempt.sessions[r.addr.session].turns[r.addr.turn]
                            .turn
                            .events
                            .get(r.event)
                            .map(|e| pretty(e.raw()))
                            .unwrap_or_default()
                    } else {
                        request_lines(app, i, width, theme)
                    };
                    Built { title: "Input request".into(), lines }
                }
                None => empty("Input request"),
            }
        }
        Tab::Usage => Built { title: "Cost".into(), lines: cost_lines(app, theme) },
        Tab::Assertions => {
            let rows = app.assertion_rows();
            let Some(a) = rows.get(app.lists[4].selected).and_then(|&i| attempt.review.assertions.as_ref()?.get(i))
            else {
                return empty("Assertion");
            };
            let lines = if app.raw { pretty(&a.raw) } else { assertion_lines(app, a, width, theme) };
            Built { title: "Assertion".into(), lines }
        }
        Tab::Changes => {
            let Some(c) = attempt.review.file_changes.as_ref().and_then(|f| f.changes.get(app.lists[6].selected))
            else {
                return empty("File change");
            };
            let mut lines = vec![
                Line::styled(sanitize(&c.path, Lines::Single).into_owned(), theme.title),
                kv(
                    "change",
                    match c.kind {
                        'A' => "added",
                        'D' => "deleted",
                        'M' => "modified",
                        _ => "changed",
                    },
                    theme,
                    theme.text,
                ),
                kv(
                    "window",
                    c.window.as_deref().map(|w| sanitize(w, Lines::Single).into_owned()).unwrap_or_else(|| "—".into()),
                    theme,
                    theme.text,
                ),
            ];
            if let Some(n) = &c.note {
                lines.push(kv("note", sanitize(n, Lines::Single).into_owned(), theme, theme.warn));
            }
            lines.push(Line::raw(""));
            match (c.before.as_deref(), c.after.as_deref(), c.kind) {
                (b, Some(a), _) => lines.extend(super::diff::unified(b.unwrap_or(""), a, width, theme)),
                (Some(b), None, 'D') => lines.extend(super::diff::unified(b, "", width, theme)),
                _ => lines.push(Line::styled("(patch unavailable: the content was not recorded)", theme.dim)),
            }
            Built { title: "File change".into(), lines }
        }
        Tab::Diagnostics => {
            let findings = app.scoped_findings();
            let sel = app.lists[5].selected;
            let lines = if let Some(f) = findings.get(sel).map(|&i| &app.findings[i]) {
                vec![
                    kv("severity", f.severity.as_str(), theme, theme.text),
                    kv("code", f.code, theme, theme.accent),
                    kv("rule", f.rule, theme, theme.text),
                    Line::raw(""),
                    heading("what is wrong", theme),
                ]
                .into_iter()
                .chain(text_block(&f.message, width, theme.text))
                .chain([Line::raw(""), heading("how to fix it", theme)])
                .chain(text_block(&f.hint, width, theme.text))
                .chain([Line::raw(""), Line::styled("Enter jumps to the row", theme.dim)])
                .collect()
            } else if let Some(d) = attempt.review.diagnostics.get(sel - findings.len().min(sel)) {
                let mut l = vec![
                    kv("kind", sanitize(&d.kind, Lines::Single).into_owned(), theme, theme.text),
                    kv("code", sanitize(&d.code, Lines::Single).into_owned(), theme, theme.accent),
                    kv(
                        "phase",
                        d.phase
                            .as_deref()
                            .map(|p| sanitize(p, Lines::Single).into_owned())
                            .unwrap_or_else(|| "—".into()),
                        theme,
                        theme.text,
                    ),
                    Line::raw(""),
                ];
                l.extend(text_block(&d.message, width, theme.text));
                for c in &d.causes {
                    l.push(Line::raw(format!("  cause: {}", sanitize(c, Lines::Single))));
                }
                l
            } else {
                vec![Line::styled("no findings", theme.dim)]
            };
            Built { title: "Finding".into(), lines }
        }
    }
}

fn request_lines(app: &App, index: usize, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let Some(view) = app.view() else { return Vec::new() };
    let r = &view.requests[index];
    let s = |x: &Option<String>| {
        x.as_deref().map(|v| sanitize(v, Lines::Single).into_owned()).unwrap_or_else(|| "—".into())
    };
    let mut out = Vec::new();
    let (word, style) = match &r.state {
        HitlState::Waiting => ("⏸ WAITING for an answer".to_string(), theme.hitl),
        HitlState::Answered { answer, turn } => {
            let ord = view.derived.turn(*turn).map(|t| t.turn_ordinal).unwrap_or(0);
            let a = match answer {
                Answer::Option { id, label } => {
                    format!("option {}{}", id, label.as_ref().map(|l| format!(" ({l})")).unwrap_or_default())
                }
                Answer::Text(t) => format!("text \"{t}\""),
            };
            (format!("✓ answered in turn {ord}: {}", sanitize(&a, Lines::Single)), theme.ok)
        }
        HitlState::NeverAnswered { next } => {
            let ord = view.derived.turn(*next).map(|t| t.turn_ordinal).unwrap_or(0);
            (format!("! never answered: turn {ord} came without a response for it"), theme.warn)
        }
        HitlState::Unanswered { turn_status } => (
            format!(
                "! unanswered: the turn ended {} and no later turn exists",
                turn_status.as_deref().unwrap_or("without a status")
            ),
            theme.warn,
        ),
    };
    out.push(Line::styled(word, style));
    out.push(kv("id", s(&r.id), theme, theme.text));
    out.push(kv("action", s(&r.action), theme, theme.text));
    out.push(kv("prompt", s(&r.prompt), theme, theme.text));
    out.push(kv("display", s(&r.display), theme, theme.text));
    if r.options.is_empty() {
        out.push(kv("options", "— (free text)", theme, theme.text));
    } else {
        out.push(heading("options", theme));
        for (id, label) in &r.options {
            out.push(Line::raw(format!(
                "  {} {}",
                sanitize(id, Lines::Single),
                label.as_deref().map(|l| format!("— {}", sanitize(l, Lines::Single))).unwrap_or_default()
            )));
        }
    }
    if let Some(input) = &r.input {
        out.push(heading("input", theme));
        out.extend(json_block(input, width, theme));
    }
    out.push(Line::raw(""));
    out.push(heading("tool calls pending when it was asked", theme));
    if r.gated.is_empty() {
        out.push(Line::styled("none", theme.dim));
    }
    for &oi in &r.gated {
        let o = &view.derived.occurrences.occurrences[oi];
        let st = lifecycle_status(&o.lifecycle);
        let outcome = match (&r.state, st.word()) {
            (HitlState::Answered { .. }, "completed") => "approved → completed",
            (HitlState::Answered { .. }, "rejected") => "denied → rejected",
            (_, w) => w,
        };
        out.push(Line::from(vec![
            Span::styled(format!("  {} ", st.mark()), theme.status(st)),
            Span::raw(sanitize(&o.original_name, Lines::Single).into_owned()),
            Span::styled(format!("  {outcome}"), theme.status(st)),
        ]));
    }
    out
}

fn cost_lines(app: &App, theme: &Theme) -> Vec<Line<'static>> {
    let Some(view) = app.view() else { return Vec::new() };
    let Some(attempt) = app.attempt() else { return Vec::new() };
    let d = &view.derived;
    let usage = attempt.reported_usage.unwrap_or(d.usage);
    let mut out = vec![
        heading("observed cost (costUSD reported by the adapter)", theme),
        Line::raw(format!("  {}", usage.cost_usd.map(usd).unwrap_or_else(|| "— (not reported)".into()))),
        Line::raw(""),
        heading("estimated cost (price table × tokens)", theme),
    ];
    // The model, the price file and its keys come from input: sanitized like every other value here.
    let clean = |t: &str| sanitize(t, Lines::Single).into_owned();
    out.push(kv("model", d.model.as_deref().map(clean).unwrap_or_else(|| "— (use --model)".into()), theme, theme.text));
    out.push(kv("prices", clean(&app.prices.source), theme, theme.text));
    match &d.estimate {
        Estimate::Priced { total, hit, lines } => {
            out.push(kv(
                "price key",
                format!("{}{}", clean(&hit.key), if hit.from_override { " (override)" } else { "" }),
                theme,
                theme.text,
            ));
            for l in lines {
                let note = if l.rate_from_input { " (input price: no own rate)" } else { "" };
                out.push(Line::raw(format!(
                    "  {:<15} {:>12} × ${}/M = {}{note}",
                    l.bucket,
                    grouped(l.tokens),
                    l.rate,
                    usd(l.amount)
                )));
            }
            out.push(Line::styled(format!("  {:<15} {:>12}   {:>8}  {}", "total", "", "", usd(*total)), theme.title));
            out.push(Line::styled("  reasoning tokens and requests are never priced", theme.dim));
        }
        other => out.push(Line::styled(format!("  — {}", clean(&other.reason().unwrap_or_default())), theme.warn)),
    }
    if let Some(e) = attempt.reported_estimate {
        out.push(kv("NiceEval's", format!("estimatedCostUSD {}", usd(e)), theme, theme.text));
    }
    out.push(Line::raw(""));
    out.push(heading("cache", theme));
    out.push(Line::raw(format!(
        "  hit ratio {}",
        usage.cache_hit_ratio().map(|r| format!("{:.1}%", r * 100.0)).unwrap_or_else(|| "—".into())
    )));
    out
}

fn fact_lines(f: &Fact, depth: usize, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    let pad = "  ".repeat(depth);
    match f {
        Fact::Value(v) => {
            for l in json_block(v, width.saturating_sub(pad.len()), theme) {
                let mut spans = vec![Span::raw(pad.clone())];
                spans.extend(l.spans);
                out.push(Line::from(spans));
            }
        }
        Fact::Text(t) => {
            for l in wrap(&sanitize(t, Lines::Multi), width.saturating_sub(pad.len()).max(8)) {
                out.push(Line::raw(format!("{pad}{l}")));
            }
        }
        Fact::List(items) => {
            for (i, item) in items.iter().enumerate() {
                out.push(Line::styled(format!("{pad}[{i}]"), theme.dim));
                fact_lines(item, depth + 1, width, theme, out);
            }
        }
        Fact::Fields(fields) => {
            for (label, value) in fields {
                match value {
                    Fact::Value(v) if !v.is_object() && !v.is_array() => out.push(Line::from(vec![
                        Span::styled(format!("{pad}{}: ", sanitize(label, Lines::Single)), theme.dim),
                        Span::raw(sanitize(&crate::model::timeline::value_preview(v), Lines::Single).into_owned()),
                    ])),
                    Fact::Text(t) if !t.contains('\n') => out.push(Line::from(vec![
                        Span::styled(format!("{pad}{}: ", sanitize(label, Lines::Single)), theme.dim),
                        Span::raw(sanitize(t, Lines::Single).into_owned()),
                    ])),
                    _ => {
                        out.push(Line::styled(format!("{pad}{}:", sanitize(label, Lines::Single)), theme.dim));
                        fact_lines(value, depth + 1, width, theme, out);
                    }
                }
            }
        }
        Fact::Unavailable(reason) => {
            out.push(Line::styled(format!("{pad}unavailable: {}", sanitize(reason, Lines::Single)), theme.warn))
        }
    }
}

/// A name a person can read: the label, else what the matcher said.
pub fn assertion_label(a: &Assertion) -> String {
    if !a.label.is_empty() && !a.label.starts_with("ae_") {
        return a.label.clone();
    }
    let matcher = a.check.as_ref().and_then(|c| c.get("data")).and_then(|d| d.get("matcher")).map(Fact::to_line);
    let message = a.diagnostic().and_then(|d| d.message);
    match (message, matcher) {
        (Some(m), _) => m,
        (None, Some(m)) => format!("{} {m}", a.criterion.as_deref().unwrap_or("")),
        _ => a.label.clone(),
    }
}

fn fact_text(f: &Fact) -> String {
    match f {
        Fact::Value(Value::String(s)) | Fact::Text(s) => s.clone(),
        Fact::Value(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        other => other.to_line(),
    }
}

fn diagnostic_tree(
    d: &crate::model::document::MatchDiagnostic,
    depth: usize,
    theme: &Theme,
    out: &mut Vec<Line<'static>>,
) {
    let pad = "  ".repeat(depth);
    let code = d.code.clone().unwrap_or_else(|| "—".into());
    let style = if code.ends_with("-mismatch") || code.ends_with("mismatch") {
        theme.err
    } else if code.contains("unavailable") {
        theme.warn
    } else {
        theme.accent
    };
    let mut head = vec![
        Span::styled(format!("{pad}▸ "), theme.dim),
        Span::styled(sanitize(&code, Lines::Single).into_owned(), style),
    ];
    if !d.path.is_empty() {
        head.push(Span::styled(format!("  at /{}", sanitize(&d.path.join("/"), Lines::Single)), theme.dim));
    }
    out.push(Line::from(head));
    if let Some(m) = &d.message {
        out.push(Line::raw(format!("{pad}  {}", sanitize(m, Lines::Single))));
    }
    if let Some(e) = &d.expected {
        out.push(Line::from(vec![
            Span::styled(format!("{pad}  expected "), theme.dim),
            Span::raw(sanitize(&e.to_line(), Lines::Single).into_owned()),
        ]));
    }
    if let Some(r) = &d.received {
        out.push(Line::from(vec![
            Span::styled(format!("{pad}  received "), theme.dim),
            Span::raw(sanitize(&r.to_line(), Lines::Single).into_owned()),
        ]));
    }
    if let Some(r) = &d.reason {
        out.push(Line::from(vec![
            Span::styled(format!("{pad}  reason   "), theme.dim),
            Span::styled(sanitize(r, Lines::Single).into_owned(), theme.warn),
        ]));
    }
    match &d.locator {
        Some(crate::model::document::DiagnosticLocator::JsonPointer(p)) => out.push(Line::from(vec![
            Span::styled(format!("{pad}  at value "), theme.dim),
            Span::styled(sanitize(p, Lines::Single).into_owned(), theme.accent),
        ])),
        Some(crate::model::document::DiagnosticLocator::ToolOccurrence { id, .. }) => out.push(Line::from(vec![
            Span::styled(format!("{pad}  call     "), theme.dim),
            Span::styled(sanitize(id, Lines::Single).into_owned(), theme.accent),
        ])),
        Some(crate::model::document::DiagnosticLocator::Other(f)) => {
            out.push(Line::raw(format!("{pad}  locator  {}", sanitize(&f.to_line(), Lines::Single))))
        }
        None => {}
    }
    for child in &d.children {
        let label = child.label.clone().unwrap_or_default();
        let state = child.state.clone().unwrap_or_default();
        out.push(Line::from(vec![
            Span::styled(format!("{pad}  [{}] ", child.index.map(|i| i.to_string()).unwrap_or_default()), theme.dim),
            Span::styled(format!("{state} "), theme.verdict(&state)),
            Span::raw(sanitize(&label, Lines::Single).into_owned()),
        ]));
        if let Some(cd) = &child.diagnostic {
            diagnostic_tree(cd, depth + 2, theme, out);
        }
    }
}

fn source_lines(app: &App, a: &Assertion, theme: &Theme) -> Vec<Line<'static>> {
    let Some(attempt) = app.attempt() else { return Vec::new() };
    let review = &attempt.review;
    let Some(site) = review.source_sites.iter().find(|s| s.entry_id.is_some() && s.entry_id == a.entry_id) else {
        return Vec::new();
    };
    let file = review.sources.iter().find(|f| f.id.is_some() && f.id == site.source_id);
    let Some(content) = file.and_then(|f| f.content.as_deref()) else {
        return vec![Line::styled(format!("  line {} of a source that was not recorded", site.line), theme.dim)];
    };
    let path = file.map(|f| f.path.clone()).unwrap_or_default();
    let mut out = vec![Line::styled(format!("{}:{}", sanitize(&path, Lines::Single), site.line), theme.accent)];
    let lines: Vec<&str> = content.lines().collect();
    let at = site.line as usize;
    let from = at.saturating_sub(3).max(1);
    let to = (at + 3).min(lines.len());
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    for n in from..=to {
        // Gutter: sends, and assertions by outcome, on this line of this file.
        let marks: Vec<(&str, ratatui::style::Style)> = review
            .source_sites
            .iter()
            .filter(|s| s.line as usize == n && s.source_id == site.source_id)
            .map(|s| {
                if s.role.as_deref() == Some("send") {
                    return ("→", theme.accent);
                }
                match assertions.iter().find(|x| x.entry_id.is_some() && x.entry_id == s.entry_id) {
                    Some(x) if x.is_failing_gate() && x.gate.as_deref() == Some("unavailable") => ("?", theme.warn),
                    Some(x) if x.is_failing_gate() => ("✗", theme.err),
                    Some(x) if x.result.as_deref() == Some("unavailable") => ("?", theme.warn),
                    Some(x) if x.result.as_deref() == Some("mismatched") => ("!", theme.warn),
                    Some(_) => ("✓", theme.ok),
                    None => ("·", theme.dim),
                }
            })
            .collect();
        let (mark, style) = marks.first().copied().unwrap_or((" ", theme.dim));
        let code = lines.get(n - 1).copied().unwrap_or("");
        let line_style = if n == at { theme.title } else { theme.text };
        out.push(Line::from(vec![
            Span::styled(mark.to_string(), style),
            Span::styled(format!("{n:>4} │ "), theme.dim),
            Span::styled(sanitize(code, Lines::Single).into_owned(), line_style),
        ]));
    }
    out
}

fn assertion_lines(app: &App, a: &Assertion, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let s = |x: &Option<String>| {
        x.as_deref().map(|v| sanitize(v, Lines::Single).into_owned()).unwrap_or_else(|| "—".into())
    };
    let mut out = vec![Line::styled(sanitize(&assertion_label(a), Lines::Single).into_owned(), theme.title)];
    if !a.group_path.is_empty() {
        out.push(kv("group", sanitize(&a.group_path.join(" › "), Lines::Single).into_owned(), theme, theme.text));
    }
    if let Some(id) = &a.entry_id {
        out.push(kv("entry", sanitize(id, Lines::Single).into_owned(), theme, theme.dim));
    }
    out.push(kv("criterion", s(&a.criterion), theme, theme.text));
    let result = a.result.clone().unwrap_or_else(|| "—".into());
    out.push(kv("decision", format!("{} {}", verdict_mark(&result), result), theme, theme.verdict(&result)));
    if let Some(r) = &a.reason {
        out.push(kv("reason", sanitize(r, Lines::Single).into_owned(), theme, theme.text));
    }
    out.push(kv("gate", s(&a.gate), theme, theme.verdict(a.gate.as_deref().unwrap_or(""))));
    out.push(kv("required", s(&a.requirement), theme, theme.text));
    if let Some(j) = &a.judge {
        out.push(Line::raw(""));
        out.push(heading("Judge", theme));
        match (&j.unavailable_reason, j.score) {
            (Some(reason), _) => {
                out.push(Line::styled(format!("  unavailable: {}", sanitize(reason, Lines::Single)), theme.warn))
            }
            (None, Some(score)) => {
                let threshold = j.threshold.map(|t| format!("  (≥ {t})")).unwrap_or_default();
                out.push(Line::raw(format!("  score {score}{threshold}")));
            }
            (None, None) => out.push(Line::styled("  score —", theme.dim)),
        }
        if j.unavailable_reason.is_some()
            && let Some(t) = j.threshold
        {
            out.push(Line::raw(format!("  threshold ≥ {t}")));
        }
        if let Some(r) = &j.rationale {
            out.push(Line::styled("  rationale", theme.dim));
            fact_lines(r, 2, width, theme, &mut out);
        }
        if let Some(c) = &j.citations {
            out.push(Line::styled("  citations", theme.dim));
            fact_lines(c, 2, width, theme, &mut out);
        }
    }
    let diagnostic = a.diagnostic();
    if let Some(d) = &diagnostic
        && let (Some(e), Some(r)) = (&d.expected, &d.received)
        && a.result.as_deref() == Some("mismatched")
    {
        out.push(Line::raw(""));
        out.push(heading("Diff (expected → received)", theme));
        out.extend(super::diff::diff_lines(&fact_text(e), &fact_text(r), width, theme));
    }
    for (label, fact) in [("Check", &a.check), ("Expected", &a.expected), ("Observed", &a.observed)] {
        out.push(Line::raw(""));
        out.push(heading(label, theme));
        match fact {
            Some(f) => fact_lines(f, 1, width, theme, &mut out),
            None => out.push(Line::styled("  — not recorded", theme.dim)),
        }
    }
    out.push(Line::raw(""));
    out.push(heading("Explanation", theme));
    match (&diagnostic, &a.explanation) {
        (Some(d), _) => diagnostic_tree(d, 1, theme, &mut out),
        (None, Some(f)) => fact_lines(f, 1, width, theme, &mut out),
        (None, None) => out.push(Line::styled("  — not recorded", theme.dim)),
    }
    if let Some(r) = &a.receipt {
        out.push(Line::raw(""));
        out.push(heading("Receipt", theme));
        let n = |k: &str| r.get(k).map(crate::model::timeline::value_preview).unwrap_or_else(|| "—".into());
        out.push(Line::raw(format!(
            "  examined {} · matched {} · mismatched {} · unavailable {}",
            n("examined"),
            n("matched"),
            n("mismatched"),
            n("unavailable")
        )));
    }
    if let Some(v) = &a.checked_value {
        out.push(Line::raw(""));
        out.push(heading("Checked value", theme));
        if let Some(crate::model::document::DiagnosticLocator::JsonPointer(p)) =
            diagnostic.as_ref().and_then(|d| d.locator.clone())
        {
            let at =
                v.pointer(&p).map(crate::model::timeline::value_preview).unwrap_or_else(|| "(not in the value)".into());
            out.push(Line::from(vec![
                Span::styled(format!("  ▶ {} = ", sanitize(&p, Lines::Single)), theme.warn),
                Span::styled(sanitize(&at, Lines::Single).into_owned(), theme.warn),
            ]));
        }
        out.extend(json_block(v, width, theme));
    }
    let source = source_lines(app, a, theme);
    if !source.is_empty() {
        out.push(Line::raw(""));
        out.push(heading("Eval source", theme));
        out.extend(source);
    }
    let ids = crate::model::evidence::occurrence_locators(a);
    if !ids.is_empty() {
        out.push(Line::raw(""));
        out.push(heading("Evidence in the transcript (Enter jumps to the first)", theme));
        let view = app.view();
        for id in ids {
            let at = view
                .and_then(|v| crate::model::evidence::resolve(&v.derived, &id))
                .map(|t| {
                    let ord = view.and_then(|v| v.derived.turn(t.addr)).map(|x| x.turn_ordinal).unwrap_or(0);
                    format!("row {ord}:{}", t.event.map(|e| e + 1).unwrap_or(0))
                })
                .unwrap_or_else(|| "not in this transcript".into());
            out.push(Line::raw(format!("  {} → {at}", sanitize(&id, Lines::Single))));
        }
    }
    out
}

/// What the navigator's selection is: the attempt (identity, verdict, timing,
/// usage, notices), a session, or a turn.
fn scope_summary(app: &App, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let (Some(a), Some(view)) = (app.attempt(), app.view()) else { return Vec::new() };
    let s = |x: &Option<String>| {
        x.as_deref().map(|v| sanitize(v, Lines::Single).into_owned()).unwrap_or_else(|| "—".into())
    };
    let mut out = Vec::new();
    let verdict = a.verdict.clone().or_else(|| crate::model::derive::attempt_status(a).map(str::to_string));
    let v = verdict.clone().unwrap_or_else(|| "unknown".into());
    out.push(Line::styled(format!("{} {}", verdict_mark(&v), v.to_uppercase()), theme.verdict(&v)));
    out.push(kv("eval", s(&a.eval_id), theme, theme.text));
    out.push(kv("experiment", s(&a.experiment_id), theme, theme.text));
    out.push(kv("attempt", a.attempt_number.map(|n| format!("#{n}")).unwrap_or_else(|| "—".into()), theme, theme.text));
    out.push(kv("locator", s(&a.locator), theme, theme.accent));
    out.push(kv("outcome", s(&a.outcome), theme, theme.text));
    out.push(kv("model", s(&a.model), theme, theme.text));
    if let Some(score) = &a.score {
        let f = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_else(|| "—".into());
        out.push(kv("score", format!("{} of {} pts", f(score.earned), f(score.points)), theme, theme.text));
    }
    out.push(kv(
        "duration",
        a.duration_ms.map(|d| format!("{:.1} s", d / 1000.0)).unwrap_or_else(|| "—".into()),
        theme,
        theme.text,
    ));
    let usage = a.reported_usage.unwrap_or(view.derived.usage);
    out.push(kv("tokens", usage.total_tokens().map(grouped).unwrap_or_else(|| "—".into()), theme, theme.text));
    out.push(kv("cost", usage.cost_usd.map(usd).unwrap_or_else(|| "— (not reported)".into()), theme, theme.text));
    out.push(kv(
        "estimate",
        view.derived
            .estimate
            .total()
            .map(usd)
            .unwrap_or_else(|| format!("— ({})", view.derived.estimate.reason().unwrap_or_default())),
        theme,
        theme.text,
    ));
    if let Some(list) = &a.review.assertions {
        let failing = list.iter().filter(|x| x.is_failing_gate()).count();
        out.push(kv(
            "assertions",
            format!("{} ({failing} failing gates; 5 to review)", list.len()),
            theme,
            if failing > 0 { theme.err } else { theme.text },
        ));
    }
    if !a.events_exact {
        out.push(Line::styled(
            "events rebuilt from a lossy Record conversation (not the adapter's exact stream)",
            theme.warn,
        ));
    }
    let notices: Vec<&crate::model::document::Notice> = app.doc.notices.iter().chain(a.notices.iter()).collect();
    if !notices.is_empty() {
        out.push(Line::raw(""));
        out.push(heading("notices", theme));
        let mut seen = std::collections::HashSet::new();
        for n in notices {
            if seen.insert(n.message.clone()) {
                out.extend(text_block(&format!("! {}", n.message), width, theme.warn));
            }
        }
    }
    if app.doc.attempts.len() > 1 {
        out.push(Line::raw(""));
        out.push(Line::styled("Enter opens · f filters by verdict · / filters by eval or experiment", theme.dim));
    }
    out
}
