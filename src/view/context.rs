//! Shared views over one attempt: turn labels, positions, previews, and the
//! plain rendering of the core's timeline rows (also used by `--failures`
//! to resolve evidence) and HITL request states.

use super::attempt::AttemptView;
use super::format::number;
use super::report::Selection;
use super::text::{Text, Tone, clean};
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::Finding;
use crate::model::document::{Attempt, Document};
use crate::model::event::{Event, EventKind};
use crate::model::hitl::{HitlRequest, HitlState};
use crate::model::occurrence::{Lifecycle, Occurrence};
use crate::model::timeline::{Row as CoreRow, RowKind, RowStatus, finish_status, lifecycle_status, request_status};
use serde_json::Value;

/// Everything a section needs to draw one attempt.
pub struct Ctx<'a> {
    pub doc: &'a Document,
    pub attempt: &'a Attempt,
    pub index: usize,
    pub derived: &'a DerivedAttempt,
    /// Requests, timeline rows, badges: built once for every surface.
    pub view: &'a AttemptView,
    pub sel: &'a Selection,
    pub findings: Vec<&'a Finding>,
}

impl<'a> Ctx<'a> {
    pub fn label(&self, addr: TurnAddr) -> String {
        turn_label(self.attempt, addr)
    }

    /// Turn addresses in derive order.
    pub fn addrs(&self) -> impl Iterator<Item = (usize, TurnAddr)> + '_ {
        self.derived.turns.iter().enumerate().map(|(i, t)| (i, t.addr))
    }

    pub fn session_selected(&self, session: usize) -> bool {
        match self.sel.session_index() {
            Some(k) => self.attempt.sessions.get(session).is_some_and(|s| s.index == k),
            None => true,
        }
    }

    pub fn turn_selected(&self, addr: TurnAddr) -> bool {
        self.session_selected(addr.session)
            && self.sel.turn.as_ref().is_none_or(|t| t.matches(self.attempt, self.derived, addr))
    }

    pub fn grep(&self, s: &str) -> bool {
        self.sel.grep.as_ref().is_none_or(|re| re.is_match(s))
    }

    /// `turnOrdinal:eventOrdinal` of adapter event `event` (None = the user message).
    pub fn pos(&self, scope_turn: usize, event: Option<usize>) -> String {
        let t = self.derived.turns.get(scope_turn).map(|t| t.turn_ordinal).unwrap_or(0);
        format!("{t}:{}", event.map(|e| e + 1).unwrap_or(0))
    }

    /// Cap for previews outside `--full`.
    pub fn limit(&self) -> usize {
        if self.sel.full { usize::MAX } else { 160 }
    }
}

pub use super::address::turn_label;

/// Compact one-line JSON (strings as they are), sanitized.
pub fn one_line_value(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "\"\" (empty string)".into(),
        Value::String(s) => clean(s),
        other => clean(&serde_json::to_string(other).unwrap_or_default()),
    }
}

/// Cut to `limit` characters, stating how many were left out.
pub fn cut_count(s: &str, limit: usize) -> String {
    let n = s.chars().count();
    if n <= limit {
        return s.to_string();
    }
    let head: String = s.chars().take(limit).collect();
    let more = n - limit;
    format!("{head}… ({} more character{})", number(more as f64), if more == 1 { "" } else { "s" })
}

/// A value for a detail line: pretty multi-line JSON with `--full`, else a cut one-liner.
pub fn detail_value(v: &Value, ctx: &Ctx) -> Vec<String> {
    if ctx.sel.full {
        let text = match v {
            Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        crate::model::text::sanitize(&text, crate::model::text::Lines::Multi).split('\n').map(str::to_string).collect()
    } else {
        vec![cut_count(&one_line_value(v), ctx.limit())]
    }
}

/// A finish status as written, with the core's mark (`? as written` outside the enum).
pub fn status_text(status: &str) -> Text {
    row_status_text(finish_status(status), Some(status))
}

/// A tool lifecycle with the core's mark and word; an opaque lifecycle of
/// an id reused while open reads `? ambiguous`.
pub fn lifecycle_text(o: &Occurrence) -> Text {
    match &o.lifecycle {
        Lifecycle::Opaque { .. } if o.ambiguous => row_status_text(RowStatus::Ambiguous, None),
        Lifecycle::Finished { status, .. } => status_text(status),
        other => row_status_text(lifecycle_status(other), None),
    }
}

/// The attempt's headline: its verdict, or its status when it has none.
pub fn verdict_text(attempt: &Attempt) -> Text {
    crate::view::verdict::headline(attempt.verdict, crate::model::verdict::attempt_status(attempt))
}

/// Turn status word: completed / failed / waiting / as written / "—".
pub fn turn_status_text(status: Option<&str>) -> Text {
    match status {
        Some("completed") => Text::toned("completed", Tone::Good),
        Some("failed") => Text::toned("✗ failed", Tone::Bad),
        Some("waiting") => Text::toned("⏸ waiting", Tone::Warn),
        Some(other) => Text::toned(format!("? {}", clean(other)), Tone::Warn),
        None => Text::toned("— (no status)", Tone::Soft),
    }
}

/// Mark and word of a request's core state: `⏸ waiting`, `✓ answered`,
/// `! never answered`, `! unanswered`.
pub fn request_text(state: &HitlState) -> Text {
    let status = request_status(state);
    let tone = match state {
        HitlState::Answered { .. } => Tone::Good,
        _ => Tone::Warn,
    };
    Text::toned(format!("{} {}", status.mark(), state.word()), tone)
}

impl Ctx<'_> {
    /// The core request for `input.requested` event `event` of the turn at `addr`.
    pub fn request_at(&self, addr: TurnAddr, event: usize) -> Option<&HitlRequest> {
        self.view.requests.iter().find(|r| r.addr == addr && r.event == event)
    }
}

/// One timeline row.
#[derive(Debug, Clone)]
pub struct Row {
    pub pos: String,
    pub kind: Text,
    pub summary: Text,
    pub status: Text,
    /// Index of the adapter event, `None` for the user message.
    pub event: Option<usize>,
}

impl Row {
    pub fn plain(&self) -> String {
        format!("{} {} {} {}", self.pos, self.kind.as_plain(), self.summary.as_plain(), self.status.as_plain())
    }
}

fn tool_input_summary(ev: &Event) -> String {
    let input = ev.tool_input();
    match crate::model::facts::shell_command_text(input.as_deref()) {
        Some(cmd) => format!("$ {}", clean(&cmd)),
        None => match input.as_deref() {
            Some(v) => one_line_value(v),
            None => "(no input)".into(),
        },
    }
}

fn tool_name_of(occ: &Occurrence) -> String {
    let name = clean(&occ.original_name);
    match occ.canonical_name.as_deref() {
        Some(c) if c != &*occ.original_name => format!("{name} ({})", clean(c)),
        _ => name,
    }
}

fn output_summary(ev: Option<&Event>) -> String {
    match ev.and_then(Event::output) {
        None => "(no output)".into(),
        Some(v) => one_line_value(&v),
    }
}

/// Mark and word of a core row status, with its tone; `raw` is the finish
/// status as written, shown for a status outside the enum.
pub fn row_status_text(status: RowStatus, raw: Option<&str>) -> Text {
    let tone = match status {
        RowStatus::Completed | RowStatus::TurnCompleted | RowStatus::Answered => Tone::Good,
        RowStatus::Failed | RowStatus::TurnFailed => Tone::Bad,
        RowStatus::Pending | RowStatus::Open => Tone::Soft,
        _ => Tone::Warn,
    };
    match (status, raw) {
        (RowStatus::Other, Some(raw)) => Text::toned(format!("{} {}", status.mark(), clean(raw)), tone),
        _ => Text::toned(format!("{} {}", status.mark(), status.word()), tone),
    }
}

/// The plain kind word of a core row kind.
fn kind_text(kind: RowKind) -> Text {
    match kind {
        RowKind::TurnHeader => Text::plain("turn"),
        RowKind::Input | RowKind::UserMessage => Text::plain("user"),
        RowKind::AssistantMessage => Text::plain("assistant"),
        RowKind::ToolStart => Text::plain("tool"),
        RowKind::ToolFinish => Text::plain("tool result"),
        RowKind::SubagentStart => Text::plain("subagent"),
        RowKind::SubagentFinish => Text::plain("subagent result"),
        RowKind::Skill => Text::plain("skill"),
        RowKind::InputRequest => Text::toned("input", Tone::Accent),
        RowKind::Thinking => Text::toned("thinking", Tone::Soft),
        RowKind::Context => Text::plain("context"),
        RowKind::Compaction => Text::plain("compaction"),
        RowKind::Error => Text::toned("error", Tone::Bad),
        RowKind::Unrecognized => Text::toned("unrecognized", Tone::Warn),
    }
}

/// The finish status as written that decided a row's status, if any.
fn raw_finish_status(ctx: &Ctx, events: &[Event], row: &CoreRow) -> Option<String> {
    let finish_event = match row.event.and_then(|e| events.get(e)).map(|e| &e.kind) {
        Some(EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. }) => row.event,
        _ => row.merged_finish,
    };
    match finish_event.and_then(|f| events.get(f)).map(|e| &e.kind) {
        Some(EventKind::ToolFinished { status, .. } | EventKind::SubagentFinished { status, .. }) => {
            Some(status.to_string())
        }
        _ => match &row.occurrence.and_then(|i| ctx.derived.occurrences.occurrences.get(i))?.lifecycle {
            // A start finished in a later turn.
            Lifecycle::Finished { status, .. } => Some(status.to_string()),
            _ => None,
        },
    }
}

/// The core timeline rows of the turn at scope index `st`, as plain rows
/// (rows the core merges into their start are left out).
pub fn turn_rows(ctx: &Ctx, st: usize) -> Vec<Row> {
    let Some(dt) = ctx.derived.turns.get(st) else { return Vec::new() };
    let addr = dt.addr;
    let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
        return Vec::new();
    };
    let Some(&first) = ctx.view.timeline.by_turn.get(&addr) else { return Vec::new() };
    let events = &record.turn.events;
    let occurrences = &ctx.derived.occurrences;
    let mut rows = Vec::new();
    for cr in
        ctx.view.timeline.rows.iter().skip(first + 1).take_while(|r| r.addr == addr && r.kind != RowKind::TurnHeader)
    {
        if cr.merged_away {
            continue;
        }
        let ev = cr.event.and_then(|e| events.get(e));
        let text_of = |e: &Event| e.text().map(|t| clean(&t)).unwrap_or_default();
        let occ = cr.occurrence.and_then(|i| occurrences.occurrences.get(i));
        let merged = cr.merged_finish.and_then(|f| events.get(f));
        let mut status = match cr.status {
            Some(s) => row_status_text(s, raw_finish_status(ctx, events, cr).as_deref()),
            None => match cr.kind {
                RowKind::Error => Text::toned("✗ error", Tone::Bad),
                RowKind::Unrecognized => Text::toned("? kept as is", Tone::Warn),
                RowKind::ToolStart | RowKind::ToolFinish => Text::toned("?", Tone::Warn),
                _ => Text::new(),
            },
        };
        let summary = match (cr.kind, ev) {
            (RowKind::Input, _) => {
                let mut summary = match record.input_text() {
                    Some(t) => Text::plain(clean(t)),
                    None => Text::toned("— (input text not recorded)", Tone::Soft),
                };
                let answers: Vec<String> = record
                    .responses()
                    .iter()
                    .map(|r| {
                        let id = r.get("requestId").and_then(Value::as_str).map(clean).unwrap_or_else(|| "?".into());
                        match (r.get("optionId").and_then(Value::as_str), r.get("text").and_then(Value::as_str)) {
                            (Some(o), _) => format!("{id} → {}", clean(o)),
                            (None, Some(t)) => format!("{id} → \"{}\"", clean(t)),
                            _ => format!("{id} → ?"),
                        }
                    })
                    .collect();
                if !answers.is_empty() {
                    summary.push(format!(" · answers: {}", answers.join(", ")), Tone::Soft);
                }
                summary
            }
            (_, None) => Text::new(),
            (_, Some(ev)) => match &ev.kind {
                EventKind::Message { .. } | EventKind::Thinking | EventKind::Error => Text::plain(text_of(ev)),
                EventKind::ContextInjected => {
                    let mut s = Text::new();
                    if let Some(src) = ev.source() {
                        s.push(format!("[{}] ", clean(src)), Tone::Soft);
                    }
                    s.push(text_of(ev), Tone::Plain);
                    s
                }
                EventKind::Compaction => Text::plain(ev.reason().map(clean).unwrap_or_else(|| "—".into())),
                EventKind::SkillLoaded { skill, operation_id } => {
                    let mut s = Text::plain(clean(skill));
                    if let Some(id) = operation_id {
                        s.push(format!(" (operation {})", clean(id)), Tone::Soft);
                    }
                    s
                }
                EventKind::InputRequested => {
                    let mut s = Text::new();
                    let req = cr.request.and_then(|i| ctx.view.requests.get(i));
                    if let Some(r) = req {
                        status = request_text(&r.state);
                    }
                    if let Some(id) = req.and_then(|r| r.id.as_deref()) {
                        s.push(format!("{} · ", clean(id)), Tone::Accent);
                    }
                    let ask = req
                        .and_then(|r| r.display.as_deref().or(r.prompt.as_deref()))
                        .map(clean)
                        .unwrap_or_else(|| "(no prompt)".into());
                    s.push(ask, Tone::Plain);
                    if let Some(r) = req.filter(|r| !r.options.is_empty()) {
                        let ids: Vec<String> = r.options.iter().map(|(id, _)| clean(id)).collect();
                        s.push(format!(" [{}]", ids.join(" / ")), Tone::Soft);
                    }
                    s
                }
                EventKind::ToolStarted { .. } => match occ {
                    Some(occ) => {
                        let mut s = Text::plain(tool_name_of(occ));
                        s.push(format!(" {}", tool_input_summary(ev)), Tone::Plain);
                        match (merged, &occ.lifecycle) {
                            (Some(f), _) => {
                                s.push(format!(" → {}", output_summary(Some(f))), Tone::Soft);
                            }
                            (None, Lifecycle::Finished { finish, .. }) => {
                                s.push(
                                    format!(" (finished at {}:{})", finish.turn_ordinal, finish.event_ordinal),
                                    Tone::Soft,
                                );
                            }
                            _ => {}
                        }
                        if occ.ambiguous {
                            s.push(format!(" (id {} reused while open)", clean(&occ.operation_id)), Tone::Soft);
                        }
                        s
                    }
                    None => Text::plain(tool_input_summary(ev)),
                },
                EventKind::ToolFinished { operation_id, status: st } => match occ {
                    Some(occ) => {
                        let mut s = Text::plain(tool_name_of(occ));
                        s.push(format!(" {}", output_summary(Some(ev))), Tone::Plain);
                        s.push(
                            format!(" (started at {}:{})", occ.start.turn_ordinal, occ.start.event_ordinal),
                            Tone::Soft,
                        );
                        s
                    }
                    None => {
                        let ambiguous =
                            cr.orphan.and_then(|i| occurrences.orphan_finishes.get(i)).is_some_and(|o| o.ambiguous_id);
                        let why = if ambiguous {
                            format!("id {} is ambiguous in this session", clean(operation_id))
                        } else {
                            format!("no open start for id {}", clean(operation_id))
                        };
                        let mut s = Text::plain(format!("{} · {why}", clean(st)));
                        s.push(format!(" → {}", output_summary(Some(ev))), Tone::Soft);
                        s
                    }
                },
                EventKind::SubagentStarted { name, .. } => {
                    let mut s = Text::plain(clean(name));
                    if let Some(url) = ev.remote_url() {
                        s.push(format!(" {}", clean(url)), Tone::Soft);
                    }
                    if let Some(f) = merged {
                        s.push(format!(" → {}", output_summary(Some(f))), Tone::Soft);
                    }
                    s
                }
                EventKind::SubagentFinished { operation_id, status: st } => {
                    Text::plain(format!("{} · no open start for id {}", clean(st), clean(operation_id)))
                }
                EventKind::Unrecognized { reason } => {
                    let mut s = Text::toned(clean(reason), Tone::Warn);
                    s.push(format!(" · {}", one_line_value(ev.raw())), Tone::Soft);
                    s
                }
            },
        };
        let pos = match cr.merged_finish {
            Some(f) => format!("{}→{}", cr.position(), f + 1),
            None => cr.position(),
        };
        rows.push(Row { pos, kind: kind_text(cr.kind), summary, status, event: cr.event });
    }
    rows
}
