//! Real Records and InvocationSummaries NiceEval wrote (../shared/samples),
//! read as NiceEval reads them: a Record keeps no HITL answers, its run and
//! attempt directories open on their own, `check --format json` answers in
//! JSON, and `command-unclassified` uses the attempt's recorded coverage.
//! Skipped when ../shared is absent.

mod common;

use common::{bin, shared_dir};
use niceeval::model::derive_attempt;
use niceeval::model::document::{Attempt, Document};
use niceeval::model::hitl::{HitlState, hitl_requests};
use niceeval::model::lint::lint_document;
use niceeval::model::usage::builtin_prices;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// `realrun-sdk/record`, and its `realrun/hitl` run (HITL across two sessions).
const HITL_RUN: &str = "3bdafb35-d668-4299-8644-67ec4df96b4b";
const HITL_ATTEMPT: &str = "414ef3cd-606a-422e-837b-056c1c40c800";

fn realrun_record() -> Option<PathBuf> {
    let dir = shared_dir()?.join("samples/niceeval/realrun-sdk/record");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("real records: skipped (../shared/samples/niceeval/realrun-sdk not found)");
        None
    }
}

fn open(path: &std::path::Path) -> Document {
    niceeval::load::load_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn by_eval<'a>(doc: &'a Document, eval: &str) -> &'a Attempt {
    doc.attempts.iter().find(|a| a.eval_id.as_deref() == Some(eval)).expect("attempt of the eval")
}

#[test]
fn a_record_input_request_has_its_answer_not_recorded_and_gates_the_call_pending_when_asked() {
    let Some(record) = realrun_record() else { return };
    let doc = open(&record);
    for attempt in &doc.attempts {
        let derived = derive_attempt(attempt, None, &builtin_prices());
        for r in hitl_requests(attempt, &derived) {
            assert!(
                matches!(r.state, HitlState::AnswerNotRecorded { .. }),
                "{:?}: a Record keeps no answers, yet the request is {:?}",
                attempt.eval_id,
                r.state
            );
        }
    }
    let attempt = by_eval(&doc, "realrun/hitl-wrong");
    let derived = derive_attempt(attempt, None, &builtin_prices());
    let requests = hitl_requests(attempt, &derived);
    assert_eq!(requests.len(), 2);
    // turn1: approve_change started before the request and finished after it, in the same turn.
    let first = &requests[0];
    assert_eq!(
        first.state,
        HitlState::AnswerNotRecorded { next: Some(niceeval::model::TurnAddr { session: 0, turn: 1 }) }
    );
    let gated: Vec<_> = first.gated.iter().map(|&i| &derived.occurrences.occurrences[i]).collect();
    assert_eq!(gated.len(), 1, "the call pending when turn1 asked");
    assert_eq!(&*gated[0].original_name, "approve_change");
    let finish = gated[0].finish_ref.expect("it finished later");
    assert!(finish.event > first.event, "finished after the request was asked");
}

#[test]
fn a_record_run_or_attempt_directory_opens_scoped_to_it() {
    let Some(record) = realrun_record() else { return };
    let whole = open(&record);
    assert!(whole.attempts.len() > 1);

    let run_dir = record.join("runs").join(HITL_RUN);
    let run = open(&run_dir);
    assert_eq!(run.format, format!("NiceEval Record, run {HITL_RUN}"));
    let evals: Vec<_> = run.attempts.iter().map(|a| a.eval_id.as_deref()).collect();
    assert_eq!(evals, vec![Some("realrun/hitl-wrong")]);
    assert_eq!(run.sources, vec![run_dir.to_string_lossy().into_owned()]);

    let attempt_dir = run_dir.join("attempts").join(HITL_ATTEMPT);
    let one = open(&attempt_dir);
    assert_eq!(one.attempts.len(), 1);
    assert_eq!(one.attempts[0].attempt_id.as_deref(), Some(HITL_ATTEMPT));
    assert_eq!(one.attempts[0].sessions, by_eval(&whole, "realrun/hitl-wrong").sessions);

    // The files themselves open the same part.
    assert_eq!(open(&run_dir.join("run.json")).attempts.len(), 1);
    assert_eq!(open(&attempt_dir.join("attempt.json")).attempts[0].attempt_id.as_deref(), Some(HITL_ATTEMPT));
}

#[test]
fn a_draft_run_directory_is_refused_with_the_reason() {
    let Some(shared) = shared_dir() else { return };
    let draft = shared.join("samples/niceeval/repo/e2e/migrate/fixtures/observability-v1-record/runs/draft-run");
    let err = niceeval::load::load_path(&draft).expect_err("a draft run is not published");
    assert!(err.to_string().contains("unfinished draft"), "{err}");
}

#[test]
fn check_json_on_a_record_prints_json_naming_the_attempts_without_a_stream() {
    let Some(record) = realrun_record() else { return };
    let out = Command::new(bin()).args(["check", "--format", "json"]).arg(&record).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "nothing to check is still an input problem");
    let report: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(report["format"], "niceeval.check/1");
    assert_eq!(report["checked"]["attempts"], 0);
    assert!(report["nothingToCheck"].is_string());
    let skipped = report["skippedAttempts"].as_array().unwrap();
    assert_eq!(skipped.len(), open(&record).attempts.len());
    for s in skipped {
        assert!(s["locator"].as_str().is_some_and(|l| l.starts_with('@')), "{s}");
        assert!(matches!(s["stream"].as_str(), Some("rebuilt" | "none")), "{s}");
        assert!(s["reason"].as_str().is_some_and(|r| !r.is_empty()), "{s}");
    }
}

#[test]
fn command_unclassified_follows_the_coverage_the_file_records() {
    let Some(shared) = shared_dir() else { return };
    let summary = shared.join("samples/niceeval/generated/invocation-summary/summary-kitchen.json");
    let doc = open(&summary);
    let coverage = by_eval(&doc, "coverage");
    let actions = coverage.recorded_coverage.as_ref().and_then(|c| c.get("actions")).expect("recorded");
    assert_ne!(actions.status, niceeval::model::coverage::CoverageStatus::Complete);
    let derived = niceeval::model::derive_document(&doc, None, &builtin_prices());
    let findings = lint_document(&doc, &derived);
    let ai = doc.attempts.iter().position(|a| a.eval_id.as_deref() == Some("coverage")).unwrap();
    assert!(
        !findings.iter().any(|f| f.code == "command-unclassified" && f.location.attempt == ai),
        "an attempt whose actions coverage is partial was honest about its unclassified call"
    );

    // A converter's bare Turn carries no agent coverage: the warning stays and says so.
    let turn = shared.join("samples/niceeval/sdk-converters/turns/langgraph-core.session1.turn1.json");
    let doc = open(&turn);
    let derived = niceeval::model::derive_document(&doc, None, &builtin_prices());
    let findings = lint_document(&doc, &derived);
    let f = findings.iter().find(|f| f.code == "command-unclassified").expect("still a warning");
    assert!(f.message.contains("does not carry the agent's evidence coverage"), "{}", f.message);
}
