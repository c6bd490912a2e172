//! Links between assertions and the transcript: tool-occurrence locators
//! (`["niceeval.logical-tool-occurrence/1", session, turn, turnOrdinal, eventOrdinal]`)
//! found anywhere in an assertion, resolved to a turn and event.

use super::derive::{DerivedAttempt, TurnAddr};
use super::document::Assertion;
use serde_json::Value;

pub const OCCURRENCE_PREFIX: &str = "[\"niceeval.logical-tool-occurrence/1\"";

/// Every tool-occurrence id mentioned by an assertion, in order, without duplicates.
pub fn occurrence_locators(assertion: &Assertion) -> Vec<String> {
    let mut out = Vec::new();
    collect(&assertion.raw, &mut out);
    out
}

fn collect(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(at) = rest.find(OCCURRENCE_PREFIX) {
                let tail = &rest[at..];
                let end = tail.find(']').map(|e| e + 1).unwrap_or(tail.len());
                let id = &tail[..end];
                if !out.iter().any(|x| x == id) {
                    out.push(id.to_string());
                }
                rest = &tail[end..];
            }
        }
        Value::Array(items) => items.iter().for_each(|x| collect(x, out)),
        Value::Object(map) => map.values().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// A transcript position: `event` is `None` for the runner's user message (ordinal 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvidenceTarget {
    pub addr: TurnAddr,
    pub event: Option<usize>,
}

/// Resolve an occurrence id against the attempt's scope names and ordinals.
pub fn resolve(derived: &DerivedAttempt, id: &str) -> Option<EvidenceTarget> {
    let parts: Vec<Value> = serde_json::from_str(id).ok()?;
    let session = parts.get(1)?.as_str()?;
    let turn = parts.get(2)?.as_str()?;
    let turn_ordinal = parts.get(3)?.as_u64()?;
    let event_ordinal = parts.get(4)?.as_u64()?;
    let t = derived
        .turns
        .iter()
        .find(|t| t.session_name == session && t.turn_name == turn)
        .or_else(|| derived.turns.iter().find(|t| t.turn_ordinal == turn_ordinal))?;
    let event = match event_ordinal {
        0 => None,
        n => Some(usize::try_from(n - 1).ok()?),
    };
    Some(EvidenceTarget { addr: t.addr, event })
}

/// Indices of assertions that point at `target`.
pub fn assertions_pointing_at(
    assertions: &[Assertion],
    derived: &DerivedAttempt,
    target: EvidenceTarget,
) -> Vec<usize> {
    assertions
        .iter()
        .enumerate()
        .filter(|(_, a)| occurrence_locators(a).iter().any(|id| resolve(derived, id) == Some(target)))
        .map(|(i, _)| i)
        .collect()
}
