//! Lint rules for event streams (`niceeval check`, the Diagnostics tab).
//!
//! NiceEval validates almost nothing in a returned Turn (derivation §5.5): a
//! wrong stream silently makes assertions unavailable or wrong. These rules
//! say what is wrong, where, and how to fix it. Pure: no I/O.
//!
//! Every rule has a stable kebab-case code listed in [`RULES`] with its
//! severity, the spec rule it enforces and a default fix hint.

mod events;
mod input;
mod log;
mod pairing;
mod sums;
mod turn;

pub use input::findings as input_findings;

use super::derive::DerivedAttempt;
pub use super::rules::{RULES, RuleInfo, rule_info};

use super::diagnostics::{Finding, Location, Said};
use super::document::Document;
use super::spread::Spread;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many of a turn's events one thread digests at a time (a long turn's
/// outputs are digested on every core).
const EVENTS_AT_ONCE: usize = 2048;

/// Collects findings with the catalog's severity, rule and default hint.
pub(crate) struct Sink {
    pub findings: Vec<Finding>,
}

impl Sink {
    pub fn push(&mut self, code: &'static str, location: Location, message: String) {
        self.push_said(code, location, Said::from(message));
    }

    /// A finding kept in its compact form, worded when read.
    pub fn push_said(&mut self, code: &'static str, location: Location, said: Said) {
        debug_assert!(rule_info(code).is_some(), "unknown lint code {code}");
        self.findings.push(Finding::new(code, location, said));
    }

    pub fn push_hint(&mut self, code: &'static str, location: Location, message: String, hint: Option<String>) {
        let finding = Finding::new(code, location, message);
        self.findings.push(match hint {
            Some(h) => finding.with_hint(h),
            None => finding,
        });
    }
}

/// Quote an input-derived string for a message: shortened, JSON-quoted.
/// (Callers that print still sanitize.)
pub(crate) fn q(s: &str) -> String {
    super::diagnostics::quote(s)
}

/// `N:i` as every surface prints it: the attempt-wide turn number
/// (turnOrdinal) and the event ordinal (adapter event index + 1).
pub(crate) fn pos(turn_ordinal: u64, event: usize) -> String {
    format!("{turn_ordinal}:{}", event + 1)
}

/// Whether the input records Turn statuses at all. Some formats (an
/// InvocationSummary's flat event list) keep the adapter's events but not the
/// Turn `status`; then status rules cannot judge the adapter. A Turn that
/// omits `status` in a Turn-shaped input still counts as recorded: the loader
/// notes it, and `turn-status-missing` reports it.
pub fn statuses_recorded(attempt: &super::document::Attempt) -> bool {
    attempt.sessions.iter().flat_map(|s| &s.turns).any(|t| t.turn.status.is_some())
        || attempt.notices.iter().any(|n| n.kind.is_turn_status_problem())
}

/// True when the attempt's events are the adapter's own stream.
pub fn attempt_is_checkable(attempt: &super::document::Attempt) -> bool {
    attempt.events_exact
}

/// Every finding for every attempt of a document. `derived[i]` belongs to `doc.attempts[i]`.
///
/// Attempts whose events were rebuilt from a lossy source (`events_exact ==
/// false`, e.g. a Record conversation) and reconstructed turns are skipped:
/// those events are not the adapter's.
pub fn lint_document(doc: &Document, derived: &[DerivedAttempt]) -> Vec<Finding> {
    let turns = lint_turns_with(doc, |ai, addr| derived.get(ai).and_then(|d| d.turn(addr)).map(|t| t.coverage.clone()));
    let sessions = lint_sessions(doc, derived);
    merge(input::findings(doc), turns, sessions, || {})
}

/// The per-turn half of [`lint_document`] (notices, event, status, usage,
/// coverage and content rules), shared out a turn at a time to whichever
/// thread [`help`](SharedTurnLint::help)s (`analysis::lint_turns_while`
/// runs it beside the derivation). It needs no derivation: each turn's
/// coverage is the one `derive_attempt` computes (the agent default
/// downgraded by the turn's declaration). A long turn's texts are digested
/// over `spread`.
pub fn shared_turn_lint(doc: &Document, spread: Spread) -> SharedTurnLint<'_> {
    SharedTurnLint::new(doc, spread)
}

/// The coverage [`derive_attempt`](super::derive::derive_attempt) gives a
/// turn, worked out without the derivation.
fn agent_coverage(doc: &Document, ai: usize, addr: super::derive::TurnAddr) -> Option<super::coverage::Coverage> {
    let record = doc.attempts.get(ai)?.sessions.get(addr.session)?.turns.get(addr.turn)?;
    Some(super::coverage::Coverage::complete().downgrade(record.turn.evidence_coverage.as_ref()))
}

/// The per-turn lint of [`shared_turn_lint`], its turns handed out one at a time
/// to whichever thread [`SharedTurnLint::help`]s.
pub struct SharedTurnLint<'d> {
    doc: &'d Document,
    /// (attempt, session, turn, whether the attempt records statuses), in
    /// the order [`turn_findings_with`] visits them.
    turns: Vec<(usize, usize, usize, bool)>,
    next: AtomicUsize,
    done: Mutex<Vec<Option<Vec<Finding>>>>,
    spread: Spread,
}

impl<'d> SharedTurnLint<'d> {
    fn new(doc: &'d Document, spread: Spread) -> Self {
        let mut turns = Vec::new();
        // A dry run of the assembly lists the turns in its own order.
        turn_findings_with(doc, |ai, si, ti, statuses| {
            turns.push((ai, si, ti, statuses));
            Vec::new()
        });
        let done = Mutex::new(turns.iter().map(|_| None).collect());
        SharedTurnLint { doc, turns, next: AtomicUsize::new(0), done, spread }
    }

    /// Lint turns until none is left.
    pub fn help(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(ai, si, ti, statuses)) = self.turns.get(i) else { return };
            let coverage = |ai, addr| agent_coverage(self.doc, ai, addr);
            let findings = lint_turn(self.doc, (ai, si, ti), statuses, coverage, self.spread);
            self.done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(findings);
        }
    }

    /// The findings, once every helper has returned.
    pub fn finish(self) -> TurnFindings {
        let mut done = self.done.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter();
        turn_findings_with(self.doc, |_, _, _, _| done.next().flatten().unwrap_or_default())
    }
}

/// Findings of [`shared_turn_lint`]: per attempt, the notice findings and, per
/// session, its turns' findings (each turn's list apart, so that they are
/// copied once, by [`merge`]), in the order [`lint_document`] reports them.
#[derive(Debug, Default)]
pub struct TurnFindings {
    attempts: Vec<(Vec<Finding>, Vec<SessionParts>)>,
}

/// A session's findings as the per-turn lint made them: its own, then each turn's list.
type SessionParts = Vec<Vec<Finding>>;

/// Findings of [`lint_sessions`]: per attempt, per session (pairing rules).
#[derive(Debug, Default)]
pub struct SessionFindings {
    attempts: Vec<Vec<Vec<Finding>>>,
}

fn lint_turns_with(
    doc: &Document,
    coverage_of: impl Fn(usize, super::derive::TurnAddr) -> Option<super::coverage::Coverage>,
) -> TurnFindings {
    turn_findings_with(doc, |ai, si, ti, statuses| {
        lint_turn(doc, (ai, si, ti), statuses, &coverage_of, Spread::SEQUENTIAL)
    })
}

/// The findings of [`shared_turn_lint`], each turn's from `turn` (given the
/// attempt, session and turn, and whether the attempt records statuses).
fn turn_findings_with(doc: &Document, mut turn: impl FnMut(usize, usize, usize, bool) -> Vec<Finding>) -> TurnFindings {
    let mut out = TurnFindings::default();
    for (ai, attempt) in doc.attempts.iter().enumerate() {
        let mut notices = Sink { findings: Vec::new() };
        let mut sessions = Vec::new();
        if attempt_is_checkable(attempt) {
            let statuses = statuses_recorded(attempt);
            for notice in &attempt.notices {
                if let Some((fault, (si, ti))) = turn_shape_notice(notice) {
                    let location = Location::new(ai, si, Some(ti), None);
                    notices.push_said("turn-shape", location, Said::TurnShape(Box::new(fault.clone())));
                }
            }
            for (si, session) in attempt.sessions.iter().enumerate() {
                let mut sink = Sink { findings: Vec::new() };
                check_index(&mut sink, Location::new(ai, si, None, None), &session.index_misfit);
                let mut parts = vec![sink.findings];
                for (ti, record) in session.turns.iter().enumerate() {
                    if !record.reconstructed {
                        parts.push(turn(ai, si, ti, statuses));
                    }
                }
                sessions.push(parts);
            }
        }
        out.attempts.push((notices.findings, sessions));
    }
    out
}

/// One turn's findings (index, event, status, usage, coverage and content rules).
fn lint_turn(
    doc: &Document,
    (ai, si, ti): (usize, usize, usize),
    statuses: bool,
    coverage_of: impl Fn(usize, super::derive::TurnAddr) -> Option<super::coverage::Coverage>,
    spread: Spread,
) -> Vec<Finding> {
    let attempt = &doc.attempts[ai];
    let record = &attempt.sessions[si].turns[ti];
    let mut sink = Sink { findings: Vec::new() };
    let here = Location::new(ai, si, Some(ti), None);
    check_index(&mut sink, here, &record.ordinal_misfit);
    let coverage = coverage_of(ai, super::derive::TurnAddr { session: si, turn: ti });
    events::check_turn_events(&mut sink, here, record);
    let recorded = attempt.recorded_coverage.as_ref().and_then(|c| c.get("actions"));
    turn::check_turn(&mut sink, here, record, coverage.as_ref(), recorded, statuses, spread);
    // Nothing reads this turn's text again in the lint.
    record.turn.release_pages();
    // A long turn's list is kept until the merge: not with room to grow.
    sink.findings.shrink_to_fit();
    sink.findings
}

/// A written `sessionIndex` or `ordinal` outside the contract.
fn check_index(sink: &mut Sink, at: Location, misfit: &Option<super::indices::IndexMisfit>) {
    use super::indices::IndexMisfit;
    match misfit {
        Some(IndexMisfit::WrittenAsFloat(why)) => sink.push("index-written-as-float", at, why.clone()),
        Some(IndexMisfit::Invalid(why)) => sink.push("invalid-index", at, why.clone()),
        None => {}
    }
}

/// The session-scope half of [`lint_document`]: tool pairing, read from the derivation.
pub fn lint_sessions(doc: &Document, derived: &[DerivedAttempt]) -> SessionFindings {
    let mut out = SessionFindings::default();
    for (ai, attempt) in doc.attempts.iter().enumerate() {
        let mut sessions = Vec::new();
        if attempt_is_checkable(attempt)
            && let Some(d) = derived.get(ai)
        {
            let statuses = statuses_recorded(attempt);
            let started = pairing::started_in(d);
            for (si, session) in attempt.sessions.iter().enumerate() {
                let mut sink = Sink { findings: Vec::new() };
                if let Some(first) = attempt.sessions[..si].iter().position(|s| s.index == session.index) {
                    sink.push(
                        "duplicate-session-index",
                        Location::new(ai, si, None, None),
                        format!(
                            "session line {} has the sessionIndex of session line {} ({}): NiceEval's attempt scope pairs their tool calls as one session, their session scopes do not",
                            si + 1,
                            first + 1,
                            session.scope_name()
                        ),
                    );
                }
                pairing::check_session(&mut sink, ai, si, session, d, &started, statuses);
                sessions.push(sink.findings);
            }
            let mut sink = Sink { findings: Vec::new() };
            sums::check_attempt(&mut sink, ai, attempt, d);
            log::check_attempt(&mut sink, ai, attempt);
            // Sum and log findings belong to sessions (the attempt's own to the first).
            for f in sink.findings {
                if let Some(part) = sessions.get_mut(f.location.session()) {
                    part.push(f);
                }
            }
        }
        out.attempts.push(sessions);
    }
    out
}

/// After `first` (the input findings), both halves in [`lint_document`]'s
/// order: per attempt its notices, then per session its turns' findings and
/// its pairing findings; then sorted by location (stable), errors first at
/// the same location.
///
/// A stream can have a finding for every event, so they are moved once into
/// a list made at its size, and `freed` is called each time some megabytes
/// of the lists moved have been dropped: the caller can hand that memory
/// back (the lists were made on other threads, whose freed memory the
/// allocator otherwise keeps), so the findings are not held twice.
pub fn merge(first: Vec<Finding>, turns: TurnFindings, sessions: SessionFindings, freed: impl FnMut()) -> Vec<Finding> {
    let mut lists = vec![first];
    let mut sessions = sessions.attempts.into_iter();
    for (notices, turn_parts) in turns.attempts {
        lists.push(notices);
        let mut pairing = sessions.next().unwrap_or_default().into_iter();
        for parts in turn_parts {
            lists.extend(parts);
            lists.push(pairing.next().unwrap_or_default());
        }
        lists.extend(pairing);
    }
    lists.extend(sessions.flatten());
    let mut findings = concat(lists, freed);
    let order = |a: &Finding, b: &Finding| a.location.cmp(&b.location).then(b.severity.cmp(&a.severity));
    // Mostly in order already; the sort would set aside room for half of them.
    if !findings.is_sorted_by(|a, b| order(a, b).is_le()) {
        findings.sort_by(order);
    }
    findings
}

/// The lists one after another, each moved once into a list made at its
/// size (one list is taken as it is), `freed` called each time some
/// megabytes of them have been dropped (see [`merge`]).
pub fn concat(mut lists: Vec<Vec<Finding>>, mut freed: impl FnMut()) -> Vec<Finding> {
    const FREED_EVERY: usize = 8 << 20;
    lists.retain(|l| !l.is_empty());
    if lists.len() <= 1 {
        return lists.pop().unwrap_or_default();
    }
    let mut all = Vec::with_capacity(lists.iter().map(Vec::len).sum());
    let mut moved = 0;
    for list in lists {
        moved += list.len() * std::mem::size_of::<Finding>();
        all.extend(list);
        if moved >= FREED_EVERY {
            freed();
            moved = 0;
        }
    }
    if moved > 0 {
        freed();
    }
    all
}

/// Whether a load notice is reported by `check` as a finding (turn shape or
/// status), so surfaces need not print it twice.
pub fn notice_is_finding(notice: &super::document::Notice) -> bool {
    turn_shape_notice(notice).is_some() || notice.kind.is_turn_status_problem()
}

/// A loader notice about a Turn's shape, and the Turn's `(session, turn)`
/// in the attempt, where the file tells them.
fn turn_shape_notice(notice: &super::document::Notice) -> Option<(&super::notice::TurnFault, (usize, usize))> {
    match &notice.kind {
        super::notice::NoticeKind::Turn(fault) if !fault.problem.is_status() => {
            Some((fault, fault.place.in_attempt()?))
        }
        _ => None,
    }
}
