//! Derivation: one analysis of a document, made once at load: every
//! attempt's derived facts, the lint's findings, and the views every surface
//! reads. This is the core's one place with threads and a clock: `model`
//! and `view` are sequential and pure, and `load` takes the threads of its
//! parallel parsing from [`parallel`].

pub mod parallel;

use crate::model::derive::{Depth, DerivedAttempt, derive_document_to};
use crate::model::diagnostics::Finding;
use crate::model::document::Document;
use crate::model::lint::{self, TurnFindings};
use crate::model::usage::PriceTable;
use crate::view::AttemptView;
use crate::view::attempt::{assemble_views, attempt_parts};
use crate::view::compare::Built;
use std::time::{Duration, Instant};

/// A document analysed: its views and findings, and how long each phase took.
pub struct Analysis {
    pub views: Vec<AttemptView>,
    pub findings: Vec<Finding>,
    pub phases: Vec<(Phase, Duration)>,
}

/// The phases of [`analyse`], timed for `NICEEVAL_TIMING`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Derive,
    /// The derivation and the per-turn lint beside it, until both ended.
    DeriveAndLintTurns,
    /// The pairing rules of the lint, on a second thread.
    LintPairing,
    /// HITL requests, timelines, badges and timing trees, beside the pairing.
    Parts,
    MergeFindingsAndViews,
    Total,
}

impl Phase {
    /// The phase as `NICEEVAL_TIMING` names it (a developer's measurement, not a user's word).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Derive => "derive",
            Phase::DeriveAndLintTurns => "derive and lint turns (this thread helps the lint once derived)",
            Phase::LintPairing => "lint pairing",
            Phase::Parts => "hitl+timeline+badges+timing (in parallel with pairing)",
            Phase::MergeFindingsAndViews => "merge findings+views",
            Phase::Total => "total",
        }
    }
}

/// Derive every attempt once, lint it, and build its view.
///
/// Two threads: the per-turn lint rules run while the document is derived
/// (and on both once it is); then the pairing rules run while the HITL
/// requests, timelines and badges are built. The findings are merged in the
/// order a sequential lint gives.
pub fn analyse(doc: &Document, model: Option<&str>, prices: &PriceTable) -> Analysis {
    let started = Instant::now();
    let mut phases = Vec::new();
    let t = Instant::now();
    let ((derived, derive_time), turn_findings) = lint_turns_while(doc, || {
        let t = Instant::now();
        // The views read no observability summary (only `derive` writes them).
        (derive_document_to(doc, model, prices, Depth::NoSummaries), t.elapsed())
    });
    phases.push((Phase::Derive, derive_time));
    phases.push((Phase::DeriveAndLintTurns, t.elapsed()));
    let ((parts, parts_time), (session_findings, pairing_time)) = parallel::both(
        || {
            let t = Instant::now();
            let parts: Vec<_> = doc.attempts.iter().zip(&derived).map(|(a, d)| attempt_parts(a, d)).collect();
            (parts, t.elapsed())
        },
        || {
            let t = Instant::now();
            (lint::lint_sessions(doc, &derived), t.elapsed())
        },
    );
    phases.push((Phase::LintPairing, pairing_time));
    phases.push((Phase::Parts, parts_time));
    let t = Instant::now();
    // Input findings first, as `derive_and_lint` (and so `check`) has them.
    let findings = lint::merge(lint::input_findings(doc), turn_findings, session_findings, parallel::return_freed_heap);
    let views = assemble_views(doc, derived, parts, &findings, prices);
    phases.push((Phase::MergeFindingsAndViews, t.elapsed()));
    phases.push((Phase::Total, started.elapsed()));
    Analysis { views, findings, phases }
}

/// The views and findings of [`analyse`].
pub fn build_views(doc: &Document, model: Option<&str>, prices: &PriceTable) -> (Vec<AttemptView>, Vec<Finding>) {
    let Analysis { views, findings, .. } = analyse(doc, model, prices);
    (views, findings)
}

/// One source of a comparison, analysed on its own (so attempt numbers and
/// findings are the source's own).
pub fn build_source(doc: Document, model: Option<&str>, prices: &PriceTable) -> Built {
    let (views, findings) = build_views(&doc, model, prices);
    Built { doc, views, findings }
}

/// Derive the document and lint it: the per-turn lint (which needs no
/// derivation) runs on a second thread while the document is derived, and
/// the turns it has not reached when the derivation ends are shared with
/// this thread. The findings are those of `lint::lint_document`.
pub fn derive_and_lint(
    doc: &Document,
    model: Option<&str>,
    prices: &PriceTable,
) -> (Vec<DerivedAttempt>, Vec<Finding>) {
    derive_and_lint_to(doc, model, prices, Depth::Whole)
}

/// [`derive_and_lint`] with the document derived to `depth`: `check`
/// derives only what the lint reads ([`Depth::NoSummaries`]).
pub fn derive_and_lint_to(
    doc: &Document,
    model: Option<&str>,
    prices: &PriceTable,
    depth: Depth,
) -> (Vec<DerivedAttempt>, Vec<Finding>) {
    let (derived, turns) = lint_turns_while(doc, || derive_document_to(doc, model, prices, depth));
    let sessions = lint::lint_sessions(doc, &derived);
    let findings = lint::merge(lint::input_findings(doc), turns, sessions, parallel::return_freed_heap);
    (derived, findings)
}

/// The per-turn lint (`lint::shared_turn_lint`) on another thread while
/// `work` (the derivation) runs on this one, which then takes the turns not
/// yet linted: the two end together, where a lint on its own thread ended last.
pub fn lint_turns_while<R: Send>(doc: &Document, work: impl FnOnce() -> R + Send) -> (R, TurnFindings) {
    let shared = lint::shared_turn_lint(doc, parallel::SPREAD);
    let (done, ()) = parallel::both(
        || {
            let done = work();
            shared.help();
            done
        },
        || shared.help(),
    );
    (done, shared.finish())
}
