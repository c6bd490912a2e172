//! Links between assertions and the transcript: the ids NiceEval writes
//! into an assertion's diagnostics (`["niceeval.logical-tool-occurrence/1",
//! session, turn, turnOrdinal, eventOrdinal]` and the same shape for
//! `niceeval.assertion-event/1`), found anywhere in the assertion — as JSON
//! arrays or inside strings like `candidate [...]` — and resolved to a turn
//! and event. One finder and one resolver for every surface.

use super::derive::{DerivedAttempt, TurnAddr};
use super::document::{Assertion, Attempt};
use super::event::EventKind;
use serde_json::Value;

/// What an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    ToolOccurrence,
    AssertionEvent,
}

impl RefKind {
    fn from_tag(tag: &str) -> Option<RefKind> {
        match tag {
            "niceeval.logical-tool-occurrence/1" => Some(RefKind::ToolOccurrence),
            "niceeval.assertion-event/1" => Some(RefKind::AssertionEvent),
            _ => None,
        }
    }
}

/// An evidence id as written, and its parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EvidenceRef {
    /// The compact JSON array, as NiceEval writes it.
    pub id: String,
    pub kind: RefKind,
    pub session: String,
    pub turn: String,
    pub turn_ordinal: u64,
    /// 0 is the runner's user message; adapter event `i` is `i + 1`.
    pub event_ordinal: u64,
}

impl EvidenceRef {
    fn from_array(items: &[Value]) -> Option<EvidenceRef> {
        let [tag, session, turn, turn_ordinal, event_ordinal] = items else { return None };
        let kind = RefKind::from_tag(tag.as_str()?)?;
        Some(EvidenceRef {
            id: serde_json::to_string(items).ok()?,
            kind,
            session: session.as_str()?.to_string(),
            turn: turn.as_str()?.to_string(),
            turn_ordinal: turn_ordinal.as_u64()?,
            event_ordinal: event_ordinal.as_u64()?,
        })
    }

    /// Parse an id (a JSON array); text before the first `[` is ignored.
    pub fn parse(s: &str) -> Option<EvidenceRef> {
        let at = s.find('[')?;
        let mut stream = serde_json::Deserializer::from_str(&s[at..]).into_iter::<Value>();
        match stream.next()?.ok()? {
            Value::Array(items) => EvidenceRef::from_array(&items),
            _ => None,
        }
    }
}

/// Every evidence id an assertion mentions (in its whole recorded entry),
/// in order, without duplicates.
pub fn evidence_refs(assertion: &Assertion) -> Vec<EvidenceRef> {
    let mut out = Vec::new();
    collect(&assertion.raw, &mut out, 0);
    out
}

fn push(out: &mut Vec<EvidenceRef>, r: EvidenceRef) {
    if !out.contains(&r) {
        out.push(r);
    }
}

fn collect(v: &Value, out: &mut Vec<EvidenceRef>, depth: usize) {
    if depth > 128 {
        return;
    }
    match v {
        Value::Array(items) => match EvidenceRef::from_array(items) {
            Some(r) => push(out, r),
            None => items.iter().for_each(|x| collect(x, out, depth + 1)),
        },
        Value::Object(map) => map.values().for_each(|x| collect(x, out, depth + 1)),
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(at) = rest.find("[\"niceeval.") {
                let tail = &rest[at..];
                let mut stream = serde_json::Deserializer::from_str(tail).into_iter::<Value>();
                let parsed = stream.next().and_then(Result::ok);
                let used = stream.byte_offset().max(1);
                if let Some(Value::Array(items)) = parsed
                    && let Some(r) = EvidenceRef::from_array(&items)
                {
                    push(out, r);
                }
                rest = &tail[used.min(tail.len())..];
            }
        }
        _ => {}
    }
}

/// Where in a turn an evidence link points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spot {
    /// The turn as a whole (its header row): the scope a scope-status check judged.
    Turn,
    /// The runner's user message (ordinal 0): the turn's input row.
    Input,
    /// Adapter event `i` (ordinal `i + 1`).
    Event(usize),
    /// Adapter event `i`, past the events the transcript holds: a Record
    /// drops what it cannot keep (redacted, unsupported), so the call the id
    /// names is not in the recorded conversation. No row stands for it.
    NotRecorded(usize),
}

/// A transcript position an id resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EvidenceTarget {
    pub addr: TurnAddr,
    pub spot: Spot,
    /// True when every part of the id matched: its session, turn and turn
    /// ordinal, and an event of the right kind at its ordinal. False when
    /// the turn was found by part of the id only, or the event is not there.
    pub exact: bool,
}

impl EvidenceTarget {
    /// The event index of the row it selects (`None`: the input or header
    /// row); `None` too for an event the transcript does not hold.
    pub fn event(&self) -> Option<usize> {
        match self.spot {
            Spot::Event(e) => Some(e),
            _ => None,
        }
    }

    /// Whether a row of the transcript stands for it.
    pub fn in_transcript(&self) -> bool {
        !matches!(self.spot, Spot::NotRecorded(_))
    }
}

/// Resolve an id against the attempt's scope names and ordinals.
pub fn resolve(attempt: &Attempt, derived: &DerivedAttempt, r: &EvidenceRef) -> Option<EvidenceTarget> {
    let turns = &derived.turns;
    let full =
        turns.iter().find(|t| t.session_name == r.session && t.turn_name == r.turn && t.turn_ordinal == r.turn_ordinal);
    let (t, turn_exact) = match full {
        Some(t) => (t, true),
        None => {
            let by_name = turns.iter().find(|t| t.session_name == r.session && t.turn_name == r.turn);
            (by_name.or_else(|| turns.iter().find(|t| t.turn_ordinal == r.turn_ordinal))?, false)
        }
    };
    let events = &attempt.sessions.get(t.addr.session)?.turns.get(t.addr.turn)?.turn.events;
    let Some(index) = usize::try_from(r.event_ordinal).ok().and_then(|o| o.checked_sub(1)) else {
        return Some(EvidenceTarget { addr: t.addr, spot: Spot::Input, exact: turn_exact });
    };
    match events.get(index) {
        Some(e) => {
            let right_kind = match r.kind {
                RefKind::ToolOccurrence => matches!(e.kind, EventKind::ToolStarted { .. }),
                RefKind::AssertionEvent => true,
            };
            Some(EvidenceTarget { addr: t.addr, spot: Spot::Event(index), exact: turn_exact && right_kind })
        }
        // The id's turn is here, its event is not: the transcript dropped it.
        None if turn_exact => Some(EvidenceTarget { addr: t.addr, spot: Spot::NotRecorded(index), exact: true }),
        // Neither is certain: point at the turn found by part of the id.
        None => Some(EvidenceTarget { addr: t.addr, spot: Spot::Input, exact: false }),
    }
}

/// The turn a `scope-status` assertion judged, from its checked value
/// (`{assertion, scope, status, snapshot}`, NiceEval's `assert-first.ts`):
/// a turn scope names its turn (`sessionIndex`, `turnIndex`); a session's
/// status is its last turn's; an attempt's is its first waiting session's,
/// else its first failed one's (`attemptStatus`), and names no turn when
/// neither. `succeeded` and `noFailedActions` are the checks it applies to.
pub fn scope_target(attempt: &Attempt, derived: &DerivedAttempt, a: &Assertion) -> Option<EvidenceTarget> {
    if a.criterion.as_deref() != Some("scope-status") {
        return None;
    }
    let v = a.checked_value.as_ref()?;
    let index = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64);
    let last_turn_of = |session_index: u64| {
        let name = format!("session-{session_index}");
        derived.turns.iter().rfind(|t| t.session_name == name)
    };
    let turn = match v.get("scope").and_then(Value::as_str)? {
        "turn" => {
            let snapshot = v.get("snapshot")?;
            let (session, turn) =
                (format!("session-{}", index(snapshot, "sessionIndex")?), index(snapshot, "turnIndex")?);
            let name = format!("turn-{turn}");
            derived.turns.iter().find(|t| t.session_name == session && t.turn_name == name)
        }
        "session" => last_turn_of(index(v.get("snapshot")?, "sessionIndex")?),
        "attempt" => {
            let sessions = v.get("snapshot")?.get("sessions")?.as_array()?;
            let with = |status: &str| sessions.iter().find(|s| s.get("status").and_then(Value::as_str) == Some(status));
            let session = with("waiting").or_else(|| with("failed"))?;
            last_turn_of(index(session, "sessionIndex")?)
        }
        _ => None,
    }?;
    attempt.sessions.get(turn.addr.session)?.turns.get(turn.addr.turn)?;
    Some(EvidenceTarget { addr: turn.addr, spot: Spot::Turn, exact: true })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_found_as_arrays_and_inside_strings() {
        let raw = json!({
            "explanation": {"children": [
                {"label": "candidate [\"niceeval.logical-tool-occurrence/1\",\"session-1\",\"turn-2\",2,3]"},
                {"locator": {"kind": "tool-occurrence", "id": "[\"niceeval.logical-tool-occurrence/1\",\"session-1\",\"turn-1\",1,1]"}}
            ]},
            "event": ["niceeval.assertion-event/1", "session-2", "turn-1", 3, 0],
            "again": "[\"niceeval.logical-tool-occurrence/1\",\"session-1\",\"turn-1\",1,1] twice",
            "odd": "a ] bracket [\"niceeval.logical-tool-occurrence/1\",\"s]\",\"t\",1,2] then [\"niceeval.other/1\",1]"
        });
        let a = Assertion { raw, ..Default::default() };
        let refs = evidence_refs(&a);
        let ids: Vec<(&str, u64, u64, RefKind)> =
            refs.iter().map(|r| (r.turn.as_str(), r.turn_ordinal, r.event_ordinal, r.kind)).collect();
        assert_eq!(
            ids,
            vec![
                ("turn-2", 2, 3, RefKind::ToolOccurrence),
                ("turn-1", 1, 1, RefKind::ToolOccurrence),
                ("turn-1", 3, 0, RefKind::AssertionEvent),
                ("t", 1, 2, RefKind::ToolOccurrence),
            ]
        );
        assert_eq!(refs[3].session, "s]");
        assert_eq!(
            EvidenceRef::parse("candidate [\"niceeval.logical-tool-occurrence/1\",\"session-1\",\"turn-1\",1,4]")
                .map(|r| r.event_ordinal),
            Some(4)
        );
    }

    #[test]
    fn a_scope_status_check_names_the_turn_whose_status_it_judged() {
        // Two sessions: session 1 completed in two turns, session 2 failed in its only turn.
        let turn =
            |status: &str| json!({"status": status, "events": [{"type": "message", "role": "assistant", "text": "x"}]});
        let doc = json!({"sessions": [
            {"sessionIndex": 1, "turns": [turn("completed"), turn("completed")]},
            {"sessionIndex": 2, "turns": [turn("failed")]}
        ]});
        let doc = crate::load::load_bytes("two.session.json", doc.to_string().as_bytes()).unwrap();
        let attempt = &doc.attempts[0];
        let derived = crate::model::derive_attempt(attempt, None, &crate::model::usage::builtin_prices());
        let check = |value: Value| {
            let a =
                Assertion { criterion: Some("scope-status".into()), checked_value: Some(value), ..Default::default() };
            scope_target(attempt, &derived, &a).map(|t| (t.addr.session, t.addr.turn, t.spot))
        };
        let turn_scope =
            json!({"scope": "turn", "status": "completed", "snapshot": {"sessionIndex": 1, "turnIndex": 1}});
        assert_eq!(check(turn_scope), Some((0, 0, Spot::Turn)));
        // A session's status is its last turn's.
        assert_eq!(
            check(json!({"scope": "session", "snapshot": {"sessionIndex": 1, "turnCount": 2}})),
            Some((0, 1, Spot::Turn))
        );
        let attempt_scope = json!({"scope": "attempt", "status": "failed", "snapshot": {"sessions": [
            {"sessionIndex": 1, "status": "completed"}, {"sessionIndex": 2, "status": "failed"}
        ]}});
        assert_eq!(check(attempt_scope), Some((1, 0, Spot::Turn)));
        // A completed attempt names no one turn; a turn the transcript lacks is no target.
        let done = json!({"scope": "attempt", "snapshot": {"sessions": [{"sessionIndex": 1, "status": "completed"}]}});
        assert_eq!(check(done), None);
        assert_eq!(check(json!({"scope": "turn", "snapshot": {"sessionIndex": 3, "turnIndex": 1}})), None);
    }
}
