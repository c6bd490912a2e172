//! Shared views over one attempt: turn labels, positions, previews, the
//! timeline rows (also used by `--failures` to resolve evidence) and the
//! state of each HITL request.

use super::layout::{Text, Tone, clean, grouped};
use super::{PlainOptions, Selection};
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::Finding;
use crate::model::document::{Attempt, Document};
use crate::model::event::{Event, EventKind};
use crate::model::hitl::{HitlRequest, HitlState};
use crate::model::occurrence::{EventRef, Lifecycle, Occurrence, OrphanFinish};
use crate::model::timeline::request_status;
use serde_json::Value;
use std::collections::HashMap;

/// Everything a section needs to draw one attempt.
pub struct Ctx<'a> {
    pub doc: &'a Document,
    pub attempt: &'a Attempt,
    pub index: usize,
    pub derived: &'a DerivedAttempt,
    /// The core's HITL requests of this attempt (`model::hitl`).
    pub requests: Vec<HitlRequest>,
    pub opts: &'a PlainOptions,
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
        if !self.session_selected(addr.session) {
            return false;
        }
        match self.sel.turn_number() {
            Some(n) => {
                // A bare turn number names a turn of the primary session (sessionIndex 1).
                if self.sel.session_index().is_none() {
                    let primary: usize = self.attempt.sessions.iter().position(|s| s.index == 1).unwrap_or_default();
                    if addr.session != primary {
                        return false;
                    }
                }
                addr.turn as u64 + 1 == n
            }
            None => true,
        }
    }

    pub fn grep(&self, s: &str) -> bool {
        self.sel.grep.as_ref().is_none_or(|re| re.is_match(s))
    }

    /// `turnOrdinal:eventOrdinal` of adapter event `event` (None = the user message).
    pub fn pos(&self, scope_turn: usize, event: Option<usize>) -> String {
        let t = self.derived.turns.get(scope_turn).map(|t| t.turn_ordinal).unwrap_or(0);
        format!("{t}:{}", event.map(|e| e + 1).unwrap_or(0))
    }

    pub fn event(&self, r: EventRef) -> Option<&'a Event> {
        let addr = self.derived.turns.get(r.scope_turn)?.addr;
        self.attempt.sessions.get(addr.session)?.turns.get(addr.turn)?.turn.events.get(r.event)
    }

    /// Cap for previews outside `--full`.
    pub fn limit(&self) -> usize {
        if self.opts.full { usize::MAX } else { 160 }
    }
}

/// `turnN` for the primary session, `sessionK/turnN` for others (or the file's own label).
pub fn turn_label(attempt: &Attempt, addr: TurnAddr) -> String {
    let Some(session) = attempt.sessions.get(addr.session) else {
        return format!("turn{}", addr.turn + 1);
    };
    if let Some(l) = session.turns.get(addr.turn).and_then(|r| r.label.as_deref()) {
        return clean(l);
    }
    if session.index == 1 || (addr.session == 0 && attempt.sessions.len() == 1) {
        format!("turn{}", addr.turn + 1)
    } else {
        format!("session{}/turn{}", session.index, addr.turn + 1)
    }
}

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
    format!("{head}… ({} more character{})", grouped(more as f64), if more == 1 { "" } else { "s" })
}

/// A value for a detail line: pretty multi-line JSON with `--full`, else a cut one-liner.
pub fn detail_value(v: &Value, ctx: &Ctx) -> Vec<String> {
    if ctx.opts.full {
        let text = match v {
            Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        crate::model::text::sanitize(&text, crate::model::text::Lines::Multi).split('\n').map(str::to_string).collect()
    } else {
        vec![cut_count(&one_line_value(v), ctx.limit())]
    }
}

pub fn status_mark(status: &str) -> (&'static str, Tone) {
    match status {
        "completed" => ("✓", Tone::Good),
        "failed" => ("✗", Tone::Bad),
        "rejected" | "cancelled" => ("⊘", Tone::Warn),
        "pending" => ("…", Tone::Soft),
        _ => ("?", Tone::Warn),
    }
}

pub fn status_text(status: &str) -> Text {
    let (mark, tone) = status_mark(status);
    Text::toned(format!("{mark} {}", clean(status)), tone)
}

pub fn verdict_text(verdict: Option<&str>) -> Text {
    match verdict {
        Some("passed") => Text::toned("✓ passed", Tone::Good),
        Some("failed") => Text::toned("✗ failed", Tone::Bad),
        Some("errored") => Text::toned("! errored", Tone::Warn),
        Some("skipped") => Text::toned("– skipped", Tone::Soft),
        Some(other) => Text::plain(clean(other)),
        None => Text::toned("— (no verdict recorded)", Tone::Soft),
    }
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

/// Where each tool event of an attempt sits in the session-scope folds.
#[derive(Default)]
pub struct ToolIndex<'a> {
    pub starts: HashMap<EventRef, &'a Occurrence>,
    pub finishes: HashMap<EventRef, &'a Occurrence>,
    pub orphans: HashMap<EventRef, &'a OrphanFinish>,
}

pub fn tool_index(derived: &DerivedAttempt) -> ToolIndex<'_> {
    let mut ix = ToolIndex::default();
    for s in &derived.sessions {
        for o in &s.occurrences.occurrences {
            ix.starts.insert(o.start_ref, o);
            if let Some(f) = o.finish_ref {
                ix.finishes.insert(f, o);
            }
        }
        for o in &s.occurrences.orphan_finishes {
            ix.orphans.insert(o.event_ref, o);
        }
    }
    ix
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
        self.requests.iter().find(|r| r.addr == addr && r.event == event)
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
    match crate::model::facts::shell_command_text(ev.tool_input()) {
        Some(cmd) => format!("$ {}", clean(&cmd)),
        None => match ev.tool_input() {
            Some(v) => one_line_value(v),
            None => "(no input)".into(),
        },
    }
}

fn tool_name_of(occ: &Occurrence) -> String {
    let name = clean(&occ.original_name);
    match occ.canonical_name.as_deref() {
        Some(c) if c != occ.original_name => format!("{name} ({})", clean(c)),
        _ => name,
    }
}

fn output_summary(ev: Option<&Event>) -> String {
    match ev.and_then(Event::output) {
        None => "(no output)".into(),
        Some(v) => one_line_value(v),
    }
}

/// Rows of the turn at scope index `st` (merged finishes omitted).
pub fn turn_rows(ctx: &Ctx, ix: &ToolIndex, st: usize) -> Vec<Row> {
    let Some(dt) = ctx.derived.turns.get(st) else { return Vec::new() };
    let addr = dt.addr;
    let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    // Ordinal 0: the runner's user message.
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
    rows.push(Row { pos: ctx.pos(st, None), kind: Text::plain("user"), summary, status: Text::new(), event: None });
    let subagent_starts: HashMap<usize, usize> =
        dt.run_facts.subagent_calls.iter().enumerate().map(|(i, c)| (c.start_index, i)).collect();
    let subagent_finishes: HashMap<usize, usize> =
        dt.run_facts.subagent_calls.iter().enumerate().filter_map(|(i, c)| c.finish_index.map(|f| (f, i))).collect();
    for (ei, ev) in record.turn.events.iter().enumerate() {
        let here = EventRef { scope_turn: st, event: ei };
        let pos = ctx.pos(st, Some(ei));
        let text_of = |e: &Event| e.text().map(clean).unwrap_or_default();
        let (kind, summary, status): (Text, Text, Text) = match &ev.kind {
            EventKind::Message { role } => (Text::plain(role.as_str()), Text::plain(text_of(ev)), Text::new()),
            EventKind::Thinking => (Text::toned("thinking", Tone::Soft), Text::plain(text_of(ev)), Text::new()),
            EventKind::ContextInjected => {
                let mut s = Text::new();
                if let Some(src) = ev.source() {
                    s.push(format!("[{}] ", clean(src)), Tone::Soft);
                }
                s.push(text_of(ev), Tone::Plain);
                (Text::plain("context"), s, Text::new())
            }
            EventKind::Compaction => (
                Text::plain("compaction"),
                Text::plain(ev.reason().map(clean).unwrap_or_else(|| "—".into())),
                Text::new(),
            ),
            EventKind::Error => {
                (Text::toned("error", Tone::Bad), Text::plain(text_of(ev)), Text::toned("✗ error", Tone::Bad))
            }
            EventKind::SkillLoaded { skill, operation_id } => {
                let mut s = Text::plain(clean(skill));
                if let Some(id) = operation_id {
                    s.push(format!(" (operation {})", clean(id)), Tone::Soft);
                }
                (Text::plain("skill"), s, Text::new())
            }
            EventKind::InputRequested => {
                let req = ev.request().cloned().unwrap_or(Value::Null);
                let mut s = Text::new();
                if let Some(id) = req.get("id").and_then(Value::as_str) {
                    s.push(format!("{} · ", clean(id)), Tone::Accent);
                }
                let ask = req
                    .get("display")
                    .and_then(Value::as_str)
                    .or_else(|| req.get("prompt").and_then(Value::as_str))
                    .map(clean)
                    .unwrap_or_else(|| "(no prompt)".into());
                s.push(ask, Tone::Plain);
                if let Some(opts) = req.get("options").and_then(Value::as_array) {
                    let ids: Vec<String> = opts
                        .iter()
                        .map(|o| o.get("id").and_then(Value::as_str).map(clean).unwrap_or_default())
                        .collect();
                    s.push(format!(" [{}]", ids.join(" / ")), Tone::Soft);
                }
                let state = match ctx.request_at(addr, ei) {
                    Some(r) => request_text(&r.state),
                    None => Text::toned("?", Tone::Warn),
                };
                (Text::toned("input", Tone::Accent), s, state)
            }
            EventKind::ToolStarted { .. } => match ix.starts.get(&here) {
                Some(occ) => {
                    let mut s = Text::plain(tool_name_of(occ));
                    s.push(format!(" {}", tool_input_summary(ev)), Tone::Plain);
                    let status = match &occ.lifecycle {
                        Lifecycle::Finished { status, finish } => match occ.finish_ref {
                            Some(f) if f.scope_turn == st => {
                                s.push(format!(" → {}", output_summary(ctx.event(f))), Tone::Soft);
                                status_text(status)
                            }
                            _ => {
                                s.push(
                                    format!(" (finished at {}:{})", finish.turn_ordinal, finish.event_ordinal),
                                    Tone::Soft,
                                );
                                Text::toned("started", Tone::Soft)
                            }
                        },
                        Lifecycle::Pending => Text::toned("… pending", Tone::Soft),
                        Lifecycle::Opaque { reason } => {
                            if occ.ambiguous {
                                s.push(format!(" (id {} reused while open)", clean(&occ.operation_id)), Tone::Soft);
                                Text::toned("? ambiguous", Tone::Warn)
                            } else {
                                Text::toned(format!("? {}", reason.as_str()), Tone::Warn)
                            }
                        }
                    };
                    let pos = match (&occ.lifecycle, occ.finish_ref) {
                        (Lifecycle::Finished { finish, .. }, Some(f)) if f.scope_turn == st => {
                            format!("{pos}→{}", finish.event_ordinal)
                        }
                        _ => pos,
                    };
                    rows.push(Row { pos, kind: Text::plain("tool"), summary: s, status, event: Some(ei) });
                    continue;
                }
                None => (Text::plain("tool"), Text::plain(tool_input_summary(ev)), Text::toned("?", Tone::Warn)),
            },
            EventKind::ToolFinished { operation_id, status } => {
                if let Some(occ) = ix.finishes.get(&here) {
                    if occ.start_ref.scope_turn == st {
                        continue; // merged into its start row
                    }
                    let mut s = Text::plain(tool_name_of(occ));
                    s.push(format!(" {}", output_summary(Some(ev))), Tone::Plain);
                    s.push(format!(" (started at {}:{})", occ.start.turn_ordinal, occ.start.event_ordinal), Tone::Soft);
                    (Text::plain("tool result"), s, status_text(status))
                } else {
                    let why = match ix.orphans.get(&here) {
                        Some(o) if o.ambiguous_id => format!("id {} is ambiguous in this session", clean(operation_id)),
                        _ => format!("no open start for id {}", clean(operation_id)),
                    };
                    let mut s = Text::plain(format!("{} · {why}", clean(status)));
                    s.push(format!(" → {}", output_summary(Some(ev))), Tone::Soft);
                    (Text::plain("tool result"), s, Text::toned("? orphan", Tone::Warn))
                }
            }
            EventKind::SubagentStarted { name, .. } => {
                let call = subagent_starts.get(&ei).and_then(|&i| dt.run_facts.subagent_calls.get(i));
                let mut s = Text::plain(clean(name));
                if let Some(url) = ev.remote_url() {
                    s.push(format!(" {}", clean(url)), Tone::Soft);
                }
                let status = match call {
                    Some(c) if c.finish_index.is_some() => {
                        s.push(
                            format!(" → {}", output_summary(c.finish_index.and_then(|f| record.turn.events.get(f)))),
                            Tone::Soft,
                        );
                        status_text(&c.status)
                    }
                    _ => Text::toned("… pending", Tone::Soft),
                };
                let pos = match call.and_then(|c| c.finish_index) {
                    Some(f) => format!("{pos}→{}", f + 1),
                    None => pos,
                };
                rows.push(Row { pos, kind: Text::plain("subagent"), summary: s, status, event: Some(ei) });
                continue;
            }
            EventKind::SubagentFinished { operation_id, status } => {
                match subagent_finishes.get(&ei).and_then(|&i| dt.run_facts.subagent_calls.get(i)) {
                    Some(c) if c.start_index != ei => continue, // merged
                    _ => (
                        Text::plain("subagent result"),
                        Text::plain(format!("{} · no open start for id {}", clean(status), clean(operation_id))),
                        Text::toned("? orphan", Tone::Warn),
                    ),
                }
            }
            EventKind::Unrecognized { reason } => {
                let mut s = Text::toned(clean(reason), Tone::Warn);
                s.push(format!(" · {}", one_line_value(&ev.raw)), Tone::Soft);
                (Text::toned("unrecognized", Tone::Warn), s, Text::toned("? kept as is", Tone::Warn))
            }
        };
        rows.push(Row { pos, kind, summary, status, event: Some(ei) });
    }
    rows
}
