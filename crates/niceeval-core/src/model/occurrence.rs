//! The logical tool occurrence fold `deriveScopedLogicalToolOccurrences`
//! (spec §2.2–2.5): strict pairing per session and across turns, with
//! ambiguity that poisons an id for the rest of its session.

use super::event::{Event, EventKind};
use super::payload::Payload;
use crate::model::event::Name;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde_json::{Map, Value};

/// `{turnOrdinal, eventOrdinal}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventPosition {
    pub turn_ordinal: u64,
    pub event_ordinal: u64,
}

impl EventPosition {
    pub fn to_json(self) -> Value {
        let mut o = Map::new();
        o.insert("turnOrdinal".into(), self.turn_ordinal.into());
        o.insert("eventOrdinal".into(), self.event_ordinal.into());
        Value::Object(o)
    }
}

/// One scope-turn as assert-first builds it: the adapter events of a turn,
/// with the synthetic user message implied at `first_event_ordinal - 1`.
#[derive(Debug, Clone)]
pub struct ScopeTurn<'a> {
    pub session: Name,
    pub turn: Name,
    pub turn_ordinal: u64,
    /// Ordinal of `events[0]`; 1 when the user message sits at 0.
    pub first_event_ordinal: u64,
    pub events: &'a [Event],
    /// Whether the turn has an outcome (a `status`): a call left open in a
    /// turn without one is opaque (`partial-stream`), not pending.
    pub has_outcome: bool,
}

/// Evidence envelope for a tool input or output (spec §2.3).
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// `value` is `None` when the key was absent on a start (`input` omitted).
    Complete {
        value: Option<Payload>,
    },
    /// Boxed: few payloads are partial, and every occurrence holds two evidences.
    Partial(Box<PartialEvidence>),
    Unavailable {
        reason: &'static str,
    },
}

/// What was withheld or cut from a partial payload.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialEvidence {
    pub value: Option<Payload>,
    pub opaque_pointers: Vec<String>,
    pub reason: PartialReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialReason {
    Redacted,
    Truncated,
}

impl PartialReason {
    pub fn as_str(self) -> &'static str {
        match self {
            PartialReason::Redacted => "redacted",
            PartialReason::Truncated => "truncated",
        }
    }
}

impl Evidence {
    /// The payload, where it is (see [`Payload::head`]).
    pub fn payload(&self) -> Option<&Payload> {
        match self {
            Evidence::Complete { value } => value.as_ref(),
            Evidence::Partial(p) => p.value.as_ref(),
            Evidence::Unavailable { .. } => None,
        }
    }

    /// The payload whole (a raw event's part is parsed for it).
    pub fn value(&self) -> Option<std::borrow::Cow<'_, Value>> {
        self.payload().map(Payload::value)
    }

    pub fn state(&self) -> &'static str {
        match self {
            Evidence::Complete { .. } => "complete",
            Evidence::Partial(_) => "partial",
            Evidence::Unavailable { .. } => "unavailable",
        }
    }

    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("state".into(), self.state().into());
        match self {
            Evidence::Complete { value } => {
                if let Some(v) = value {
                    o.insert("value".into(), v.value().into_owned());
                }
            }
            Evidence::Partial(p) => {
                let PartialEvidence { value, opaque_pointers, reason } = &**p;
                if let Some(v) = value {
                    o.insert("value".into(), v.value().into_owned());
                }
                o.insert("opaquePointers".into(), opaque_pointers.clone().into());
                o.insert("reason".into(), reason.as_str().into());
            }
            Evidence::Unavailable { reason } => {
                o.insert("reason".into(), (*reason).into());
            }
        }
        Value::Object(o)
    }
}

/// Lifecycle of an occurrence (spec §2.4).
#[derive(Debug, Clone, PartialEq)]
pub enum Lifecycle {
    Pending,
    Finished { status: Name, finish: EventPosition },
    Opaque { reason: OpaqueReason },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpaqueReason {
    PartialStream,
    MissingLifecycleEvidence,
}

impl OpaqueReason {
    pub fn as_str(self) -> &'static str {
        match self {
            OpaqueReason::PartialStream => "partial-stream",
            OpaqueReason::MissingLifecycleEvidence => "missing-lifecycle-evidence",
        }
    }
}

impl Lifecycle {
    /// The word a person reads: pending, completed, failed, rejected, or the opaque reason.
    pub fn status_word(&self) -> &str {
        match self {
            Lifecycle::Pending => "pending",
            Lifecycle::Finished { status, .. } => status,
            Lifecycle::Opaque { reason: OpaqueReason::MissingLifecycleEvidence } => "ambiguous",
            Lifecycle::Opaque { reason: OpaqueReason::PartialStream } => "open (no turn status)",
        }
    }

    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        match self {
            Lifecycle::Pending => {
                o.insert("state".into(), "available".into());
                o.insert("status".into(), "pending".into());
            }
            Lifecycle::Finished { status, finish } => {
                o.insert("state".into(), "available".into());
                o.insert("status".into(), Value::from(&**status));
                o.insert("finish".into(), finish.to_json());
            }
            Lifecycle::Opaque { reason } => {
                o.insert("state".into(), "opaque".into());
                o.insert("reason".into(), reason.as_str().into());
            }
        }
        Value::Object(o)
    }
}

/// Where an event sits in the input: index of the scope-turn in the slice
/// given to the fold, and index of the event in that turn's adapter events.
/// An index kept as a `u32` in what there is one of per event (occurrence
/// references, timeline rows); `u32::MAX` past that, which no document that
/// fits in memory reaches.
pub fn compact_index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// `u32`s: every occurrence holds two (see `timeline::Row` on the bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventRef {
    scope_turn: u32,
    event: u32,
}

impl EventRef {
    pub fn new(scope_turn: usize, event: usize) -> EventRef {
        EventRef { scope_turn: compact_index(scope_turn), event: compact_index(event) }
    }

    pub fn scope_turn(&self) -> usize {
        self.scope_turn as usize
    }

    pub fn event(&self) -> usize {
        self.event as usize
    }

    /// This reference in the scope whose turn `i` is turn `indices[i]` here.
    pub fn in_scope(self, indices: &[usize]) -> EventRef {
        EventRef::new(indices[self.scope_turn()], self.event())
    }
}

/// One tool call. Its input, output and command are not kept here: they are
/// read from its start and finish events when asked ([`Occurrence::evidence`]),
/// because keeping three payload handles made an occurrence twice its size
/// and a long run has hundreds of thousands of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Occurrence {
    /// Shared by every occurrence of the scope-turn (and with the scope-turn).
    pub session: Name,
    pub turn: Name,
    pub operation_id: Name,
    pub original_name: Name,
    pub canonical_name: Option<Name>,
    /// `operation.tool` written as null (a misfit): NiceEval keeps
    /// `canonical: null` on the occurrence (it omits only an absent `tool`).
    pub canonical_null: bool,
    pub start: EventPosition,
    pub lifecycle: Lifecycle,
    pub ambiguous: bool,
    pub start_ref: EventRef,
    pub finish_ref: Option<EventRef>,
}

/// The events an occurrence's refs point at (an attempt's, through its
/// derivation: `derive::AttemptEvents`).
pub trait EventAt {
    fn event_at(&self, at: EventRef) -> Option<&Event>;
}

/// What an occurrence's events say of its input, output and command.
#[derive(Debug, Clone, PartialEq)]
pub struct OccurrenceEvidence {
    pub input: Evidence,
    pub output: Evidence,
    pub command: Option<Payload>,
}

/// Why a ref leads nowhere (events that are not the ones derived from).
const EVENT_NOT_FOUND: &str = "event-not-found";

/// A start's `operation.input` as evidence.
fn input_of(start: &Event) -> Evidence {
    evidence_for(start, "input", Payload::tool_input(start))
}

impl Occurrence {
    /// The occurrence id (see [`occurrence_id`]), made when asked: it is
    /// read for one occurrence at a time, and storing it for every one of
    /// them in every scope cost as much as the rest of the occurrence.
    pub fn id(&self) -> String {
        occurrence_id(&self.session, &self.turn, self.start)
    }

    /// Name a person reads first: canonical when known, else the original.
    pub fn display_name(&self) -> &str {
        match self.canonical_name.as_deref() {
            Some(c) if c != "unknown" => c,
            _ => &self.original_name,
        }
    }

    /// Input (from the start), output (from the finish, or why there is
    /// none: the lifecycle says) and command, as the fold defines them.
    pub fn evidence(&self, events: &(impl EventAt + ?Sized)) -> OccurrenceEvidence {
        let Some(start) = events.event_at(self.start_ref) else {
            let missing = || Evidence::Unavailable { reason: EVENT_NOT_FOUND };
            return OccurrenceEvidence { input: missing(), output: missing(), command: None };
        };
        let output = match (self.finish_ref, &self.lifecycle) {
            (Some(at), _) => match events.event_at(at) {
                None => Evidence::Unavailable { reason: EVENT_NOT_FOUND },
                Some(finish) => match Payload::output(finish) {
                    None => Evidence::Unavailable { reason: "tool-output-absent" },
                    Some(v) => evidence_for(finish, "output", Some(v)),
                },
            },
            (None, Lifecycle::Pending) => Evidence::Unavailable { reason: "tool-output-pending" },
            (None, _) => Evidence::Unavailable { reason: "tool-output-missing-lifecycle-evidence" },
        };
        OccurrenceEvidence { input: input_of(start), output, command: Payload::command(start) }
    }

    /// The start's input alone (what matching and diffs compare).
    pub fn input(&self, events: &(impl EventAt + ?Sized)) -> Evidence {
        events.event_at(self.start_ref).map_or(Evidence::Unavailable { reason: EVENT_NOT_FOUND }, input_of)
    }

    pub fn to_json(&self, events: &(impl EventAt + ?Sized)) -> Value {
        let evidence = self.evidence(events);
        let mut o = Map::new();
        o.insert("id".into(), self.id().into());
        o.insert("session".into(), (*self.session).into());
        o.insert("turn".into(), (*self.turn).into());
        let mut name = Map::new();
        name.insert("original".into(), Value::from(&*self.original_name));
        if let Some(c) = &self.canonical_name {
            name.insert("canonical".into(), Value::from(&**c));
        } else if self.canonical_null {
            name.insert("canonical".into(), Value::Null);
        }
        o.insert("name".into(), Value::Object(name));
        o.insert("input".into(), evidence.input.to_json());
        o.insert("output".into(), evidence.output.to_json());
        if let Some(c) = &evidence.command {
            o.insert("command".into(), c.value().into_owned());
        }
        o.insert("start".into(), self.start.to_json());
        o.insert("lifecycle".into(), self.lifecycle.to_json());
        Value::Object(o)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OrphanFinish {
    pub session: Name,
    pub turn: Name,
    pub operation_id: Name,
    pub status: Name,
    pub position: EventPosition,
    pub event_ref: EventRef,
    /// True when the id was poisoned by ambiguity rather than never started.
    pub ambiguous_id: bool,
}

impl OrphanFinish {
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("session".into(), (*self.session).into());
        o.insert("turn".into(), (*self.turn).into());
        o.insert("operationId".into(), Value::from(&*self.operation_id));
        o.insert("status".into(), Value::from(&*self.status));
        o.insert("position".into(), self.position.to_json());
        Value::Object(o)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct OccurrenceSet {
    pub occurrences: Vec<Occurrence>,
    pub orphan_finishes: Vec<OrphanFinish>,
}

impl OccurrenceSet {
    pub fn to_json(&self, events: &(impl EventAt + ?Sized)) -> Value {
        Occurrences::from(self).to_json(events)
    }
}

/// A fold's occurrences and orphan finishes, wherever they are kept.
#[derive(Debug, Clone, Copy)]
pub struct Occurrences<'a> {
    pub occurrences: &'a [Occurrence],
    pub orphan_finishes: &'a [OrphanFinish],
}

impl Occurrences<'_> {
    pub fn to_json(&self, events: &(impl EventAt + ?Sized)) -> Value {
        let mut o = Map::new();
        o.insert("occurrences".into(), Value::Array(self.occurrences.iter().map(|c| c.to_json(events)).collect()));
        o.insert(
            "orphanFinishes".into(),
            Value::Array(self.orphan_finishes.iter().map(OrphanFinish::to_json).collect()),
        );
        Value::Object(o)
    }
}

impl<'a> From<&'a OccurrenceSet> for Occurrences<'a> {
    fn from(set: &'a OccurrenceSet) -> Occurrences<'a> {
        Occurrences { occurrences: &set.occurrences, orphan_finishes: &set.orphan_finishes }
    }
}

/// Occurrence id: compact JSON of `["niceeval.logical-tool-occurrence/1", session, turn, turnOrdinal, eventOrdinal]`.
pub fn occurrence_id(session: &str, turn: &str, position: EventPosition) -> String {
    let parts = Value::Array(vec![
        "niceeval.logical-tool-occurrence/1".into(),
        session.into(),
        turn.into(),
        position.turn_ordinal.into(),
        position.event_ordinal.into(),
    ]);
    serde_json::to_string(&parts).unwrap_or_default()
}

/// Escape one JSON-pointer segment.
fn escape_segment(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Map a `redacted`/`truncated` path to a pointer relative to `field`.
pub fn path_to_pointer(path: &str, field: &str) -> Option<String> {
    let stripped = path.strip_prefix("operation.").unwrap_or(path);
    if stripped == field {
        return Some("/".into());
    }
    if let Some(rest) = stripped.strip_prefix(field).and_then(|r| r.strip_prefix('.')) {
        return Some(format!("/{}", rest.split('.').map(escape_segment).collect::<Vec<_>>().join("/")));
    }
    if let Some(slashed) = path.strip_prefix('/') {
        let mut segments = slashed.split('/');
        if segments.next() != Some(field) {
            return None;
        }
        let rest: Vec<&str> = segments.collect();
        return Some(if rest.is_empty() { "/".into() } else { format!("/{}", rest.join("/")) });
    }
    None
}

fn dedupe(pointers: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::default();
    pointers.filter(|p| seen.insert(p.clone())).collect()
}

/// Evidence for `value` taken from `field` of `event`.
pub fn evidence_for(event: &Event, field: &str, value: Option<Payload>) -> Evidence {
    let share = || value;
    let redacted = dedupe(event.redacted().filter_map(|p| path_to_pointer(&p, field)));
    if !redacted.is_empty() {
        let partial = PartialEvidence { value: share(), opaque_pointers: redacted, reason: PartialReason::Redacted };
        return Evidence::Partial(Box::new(partial));
    }
    let truncated = dedupe(event.truncated().filter_map(|t| path_to_pointer(&t.path, field)));
    if !truncated.is_empty() {
        let partial = PartialEvidence { value: share(), opaque_pointers: truncated, reason: PartialReason::Truncated };
        return Evidence::Partial(Box::new(partial));
    }
    Evidence::Complete { value: share() }
}

/// How many occurrences and orphan finishes [`derive_occurrences`] gives
/// for one scope-turn alone, without making them (the turn handle's counts).
pub fn count_turn_fold(events: &[Event]) -> (usize, usize) {
    let (mut occurrences, mut orphans) = (0, 0);
    let mut open: HashSet<&str> = HashSet::default();
    let mut ambiguous: HashSet<&str> = HashSet::default();
    for event in events {
        match &event.kind {
            EventKind::ToolStarted { operation_id, .. } => {
                occurrences += 1;
                if ambiguous.contains(&**operation_id) {
                } else if open.remove(&**operation_id) {
                    ambiguous.insert(operation_id);
                } else {
                    open.insert(operation_id);
                }
            }
            EventKind::ToolFinished { operation_id, .. }
                if ambiguous.contains(&**operation_id) || !open.remove(&**operation_id) =>
            {
                orphans += 1;
            }
            _ => {}
        }
    }
    (occurrences, orphans)
}

/// `deriveScopedLogicalToolOccurrences` over scope-turns.
pub fn derive_occurrences(turns: &[ScopeTurn<'_>]) -> OccurrenceSet {
    // Sessions in first-appearance order; turns stable-sorted by ordinal.
    let mut session_order: Vec<&str> = Vec::new();
    let mut by_session: HashMap<&str, Vec<usize>> = HashMap::default();
    for (i, t) in turns.iter().enumerate() {
        by_session
            .entry(&*t.session)
            .or_insert_with(|| {
                session_order.push(&t.session);
                Vec::new()
            })
            .push(i);
    }
    let mut out = OccurrenceSet::default();
    // Every tool start is an occurrence: room for them all at once (the set
    // is kept, and a growing vector would peak at twice its size).
    let starts = turns.iter().flat_map(|t| t.events).filter(|e| matches!(e.kind, EventKind::ToolStarted { .. }));
    out.occurrences.reserve_exact(starts.count());
    for session in session_order {
        let mut indices = by_session.remove(session).unwrap_or_default();
        indices.sort_by_key(|&i| turns[i].turn_ordinal);
        // The session's occurrences are `out.occurrences[first..]`; beside
        // each, whether the last turn it was open in has an outcome.
        let first = out.occurrences.len();
        let mut last_has_outcome: Vec<bool> = Vec::new();
        let mut open: HashMap<&str, usize> = HashMap::default();
        let mut ambiguous_ids: HashSet<&str> = HashSet::default();
        for &ti in &indices {
            let turn = &turns[ti];
            for (ei, event) in turn.events.iter().enumerate() {
                let position = EventPosition {
                    turn_ordinal: turn.turn_ordinal,
                    event_ordinal: turn.first_event_ordinal + ei as u64,
                };
                let here = EventRef::new(ti, ei);
                match &event.kind {
                    EventKind::ToolStarted { operation_id, name, tool } => {
                        out.occurrences.push(Occurrence {
                            session: turn.session.clone(),
                            turn: turn.turn.clone(),
                            operation_id: operation_id.clone(),
                            original_name: name.clone(),
                            canonical_name: tool.clone(),
                            canonical_null: event.has(super::event::FIELD_TOOL_NULL),
                            start: position,
                            lifecycle: Lifecycle::Pending,
                            ambiguous: false,
                            start_ref: here,
                            finish_ref: None,
                        });
                        let index = last_has_outcome.len();
                        last_has_outcome.push(turn.has_outcome);
                        if ambiguous_ids.contains(&**operation_id) {
                            out.occurrences[first + index].ambiguous = true;
                        } else if let Some(previous) = open.remove(&**operation_id) {
                            out.occurrences[first + previous].ambiguous = true;
                            out.occurrences[first + index].ambiguous = true;
                            ambiguous_ids.insert(operation_id);
                        } else {
                            open.insert(operation_id, index);
                        }
                    }
                    EventKind::ToolFinished { operation_id, status } => {
                        let poisoned = ambiguous_ids.contains(&**operation_id);
                        match open.get(&**operation_id).copied().filter(|_| !poisoned) {
                            // Paired: it is closed and can no longer become ambiguous.
                            Some(index) => {
                                open.remove(&**operation_id);
                                let occ = &mut out.occurrences[first + index];
                                occ.lifecycle = Lifecycle::Finished { status: status.clone(), finish: position };
                                occ.finish_ref = Some(here);
                            }
                            None => out.orphan_finishes.push(OrphanFinish {
                                session: turn.session.clone(),
                                turn: turn.turn.clone(),
                                operation_id: operation_id.clone(),
                                status: status.clone(),
                                position,
                                event_ref: here,
                                ambiguous_id: poisoned,
                            }),
                        }
                    }
                    _ => {}
                }
            }
            for &index in open.values() {
                last_has_outcome[index] = turn.has_outcome;
            }
        }
        for (occ, has_outcome) in out.occurrences[first..].iter_mut().zip(last_has_outcome) {
            match (occ.finish_ref.is_some(), occ.ambiguous, has_outcome) {
                (true, _, _) => {}
                (false, false, true) => occ.lifecycle = Lifecycle::Pending,
                (_, _, has_outcome) => {
                    let reason =
                        if has_outcome { OpaqueReason::MissingLifecycleEvidence } else { OpaqueReason::PartialStream };
                    occ.lifecycle = Lifecycle::Opaque { reason };
                }
            }
        }
    }
    out.orphan_finishes.shrink_to_fit();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_mapping_follows_the_spec() {
        assert_eq!(path_to_pointer("input.apiKey", "input").as_deref(), Some("/apiKey"));
        assert_eq!(path_to_pointer("operation.input", "input").as_deref(), Some("/"));
        assert_eq!(path_to_pointer("/input/a/b", "input").as_deref(), Some("/a/b"));
        assert_eq!(path_to_pointer("output.a~b", "output").as_deref(), Some("/a~0b"));
        assert_eq!(path_to_pointer("output.x", "input"), None);
        assert_eq!(path_to_pointer("/operation/input/x", "input"), None);
        assert_eq!(path_to_pointer("/input", "input").as_deref(), Some("/"));
        assert_eq!(path_to_pointer("output", "output").as_deref(), Some("/"));
    }

    #[test]
    fn an_occurrence_holds_no_payloads() {
        // Names, positions, the lifecycle and two refs: its input, output and
        // command are read from its events (a million-event run has 285,720).
        assert_eq!(std::mem::size_of::<Occurrence>(), 112);
    }

    #[test]
    fn id_is_compact_json() {
        let id = occurrence_id("session-1", "turn-1", EventPosition { turn_ordinal: 1, event_ordinal: 3 });
        assert_eq!(id, r#"["niceeval.logical-tool-occurrence/1","session-1","turn-1",1,3]"#);
    }
}
