//! InvocationSummary JSON (what a NiceEval Reporter receives; formats.md §7).
//!
//! Each `results[]` entry (an `EvalResult`) becomes one attempt. Its flat
//! `events` (all sessions) are split into sessions and turns by the runner's
//! user messages (those WITH `loc`) matched in order with the `agent.turn`
//! timing nodes of `phases` (`{sessionIndex, turnIndex, label, traceId,
//! usage, durationMs}`). The runner's user message becomes the turn's input
//! and is not kept in the turn's events (the model puts it back at ordinal 0).
//! Turn status is not recorded in this format and stays `None`.
//!
//! [`attempt_from_result`] is shared with the legacy results reader, whose
//! `result.json` is an `EvalResult` without events and trace.

use crate::load::error::LoadError;
use crate::model::document::{
    Attempt, Completeness, Diagnostic, Document, FileChange, FileChanges, Notice, NoticeLevel, Review, Score, Session,
    SourceFile, Turn, TurnRecord,
};
use crate::model::event::Event;
use crate::model::notice::{ChannelShortfall, ResultNotice};
use crate::model::usage::Usage;
use serde_json::{Value, json};

pub const FORMAT_NAME: &str = "InvocationSummary";

pub fn looks_like(v: &Value) -> bool {
    v.get("results")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().all(|x| x.is_object() && (x.get("verdict").is_some() || x.get("events").is_some())))
}

pub fn load(path: &str, value: Value) -> Result<Document, LoadError> {
    let Value::Object(mut root) = value else {
        return Err(LoadError::new(path, "an InvocationSummary must be a JSON object"));
    };
    let Some(Value::Array(results)) = root.remove("results") else {
        return Err(LoadError::new(path, "an InvocationSummary needs a `results` array"));
    };
    let empty = results.is_empty();
    let attempts: Vec<Attempt> = results.into_iter().map(|r| attempt_from_result(r, &mut |_| None)).collect();
    let mut doc = super::document::document_from_attempts(path, FORMAT_NAME.to_string(), attempts);
    if empty {
        doc.notices.push(Notice::new(NoticeLevel::Info, ResultNotice::NoResults));
    }
    Ok(doc)
}

fn s(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn f(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

fn push(attempt: &mut Attempt, level: NoticeLevel, fact: ResultNotice) {
    attempt.notices.push(Notice::new(level, fact));
}

/// One `EvalResult` (or legacy `result.json` with its side files merged in)
/// as an attempt. `map_event` may rewrite each raw event before it is typed
/// (the legacy reader maps the old `action.*` vocabulary); it returns the
/// replacement, or `None` to keep the event as is.
pub fn attempt_from_result(mut r: Value, map_event: &mut dyn FnMut(&Value) -> Option<Value>) -> Attempt {
    let mut attempt = Attempt { events_exact: true, ..Default::default() };
    if !r.is_object() {
        let found = crate::model::event::json_type(&r);
        push(&mut attempt, NoticeLevel::Error, ResultNotice::NotAnObject { found });
        attempt.events = Some(Completeness::NotRecorded);
        return attempt;
    }
    attempt.eval_id = s(&r, "id").or_else(|| s(&r, "evalId"));
    attempt.experiment_id = s(&r, "experimentId");
    attempt.attempt_number = r.get("attempt").and_then(Value::as_u64).map(|a| a + 1);
    attempt.locator = s(&r, "locator");
    attempt.attempt_id = s(&r, "attemptId");
    attempt.verdict = super::assertions::read_verdict(r.get("verdict"), &mut attempt.notices);
    attempt.outcome = s(&r, "outcome");
    attempt.model = s(&r, "model");
    attempt.agent = match r.get("agent") {
        Some(Value::String(a)) => Some(a.clone()),
        Some(o @ Value::Object(_)) => s(o, "id").or_else(|| s(o, "name")),
        _ => None,
    };
    attempt.duration_ms = f(&r, "durationMs");
    attempt.started_at = s(&r, "startedAt");
    read_score(&r, &mut attempt);
    if let Some(u) = r.get("usage").filter(|u| u.is_object()) {
        attempt.reported_usage = Some(Usage::from_value(u));
    }
    attempt.reported_estimate = f(&r, "estimatedCostUSD");
    if let Some(reason) = r.get("skipReason").and_then(Value::as_str) {
        push(&mut attempt, NoticeLevel::Info, ResultNotice::Skipped { reason: reason.to_string() });
    }
    if let Some(n) = r.get("retryAttempts").and_then(Value::as_array).map(Vec::len).filter(|n| *n > 0) {
        push(&mut attempt, NoticeLevel::Info, ResultNotice::RetriedSends { count: n });
    }
    coverage_notice(&r, &mut attempt);
    attempt.recorded_coverage = r
        .get("evidenceCoverage")
        .filter(|c| c.is_object())
        .map(|c| crate::model::coverage::Coverage::complete().downgrade(Some(c)));
    attempt.review = read_review(&r, &mut attempt.notices);
    let nodes: Vec<Value> = turn_nodes(r.get("phases")).into_iter().cloned().collect();
    match r.get_mut("events").map(Value::take) {
        Some(Value::Array(events)) => {
            attempt.events = Some(Completeness::Complete);
            let events: Vec<Value> = events.into_iter().map(|e| map_event(&e).unwrap_or(e)).collect();
            let none = events.is_empty() && nodes.is_empty();
            split_turns(events, &nodes, &mut attempt);
            if none {
                push(&mut attempt, NoticeLevel::Info, ResultNotice::NoTurns);
            }
        }
        Some(other) => {
            attempt.events = Some(Completeness::NotRecorded);
            let found = crate::model::event::json_type(&other);
            push(&mut attempt, NoticeLevel::Error, ResultNotice::EventsNotAnArray { found });
        }
        None => {
            attempt.events = Some(Completeness::NotRecorded);
            push(&mut attempt, NoticeLevel::Warning, ResultNotice::NoEvents);
        }
    }
    attempt
}

/// The result's `evidenceCoverage` is the worst across its turns, so it
/// cannot be put on any one turn; say when it is not complete.
fn coverage_notice(r: &Value, attempt: &mut Attempt) {
    let Some(cov) = r.get("evidenceCoverage").and_then(Value::as_object) else { return };
    let limited: Vec<ChannelShortfall> = cov
        .iter()
        .filter_map(|(channel, entry)| {
            let status = entry.get("status").and_then(Value::as_str)?;
            if status == "complete" {
                return None;
            }
            Some(ChannelShortfall {
                channel: channel.clone(),
                status: status.to_string(),
                reason: entry.get("reason").and_then(Value::as_str).map(str::to_string),
            })
        })
        .collect();
    if !limited.is_empty() {
        push(attempt, NoticeLevel::Warning, ResultNotice::CoverageNotComplete { channels: limited });
    }
}

fn read_score(r: &Value, attempt: &mut Attempt) {
    let Some(sr) = r.get("scoreResult").filter(|v| v.is_object()) else { return };
    match sr.get("status").and_then(Value::as_str) {
        Some("skipped") => {
            let reason = s(sr, "reason");
            // The same reason is usually the result's `skipReason` as well.
            if reason.is_none() || s(r, "skipReason") != reason {
                push(attempt, NoticeLevel::Info, ResultNotice::ScoreSkipped { reason });
            }
        }
        _ => {
            let earned = f(sr, "earnedScore").or_else(|| f(sr, "earned"));
            let points = f(sr, "points").or_else(|| f(sr, "possibleScore")).or_else(|| f(sr, "maxScore"));
            if earned.is_some() || points.is_some() {
                attempt.score = Some(Score { earned, points });
            }
        }
    }
}

/// The `agent.turn` nodes of a `phases` tree in send order (tree order,
/// stably sorted by `startOffsetMs` when every node has one).
pub fn turn_nodes(phases: Option<&Value>) -> Vec<&Value> {
    fn walk<'a>(nodes: &'a Value, out: &mut Vec<&'a Value>) {
        for n in nodes.as_array().into_iter().flatten() {
            if n.get("key").and_then(Value::as_str) == Some("agent.turn") {
                out.push(n);
            }
            if let Some(c) = n.get("children") {
                walk(c, out);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(p) = phases {
        walk(p, &mut out);
    }
    if out.iter().all(|n| f(n, "startOffsetMs").is_some()) {
        out.sort_by(|a, b| {
            let (x, y) = (f(a, "startOffsetMs").unwrap_or(0.0), f(b, "startOffsetMs").unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    out
}

/// A user message the runner inserted for a send (it carries `loc`).
pub fn is_runner_message(e: &Value) -> bool {
    e.get("type").and_then(Value::as_str) == Some("message")
        && e.get("role").and_then(Value::as_str) == Some("user")
        && e.get("loc").is_some_and(|l| !l.is_null())
}

/// Split flat events into sessions and turns (see the module doc).
pub fn split_turns(events: Vec<Value>, nodes: &[Value], attempt: &mut Attempt) {
    let mut leading: Vec<Value> = Vec::new();
    let mut segments: Vec<(Value, Vec<Value>)> = Vec::new();
    for e in events {
        if is_runner_message(&e) {
            segments.push((e, Vec::new()));
        } else if let Some(last) = segments.last_mut() {
            last.1.push(e);
        } else {
            leading.push(e);
        }
    }
    if nodes.is_empty() && !segments.is_empty() {
        push(attempt, NoticeLevel::Warning, ResultNotice::NoTurnNodes { turns: segments.len() });
    } else if nodes.len() != segments.len() {
        let miscounted = ResultNotice::TurnNodesMiscounted { messages: segments.len(), nodes: nodes.len() };
        push(attempt, NoticeLevel::Warning, miscounted);
    }
    let mut sessions: Vec<Session> = Vec::new();
    let mut current_session = nodes.first().and_then(|n| n.get("sessionIndex")).and_then(Value::as_u64).unwrap_or(1);
    if !leading.is_empty() {
        push(attempt, NoticeLevel::Warning, ResultNotice::EventsBeforeFirstMessage { events: leading.len() });
        let turn = Turn { events: leading.into_iter().map(Event::from_value).collect(), ..Default::default() };
        session_mut(&mut sessions, current_session).turns.push(TurnRecord { turn, ..Default::default() });
    }
    for (k, (message, events)) in segments.into_iter().enumerate() {
        let node = nodes.get(k);
        if let Some(i) = node.and_then(|n| n.get("sessionIndex")).and_then(Value::as_u64) {
            current_session = i;
        }
        let mut turn = Turn { events: events.into_iter().map(Event::from_value).collect(), ..Default::default() };
        let mut record = TurnRecord { ordinal: Some(k as u64 + 1), ..Default::default() };
        match message.get("text") {
            Some(Value::String(t)) => record.input = Some(json!({ "text": t })),
            _ => push(attempt, NoticeLevel::Warning, ResultNotice::MessageWithoutText { turn: k + 1 }),
        }
        if let Some(n) = node {
            record.label = s(n, "label");
            record.duration_ms = f(n, "durationMs");
            record.trace_id = s(n, "traceId");
            if let Some(u) = n.get("usage").filter(|u| u.is_object()) {
                turn.usage = Some(Usage::from_value(u));
                turn.usage_raw = Some(u.clone());
            }
            if n.get("failed").and_then(Value::as_bool) == Some(true) {
                let failed = ResultNotice::SendFailed { label: record.label.clone(), turn: k + 1 };
                push(attempt, NoticeLevel::Info, failed);
            }
        }
        record.turn = turn;
        let session = session_mut(&mut sessions, current_session);
        session.turns.push(record);
        let position = session.turns.len() as u64;
        if let Some(ti) = node.and_then(|n| n.get("turnIndex")).and_then(Value::as_u64)
            && ti != position
        {
            let differs =
                ResultNotice::TurnIndexDiffers { turn: k + 1, written: ti, position, session: current_session };
            push(attempt, NoticeLevel::Warning, differs);
        }
    }
    attempt.sessions = sessions;
}

fn session_mut(sessions: &mut Vec<Session>, index: u64) -> &mut Session {
    let pos = match sessions.iter().position(|s| s.index == index) {
        Some(p) => p,
        None => {
            sessions.push(Session { index, ..Default::default() });
            sessions.len() - 1
        }
    };
    &mut sessions[pos]
}

/// Review material of a result: error and diagnostics, diff, sources,
/// commands, trace and timing.
pub fn read_review(r: &Value, notices: &mut Vec<Notice>) -> Review {
    let mut review = Review::default();
    if let Some(e) = r.get("error").filter(|e| !e.is_null()) {
        review.diagnostics.push(error_diagnostic(e));
    }
    for d in r.get("diagnostics").and_then(Value::as_array).into_iter().flatten() {
        review.diagnostics.push(diagnostic(d));
    }
    if let Some(diff) = r.get("diff").filter(|d| !d.is_null()) {
        review.file_changes = Some(file_changes(diff, notices));
    }
    for src in r.get("sources").and_then(Value::as_array).into_iter().flatten() {
        match s(src, "path") {
            Some(path) => review.sources.push(SourceFile {
                id: s(src, "sha256").or_else(|| s(src, "id")),
                sha256: s(src, "sha256"),
                path,
                content: s(src, "content"),
            }),
            None => notices.push(Notice::new(NoticeLevel::Warning, ResultNotice::SourceWithoutPath)),
        }
    }
    if let Some(Value::Array(c)) = r.get("commands") {
        review.commands = c.iter().map(crate::model::sandbox::SandboxCommand::from_value).collect();
        review.commands_state = Some(Completeness::Complete);
    }
    review.trace = r.get("trace").filter(|t| !t.is_null()).cloned();
    // Older results name the same phase tree `timings`.
    if let Some(p) = r.get("phases").or_else(|| r.get("timings")).filter(|p| p.is_array()) {
        super::phases::flatten(p, None, &mut review.timing.intervals);
        review.timing.state = Some(Completeness::Complete);
        review.timing.epoch_zero_ms = r.get("startedAt").and_then(Value::as_str).and_then(super::phases::epoch_ms);
    }
    review
}

fn cause_chain(mut cause: Option<&Value>, out: &mut Vec<String>) {
    let mut depth = 0;
    while let Some(c) = cause.filter(|c| !c.is_null()) {
        depth += 1;
        if depth > 16 {
            break;
        }
        match c {
            Value::String(t) => {
                out.push(t.clone());
                break;
            }
            Value::Object(_) => {
                let text = s(c, "message").or_else(|| s(c, "summary"));
                match (s(c, "code"), text) {
                    (Some(code), Some(t)) => out.push(format!("{code}: {t}")),
                    (None, Some(t)) => out.push(t),
                    (Some(code), None) => out.push(code),
                    (None, None) => out.push(c.to_string()),
                }
                cause = c.get("cause");
            }
            other => {
                out.push(other.to_string());
                break;
            }
        }
    }
}

/// `error: {code, message, origin: {scope, phase}, stack?, cause?, timeout?}`.
pub fn error_diagnostic(e: &Value) -> Diagnostic {
    if let Value::String(m) = e {
        return Diagnostic {
            kind: "execution-error".into(),
            code: "error".into(),
            message: m.clone(),
            ..Default::default()
        };
    }
    let mut causes = Vec::new();
    cause_chain(e.get("cause"), &mut causes);
    if let Some(t) = e.get("timeout").filter(|t| !t.is_null()) {
        causes.push(format!("timeout: {t}"));
    }
    Diagnostic {
        kind: "execution-error".into(),
        code: s(e, "code").unwrap_or_else(|| "error".into()),
        phase: e.get("origin").and_then(|o| s(o, "phase")).or_else(|| s(e, "phase")),
        message: s(e, "message").or_else(|| s(e, "summary")).unwrap_or_default(),
        causes,
    }
}

/// One `diagnostics[]` entry, read tolerantly.
pub fn diagnostic(d: &Value) -> Diagnostic {
    let mut causes = Vec::new();
    for c in d.get("causes").and_then(Value::as_array).into_iter().flatten() {
        cause_chain(Some(c), &mut causes);
    }
    cause_chain(d.get("cause"), &mut causes);
    Diagnostic {
        kind: s(d, "kind").unwrap_or_else(|| "advisory".into()),
        code: s(d, "code").unwrap_or_else(|| "unknown".into()),
        phase: s(d, "phase").or_else(|| d.get("origin").and_then(|o| s(o, "phase"))),
        message: s(d, "message").or_else(|| s(d, "summary")).unwrap_or_else(|| d.to_string()),
        causes,
    }
}

/// `diff: [{window, changes: {path: {status, before?, after?, elided?}}}]`.
pub fn file_changes(diff: &Value, notices: &mut Vec<Notice>) -> FileChanges {
    let mut out = FileChanges::default();
    let mut partial = Vec::new();
    let Some(windows) = diff.as_array() else {
        let found = crate::model::event::json_type(diff);
        notices.push(Notice::new(NoticeLevel::Warning, ResultNotice::DiffNotAnArray { found }));
        out.state = Some(Completeness::NotRecorded);
        return out;
    };
    for w in windows {
        let window = s(w, "window");
        let Some(changes) = w.get("changes").and_then(Value::as_object) else { continue };
        for (path, c) in changes {
            let status = s(c, "status").unwrap_or_default();
            let (kind, mut note) = match status.as_str() {
                "added" | "created" | "A" => ('A', None),
                "deleted" | "removed" | "D" => ('D', None),
                "modified" | "changed" | "M" => ('M', None),
                other => ('M', Some(format!("status \"{other}\""))),
            };
            if let Some(e) = c.get("elided").filter(|e| !e.is_null() && **e != Value::Bool(false)) {
                let what = match e {
                    Value::Bool(true) => "content elided".to_string(),
                    other => format!("content elided ({other})"),
                };
                partial.push(format!("{path}: {what}"));
                note = Some(match note {
                    Some(n) => format!("{n}; {what}"),
                    None => what,
                });
            }
            out.changes.push(FileChange {
                window: window.clone(),
                path: path.clone(),
                kind,
                before: s(c, "before"),
                after: s(c, "after"),
                note,
            });
        }
    }
    out.state = Some(if partial.is_empty() { Completeness::Complete } else { Completeness::Partial(partial) });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> Value {
        json!({"type":"message","role":"user","text":text,"loc":{"file":"e.ts","line":1}})
    }

    #[test]
    fn splits_on_runner_messages_and_keeps_injected_user_messages() {
        let events = vec![
            user("hi"),
            json!({"type":"message","role":"assistant","text":"hello"}),
            user("again"),
            json!({"type":"message","role":"user","text":"injected"}),
            json!({"type":"message","role":"assistant","text":"ok"}),
            user("side"),
        ];
        let nodes = vec![
            json!({"key":"agent.turn","sessionIndex":1,"turnIndex":1,"label":"turn1","traceId":"t1","usage":{"inputTokens":5},"durationMs":10}),
            json!({"key":"agent.turn","sessionIndex":1,"turnIndex":2,"label":"turn2"}),
            json!({"key":"agent.turn","sessionIndex":2,"turnIndex":1,"label":"session2/turn1","failed":true}),
        ];
        let mut a = Attempt::default();
        split_turns(events, &nodes, &mut a);
        assert_eq!(a.sessions.len(), 2);
        assert_eq!(a.sessions[0].turns.len(), 2);
        let t1 = &a.sessions[0].turns[0];
        assert_eq!(t1.input_text(), Some("hi"));
        assert_eq!(t1.turn.events.len(), 1);
        assert_eq!(t1.turn.status, None);
        assert_eq!(t1.turn.usage.and_then(|u| u.input_tokens), Some(5.0));
        assert_eq!(t1.trace_id.as_deref(), Some("t1"));
        assert_eq!(t1.duration_ms, Some(10.0));
        assert_eq!(a.sessions[0].turns[1].turn.events.len(), 2, "injected user message stays an event");
        assert_eq!(a.sessions[0].turns[1].turn.usage, None, "absent usage stays absent");
        assert_eq!(a.sessions[1].index, 2);
        assert_eq!(a.sessions[1].turns[0].label.as_deref(), Some("session2/turn1"));
        assert_eq!(a.sessions[1].turns[0].ordinal, Some(3));
        assert!(a.notices.iter().any(|n| crate::view::notice::words(n).contains("failed: true")));
        assert!(!a.notices.iter().any(|n| n.level == NoticeLevel::Warning), "{:?}", a.notices);
    }

    #[test]
    fn missing_nodes_put_everything_in_session_one_with_a_notice() {
        let mut a = Attempt::default();
        split_turns(vec![json!({"type":"thinking","text":"x"}), user("a"), user("b")], &[], &mut a);
        assert_eq!(a.sessions.len(), 1);
        assert_eq!(a.sessions[0].turns.len(), 3);
        assert_eq!(a.sessions[0].turns[0].input, None);
        assert_eq!(a.notices.iter().filter(|n| n.level == NoticeLevel::Warning).count(), 2);
    }

    #[test]
    fn incomplete_attempt_coverage_is_a_notice() {
        let r = json!({"id":"x","events":[],"evidenceCoverage":{
            "events":{"status":"complete"},"actions":{"status":"partial","reason":"unclassified tool actions"}}});
        let a = attempt_from_result(r, &mut |_| None);
        let warnings: Vec<String> =
            a.notices.iter().filter(|n| n.level == NoticeLevel::Warning).map(crate::view::notice::words).collect();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("actions partial (unclassified tool actions)"));
        assert!(
            a.notices
                .iter()
                .any(|n| n.level == NoticeLevel::Info && crate::view::notice::words(n).starts_with("no turns"))
        );
    }

    #[test]
    fn diff_maps_statuses() {
        let diff = json!([{"window":"turn1","changes":{
            "a.txt":{"status":"added","after":"x"},
            "b.txt":{"status":"modified","before":"1","after":"2"},
            "c.txt":{"status":"deleted","before":"y"},
            "d.bin":{"status":"modified","elided":true}}}]);
        let mut notices = Vec::new();
        let fc = file_changes(&diff, &mut notices);
        let kinds: Vec<char> = fc.changes.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, vec!['A', 'M', 'D', 'M']);
        assert_eq!(fc.changes[1].before.as_deref(), Some("1"));
        assert_eq!(fc.changes[0].window.as_deref(), Some("turn1"));
        assert!(matches!(fc.state, Some(Completeness::Partial(ref p)) if p.len() == 1));
    }
}
