//! The view of one attempt, built once at load (by `analysis`, off the UI
//! thread for large inputs) and read by every surface: derived facts, HITL
//! requests, timeline rows, which rows assertions point at, and which rows
//! findings flag.

use super::summary::Summary;
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::Finding;
use crate::model::document::{Attempt, Document};
use crate::model::hitl::{HitlRequest, hitl_requests};
use crate::model::timeline::{Timeline, build_timeline};
use crate::model::usage::PriceTable;
use std::collections::HashMap;

/// Everything derived once for one attempt.
#[derive(Debug, Clone)]
pub struct AttemptView {
    pub derived: DerivedAttempt,
    pub requests: Vec<HitlRequest>,
    pub timeline: Timeline,
    /// Assertions (indices) that point at a (turn, event) of the transcript;
    /// event `None` is the runner's user message.
    pub badges: HashMap<(TurnAddr, Option<usize>), Vec<usize>>,
    /// (turn, event) positions that a diagnostic finding points at.
    pub flagged: Flagged,
    /// The header facts every surface shows.
    pub summary: Summary,
    /// The attempt's timing intervals and OTel spans as one tree.
    pub timing: crate::model::timing::Tree,
}

/// The (turn, event) positions findings point at (event `None`: the turn
/// itself), sorted: a stream can have a finding at every tool start, and a
/// hash set of them cost about 60 bytes a position.
#[derive(Debug, Clone, Default)]
pub struct Flagged(Vec<(u32, u32, u32)>);

impl Flagged {
    /// `(session, turn, event + 1)`, 0 for the turn itself; `None` beyond what a u32 holds.
    fn key(&(addr, event): &(TurnAddr, Option<usize>)) -> Option<(u32, u32, u32)> {
        let event = match event {
            Some(e) => u32::try_from(e).ok()?.checked_add(1)?,
            None => 0,
        };
        Some((u32::try_from(addr.session).ok()?, u32::try_from(addr.turn).ok()?, event))
    }

    fn of(positions: impl Iterator<Item = (TurnAddr, Option<usize>)>) -> Flagged {
        let mut keys: Vec<(u32, u32, u32)> = positions.filter_map(|p| Flagged::key(&p)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.shrink_to_fit();
        Flagged(keys)
    }

    pub fn contains(&self, position: &(TurnAddr, Option<usize>)) -> bool {
        Flagged::key(position).is_some_and(|k| self.0.binary_search(&k).is_ok())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What is built for one attempt from its derived facts, before the
/// findings are known: HITL requests, timeline rows, assertion badges and
/// the timing tree.
pub struct AttemptParts {
    pub requests: Vec<HitlRequest>,
    pub timeline: Timeline,
    pub badges: HashMap<(TurnAddr, Option<usize>), Vec<usize>>,
    pub timing: crate::model::timing::Tree,
}

/// The parts of one attempt's view (sequential; `analysis` runs them beside the pairing lint).
pub fn attempt_parts(attempt: &Attempt, derived: &DerivedAttempt) -> AttemptParts {
    let requests = hitl_requests(attempt, derived);
    let timeline = build_timeline(attempt, derived, &requests);
    let mut badges: HashMap<(TurnAddr, Option<usize>), Vec<usize>> = HashMap::new();
    for (i, a) in attempt.review.assertions.iter().flatten().enumerate() {
        for r in crate::model::evidence::evidence_refs(a) {
            // An event the transcript does not hold has no row to badge.
            if let Some(t) = crate::model::evidence::resolve(attempt, derived, &r).filter(|t| t.in_transcript()) {
                let list = badges.entry((t.addr, t.event())).or_default();
                if !list.contains(&i) {
                    list.push(i);
                }
            }
        }
    }
    let mut timing = crate::model::timing::tree(&attempt.review.timing, attempt.review.trace.as_ref());
    let errors = attempt.review.diagnostics.iter().enumerate().filter(|(_, d)| d.is_execution_error());
    timing.place_execution_errors(&attempt.review.timing, errors.filter_map(|(i, d)| Some((i, d.phase.as_deref()?))));
    number_turn_intervals(attempt, derived, &mut timing);
    number_command_intervals(attempt, &mut timing);
    AttemptParts { requests, timeline, badges, timing }
}

/// A send interval labelled `session2/turn1` is that turn: its number is
/// said beside the label, as every other surface says it.
fn number_turn_intervals(attempt: &Attempt, derived: &DerivedAttempt, tree: &mut crate::model::timing::Tree) {
    let labels: HashMap<String, u64> = derived
        .turns
        .iter()
        .map(|t| (super::address::turn_label(attempt, t.addr), super::address::turn_number(derived, t.addr)))
        .collect();
    for node in tree.nodes.iter_mut().filter(|n| n.trunk && n.kind != "eval.run") {
        node.turn = labels.get(&node.label).copied();
    }
}

/// A `sandbox.command` interval that times a recorded command names it, as
/// its card numbers it (the waterfall's label, the inspector, `show --json`).
fn number_command_intervals(attempt: &Attempt, tree: &mut crate::model::timing::Tree) {
    let review = &attempt.review;
    let links = crate::model::sandbox::intervals(&review.commands, &review.timing);
    for (i, k) in links.into_iter().enumerate() {
        let Some(k) = k else { continue };
        let interval = crate::model::timing::Source::Interval(k);
        if let Some(node) = tree.nodes.iter_mut().find(|n| n.source == interval) {
            node.command = Some(i + 1);
        }
    }
}

/// Every attempt's view from its derived facts, its parts and the
/// document's findings (which rows they flag, and the counts the header shows).
pub fn assemble_views(
    doc: &Document,
    derived: Vec<DerivedAttempt>,
    parts: Vec<AttemptParts>,
    findings: &[Finding],
    prices: &PriceTable,
) -> Vec<AttemptView> {
    let mut positions: Vec<Vec<(TurnAddr, Option<usize>)>> = vec![Vec::new(); doc.attempts.len()];
    for f in findings {
        if let (Some(list), Some(turn)) = (positions.get_mut(f.location.attempt()), f.location.turn()) {
            list.push((TurnAddr { session: f.location.session(), turn }, f.location.event()));
        }
    }
    let flagged: Vec<Flagged> = positions.into_iter().map(|p| Flagged::of(p.into_iter())).collect();
    let numbers = attempt_numbers(doc);
    let mut counts = vec![(0usize, 0usize); doc.attempts.len()];
    for f in findings {
        if let Some(c) = counts.get_mut(f.location.attempt()) {
            match f.severity {
                crate::model::diagnostics::Severity::Error => c.0 += 1,
                crate::model::diagnostics::Severity::Warning => c.1 += 1,
            }
        }
    }
    derived
        .into_iter()
        .zip(parts)
        .zip(flagged)
        .enumerate()
        .map(|(i, ((derived, AttemptParts { requests, timeline, badges, timing }), flagged))| {
            let summary = Summary::new(&doc.attempts[i], &derived, &requests, numbers[i], counts[i], &prices.source);
            AttemptView { derived, requests, timeline, badges, flagged, summary, timing }
        })
        .collect()
}

/// Each attempt's number among the attempts of its eval (and experiment),
/// 1-based: the file's own number when it states one (a Record's attempt
/// ordinal), else its position among the attempts of that eval in the file.
/// `None` for an attempt that is the only one of its eval and has no number.
/// Attempts that name no eval are told apart by their file: captures opened
/// together are not attempts of one eval.
fn attempt_numbers(doc: &Document) -> Vec<Option<u64>> {
    type Key = (Option<String>, Option<String>, Option<String>);
    let key = |a: &crate::model::document::Attempt| -> Key {
        let file = if a.eval_id.is_none() { a.source.clone() } else { None };
        (a.experiment_id.clone(), a.eval_id.clone(), file)
    };
    let mut seen: HashMap<Key, u64> = HashMap::new();
    let mut totals: HashMap<Key, u64> = HashMap::new();
    for a in &doc.attempts {
        *totals.entry(key(a)).or_default() += 1;
    }
    doc.attempts
        .iter()
        .map(|a| {
            let n = seen.entry(key(a)).or_default();
            *n += 1;
            a.attempt_number.or((totals[&key(a)] > 1).then_some(*n))
        })
        .collect()
}
