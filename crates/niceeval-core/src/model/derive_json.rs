//! The derived JSON of [`DerivedAttempt::to_json`], written as it is made:
//! `derive` on a file of a million events would otherwise hold a `Value`
//! of every occurrence three times (turn, session and attempt scope) with
//! copies of their payloads. The parts are the same functions `to_json`
//! uses, so the two write the same JSON (the conformance test compares the
//! command's output with NiceEval's, `tests/derive_json.rs` with `to_json`).

use super::derive::{DerivedAttempt, Occurrences};
use super::document::Attempt;
use super::event::{Event, Pages, RELEASE_EVERY};
use super::facts::tool_call_json;
use super::usage::number;
use serde::Serialize;
use serde::ser::{Error as _, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// One attempt's derived JSON (`{turns, sessions, attempt}`).
pub struct DerivedJson<'a> {
    pub derived: &'a DerivedAttempt,
    pub attempt: &'a Attempt,
    /// The attempt's pages ([`Attempt::pages`]), handed back as its parts are written.
    pub pages: Pages,
}

impl<'a> DerivedJson<'a> {
    pub fn new(derived: &'a DerivedAttempt, attempt: &'a Attempt) -> Self {
        DerivedJson { derived, attempt, pages: attempt.pages() }
    }
}

impl Serialize for DerivedJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("turns", &Turns(self))?;
        m.serialize_entry("sessions", &Sessions(self))?;
        m.serialize_entry("attempt", &AttemptScope(self))?;
        m.end()
    }
}

struct Turns<'a, 'b>(&'b DerivedJson<'a>);
struct Turn<'a, 'b>(&'b DerivedJson<'a>, usize);
struct Sessions<'a, 'b>(&'b DerivedJson<'a>);
struct AttemptScope<'a, 'b>(&'b DerivedJson<'a>);
struct Set<'a>(Occurrences<'a>, super::derive::AttemptEvents<'a>, &'a Pages);
/// A list made as it is written; every `RELEASE_EVERY` items, the pages
/// read for them are handed back (the items read payloads where their
/// events are: `derive` of a million events would hold the whole file).
struct List<'p, I>(std::cell::RefCell<Option<I>>, &'p Pages);
struct RunFacts<'a>(&'a [Event], &'a super::facts::RunFacts, &'a Pages);

impl Serialize for Turns<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.derived.turns.len()))?;
        for i in 0..self.0.derived.turns.len() {
            seq.serialize_element(&Turn(self.0, i))?;
        }
        seq.end()
    }
}

impl Serialize for Turn<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Turn(j, i) = *self;
        let t = &j.derived.turns[i];
        let events = &j.attempt.sessions[t.addr.session].turns[t.addr.turn].turn.events;
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("session", &t.session_name)?;
        m.serialize_entry("turn", &t.turn_name)?;
        m.serialize_entry("turnOrdinal", &t.turn_ordinal)?;
        m.serialize_entry("runFacts", &RunFacts(events, &j.derived.turn_run_facts(j.attempt, i), &j.pages))?;
        m.serialize_entry("o11y", &t.o11y.to_json())?;
        let own = j.derived.turn_occurrences(j.attempt, i);
        m.serialize_entry("occurrences", &Set((&own).into(), j.derived.events(j.attempt), &j.pages))?;
        m.end()
    }
}

impl Serialize for Sessions<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0.derived;
        let mut seq = s.serialize_seq(Some(d.sessions.len()))?;
        for (si, session) in d.sessions.iter().enumerate() {
            let entry = SessionEntry {
                name: &session.name,
                set: Set(d.session_occurrences(si), d.events(self.0.attempt), &self.0.pages),
                usage: session.usage.to_json(),
            };
            seq.serialize_element(&entry)?;
        }
        seq.end()
    }
}

struct SessionEntry<'a> {
    name: &'a str,
    set: Set<'a>,
    usage: Value,
}

impl Serialize for SessionEntry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("session", self.name)?;
        m.serialize_entry("occurrences", &self.set)?;
        m.serialize_entry("usage", &self.usage)?;
        m.end()
    }
}

impl Serialize for AttemptScope<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0.derived;
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("occurrences", &Set((&d.occurrences).into(), d.events(self.0.attempt), &self.0.pages))?;
        m.serialize_entry("usage", &d.usage.to_json())?;
        m.serialize_entry("o11y", &d.o11y.to_json())?;
        m.serialize_entry("estimatedCostUSD", &d.estimate.total().map(number).unwrap_or(Value::Null))?;
        m.end()
    }
}

impl Serialize for Set<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        let events = self.1;
        let occurrences = self.0.occurrences.iter().map(move |o| o.to_json(&events));
        m.serialize_entry("occurrences", &List(std::cell::RefCell::new(Some(occurrences)), self.2))?;
        let orphans = self.0.orphan_finishes.iter().map(|o| o.to_json());
        m.serialize_entry("orphanFinishes", &List(std::cell::RefCell::new(Some(orphans)), self.2))?;
        m.end()
    }
}

/// A list of values made one at a time as they are written.
impl<I: Iterator<Item = Value>> Serialize for List<'_, I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let items = self.0.borrow_mut().take().ok_or_else(|| S::Error::custom("a list is written once"))?;
        let mut seq = s.serialize_seq(None)?;
        for (i, item) in items.enumerate() {
            seq.serialize_element(&item)?;
            if (i + 1) % RELEASE_EVERY == 0 {
                self.1.release();
            }
        }
        seq.end()
    }
}

/// A turn's run facts as `RunFacts::to_json` writes them, each tool call
/// made into a value as it is written.
impl Serialize for RunFacts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let RunFacts(events, facts, pages) = *self;
        let refs: Vec<&Event> = events.iter().collect();
        let mut m = s.serialize_map(None)?;
        let calls = facts.tool_calls.iter().map(tool_call_json);
        m.serialize_entry("toolCalls", &List(std::cell::RefCell::new(Some(calls)), pages))?;
        for (k, v) in facts.json_after_tool_calls(&refs) {
            m.serialize_entry(&k, &v)?;
        }
        m.end()
    }
}
