//! `niceeval.observability` (Record payload, durable keys) and the
//! attempt-observability view of `show --json` (plain keys) → sessions,
//! turns, reported usage, timing, commands and diagnostics of an Attempt.
//!
//! Events are rebuilt from conversation items without fabricating any:
//! each item becomes exactly one StreamEvent (or is kept out with a
//! Notice), so `events_exact` is false and every turn is `reconstructed`.
//! The first item of a turn, when it is a user message, is the
//! runner-inserted message: it becomes the turn's `input`, not an event, so
//! adapter `events[i]` keeps assertion event ordinal `i + 1`.

use crate::model::document::{Attempt, Completeness, Diagnostic, Notice, NoticeLevel, Session, Turn, TurnRecord};
use crate::model::event::Event;
use crate::model::measure::RecordedUsage;
use crate::model::notice::{Collection, ConversationTurn, LeftOut, ObservabilityNotice};
use crate::model::timing::Timing;
use crate::model::usage::Usage;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The five sub-collections, whichever key spelling the input uses.
#[derive(Default, Clone, Copy)]
pub struct Obs<'a> {
    pub conversation: Option<&'a Value>,
    pub commands: Option<&'a Value>,
    pub usage: Option<&'a Value>,
    pub timing: Option<&'a Value>,
    pub diagnostics: Option<&'a Value>,
}

impl<'a> Obs<'a> {
    /// Record payload (`conversation-data`, …) or show view (`conversation`, …).
    pub fn from_value(v: &'a Value) -> Obs<'a> {
        let get = |k: &str| v.get(format!("{k}-data")).or_else(|| v.get(k)).filter(|x| !x.is_null());
        Obs {
            conversation: get("conversation"),
            commands: get("commands"),
            usage: get("usage"),
            timing: get("timing"),
            diagnostics: get("diagnostics"),
        }
    }
}

/// `collection: {state, limitations}` → Completeness.
pub fn completeness(collection: Option<&Value>) -> Completeness {
    let Some(c) = collection else { return Completeness::NotRecorded };
    let lims: Vec<String> = c
        .get("limitations")
        .and_then(Value::as_array)
        .map(|l| l.iter().map(limitation_text).collect())
        .unwrap_or_default();
    match c.get("state").and_then(Value::as_str) {
        Some("complete") if lims.is_empty() => Completeness::Complete,
        Some("complete") | Some("partial") => Completeness::Partial(lims),
        Some(other) => {
            Completeness::Partial(std::iter::once(format!("collection state {other}")).chain(lims).collect())
        }
        None => Completeness::Partial(lims),
    }
}

/// One limitation as a sentence: `unsupported-input (at least 7 items omitted; target conversation)`.
pub fn limitation_text(l: &Value) -> String {
    let code = l.get("code").or_else(|| l.get("kind")).and_then(Value::as_str).unwrap_or("limitation");
    let mut parts = Vec::new();
    if let Some(n) = l.get("omittedAtLeast").and_then(Value::as_u64) {
        parts.push(format!("at least {n} omitted"));
    }
    if let Some(n) = l.get("replacementOrOmittedCount").and_then(Value::as_u64) {
        parts.push(format!("{n} replaced or omitted"));
    }
    if let Some(n) = l.get("omittedBytes").and_then(Value::as_u64) {
        parts.push(format!("{n} bytes omitted"));
    }
    if let Some(s) = l.get("stage").and_then(Value::as_str) {
        parts.push(format!("stage {s}"));
    }
    if let Some(t) = l.get("target").and_then(Value::as_str) {
        parts.push(format!("target {t}"));
    }
    if parts.is_empty() { code.to_string() } else { format!("{code} ({})", parts.join("; ")) }
}

fn notice(level: NoticeLevel, fact: ObservabilityNotice) -> Notice {
    Notice::new(level, fact)
}

/// Parse `turn3` / `session2/turn1` (and legacy `s2/t1`) → (session, turn).
pub fn parse_turn_label(label: &str) -> Option<(u64, u64)> {
    let num = |s: &str, p: &str| s.strip_prefix(p).and_then(|n| n.parse::<u64>().ok()).filter(|n| *n > 0);
    match label.split_once('/') {
        None => Some((1, num(label, "turn")?)),
        Some((s, t)) => {
            let session = num(s, "session").or_else(|| num(s, "s"))?;
            let turn = num(t, "turn").or_else(|| num(t, "t"))?;
            Some((session, turn))
        }
    }
}

/// Parse a JSON summary string; keep the string when it does not parse.
fn summary_value(v: Option<&Value>) -> Option<Value> {
    match v? {
        Value::String(s) => Some(serde_json::from_str::<Value>(s).unwrap_or_else(|_| Value::String(s.clone()))),
        Value::Null => None,
        other => Some(other.clone()),
    }
}

fn str_of<'v>(v: &'v Value, k: &str) -> Option<&'v str> {
    v.get(k).and_then(Value::as_str)
}

/// Resolves a blob-backed command stream to text.
pub type StreamText<'a> = &'a mut dyn FnMut(&Value) -> Option<String>;

/// Apply the observability of one attempt. `nav_rows` are the
/// source-navigation rows (Record only). `stream_text` resolves a
/// blob-backed command stream (Record only).
pub fn apply(attempt: &mut Attempt, obs: Obs<'_>, nav_rows: Option<&[Value]>, stream_text: Option<StreamText<'_>>) {
    attempt.events_exact = false;
    // The conversation holds what was said, not the TurnInput: no HITL answers.
    attempt.answers_not_recorded = true;
    attempt.from_record_conversation = true;
    let intervals: Vec<Value> =
        obs.timing.and_then(|t| t.get("intervals")).and_then(Value::as_array).cloned().unwrap_or_default();
    if let Some(t) = obs.timing {
        note_collection(attempt, Collection::Timing, t.get("collection"));
        attempt.review.timing = Timing::from_collection(t, completeness(t.get("collection")));
        attempt.duration_ms = attempt.duration_ms.or_else(|| attempt.review.timing.span_ms());
    }
    match obs.conversation {
        Some(c) => build_turns(attempt, c, nav_rows, &intervals),
        None => {
            attempt.events = Some(Completeness::NotRecorded);
        }
    }
    if let Some(u) = obs.usage {
        note_collection(attempt, Collection::Usage, u.get("collection"));
        usage(attempt, u);
    }
    if let Some(d) = obs.diagnostics {
        note_collection(attempt, Collection::Diagnostics, d.get("collection"));
        attempt.review.diagnostics.extend(diagnostics(d));
    }
    if let Some(c) = obs.commands {
        note_collection(attempt, Collection::Commands, c.get("collection"));
        attempt.review.commands_state = Some(completeness(c.get("collection")));
        let list =
            c.get("commands").or_else(|| c.get("entries")).and_then(Value::as_array).cloned().unwrap_or_default();
        let mut resolve = stream_text;
        for mut cmd in list {
            // Give every stream a top-level `text` (as `show --json` has it):
            // inline storage is copied, blob storage resolved (Record only).
            for stream in ["stdout", "stderr"] {
                let Some(st) = cmd.get_mut("result").and_then(|r| r.get_mut(stream)) else { continue };
                if st.get("text").is_some() {
                    continue;
                }
                let storage = st.get("storage");
                let text = match storage.and_then(|x| x.get("kind")).and_then(Value::as_str) {
                    Some("inline") => storage.and_then(|x| x.get("text")).and_then(Value::as_str).map(str::to_string),
                    _ => resolve.as_mut().and_then(|f| f(st)),
                };
                if let (Some(text), Some(o)) = (text, st.as_object_mut()) {
                    o.insert("text".into(), Value::String(text));
                }
            }
            attempt.review.commands.push(crate::model::sandbox::SandboxCommand::from_value(&cmd));
        }
    }
}

/// A value as JSON, at most 60 characters of it (then `…`).
fn note_collection(attempt: &mut Attempt, what: Collection, collection: Option<&Value>) {
    if let Completeness::Partial(limitations) = completeness(collection)
        && !limitations.is_empty()
    {
        let partial = ObservabilityNotice::CollectionPartial { collection: what, limitations };
        attempt.notices.push(notice(NoticeLevel::Info, partial));
    }
}

fn usage(attempt: &mut Attempt, u: &Value) {
    attempt.recorded_usage = Some(RecordedUsage::from_collection(u));
    let Some(obs) = u.get("observations").and_then(Value::as_array) else { return };
    if obs.is_empty() {
        return;
    }
    let mut total = Usage::default();
    let add = |slot: &mut Option<f64>, x: f64| *slot = Some(slot.unwrap_or(0.0) + x);
    let mut other_tokens = 0.0;
    let mut tool_requests = 0u64;
    for o in obs {
        match str_of(o, "kind") {
            Some("token-bucket") => {
                let Some(t) = o.get("tokens").and_then(Value::as_f64) else { continue };
                match str_of(o, "bucket") {
                    Some("input") => add(&mut total.input_tokens, t),
                    Some("output") => add(&mut total.output_tokens, t),
                    Some("cache-read") => add(&mut total.cache_read_tokens, t),
                    Some("cache-write") => add(&mut total.cache_creation_tokens, t),
                    Some("reasoning") => add(&mut total.reasoning_tokens, t),
                    _ => other_tokens += t,
                }
            }
            Some("request") => match str_of(o, "requestKind") {
                Some("tool") => tool_requests += 1,
                _ => add(&mut total.requests, 1.0),
            },
            Some("provider-cost") => {
                let amount = match o.get("amount") {
                    Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
                    Some(v) => v.as_f64(),
                    None => None,
                };
                match (amount, str_of(o, "currency")) {
                    (Some(a), Some("USD") | None) => add(&mut total.cost_usd, a),
                    (Some(_), Some(cur)) => attempt.notices.push(notice(
                        NoticeLevel::Info,
                        ObservabilityNotice::CostInOtherCurrency { currency: cur.to_string() },
                    )),
                    (None, _) => attempt.notices.push(notice(
                        NoticeLevel::Warning,
                        match o.get("amount") {
                            Some(v) => ObservabilityNotice::CostAmountUnreadable { amount: Box::new(v.clone()) },
                            None => ObservabilityNotice::CostWithoutAmount,
                        },
                    )),
                }
            }
            _ => {}
        }
    }
    if other_tokens > 0.0 {
        attempt.notices.push(notice(NoticeLevel::Info, ObservabilityNotice::OtherTokens { tokens: other_tokens }));
    }
    if tool_requests > 0 {
        let requests = ObservabilityNotice::ToolRequestsNotCounted { requests: tool_requests };
        attempt.notices.push(notice(NoticeLevel::Info, requests));
    }
    attempt.notices.push(notice(NoticeLevel::Info, ObservabilityNotice::UsageIsAttemptTotal));
    attempt.reported_usage = Some(total);
}

pub fn diagnostics(d: &Value) -> Vec<Diagnostic> {
    let Some(list) = d.get("diagnostics").or_else(|| d.get("entries")).and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .map(|x| Diagnostic {
            kind: str_of(x, "kind").unwrap_or("diagnostic").to_string(),
            code: str_of(x, "code").unwrap_or_default().to_string(),
            phase: str_of(x, "phase").map(str::to_string),
            message: str_of(x, "summary").or_else(|| str_of(x, "message")).unwrap_or_default().to_string(),
            causes: x
                .get("causes")
                .and_then(Value::as_array)
                .map(|c| {
                    c.iter()
                        .map(|c| match (str_of(c, "code"), str_of(c, "summary")) {
                            (Some(code), Some(s)) => format!("{code}: {s}"),
                            (Some(code), None) => code.to_string(),
                            (None, Some(s)) => s.to_string(),
                            (None, None) => c.to_string(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

struct TurnInfo {
    turn_id: String,
    sequence: Option<u64>,
    outcome: Option<String>,
    label: Option<String>,
    duration_ms: Option<f64>,
    items: Vec<Value>,
}

fn build_turns(attempt: &mut Attempt, conv: &Value, nav_rows: Option<&[Value]>, intervals: &[Value]) {
    attempt.events = Some(conversation_state(attempt, conv));
    // NiceEval stops keeping items at its cap (`hasConversationCapacity`):
    // a turn past it keeps none.
    let limitations = conv.get("collection").and_then(|c| c.get("limitations")).and_then(Value::as_array);
    let capped = limitations.is_some_and(|l| l.iter().any(|x| str_of(x, "code") == Some("collection-cap-reached")));
    let mut turns = turns_with_items(attempt, conv);
    note_late_items(attempt, &turns);
    label_turns(attempt, &mut turns, nav_rows, intervals);
    let mut sessions: BTreeMap<u64, Vec<(u64, TurnRecord)>> = BTreeMap::new();
    let mut unlabelled_turn = 0u64;
    let mut subagents = Subagents::default();
    for t in turns {
        let (session, index) = match t.label.as_deref().and_then(parse_turn_label) {
            Some(x) => x,
            None => {
                unlabelled_turn += 1;
                (1, 1_000_000 + unlabelled_turn)
            }
        };
        let mut record = turn_record(attempt, t, &mut subagents);
        record.past_item_cap = capped && record.turn.events.is_empty() && record.input.is_none();
        sessions.entry(session).or_default().push((index, record));
    }
    attempt.sessions = sessions
        .into_iter()
        .map(|(index, mut turns)| {
            turns.sort_by_key(|(i, _)| *i);
            Session { index, turns: turns.into_iter().map(|(_, t)| t).collect(), ..Default::default() }
        })
        .collect();
}

/// How complete the conversation is, its limitations said as notices.
fn conversation_state(attempt: &mut Attempt, conv: &Value) -> Completeness {
    let state = completeness(conv.get("collection"));
    // Each limitation is said once, by the header's "events are partial" (from `state`).
    if let Completeness::Partial(lims) = &state
        && lims.iter().any(|l| l.starts_with("unsupported-input"))
    {
        attempt.notices.push(notice(NoticeLevel::Info, ObservabilityNotice::ConversationDropsEvents));
    }
    state
}

/// The conversation's turns in sequence order, each with its items in
/// sequence order.
fn turns_with_items(attempt: &mut Attempt, conv: &Value) -> Vec<TurnInfo> {
    let mut turns: Vec<TurnInfo> = conv
        .get("turns")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(|t| {
                    Some(TurnInfo {
                        turn_id: str_of(t, "turnId")?.to_string(),
                        sequence: t.get("sequence").and_then(Value::as_u64),
                        outcome: str_of(t, "outcome").map(str::to_string),
                        label: None,
                        duration_ms: None,
                        items: Vec::new(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    turns.sort_by_key(|t| t.sequence.unwrap_or(u64::MAX));
    let mut items: Vec<Value> = conv.get("items").and_then(Value::as_array).cloned().unwrap_or_default();
    items.sort_by_key(|i| i.get("sequence").and_then(Value::as_u64).unwrap_or(u64::MAX));
    for item in items {
        let Some(tid) = str_of(&item, "turnId").map(str::to_string) else {
            attempt.notices.push(notice(NoticeLevel::Warning, ObservabilityNotice::ItemWithoutTurnId));
            continue;
        };
        match turns.iter_mut().find(|t| t.turn_id == tid) {
            Some(t) => t.items.push(item),
            None => {
                // An item for a turn the Record does not list: keep it in a turn of its own.
                turns.push(TurnInfo {
                    turn_id: tid,
                    sequence: None,
                    outcome: None,
                    label: None,
                    duration_ms: None,
                    items: vec![item],
                });
            }
        }
    }
    turns
}

/// Items recorded under an earlier turn but sequenced after a later turn
/// began (a HITL resume's tool result stays with its call's turn).
fn note_late_items(attempt: &mut Attempt, turns: &[TurnInfo]) {
    let firsts: Vec<Option<u64>> =
        turns.iter().map(|t| t.items.first().and_then(|i| i.get("sequence")).and_then(Value::as_u64)).collect();
    for (i, t) in turns.iter().enumerate() {
        let later_start = firsts.iter().skip(i + 1).flatten().min().copied();
        let Some(later) = later_start else { continue };
        for item in t.items.iter().filter(|it| it.get("sequence").and_then(Value::as_u64).is_some_and(|q| q > later)) {
            let late = ObservabilityNotice::LateItem {
                kind: str_of(item, "kind").map(str::to_string),
                id: str_of(item, "callId").or_else(|| str_of(item, "itemId")).map(str::to_string),
                turn: match t.sequence {
                    Some(q) => ConversationTurn::Sequence(q),
                    None => ConversationTurn::Id(t.turn_id.clone()),
                },
            };
            attempt.notices.push(notice(NoticeLevel::Info, late));
        }
    }
}

/// Each turn's session/turn label and duration: its source-navigation row
/// (turnId → intervalId) → its timing interval, else the `agent.send`
/// intervals matched by order.
fn label_turns(attempt: &mut Attempt, turns: &mut [TurnInfo], nav_rows: Option<&[Value]>, intervals: &[Value]) {
    let by_interval: BTreeMap<&str, &Value> =
        intervals.iter().filter_map(|i| Some((str_of(i, "intervalId")?, i))).collect();
    let mut linked = 0;
    if let Some(rows) = nav_rows {
        for row in rows {
            let (Some(tid), Some(iid)) =
                (str_of(row, "turnId"), row.get("timing").and_then(|t| str_of(t, "intervalId")))
            else {
                continue;
            };
            if let (Some(t), Some(iv)) = (turns.iter_mut().find(|t| t.turn_id == tid), by_interval.get(iid)) {
                t.label = str_of(iv, "label").map(str::to_string);
                t.duration_ms = iv.get("durationMs").and_then(Value::as_f64);
                linked += 1;
            }
        }
    }
    if linked >= turns.len() {
        return;
    }
    // Fallback: agent.send intervals in start order ↔ turns in sequence order, when counts match.
    let mut sends: Vec<&Value> = intervals.iter().filter(|i| str_of(i, "phase") == Some("agent.send")).collect();
    sends.sort_by(|a, b| {
        let k = |x: &Value| x.get("startOffsetMs").and_then(Value::as_f64).unwrap_or(f64::MAX);
        k(a).total_cmp(&k(b))
    });
    if linked == 0 && sends.len() == turns.len() && !turns.is_empty() {
        for (t, iv) in turns.iter_mut().zip(sends) {
            t.label = str_of(iv, "label").map(str::to_string);
            t.duration_ms = iv.get("durationMs").and_then(Value::as_f64);
        }
        if nav_rows.is_some() || turns.iter().any(|t| t.label.as_deref().is_some_and(|l| l.contains('/'))) {
            attempt.notices.push(notice(NoticeLevel::Info, ObservabilityNotice::LabelsMatchedByOrder));
        }
    } else if !turns.is_empty() {
        let unlabeled = ObservabilityNotice::TurnsWithoutLabel { unlabeled: turns.len() - linked, turns: turns.len() };
        attempt.notices.push(notice(NoticeLevel::Info, unlabeled));
    }
}

/// What pairs a subagent's start with its finish across the conversation.
#[derive(Default)]
struct Subagents {
    op_counter: usize,
    open: Vec<(String, String)>,
}

/// One turn's record: its first item, a user message, is the turn's input;
/// each other item one event.
fn turn_record(attempt: &mut Attempt, t: TurnInfo, subagents: &mut Subagents) -> TurnRecord {
    let mut input = None;
    let mut events = Vec::new();
    let mut waiting_like = false;
    for (n, item) in t.items.iter().enumerate() {
        if n == 0 && str_of(item, "kind") == Some("message") && str_of(item, "role") == Some("user") {
            input = Some(json!({ "text": str_of(item, "text").unwrap_or_default() }));
            continue;
        }
        if str_of(item, "kind") == Some("input-request") {
            waiting_like = true;
        }
        match item_event(item, &mut subagents.op_counter, &mut subagents.open) {
            Ok(raw) => events.push(Event::from_value(raw)),
            Err(why) => attempt.notices.push(notice(NoticeLevel::Warning, ObservabilityNotice::ItemLeftOut(why))),
        }
    }
    if waiting_like && t.outcome.as_deref() == Some("completed") {
        let turn = t.label.clone().unwrap_or_else(|| t.turn_id.clone());
        attempt.notices.push(notice(NoticeLevel::Info, ObservabilityNotice::WaitingRecordedAsCompleted { turn }));
    }
    TurnRecord {
        label: t.label.clone(),
        input,
        turn: Turn { events, status: t.outcome.clone(), ..Default::default() },
        ordinal: t.sequence,
        duration_ms: t.duration_ms,
        trace_id: None,
        reconstructed: true,
        ..Default::default()
    }
}

/// One conversation item → one StreamEvent JSON, or why it is left out.
fn item_event(
    item: &Value,
    op_counter: &mut usize,
    open_subagents: &mut Vec<(String, String)>,
) -> Result<Value, LeftOut> {
    let kind = str_of(item, "kind").unwrap_or("");
    let mut o = Map::new();
    match kind {
        "message" => {
            o.insert("type".into(), "message".into());
            o.insert("role".into(), str_of(item, "role").unwrap_or("assistant").into());
            o.insert("text".into(), item.get("text").cloned().unwrap_or(Value::String(String::new())));
        }
        "tool-call" => {
            o.insert("type".into(), "operation.started".into());
            o.insert("operationId".into(), item.get("callId").cloned().unwrap_or(Value::Null));
            let mut op = Map::new();
            op.insert("kind".into(), "tool".into());
            op.insert("name".into(), item.get("tool").cloned().unwrap_or(Value::Null));
            op.insert("input".into(), summary_value(item.get("inputSummary")).unwrap_or(Value::Null));
            o.insert("operation".into(), Value::Object(op));
        }
        "tool-result" => {
            o.insert("type".into(), "operation.finished".into());
            o.insert("operationId".into(), item.get("callId").cloned().unwrap_or(Value::Null));
            o.insert("kind".into(), "tool".into());
            o.insert("status".into(), item.get("outcome").cloned().unwrap_or(Value::Null));
            if let Some(out) = summary_value(item.get("outputSummary")) {
                o.insert("output".into(), out);
            }
        }
        "subagent" => {
            let label = str_of(item, "label").unwrap_or("subagent").to_string();
            match str_of(item, "state") {
                Some("started") => {
                    // The Record keeps no operationId for subagents: the started
                    // item's itemId pairs it with its finish (same label, in order).
                    *op_counter += 1;
                    let id =
                        str_of(item, "itemId").map(str::to_string).unwrap_or_else(|| format!("subagent-{op_counter}"));
                    open_subagents.push((label.clone(), id.clone()));
                    o.insert("type".into(), "operation.started".into());
                    o.insert("operationId".into(), id.into());
                    o.insert("operation".into(), json!({ "kind": "subagent", "name": label }));
                }
                Some(state @ ("completed" | "failed")) => {
                    let id = match open_subagents.iter().position(|(l, _)| *l == label) {
                        Some(p) => open_subagents.remove(p).1,
                        None => str_of(item, "itemId").unwrap_or("subagent").to_string(),
                    };
                    o.insert("type".into(), "operation.finished".into());
                    o.insert("operationId".into(), id.into());
                    o.insert("kind".into(), "subagent".into());
                    o.insert("status".into(), state.into());
                }
                Some(other) => return Err(LeftOut::SubagentState(other.to_string())),
                None => return Err(LeftOut::SubagentWithoutState),
            }
        }
        "skill-load" => {
            o.insert("type".into(), "skill.loaded".into());
            o.insert("skill".into(), item.get("code").cloned().unwrap_or(Value::Null));
        }
        "input-request" => {
            o.insert("type".into(), "input.requested".into());
            let mut req = Map::new();
            if let Some(p) = item.get("promptSummary").filter(|p| !p.is_null()) {
                req.insert("prompt".into(), p.clone());
            }
            o.insert("request".into(), Value::Object(req));
        }
        "context-injection" => {
            o.insert("type".into(), "context.injected".into());
            o.insert("text".into(), item.get("summary").cloned().unwrap_or(Value::String(String::new())));
        }
        "conversation-error" => {
            o.insert("type".into(), "error".into());
            o.insert("message".into(), item.get("summary").cloned().unwrap_or(Value::String(String::new())));
        }
        other => return Err(LeftOut::UnknownKind(other.to_string())),
    }
    Ok(Value::Object(o))
}
