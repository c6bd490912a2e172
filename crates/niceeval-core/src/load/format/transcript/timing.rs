//! Real durations from a native log's timestamps. A Turn carries no time,
//! but Claude Code and Codex write when each line was written, so a call
//! took from the line its start came from to the line its finish came from.
//! These become the attempt's timing intervals: the Timing tab and
//! `show --timing` draw them as they draw a Record's.

use crate::model::completeness::Completeness;
use crate::model::event::{Event, EventKind};
use crate::model::timing::{Interval, Timing};

/// The log as a whole: its first to its last timestamp.
const LOG_ID: &str = "log";

/// The intervals of `events` (from lines `event_lines`) by the lines'
/// timestamps `times` (line, epoch ms; lines in order). No timestamps: no
/// timing (`state` unset, so every surface says timing is unavailable).
pub fn of(events: &[Event], event_lines: &[usize], times: &[(usize, i128)]) -> Timing {
    let (Some(&(_, first)), Some(&(_, last))) = (times.iter().min_by_key(|t| t.1), times.iter().max_by_key(|t| t.1))
    else {
        return Timing::default();
    };
    let at = |line: usize| -> Option<f64> {
        let i = times.binary_search_by_key(&line, |t| t.0).ok()?;
        Some((times[i].1 - first) as f64)
    };
    let mut intervals = vec![Interval {
        id: Some(LOG_ID.into()),
        label: "the log, first to last timestamp".into(),
        phase: Some("agent.send".into()),
        start_ms: Some(0.0),
        duration_ms: Some((last - first) as f64),
        outcome: Some("completed".into()),
        ..Default::default()
    }];
    let (mut calls, mut timed) = (0usize, 0usize);
    for (i, event) in events.iter().enumerate() {
        let (id, name, phase) = match &event.kind {
            EventKind::ToolStarted { operation_id, name, .. } => (operation_id, name, "tool"),
            EventKind::SubagentStarted { operation_id, name } => (operation_id, name, "subagent"),
            _ => continue,
        };
        calls += 1;
        // The call's finish: the next finish of its id after it.
        let finish = events.iter().enumerate().skip(i + 1).find_map(|(j, e)| match &e.kind {
            EventKind::ToolFinished { operation_id, status } | EventKind::SubagentFinished { operation_id, status }
                if operation_id == id =>
            {
                Some((j, status.clone()))
            }
            _ => None,
        });
        let start = event_lines.get(i).and_then(|l| at(*l));
        let end = finish.as_ref().and_then(|(j, _)| event_lines.get(*j)).and_then(|l| at(*l));
        let duration = match (start, end) {
            (Some(s), Some(e)) if e >= s => Some(e - s),
            _ => None,
        };
        timed += usize::from(duration.is_some());
        let outcome = match finish.as_ref().map(|(_, s)| s.as_str()) {
            Some("failed") => "failed",
            Some(_) => "completed",
            None => "unknown",
        };
        intervals.push(Interval {
            id: Some(format!("call-{i}")),
            label: name.to_string(),
            phase: Some(phase.into()),
            start_ms: start,
            duration_ms: duration,
            parent_id: Some(LOG_ID.into()),
            outcome: Some(outcome.into()),
            ..Default::default()
        });
    }
    let state = if timed == calls {
        Completeness::Complete
    } else {
        Completeness::Partial(vec![format!(
            "{} of {calls} call(s) have no timestamp on the line of their start or of their finish",
            calls - timed
        )])
    };
    Timing { intervals, state: Some(state), epoch_zero_ms: Some(first as f64), niceeval_collection: false }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn events() -> Vec<Event> {
        [
            json!({"type": "message", "role": "assistant", "text": "looking"}),
            json!({"type": "operation.started", "operationId": "a", "operation": {"kind": "tool", "name": "Bash", "input": {}}}),
            json!({"type": "operation.started", "operationId": "b", "operation": {"kind": "tool", "name": "Read", "input": {}}}),
            json!({"type": "operation.finished", "operationId": "b", "status": "completed"}),
            json!({"type": "operation.finished", "operationId": "a", "status": "failed"}),
        ]
        .into_iter()
        .map(Event::from_value)
        .collect()
    }

    #[test]
    fn a_call_takes_from_its_start_line_to_its_finish_line() {
        // Lines 1..=4; the two starts share line 2 (one assistant message), the finishes are lines 3 and 4.
        let times = [(1, 1_000), (2, 1_500), (3, 2_250), (4, 11_000)];
        let timing = of(&events(), &[1, 2, 2, 3, 4], &times);
        type Row<'a> = (&'a str, Option<f64>, Option<f64>, Option<&'a str>);
        let got: Vec<Row> = timing
            .intervals
            .iter()
            .map(|i| (i.label.as_str(), i.start_ms, i.duration_ms, i.outcome.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("the log, first to last timestamp", Some(0.0), Some(10_000.0), Some("completed")),
                ("Bash", Some(500.0), Some(9_500.0), Some("failed")),
                ("Read", Some(500.0), Some(750.0), Some("completed")),
            ]
        );
        assert_eq!(timing.state, Some(Completeness::Complete));
        assert_eq!(timing.epoch_zero_ms, Some(1_000.0));
    }

    #[test]
    fn calls_without_timestamps_are_partial_and_no_timestamps_no_timing() {
        let timing = of(&events(), &[1, 2, 2, 3, 4], &[(1, 1_000), (4, 3_000)]);
        assert!(matches!(timing.state, Some(Completeness::Partial(_))), "{:?}", timing.state);
        assert_eq!(timing.intervals[1].duration_ms, None, "Bash started on a line without a timestamp");
        assert_eq!(of(&events(), &[1, 2, 2, 3, 4], &[]), Timing::default());
    }
}
