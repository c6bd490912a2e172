//! Turn-level rules: status and HITL consistency, usage numbers, evidence
//! coverage declarations, the UNCLASSIFIED rule, and content smells.

use super::{Sink, q};
use crate::model::command::UNCLASSIFIED;
use crate::model::coverage::{CHANNELS, Coverage, CoverageEntry, CoverageError, CoverageStatus};
use crate::model::diagnostics::{CompleteClaim, Location, Said};
use crate::model::document::TurnRecord;
use crate::model::event::{EventKind, Name, Role, TextDigest, json_type};
use crate::model::spread::Spread;
use crate::model::usage::{MAX_EXACT, USAGE_FIELDS};
use serde_json::Value;

pub fn check_turn(
    sink: &mut Sink,
    here: Location,
    record: &TurnRecord,
    coverage: Option<&Coverage>,
    attempt_actions: Option<&CoverageEntry>,
    statuses_recorded: bool,
    spread: Spread,
) {
    if statuses_recorded {
        check_status(sink, here, record);
    }
    if let Some(usage) = &record.turn.usage_raw {
        check_usage(sink, here, usage);
    }
    // `null` reads as "no declaration" (the agent default applies), like an absent key.
    if let Some(decl) = record.turn.evidence_coverage.as_ref().filter(|d| !d.is_null()) {
        check_coverage(sink, here, decl);
    }
    check_unclassified(sink, here, record, coverage, attempt_actions);
    check_content(sink, here, record, spread);
}

fn check_status(sink: &mut Sink, here: Location, record: &TurnRecord) {
    let turn = &record.turn;
    let requests: Vec<usize> = turn
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::InputRequested))
        .map(|(i, _)| i)
        .collect();
    let status = match turn.status.as_deref() {
        None => {
            sink.push(
                "turn-status-missing",
                here,
                "the Turn has no string `status`; NiceEval cannot tell completed, failed and waiting apart".into(),
            );
            return;
        }
        Some(s) => s,
    };
    match status {
        "completed" | "failed" | "waiting" => {}
        other => {
            sink.push(
                "invalid-turn-status",
                here,
                format!("Turn status {} is not completed, failed or waiting", q(other)),
            );
            return;
        }
    }
    if status == "waiting" && requests.is_empty() {
        sink.push(
            "waiting-without-input-request",
            here,
            "the turn is `waiting` but has no input.requested event: t.respond() and requireInputRequest() find nothing to answer".into(),
        );
    }
    if status != "waiting"
        && let Some(&first) = requests.first()
    {
        sink.push(
            "input-request-not-waiting",
            here.with_event(first),
            format!(
                "input.requested in a {} turn: the run does not stop for the answer, and succeeded() treats the turn as finished",
                q(status)
            ),
        );
    }
    if status == "failed" && !turn.events.iter().any(|e| matches!(e.kind, EventKind::Error)) {
        sink.push("failed-without-error", here, "the turn is `failed` but has no error event saying why".into());
    }
}

const COUNT_FIELDS: [&str; 6] =
    ["inputTokens", "outputTokens", "cacheReadTokens", "cacheCreationTokens", "reasoningTokens", "requests"];

fn check_usage(sink: &mut Sink, here: Location, usage: &Value) {
    let Some(obj) = usage.as_object() else {
        sink.push("usage-not-object", here, format!("`usage` must be an object, found {}", json_type(usage)));
        return;
    };
    for (key, value) in obj {
        if !USAGE_FIELDS.contains(&key.as_str()) {
            sink.push(
                "usage-unknown-field",
                here,
                format!("usage field {} is not a Usage field; NiceEval ignores it", q(key)),
            );
            continue;
        }
        let Value::Number(n) = value else {
            // JS adds what is there: null as 0, a string by concatenation.
            let effect = match value {
                Value::Null => "NiceEval's sums add it as 0",
                _ => "NiceEval's sums and estimate misread it",
            };
            sink.push(
                "usage-not-a-number",
                here,
                format!("usage.{key} is {}, not a number; {effect}", json_type(value)),
            );
            continue;
        };
        // `as_f64` is `None` for a number outside the f64 range (JSON.parse gives Infinity).
        let Some(x) = n.as_f64().filter(|x| x.is_finite()) else {
            let shown = n.to_string();
            let shown = if shown.len() > 40 { format!("{}…", &shown[..40]) } else { shown };
            sink.push("usage-not-finite", here, format!("usage.{key} is {shown}, which is not a finite number"));
            continue;
        };
        if x < 0.0 {
            sink.push("usage-negative", here, format!("usage.{key} is negative ({n})"));
        } else if COUNT_FIELDS.contains(&key.as_str()) && x.fract() != 0.0 {
            sink.push("usage-not-integer", here, format!("usage.{key} is {n}, not a whole count"));
        } else if COUNT_FIELDS.contains(&key.as_str()) && x > MAX_EXACT {
            let shown = n.to_string();
            let shown = if shown.len() > 40 { format!("{}…", &shown[..40]) } else { shown };
            sink.push(
                "usage-too-large",
                here,
                format!("usage.{key} is {shown}, beyond 2^53 − 1: a JavaScript number cannot hold it exactly"),
            );
        }
        if key == "requests" && x == 0.0 {
            sink.push(
                "usage-zero-requests",
                here,
                "usage.requests is 0: no model request, yet the turn reports usage".into(),
            );
        }
    }
    let num = |k: &str| obj.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
    if let (Some(reasoning), Some(output)) = (num("reasoningTokens"), num("outputTokens"))
        && reasoning > output
    {
        sink.push(
            "usage-reasoning-exceeds-output",
            here,
            format!(
                "usage.reasoningTokens ({reasoning}) exceeds outputTokens ({output}); reasoning is a subset of output"
            ),
        );
    }
}

fn check_coverage(sink: &mut Sink, here: Location, decl: &Value) {
    let Some(obj) = decl.as_object() else {
        sink.push(
            "coverage-not-object",
            here,
            format!("`evidenceCoverage` must be an object, found {}", json_type(decl)),
        );
        return;
    };
    for (channel, entry) in obj {
        if !CHANNELS.contains(&channel.as_str()) {
            sink.push(
                "coverage-unknown-channel",
                here,
                format!(
                    "evidenceCoverage.{} is not a channel; NiceEval ignores it",
                    crate::model::text::sanitize(channel, crate::model::text::Lines::Single)
                ),
            );
            continue;
        }
        if let Err(why) = CoverageEntry::parse(entry) {
            let code = match why {
                CoverageError::NotAnObject => "coverage-invalid-entry",
                CoverageError::BadStatus => "coverage-invalid-status",
                CoverageError::ReasonOnComplete => "coverage-reason-on-complete",
                CoverageError::MissingReason(_) => "coverage-missing-reason",
            };
            sink.push(
                code,
                here,
                format!("Turn.evidenceCoverage.{channel} {why}; NiceEval throws while folding this turn"),
            );
        }
    }
}

/// A tool start without `command` is honest when actions coverage is not
/// complete (the seed: "When you cannot confirm command / not-command,
/// downgrade actions coverage"). The turn's own declaration says so, or the
/// attempt's coverage when the file records it (`attempt_actions`); with
/// neither, the agent's declaration is unknown and the warning says so.
fn check_unclassified(
    sink: &mut Sink,
    here: Location,
    record: &TurnRecord,
    coverage: Option<&Coverage>,
    attempt_actions: Option<&CoverageEntry>,
) {
    let starts: Vec<(usize, &Name, bool)> = crate::model::event::releasing(&record.turn.events)
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::ToolStarted { operation_id, .. } => Some((i, operation_id, e.command().is_some())),
            _ => None,
        })
        .collect();
    let turn_claims_complete =
        coverage.and_then(|c| c.get("actions")).is_some_and(|a| a.status == CoverageStatus::Complete);
    let claim = match attempt_actions.map(|a| a.status) {
        Some(CoverageStatus::Complete) => Some(CompleteClaim::Recorded),
        Some(_) => None,
        None => Some(CompleteClaim::NotRecorded),
    };
    if let (true, Some(claim)) = (turn_claims_complete, claim) {
        for (i, id, has_command) in &starts {
            if !has_command {
                let said = Said::NoCommand { operation_id: (*id).clone(), claim };
                sink.push_said("command-unclassified", here.with_event(*i), said);
            }
        }
    }
    let declared = record.turn.evidence_coverage.as_ref().and_then(|d| d.get("actions"));
    let declared_reason = declared.and_then(|a| a.get("reason")).and_then(Value::as_str);
    if declared_reason == Some(UNCLASSIFIED) && starts.iter().all(|(_, _, c)| *c) {
        sink.push(
            "needless-unclassified-coverage",
            here,
            format!(
                "the turn downgrades actions with the UNCLASSIFIED reason, but {} tool start carries a command: noFailedActions() and counts become unavailable for nothing",
                if starts.is_empty() { "it has no tool start, and no".to_string() } else { "every".to_string() }
            ),
        );
    }
}

/// The digest of each tool finish's string output and each assistant
/// message's text, in event order. A long turn is digested a stretch at a
/// time, spread over the cores when `spread` has them: its outputs are most
/// of what its lint reads.
fn digests_of(events: &[crate::model::event::Event], spread: Spread) -> Vec<(usize, TextDigest)> {
    let stretches: Vec<std::ops::Range<usize>> = (0..events.len())
        .step_by(super::EVENTS_AT_ONCE)
        .map(|from| from..(from + super::EVENTS_AT_ONCE).min(events.len()))
        .collect();
    let digested = spread.map(&stretches, |stretch| {
        let digest = |i: usize| match events[i].kind {
            EventKind::ToolFinished { .. } => events[i].output_digest(),
            EventKind::Message { role: Role::Assistant } => events[i].text_digest(),
            _ => None,
        };
        let digests = stretch.clone().filter_map(|i| Some((i, digest(i)?))).collect::<Vec<_>>();
        crate::model::event::release_pages(&events[stretch.clone()]);
        digests
    });
    digested.into_iter().flatten().collect()
}

fn check_content(sink: &mut Sink, here: Location, record: &TurnRecord, spread: Spread) {
    let events = &record.turn.events;
    // Outputs by the hash of their trimmed text (a long turn has many messages
    // and many outputs, and a lazy event's texts are not held); texts are
    // compared whole only when the hashes agree.
    let digests = digests_of(events, spread);
    let mut outputs: rustc_hash::FxHashMap<u64, Vec<usize>> = rustc_hash::FxHashMap::default();
    for &(i, d) in &digests {
        // Short outputs ("ok", "done") say too little to tell a wrapped output from a reply.
        if matches!(events[i].kind, EventKind::ToolFinished { .. }) && d.at_least_8_chars {
            outputs.entry(d.hash).or_default().push(i);
        }
    }
    let mut reply: Option<usize> = None;
    for &(i, digest) in &digests {
        if !matches!(events[i].kind, EventKind::Message { role: Role::Assistant }) || digest.blank {
            continue;
        }
        reply = Some(i);
        let Some(candidates) = outputs.get(&digest.hash) else { continue };
        let Some(text) = events[i].text() else { continue };
        let text = text.trim();
        if candidates.iter().any(|&o| events[o].output_text().is_some_and(|out| out.trim() == text)) {
            sink.push(
                "tool-output-as-message",
                here.with_event(i),
                format!("assistant message {} is the output of a tool call in this turn", q(text)),
            );
        }
    }
    let Some(data) = &record.turn.data else { return };
    let Some(reply) = reply.and_then(|i| events[i].text()) else { return };
    let reply = reply.trim();
    let repeats = match data {
        Value::String(s) => s.trim() == reply,
        Value::Object(o) if o.len() == 1 => {
            o.values().next().and_then(Value::as_str).is_some_and(|s| s.trim() == reply)
        }
        _ => false,
    };
    if repeats {
        sink.push(
            "data-repeats-message",
            here,
            "`data` only repeats the reply text (turn.message already holds it)".into(),
        );
    }
}
