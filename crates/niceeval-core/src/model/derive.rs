//! Derive once at load: scope-turns, the folds at turn, session and attempt
//! scope, usage sums and the cost estimate. Everything the UI and the plain
//! output show is read from [`DerivedAttempt`].

use super::coverage::Coverage;
use super::document::{Attempt, Session};
use super::event::Event;
use super::facts::{O11ySummary, RunFacts, build_o11y_summary, build_o11y_summary_from, derive_run_facts};
pub use super::occurrence::Occurrences;
use super::occurrence::{EventAt, EventRef, OccurrenceSet, ScopeTurn, derive_occurrences};
use super::usage::{Estimate, PriceTable, USAGE_FIELDS, Usage, estimate_cost, number};
use serde_json::{Map, Value};

/// Address of a turn inside an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnAddr {
    pub session: usize,
    pub turn: usize,
}

/// One scope-turn's facts. Its own folds (the turn handle's view: run facts
/// and occurrences over this turn alone) are kept as counts and made again
/// when asked ([`DerivedAttempt::turn_occurrences`], [`DerivedAttempt::turn_run_facts`]):
/// they are read a turn at a time, and keeping them for every turn held the
/// occurrences of the attempt twice more.
#[derive(Debug, Clone, PartialEq)]
pub struct DerivedTurn {
    pub addr: TurnAddr,
    pub session_name: String,
    pub turn_name: String,
    pub turn_ordinal: u64,
    pub o11y: O11ySummary,
    /// Occurrences of the fold over this one scope-turn (its tool starts).
    pub tool_calls: usize,
    /// Orphan finishes of the fold over this one scope-turn.
    pub orphan_finishes: usize,
    /// Agent default (complete) downgraded by the turn's declaration.
    pub coverage: Coverage,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DerivedSession {
    pub name: String,
    /// The session-scope fold (see [`DerivedAttempt::session_occurrences`]).
    occurrences: SessionFold,
    pub usage: Usage,
    pub coverage: Coverage,
}

/// Where a session's fold is. Pairing never crosses sessions, so the root
/// fold is the session folds one after the other when every session has its
/// own name: the session's is then a part of it. Sessions that share a name
/// (a misfit) are one pairing scope at the root, and keep their own fold.
#[derive(Debug, Clone, PartialEq)]
enum SessionFold {
    Part { occurrences: std::ops::Range<usize>, orphan_finishes: std::ops::Range<usize> },
    Own(OccurrenceSet),
}

#[derive(Debug, Clone, PartialEq)]
pub struct DerivedAttempt {
    pub turns: Vec<DerivedTurn>,
    pub sessions: Vec<DerivedSession>,
    /// Root scope: pairing per session over every scope-turn. Event refs
    /// index `turns` (scope_turn) and the turn's adapter events.
    pub occurrences: OccurrenceSet,
    pub usage: Usage,
    pub o11y: O11ySummary,
    pub estimate: Estimate,
    pub coverage: Coverage,
    pub model: Option<String>,
}

/// An attempt's events as its derivation's event refs address them.
#[derive(Clone, Copy)]
pub struct AttemptEvents<'a> {
    pub attempt: &'a Attempt,
    pub derived: &'a DerivedAttempt,
}

impl EventAt for AttemptEvents<'_> {
    fn event_at(&self, at: EventRef) -> Option<&Event> {
        let addr = self.derived.turns.get(at.scope_turn())?.addr;
        self.attempt.sessions.get(addr.session)?.turns.get(addr.turn)?.turn.events.get(at.event())
    }
}

impl DerivedAttempt {
    /// The events of `attempt` (the attempt derived) as this derivation's refs address them.
    pub fn events<'a>(&'a self, attempt: &'a Attempt) -> AttemptEvents<'a> {
        AttemptEvents { attempt, derived: self }
    }

    pub fn turn(&self, addr: TurnAddr) -> Option<&DerivedTurn> {
        self.scope_index(addr).map(|i| &self.turns[i])
    }

    /// The session-scope fold of session `si` (empty for no such session).
    pub fn session_occurrences(&self, si: usize) -> Occurrences<'_> {
        match self.sessions.get(si).map(|s| &s.occurrences) {
            Some(SessionFold::Part { occurrences, orphan_finishes }) => Occurrences {
                occurrences: self.occurrences.occurrences.get(occurrences.clone()).unwrap_or_default(),
                orphan_finishes: self.occurrences.orphan_finishes.get(orphan_finishes.clone()).unwrap_or_default(),
            },
            Some(SessionFold::Own(set)) => set.into(),
            None => Occurrences { occurrences: &[], orphan_finishes: &[] },
        }
    }

    /// The fold over scope-turn `i` alone (the turn handle's view), its
    /// event refs pointing at `i`. `attempt` is the attempt derived.
    pub fn turn_occurrences(&self, attempt: &Attempt, i: usize) -> OccurrenceSet {
        let (scope, _) = scope_turns(&attempt.sessions);
        let Some(st) = scope.get(i) else { return OccurrenceSet::default() };
        let mut set = derive_occurrences(std::slice::from_ref(st));
        remap(&mut set, &[i]);
        set
    }

    /// The legacy fold over scope-turn `i` alone.
    pub fn turn_run_facts(&self, attempt: &Attempt, i: usize) -> RunFacts {
        let addr = self.turns.get(i).map(|t| t.addr);
        let record = addr.and_then(|a| attempt.sessions.get(a.session)?.turns.get(a.turn));
        record.map(|r| derive_run_facts(&r.turn.events)).unwrap_or_default()
    }

    /// Index in `turns` of a turn address. [`derive_attempt`] keeps `turns`
    /// in address order (sessions, then turns), so this is a binary search;
    /// a hand-built list out of order falls back to the first match.
    pub fn scope_index(&self, addr: TurnAddr) -> Option<usize> {
        match self.turns.binary_search_by_key(&addr, |t| t.addr) {
            Ok(i) if i == 0 || self.turns[i - 1].addr < addr => Some(i),
            _ => self.turns.iter().position(|t| t.addr == addr),
        }
    }
}

/// Scope-turns for an attempt, in file order (sessions, then turns).
pub fn scope_turns(sessions: &[Session]) -> (Vec<ScopeTurn<'_>>, Vec<TurnAddr>) {
    let mut scope = Vec::new();
    let mut addrs = Vec::new();
    let mut position = 0u64;
    for (si, session) in sessions.iter().enumerate() {
        let session_name: crate::model::event::Name = session.scope_name().into();
        for (ti, record) in session.turns.iter().enumerate() {
            position += 1;
            scope.push(ScopeTurn {
                session: session_name.clone(),
                turn: format!("turn-{}", ti + 1).into(),
                turn_ordinal: record.ordinal.unwrap_or(position),
                first_event_ordinal: 1,
                events: &record.turn.events,
                has_outcome: record.turn.has_outcome(),
            });
            addrs.push(TurnAddr { session: si, turn: ti });
        }
    }
    (scope, addrs)
}

/// How much of an attempt to derive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Every fact (`derive` writes them all).
    Whole,
    /// Without the observability summaries (files read and modified, shell
    /// commands, web fetches: folds that read every call's input again),
    /// which only `derive` writes: the lint and the views read none. Left empty.
    NoSummaries,
}

/// Derive every fact of one attempt. `model` overrides the attempt's own.
pub fn derive_attempt(attempt: &Attempt, model: Option<&str>, prices: &PriceTable) -> DerivedAttempt {
    derive_attempt_to(attempt, model, prices, Depth::Whole)
}

/// [`derive_attempt`] to `depth`.
pub fn derive_attempt_to(attempt: &Attempt, model: Option<&str>, prices: &PriceTable, depth: Depth) -> DerivedAttempt {
    let whole = depth == Depth::Whole;
    let (scope, addrs) = scope_turns(&attempt.sessions);
    let agent_coverage = Coverage::complete();
    let mut turns = Vec::with_capacity(scope.len());
    for (st, addr) in scope.iter().zip(&addrs) {
        let record = &attempt.sessions[addr.session].turns[addr.turn];
        let o11y = match depth {
            Depth::Whole => build_o11y_summary_from(st.events, &derive_run_facts(super::event::releasing(st.events))),
            Depth::NoSummaries => O11ySummary::default(),
        };
        let (tool_calls, orphan_finishes) = super::occurrence::count_turn_fold(st.events);
        turns.push(DerivedTurn {
            addr: *addr,
            session_name: st.session.to_string(),
            turn_name: st.turn.to_string(),
            turn_ordinal: st.turn_ordinal,
            o11y,
            tool_calls,
            orphan_finishes,
            coverage: agent_coverage.downgrade(record.turn.evidence_coverage.as_ref()),
        });
        // The folds below read only the kinds, until the summary's.
        record.turn.release_pages();
    }
    let root = derive_occurrences(&scope);
    let names: Vec<String> = attempt.sessions.iter().map(|s| s.scope_name()).collect();
    let distinct = names.iter().collect::<std::collections::HashSet<_>>().len() == names.len();
    let (mut taken, mut orphans_taken) = (0, 0);
    let mut sessions = Vec::new();
    let mut usage = Usage::default();
    let mut coverage = agent_coverage.clone();
    for (si, session) in attempt.sessions.iter().enumerate() {
        let indices: Vec<usize> = addrs.iter().enumerate().filter(|(_, a)| a.session == si).map(|(i, _)| i).collect();
        let occurrences = if distinct {
            // The root fold holds this session's part next, in session order.
            let name = &*names[si];
            let count = root.occurrences[taken..].iter().take_while(|o| &*o.session == name).count();
            let orphans = root.orphan_finishes[orphans_taken..].iter().take_while(|o| &*o.session == name).count();
            let part = SessionFold::Part {
                occurrences: taken..taken + count,
                orphan_finishes: orphans_taken..orphans_taken + orphans,
            };
            (taken, orphans_taken) = (taken + count, orphans_taken + orphans);
            part
        } else {
            let session_scope: Vec<ScopeTurn<'_>> = indices.iter().map(|&i| scope[i].clone()).collect();
            let mut own = derive_occurrences(&session_scope);
            remap(&mut own, &indices);
            SessionFold::Own(own)
        };
        let mut session_usage = Usage::default();
        let mut session_coverage = agent_coverage.clone();
        for &i in &indices {
            let record = &session.turns[addrs[i].turn];
            let summand = record.turn.usage_raw.as_ref().map(Usage::summand).or(record.turn.usage);
            if let Some(u) = &summand {
                session_usage.add(u);
                usage.add(u);
            }
            session_coverage = session_coverage.worst(&turns[i].coverage);
            coverage = coverage.worst(&turns[i].coverage);
        }
        sessions.push(DerivedSession {
            name: session.scope_name(),
            occurrences,
            usage: session_usage,
            coverage: session_coverage,
        });
    }
    let all_events = || events_releasing_pages(&scope);
    let model = model.map(str::to_string).or_else(|| attempt.model.clone());
    let billed = attempt.reported_usage.unwrap_or(usage);
    DerivedAttempt {
        occurrences: root,
        o11y: if whole { build_o11y_summary(all_events()) } else { O11ySummary::default() },
        estimate: estimate_cost(model.as_deref(), &billed, prices),
        usage,
        sessions,
        turns,
        coverage,
        model,
    }
}

/// The events of `scope` in order, the pages of each stretch handed back
/// once the iteration has passed it (a long turn is the whole file): the
/// attempt's summary reads the inputs of some tool calls again, and a call
/// read later (when it settles) only reads its page again.
fn events_releasing_pages<'a>(scope: &'a [ScopeTurn<'a>]) -> impl Iterator<Item = &'a Event> + Clone {
    scope.iter().flat_map(|s| super::event::releasing(s.events))
}

fn remap(set: &mut OccurrenceSet, indices: &[usize]) {
    for o in &mut set.occurrences {
        o.start_ref = o.start_ref.in_scope(indices);
        o.finish_ref = o.finish_ref.map(|f| f.in_scope(indices));
    }
    for o in &mut set.orphan_finishes {
        o.event_ref = o.event_ref.in_scope(indices);
    }
}

impl DerivedAttempt {
    /// The first figure of [`DerivedAttempt::to_json`] that is not a finite
    /// number, in words: JSON has no infinity, and `to_json` would write
    /// `null`, which reads as "not reported" (or, for the estimate, "no model
    /// or price").
    pub fn not_finite(&self) -> Option<String> {
        let infinite = |u: &Usage| USAGE_FIELDS.into_iter().find(|f| u.get(f).is_some_and(|x| !x.is_finite()));
        for s in &self.sessions {
            if let Some(field) = infinite(&s.usage) {
                return Some(format!("the {} usage sum of {field}", s.name));
            }
        }
        if let Some(field) = infinite(&self.usage) {
            return Some(format!("the attempt's usage sum of {field}"));
        }
        self.estimate
            .total()
            .filter(|t| !t.is_finite())
            .map(|_| "the attempt's cost estimate (estimatedCostUSD)".to_string())
    }

    /// The derived JSON that `niceeval derive` prints: the conformance
    /// `expected` object (turns, sessions, attempt).
    pub fn to_json(&self, attempt: &Attempt) -> Value {
        let turns = self
            .turns
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let events: Vec<&Event> =
                    attempt.sessions[t.addr.session].turns[t.addr.turn].turn.events.iter().collect();
                let mut o = Map::new();
                o.insert("session".into(), t.session_name.clone().into());
                o.insert("turn".into(), t.turn_name.clone().into());
                o.insert("turnOrdinal".into(), t.turn_ordinal.into());
                o.insert("runFacts".into(), self.turn_run_facts(attempt, i).to_json(&events));
                o.insert("o11y".into(), t.o11y.to_json());
                o.insert("occurrences".into(), self.turn_occurrences(attempt, i).to_json(&self.events(attempt)));
                Value::Object(o)
            })
            .collect();
        let sessions = self
            .sessions
            .iter()
            .enumerate()
            .map(|(si, s)| {
                let mut o = Map::new();
                o.insert("session".into(), s.name.clone().into());
                o.insert("occurrences".into(), self.session_occurrences(si).to_json(&self.events(attempt)));
                o.insert("usage".into(), s.usage.to_json());
                Value::Object(o)
            })
            .collect();
        let mut a = Map::new();
        a.insert("occurrences".into(), self.occurrences.to_json(&self.events(attempt)));
        a.insert("usage".into(), self.usage.to_json());
        a.insert("o11y".into(), self.o11y.to_json());
        a.insert("estimatedCostUSD".into(), self.estimate.total().map(number).unwrap_or(Value::Null));
        let mut out = Map::new();
        out.insert("turns".into(), Value::Array(turns));
        out.insert("sessions".into(), Value::Array(sessions));
        out.insert("attempt".into(), Value::Object(a));
        Value::Object(out)
    }
}

/// Derive every attempt of a document once, at load. Each attempt is priced
/// with its own model (its run's `context.execution.model`, a capture's
/// `model`), unless `model` (`--model`) overrides them all.
pub fn derive_document(
    doc: &super::document::Document,
    model: Option<&str>,
    prices: &PriceTable,
) -> Vec<DerivedAttempt> {
    derive_document_to(doc, model, prices, Depth::Whole)
}

/// [`derive_document`] to `depth`.
pub fn derive_document_to(
    doc: &super::document::Document,
    model: Option<&str>,
    prices: &PriceTable,
    depth: Depth,
) -> Vec<DerivedAttempt> {
    doc.attempts.iter().map(|a| derive_attempt_to(a, model, prices, depth)).collect()
}
