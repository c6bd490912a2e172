//! Real Records and InvocationSummaries NiceEval wrote (../shared/samples),
//! read as NiceEval reads them: a Record keeps no HITL answers, its run and
//! attempt directories open on their own, `check --format json` answers in
//! JSON, `command-unclassified` uses the attempt's recorded coverage, notes
//! stay with their attempt and a turn recorded failed reads failed.
//! Skipped when ../shared is absent.

mod common;

use common::{bin, shared_dir, shared_path};
use niceeval::model::derive_attempt;
use niceeval::model::document::{Attempt, Document};
use niceeval::model::hitl::{HitlState, hitl_requests};
use niceeval::model::lint::lint_document;
use niceeval::model::usage::builtin_prices;
use niceeval::view::findings::message;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// `realrun-sdk/record`, and its `realrun/hitl` run (HITL across two sessions).
const HITL_RUN: &str = "3bdafb35-d668-4299-8644-67ec4df96b4b";
const HITL_ATTEMPT: &str = "414ef3cd-606a-422e-837b-056c1c40c800";

fn realrun_record() -> Option<PathBuf> {
    shared_path("samples/niceeval/realrun-sdk/record")
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
    assert!(finish.event() > first.event, "finished after the request was asked");
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
        !findings.iter().any(|f| f.code == "command-unclassified" && f.location.attempt() == ai),
        "an attempt whose actions coverage is partial was honest about its unclassified call"
    );

    // A converter's bare Turn carries no agent coverage: the warning stays and says so.
    let turn = shared.join("samples/niceeval/sdk-converters/turns/langgraph-core.session1.turn1.json");
    let doc = open(&turn);
    let derived = niceeval::model::derive_document(&doc, None, &builtin_prices());
    let findings = lint_document(&doc, &derived);
    let f = findings.iter().find(|f| f.code == "command-unclassified").expect("still a warning");
    assert!(message(f).contains("does not carry the agent's evidence coverage"), "{}", message(f));
}

/// Every attempt directory of the Records NiceEval wrote, with its Record.
fn attempt_dirs() -> Vec<(PathBuf, PathBuf)> {
    let Some(shared) = shared_dir() else { return Vec::new() };
    let samples = shared.join("samples/niceeval");
    let mut records = vec![samples.join("realrun-sdk/record"), samples.join("realrun-report/record")];
    for g in std::fs::read_dir(samples.join("generated")).into_iter().flatten().flatten() {
        records.push(g.path().join("record"));
    }
    let mut out = Vec::new();
    for record in records.into_iter().filter(|r| r.join("record.json").is_file()) {
        for run in std::fs::read_dir(record.join("runs")).into_iter().flatten().flatten() {
            if !run.path().join("complete").exists() {
                continue;
            }
            for a in std::fs::read_dir(run.path().join("attempts")).into_iter().flatten().flatten() {
                if a.path().join("attempt.json").is_file() {
                    out.push((record.clone(), a.path()));
                }
            }
        }
    }
    out.sort();
    out
}

fn show_json(path: &std::path::Path) -> Value {
    let out = Command::new(bin()).arg("show").arg(path).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What an attempt says about itself is the same whether it is opened alone
/// or among the other attempts of its Record (no note of one attempt in
/// another's output), and a turn the runner recorded as failed reads failed.
#[test]
fn a_records_notes_stay_with_their_attempt_and_failed_turns_read_failed() {
    let dirs = attempt_dirs();
    if dirs.is_empty() {
        common::skip("the Records under ../shared/samples");
        return;
    }
    let mut wholes: std::collections::HashMap<PathBuf, Value> = std::collections::HashMap::new();
    let (mut attempts, mut failed_turns) = (0, 0);
    for (record, dir) in &dirs {
        let alone = show_json(dir);
        let alone = &alone["attempts"][0];
        let whole = wholes.entry(record.clone()).or_insert_with(|| show_json(record));
        let among = whole["attempts"].as_array().unwrap().iter().find(|a| a["locator"] == alone["locator"]);
        let among = among.unwrap_or_else(|| panic!("{}: {} is not in its Record", dir.display(), alone["locator"]));
        assert_eq!(among["notices"], alone["notices"], "{}: notes differ among the other attempts", dir.display());
        assert_eq!(among["findings"], alone["findings"], "{}: findings differ", dir.display());
        // The turns' statuses, in the order the runner recorded them.
        let payload = dir.join("attachments/niceeval.observability/payload.json");
        if let Ok(bytes) = std::fs::read(&payload) {
            let p: Value = serde_json::from_slice(&bytes).unwrap();
            let mut turns: Vec<&Value> =
                p["conversation-data"]["turns"].as_array().map(|t| t.iter().collect()).unwrap_or_default();
            turns.sort_by_key(|t| t["sequence"].as_u64());
            let recorded: Vec<&str> = turns.iter().filter_map(|t| t["outcome"].as_str()).collect();
            let ours: Vec<&str> =
                alone["turns"].as_array().unwrap().iter().map(|t| t["status"].as_str().unwrap_or("—")).collect();
            assert_eq!(ours, recorded, "{}: turn statuses", dir.display());
            failed_turns += recorded.iter().filter(|o| **o == "failed").count();
        }
        attempts += 1;
    }
    common::report(&format!(
        "real records: {attempts} attempts read the same alone and in their Record; {failed_turns} failed turns read failed"
    ));
    assert!(attempts >= 40 && failed_turns >= 3, "{attempts} attempts, {failed_turns} failed turns");
}

/// "Jump to evidence" is approximate only when the evidence's occurrence id
/// is not one of the transcript's own tool occurrences: on every real Record,
/// `exact` is true exactly when the id matched (and the viewer's jump says
/// "approximate" only then).
#[test]
fn evidence_is_approximate_only_when_its_occurrence_id_did_not_match() {
    use niceeval::app::{App, Intent, Panel, update::update};
    let Some(shared) = shared_dir() else { return };
    let samples = shared.join("samples/niceeval");
    let (mut exact, mut approximate, mut not_recorded) = (0, 0, 0);
    for r in ["realrun-sdk", "realrun-report", "generated/record-kitchen", "generated/record-e2e-eval"] {
        let record = samples.join(r).join("record");
        if !record.is_dir() {
            continue;
        }
        let json = show_json(&record);
        for a in json["attempts"].as_array().unwrap() {
            let occurrences: Vec<&Value> = a["tools"].as_array().unwrap().iter().map(|t| &t["occurrence"]).collect();
            for e in a["assertions"].as_array().unwrap().iter().flat_map(|x| x["evidence"].as_array().unwrap()) {
                // The turn a scope-status check judged (no id): exact, a turn.
                if e["id"].is_null() {
                    assert!(e["exact"] == true && e["at"].as_str().is_some_and(|at| at.starts_with("turn ")), "{e}");
                    continue;
                }
                let matched = occurrences.contains(&&e["id"]);
                // An id whose turn is here and whose call the Record dropped: exact, and no row.
                if e["inTranscript"] == false {
                    assert!(!matched && e["exact"] == true, "{r} {}: {e}", a["locator"]);
                    not_recorded += 1;
                    continue;
                }
                assert_eq!(e["exact"], matched, "{} {}: exact is {} for {}", r, a["locator"], e["exact"], e["id"]);
                if matched { exact += 1 } else { approximate += 1 }
            }
        }
        // The viewer: Enter on each assertion with evidence; the flash says
        // "approximate" exactly when its first link is.
        let doc = niceeval::load::load_path(&record).unwrap();
        let mut app = App::new(doc, None, builtin_prices());
        for (i, a) in json["attempts"].as_array().unwrap().iter().enumerate() {
            for (k, x) in a["assertions"].as_array().unwrap().iter().enumerate() {
                let Some(first) = x["evidence"].as_array().unwrap().first() else { continue };
                niceeval::app::update(
                    &mut app,
                    niceeval::app::Action::Scope(niceeval::app::Scope { attempt: i, session: None, turn: None }),
                );
                update(&mut app, Intent::ShowTab(Panel::Assertions));
                niceeval::app::update(&mut app, niceeval::app::Action::Focus(niceeval::app::Focus::List));
                let row = app.assertion_offset() + k;
                niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(row));
                // The row selected is this assertion (the list's order is show --json's).
                let Some(niceeval::app::AssertionRow::Assertion(ai)) =
                    app.assertion_at(app.lists().assertions.selected)
                else {
                    panic!("{r} {}: row {k} is not an assertion", a["locator"]);
                };
                let id = app.attempt().and_then(|at| at.review.assertions.as_ref()?.get(ai)?.entry_id.clone());
                assert_eq!(id.as_deref(), x["id"].as_str(), "{r} {}: row {k}", a["locator"]);
                update(&mut app, Intent::Enter);
                let says = app.flash_text().is_some_and(|f| f.contains("approximate"));
                assert_eq!(
                    says,
                    first["exact"] == false,
                    "{r} {} assertion {}: flash {:?}",
                    a["locator"],
                    x["id"],
                    app.flash()
                );
            }
        }
    }
    common::report(&format!(
        "evidence on real Records: {exact} exact, {approximate} approximate, as their ids matched; {not_recorded} not in the recorded conversation"
    ));
    assert!(
        exact > 50 && approximate > 0 && not_recorded > 0,
        "{exact} exact, {approximate} approximate, {not_recorded} not recorded"
    );
}

/// NiceEval's tokens (`analysis/bindings.ts` `attemptTokens`) and duration
/// (`attemptLatencyMs`) of a usage and a timing collection as its pages and
/// Records hold them: input + output when the usage collection is complete
/// with both buckets, 0 when complete with no token bucket, else none; the
/// sum of the `eval.run` intervals when the timing collection is complete.
fn niceeval_figures(usage: &Value, timing: &Value) -> (Value, Value) {
    let complete = |c: &Value| c["collection"]["state"] == "complete";
    let tokens = if !complete(usage) {
        Value::Null
    } else {
        let buckets: Vec<&Value> =
            usage["observations"].as_array().into_iter().flatten().filter(|o| o["kind"] == "token-bucket").collect();
        let sum = |b: &str| {
            let of: Vec<f64> =
                buckets.iter().filter(|o| o["bucket"] == b).filter_map(|o| o["tokens"].as_f64()).collect();
            (!of.is_empty()).then(|| of.iter().sum::<f64>())
        };
        match (buckets.is_empty(), sum("input"), sum("output")) {
            (true, _, _) => Value::from(0),
            (false, Some(i), Some(o)) => Value::from((i + o) as u64),
            _ => Value::Null,
        }
    };
    let duration = if !complete(timing) {
        Value::Null
    } else {
        let run = timing["intervals"].as_array().into_iter().flatten().filter(|i| i["phase"] == "eval.run");
        Value::from(run.filter_map(|i| i["durationMs"].as_u64()).sum::<u64>())
    };
    (tokens, duration)
}

/// Every attempt of the Records NiceEval wrote reads NiceEval's tokens and
/// duration in `show --json`, from its Record's own collections, and the
/// same as NiceEval's own `show --json` pages hold them (realrun-sdk).
#[test]
fn every_real_attempt_shows_niceevals_tokens_and_duration() {
    let dirs = attempt_dirs();
    if dirs.is_empty() {
        common::skip("the Records under ../shared/samples");
        return;
    }
    let (mut checked, mut zero_tokens, mut durations_apart) = (0, 0, 0);
    for (_, dir) in &dirs {
        let bytes = std::fs::read(dir.join("attachments/niceeval.observability/payload.json"));
        let Ok(bytes) = bytes else { continue };
        let p: Value = serde_json::from_slice(&bytes).unwrap();
        let (tokens, duration) = niceeval_figures(&p["usage-data"], &p["timing-data"]);
        let ours = show_json(dir);
        let a = &ours["attempts"][0];
        assert_eq!((&a["tokens"], &a["durationMs"]), (&tokens, &duration), "{}", dir.display());
        zero_tokens += usize::from(tokens == 0);
        durations_apart += usize::from(a.get("viewerDurationMs").is_some());
        checked += 1;
    }
    // NiceEval's own pages of realrun-sdk attempts.
    let record = realrun_record().unwrap();
    let whole = show_json(&record);
    let pages = record.parent().unwrap().join("niceeval-show-json");
    let mut pages_checked = 0;
    for page in std::fs::read_dir(&pages).unwrap().flatten() {
        let v: Value = serde_json::from_slice(&std::fs::read(page.path()).unwrap()).unwrap();
        let entry = &v["data"]["observability"]["entries"][0];
        let (tokens, duration) = niceeval_figures(&entry["detail"]["usage"], &entry["detail"]["timing"]);
        let locator = &entry["attempt"]["locator"];
        let a = whole["attempts"].as_array().unwrap().iter().find(|a| &a["locator"] == locator).expect("in the Record");
        assert_eq!((&a["tokens"], &a["durationMs"]), (&tokens, &duration), "{}", page.path().display());
        pages_checked += 1;
    }
    common::report(&format!(
        "real records: {checked} attempts and {pages_checked} NiceEval pages read NiceEval's tokens ({zero_tokens} of 0) and duration ({durations_apart} apart from the timing span)"
    ));
    assert!(checked >= 40 && pages_checked >= 10 && zero_tokens > 0 && durations_apart > 0);
}
