//! Timeline rows: one per event in real order, with a turn header before
//! each turn and the runner's user message at ordinal 0. A tool start and
//! its finish in the same turn are merged into one lifecycle row when they
//! pair exactly; every other phase keeps its own row. Rows are built once
//! at load; summaries are made on demand for the rows on screen.

use super::derive::{DerivedAttempt, TurnAddr};
use super::document::Attempt;
use super::event::{Event, EventKind, Role};
use super::facts::shell_command_text;
use super::hitl::{HitlRequest, HitlState};
use super::occurrence::Lifecycle;
use super::text::{Lines, sanitize};
use serde_json::Value;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKind {
    TurnHeader,
    /// The runner's user message (the eval's input), ordinal 0.
    Input,
    UserMessage,
    AssistantMessage,
    ToolStart,
    ToolFinish,
    SubagentStart,
    SubagentFinish,
    Skill,
    InputRequest,
    Thinking,
    Context,
    Compaction,
    Error,
    Unrecognized,
}

impl RowKind {
    /// Short kind word for plain output and the row marker.
    pub fn word(self) -> &'static str {
        match self {
            RowKind::TurnHeader => "turn",
            RowKind::Input => "input",
            RowKind::UserMessage => "user",
            RowKind::AssistantMessage => "assistant",
            RowKind::ToolStart => "tool",
            RowKind::ToolFinish => "tool end",
            RowKind::SubagentStart => "subagent",
            RowKind::SubagentFinish => "subagent end",
            RowKind::Skill => "skill",
            RowKind::InputRequest => "input req",
            RowKind::Thinking => "thinking",
            RowKind::Context => "context",
            RowKind::Compaction => "compaction",
            RowKind::Error => "error",
            RowKind::Unrecognized => "unknown",
        }
    }
}

/// Lifecycle status shown on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowStatus {
    Completed,
    Failed,
    Rejected,
    Pending,
    /// Started, and the turn has no status: the stream may still be going (`partial-stream`).
    Open,
    Ambiguous,
    Orphan,
    /// A finish status outside the enum.
    Other,
    Waiting,
    Answered,
    Unanswered,
    /// The file keeps no answers (a Record): whether it was answered is unknown.
    AnswerNotRecorded,
    TurnCompleted,
    TurnFailed,
    TurnWaiting,
    TurnUnknown,
}

impl RowStatus {
    pub fn mark(self) -> &'static str {
        match self {
            RowStatus::Completed | RowStatus::TurnCompleted | RowStatus::Answered => "✓",
            RowStatus::Failed | RowStatus::TurnFailed => "✗",
            RowStatus::Rejected => "⊘",
            RowStatus::Pending | RowStatus::Open => "…",
            RowStatus::Ambiguous
            | RowStatus::Orphan
            | RowStatus::Other
            | RowStatus::TurnUnknown
            | RowStatus::AnswerNotRecorded => "?",
            RowStatus::Waiting | RowStatus::TurnWaiting => "⏸",
            RowStatus::Unanswered => "!",
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            RowStatus::Completed | RowStatus::TurnCompleted => "completed",
            RowStatus::Failed | RowStatus::TurnFailed => "failed",
            RowStatus::Rejected => "rejected",
            RowStatus::Pending => "pending",
            RowStatus::Open => "open (no turn status)",
            RowStatus::Ambiguous => "ambiguous",
            RowStatus::Orphan => "orphan",
            RowStatus::Other => "unknown status",
            RowStatus::Waiting | RowStatus::TurnWaiting => "waiting",
            RowStatus::Answered => "answered",
            RowStatus::Unanswered => "unanswered",
            RowStatus::AnswerNotRecorded => "answer not recorded",
            RowStatus::TurnUnknown => "status not recorded",
        }
    }

    /// Failures and errors that `e`/`E` jump between.
    pub fn is_failure(self) -> bool {
        matches!(self, RowStatus::Failed | RowStatus::TurnFailed | RowStatus::Ambiguous | RowStatus::Orphan)
    }
}

/// An opaque lifecycle: an ambiguous id, or a stream without a turn status.
pub fn lifecycle_opaque(reason: super::occurrence::OpaqueReason) -> RowStatus {
    match reason {
        super::occurrence::OpaqueReason::PartialStream => RowStatus::Open,
        super::occurrence::OpaqueReason::MissingLifecycleEvidence => RowStatus::Ambiguous,
    }
}

/// Row status of a whole tool lifecycle: pending, the finish status, or opaque.
pub fn lifecycle_status(lifecycle: &Lifecycle) -> RowStatus {
    match lifecycle {
        Lifecycle::Pending => RowStatus::Pending,
        Lifecycle::Finished { status, .. } => finish_status(status),
        Lifecycle::Opaque { reason } => lifecycle_opaque(*reason),
    }
}

/// Row status of a finish status as written (`Other` outside the enum).
pub fn finish_status(status: &str) -> RowStatus {
    match status {
        "completed" => RowStatus::Completed,
        "failed" => RowStatus::Failed,
        "rejected" => RowStatus::Rejected,
        _ => RowStatus::Other,
    }
}

/// Row status of an input request: waiting, answered, or unanswered
/// (never answered by the next turn, or no next turn and not waiting).
pub fn request_status(state: &HitlState) -> RowStatus {
    match state {
        HitlState::Waiting => RowStatus::Waiting,
        HitlState::Answered { .. } => RowStatus::Answered,
        HitlState::NeverAnswered { .. } | HitlState::Unanswered { .. } => RowStatus::Unanswered,
        HitlState::AnswerNotRecorded { .. } => RowStatus::AnswerNotRecorded,
    }
}

pub fn turn_status(status: Option<&str>) -> RowStatus {
    match status {
        Some("completed") => RowStatus::TurnCompleted,
        Some("failed") => RowStatus::TurnFailed,
        Some("waiting") => RowStatus::TurnWaiting,
        _ => RowStatus::TurnUnknown,
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub addr: TurnAddr,
    pub kind: RowKind,
    /// Adapter event index; `None` for the turn header and the input row.
    pub event: Option<usize>,
    /// A finish in the same turn merged into this start row.
    pub merged_finish: Option<usize>,
    /// This finish row is shown inside its start row when rows are merged.
    pub merged_away: bool,
    /// Root-scope occurrence index for tool rows.
    pub occurrence: Option<usize>,
    /// Root-scope orphan index for orphan finish rows.
    pub orphan: Option<usize>,
    /// Index into the HITL request list for `input.requested` rows.
    pub request: Option<usize>,
    pub status: Option<RowStatus>,
    pub turn_ordinal: u64,
}

impl Row {
    /// `turnOrdinal:eventOrdinal` (the user message is 0; a header shows `N`).
    pub fn position(&self) -> String {
        match (self.kind, self.event) {
            (RowKind::TurnHeader, _) => format!("{}", self.turn_ordinal),
            (_, Some(e)) => format!("{}:{}", self.turn_ordinal, e + 1),
            (_, None) => format!("{}:0", self.turn_ordinal),
        }
    }

    pub fn is_failure(&self) -> bool {
        self.kind == RowKind::Error
            || self.kind == RowKind::Unrecognized
            || self.status.is_some_and(RowStatus::is_failure)
    }
}

/// All rows of an attempt, built once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub rows: Vec<Row>,
    /// Row index of each (turn, event) for jumps.
    pub by_event: HashMap<(TurnAddr, usize), usize>,
    pub by_turn: HashMap<TurnAddr, usize>,
}

impl Timeline {
    pub fn row_of_event(&self, addr: TurnAddr, event: usize) -> Option<usize> {
        self.by_event.get(&(addr, event)).copied()
    }
}

pub fn build_timeline(attempt: &Attempt, derived: &DerivedAttempt, requests: &[HitlRequest]) -> Timeline {
    // Index the root fold by event reference.
    let mut start_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut finish_of: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, o) in derived.occurrences.occurrences.iter().enumerate() {
        start_of.insert((o.start_ref.scope_turn, o.start_ref.event), i);
        if let Some(f) = o.finish_ref {
            finish_of.insert((f.scope_turn, f.event), i);
        }
    }
    let orphan_of: HashMap<(usize, usize), usize> = derived
        .occurrences
        .orphan_finishes
        .iter()
        .enumerate()
        .map(|(i, o)| ((o.event_ref.scope_turn, o.event_ref.event), i))
        .collect();
    let request_of: HashMap<(TurnAddr, usize), usize> =
        requests.iter().enumerate().map(|(i, r)| ((r.addr, r.event), i)).collect();
    // Subagent pairing per turn, by id (display only).
    let mut timeline = Timeline::default();
    for (scope_index, dt) in derived.turns.iter().enumerate() {
        let addr = dt.addr;
        let record = &attempt.sessions[addr.session].turns[addr.turn];
        let ordinal = dt.turn_ordinal;
        timeline.by_turn.insert(addr, timeline.rows.len());
        let base = Row {
            addr,
            kind: RowKind::TurnHeader,
            event: None,
            merged_finish: None,
            merged_away: false,
            occurrence: None,
            orphan: None,
            request: None,
            status: Some(turn_status(record.turn.status.as_deref())),
            turn_ordinal: ordinal,
        };
        timeline.rows.push(base.clone());
        timeline.rows.push(Row { kind: RowKind::Input, status: None, ..base.clone() });
        let mut open_subagents: HashMap<&str, usize> = HashMap::new();
        for (ei, event) in record.turn.events.iter().enumerate() {
            let mut row = Row { kind: RowKind::Unrecognized, event: Some(ei), status: None, ..base.clone() };
            let key = (scope_index, ei);
            match &event.kind {
                EventKind::Message { role: Role::User } => row.kind = RowKind::UserMessage,
                EventKind::Message { role: Role::Assistant } => row.kind = RowKind::AssistantMessage,
                // Neither the user's nor the assistant's: shown as a misfit.
                EventKind::Message { role: Role::Other } => {}
                EventKind::ToolStarted { .. } => {
                    row.kind = RowKind::ToolStart;
                    if let Some(&oi) = start_of.get(&key) {
                        let occ = &derived.occurrences.occurrences[oi];
                        row.occurrence = Some(oi);
                        row.status = Some(lifecycle_status(&occ.lifecycle));
                        if let Some(f) = occ.finish_ref
                            && f.scope_turn == scope_index
                        {
                            row.merged_finish = Some(f.event);
                        }
                    }
                }
                EventKind::ToolFinished { status, .. } => {
                    row.kind = RowKind::ToolFinish;
                    if let Some(&oi) = finish_of.get(&key) {
                        row.occurrence = Some(oi);
                        row.status = Some(finish_status(status));
                        let occ = &derived.occurrences.occurrences[oi];
                        row.merged_away = occ.start_ref.scope_turn == scope_index;
                    } else if let Some(&orphan) = orphan_of.get(&key) {
                        row.orphan = Some(orphan);
                        row.status = Some(RowStatus::Orphan);
                    }
                }
                EventKind::SubagentStarted { operation_id, .. } => {
                    row.kind = RowKind::SubagentStart;
                    row.status = Some(RowStatus::Pending);
                    open_subagents.insert(operation_id, timeline.rows.len());
                }
                EventKind::SubagentFinished { operation_id, status } => {
                    row.kind = RowKind::SubagentFinish;
                    row.status = Some(finish_status(status));
                    match open_subagents.remove(&**operation_id) {
                        Some(start_row) => {
                            timeline.rows[start_row].status = Some(finish_status(status));
                            timeline.rows[start_row].merged_finish = Some(ei);
                            row.merged_away = true;
                        }
                        None => row.status = Some(RowStatus::Orphan),
                    }
                }
                EventKind::SkillLoaded { .. } => row.kind = RowKind::Skill,
                EventKind::InputRequested => {
                    row.kind = RowKind::InputRequest;
                    if let Some(&ri) = request_of.get(&(addr, ei)) {
                        row.request = Some(ri);
                        row.status = Some(request_status(&requests[ri].state));
                    }
                }
                EventKind::Thinking => row.kind = RowKind::Thinking,
                EventKind::ContextInjected => row.kind = RowKind::Context,
                EventKind::Compaction => row.kind = RowKind::Compaction,
                EventKind::Error => row.kind = RowKind::Error,
                EventKind::Unrecognized { .. } => row.kind = RowKind::Unrecognized,
            }
            timeline.by_event.insert((addr, ei), timeline.rows.len());
            timeline.rows.push(row);
        }
    }
    timeline
}

/// One-line previews and summaries keep at most this many characters (then `…`):
/// far wider than any screen, and a 200 MB value costs no more than a short one
/// on every frame. Search also reads the raw event, so it still finds the rest.
pub const PREVIEW_MAX_CHARS: usize = 4096;

/// How much of a lazy event's long strings a preview reads: a string cut
/// here still serializes past what [`value_preview`] keeps, so the preview
/// is the one of the whole string.
const PREVIEW_READS_CHARS: usize = PREVIEW_MAX_CHARS * 4 + 1;

/// The first [`PREVIEW_MAX_CHARS`] characters of `s`, with `…` when cut.
pub fn preview_head(s: &str) -> String {
    match s.char_indices().nth(PREVIEW_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// A writer that keeps the first `limit` bytes and then stops the serializer.
struct Bounded {
    buf: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.buf.len());
        if room == 0 {
            return Err(std::io::Error::other("preview is long enough"));
        }
        let n = data.len().min(room);
        self.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compact one-line JSON of a payload (strings without quotes), cut at
/// [`PREVIEW_MAX_CHARS`] without serializing the rest of a huge value.
pub fn value_preview(v: &Value) -> String {
    match v {
        Value::String(s) => preview_head(s),
        other => {
            let mut w = Bounded { buf: Vec::new(), limit: PREVIEW_MAX_CHARS * 4 };
            let complete = serde_json::to_writer(&mut w, other).is_ok();
            let text = String::from_utf8_lossy(&w.buf);
            let mut out = preview_head(&text);
            if !complete && !out.ends_with('…') {
                out.push('…');
            }
            out
        }
    }
}

/// What a tool input says in a few words: the command, the path, the URL, or compact JSON.
pub fn tool_input_preview(event: &Event) -> String {
    let input = event.tool_input_prefix(PREVIEW_READS_CHARS);
    let input = input.as_deref();
    if let Some(cmd) = shell_command_text(input) {
        return cmd;
    }
    if let Some(obj) = input.and_then(Value::as_object) {
        for key in ["file_path", "path", "file", "filename", "url", "uri", "pattern", "query"] {
            if let Some(s) = obj.get(key).and_then(Value::as_str) {
                return s.to_string();
            }
        }
    }
    match input {
        Some(v) => value_preview(v),
        None => "(no input)".into(),
    }
}

/// One-line summary of a row (sanitized, not cut).
pub fn row_summary(attempt: &Attempt, derived: &DerivedAttempt, requests: &[HitlRequest], row: &Row) -> String {
    let record = &attempt.sessions[row.addr.session].turns[row.addr.turn];
    let text = match (row.kind, row.event) {
        (RowKind::TurnHeader, _) => {
            let dt = derived.turn(row.addr);
            let label = record
                .label
                .clone()
                .unwrap_or_else(|| dt.map(|t| format!("{}/{}", t.session_name, t.turn_name)).unwrap_or_default());
            let tools = dt.map(|t| t.occurrences.occurrences.len()).unwrap_or(0);
            let tokens = record
                .turn
                .usage
                .and_then(|u| u.total_tokens())
                .map(|t| format!("{} tok", compact_number(t)))
                .unwrap_or_else(|| "tokens —".into());
            format!(
                "{label} · {} · {} events · {} tool calls · {tokens}",
                record.turn.status.as_deref().unwrap_or("status not recorded"),
                record.turn.events.len(),
                tools
            )
        }
        (RowKind::Input, _) => {
            let mut s = match record.input_text() {
                Some(t) => preview_head(t),
                None => "(input not recorded)".into(),
            };
            let responses = record.responses();
            if !responses.is_empty() {
                let parts: Vec<String> = responses
                    .iter()
                    .map(|r| {
                        let id = r.get("requestId").and_then(Value::as_str).unwrap_or("?");
                        let a = r.get("optionId").or_else(|| r.get("text")).map(value_preview).unwrap_or_default();
                        format!("{id} → {a}")
                    })
                    .collect();
                s = format!("{s}  [responses: {}]", parts.join(", "));
            }
            s
        }
        (_, Some(ei)) => {
            let event = &record.turn.events[ei];
            event_summary(event, derived, requests, row)
        }
        _ => String::new(),
    };
    // Names, ids and types can be huge too: cut before sanitizing.
    sanitize(&preview_head(&text), Lines::Single).into_owned()
}

fn event_summary(event: &Event, derived: &DerivedAttempt, requests: &[HitlRequest], row: &Row) -> String {
    match &event.kind {
        EventKind::Message { .. } | EventKind::Thinking => {
            preview_head(&event.text_prefix(PREVIEW_READS_CHARS).unwrap_or_default())
        }
        EventKind::ToolStarted { name, tool, .. } => {
            let canonical = tool.as_deref().filter(|t| *t != &**name).map(|t| format!(" [{t}]")).unwrap_or_default();
            let mut s = format!("{name}{canonical} {}", tool_input_preview(event));
            if let Some(oi) = row.occurrence {
                let occ = &derived.occurrences.occurrences[oi];
                if let (Some(f), None) = (occ.finish_ref, row.merged_finish) {
                    let ft = &derived.turns[f.scope_turn];
                    s.push_str(&format!("  (finished at {}:{})", ft.turn_ordinal, f.event + 1));
                }
                if occ.ambiguous {
                    s.push_str("  (id reused while open: ambiguous)");
                }
            }
            s
        }
        EventKind::ToolFinished { operation_id, status } => {
            let output = event
                .output_prefix(PREVIEW_READS_CHARS)
                .as_deref()
                .map(value_preview)
                .unwrap_or_else(|| "(no output)".into());
            match (row.occurrence, row.orphan) {
                (Some(oi), _) => {
                    let occ = &derived.occurrences.occurrences[oi];
                    let st = &derived.turns[occ.start_ref.scope_turn];
                    format!(
                        "{} {status} (started at {}:{}) {output}",
                        occ.original_name,
                        st.turn_ordinal,
                        occ.start_ref.event + 1
                    )
                }
                (None, Some(oi)) if derived.occurrences.orphan_finishes[oi].ambiguous_id => {
                    format!("finish of ambiguous id {operation_id}: {status} {output}")
                }
                _ => format!("finish without a start: {operation_id} {status} {output}"),
            }
        }
        EventKind::SubagentStarted { name, .. } => {
            let url = event.remote_url().map(|u| format!(" ({u})")).unwrap_or_default();
            format!("{name}{url}")
        }
        EventKind::SubagentFinished { operation_id, status } => {
            let output = event.output_prefix(PREVIEW_READS_CHARS).as_deref().map(value_preview).unwrap_or_default();
            format!("{operation_id} {status} {output}")
        }
        EventKind::SkillLoaded { skill, operation_id } => match operation_id {
            Some(id) => format!("{skill} (via tool call {id})"),
            None => skill.clone(),
        },
        EventKind::InputRequested => match row.request.map(|i| &requests[i]) {
            Some(r) => {
                let q = r.question().unwrap_or("(no prompt)");
                let action = r.action.as_deref().map(|a| format!("{a} · ")).unwrap_or_default();
                let state = match &r.state {
                    HitlState::Waiting => "WAITING for an answer".to_string(),
                    HitlState::Answered { answer, .. } => match answer {
                        super::hitl::Answer::Option { id, label } => {
                            format!("answered: {}", label.as_deref().unwrap_or(id))
                        }
                        super::hitl::Answer::Text(t) => format!("answered: \"{t}\""),
                    },
                    HitlState::NeverAnswered { .. } => "never answered".into(),
                    HitlState::AnswerNotRecorded { .. } => "answer not recorded (the file keeps no answers)".into(),
                    HitlState::Unanswered { turn_status } => {
                        format!("unanswered (turn {})", turn_status.as_deref().unwrap_or("status not recorded"))
                    }
                };
                format!("{action}{q}  — {state}")
            }
            None => String::new(),
        },
        EventKind::ContextInjected => match event.source() {
            Some(src) => format!(
                "[{}] {}",
                preview_head(src),
                preview_head(&event.text_prefix(PREVIEW_READS_CHARS).unwrap_or_default())
            ),
            None => preview_head(&event.text_prefix(PREVIEW_READS_CHARS).unwrap_or_default()),
        },
        EventKind::Compaction => event.reason().map(str::to_string).unwrap_or_else(|| "(no reason given)".into()),
        EventKind::Error => preview_head(&event.text_prefix(PREVIEW_READS_CHARS).unwrap_or_default()),
        EventKind::Unrecognized { reason } => {
            let ty = event.type_name().unwrap_or("?");
            format!("{ty}: {reason}")
        }
    }
}

/// 1234 → "1.2k", 1234567 → "1.2M".
pub fn compact_number(x: f64) -> String {
    let a = x.abs();
    if a >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", x / 1e3)
    } else if a >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// 1234567 → "1,234,567" (integers), otherwise as written.
pub fn grouped(x: f64) -> String {
    if x.fract() != 0.0 || x.abs() >= 1e15 {
        return format!("{x}");
    }
    let digits = format!("{}", x.abs() as u64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 { format!("-{out}") } else { out }
}

/// USD: 4 decimals under a dollar, 2 above.
pub fn usd(x: f64) -> String {
    if x.abs() < 1.0 { format!("${x:.4}") } else { format!("${x:.2}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_of_huge_values_are_cut_cheaply() {
        let big = "é".repeat(PREVIEW_MAX_CHARS * 3);
        let p = value_preview(&Value::String(big));
        assert_eq!(p.chars().count(), PREVIEW_MAX_CHARS + 1);
        assert!(p.ends_with('…'));
        let items: Vec<Value> = (0..200_000).map(Value::from).collect();
        let p = value_preview(&Value::Array(items));
        assert!(p.starts_with("[0,1,2,") && p.ends_with('…'));
        assert!(p.chars().count() <= PREVIEW_MAX_CHARS + 1);
        assert_eq!(value_preview(&serde_json::json!({"a": [1, 2]})), r#"{"a":[1,2]}"#);
        assert_eq!(value_preview(&Value::String("short".into())), "short");
    }
}
