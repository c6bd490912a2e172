//! The fix prompt, against the official composition rules
//! (official-viewer §1.11): when there is one, how it is worded for a
//! failure and for lost points, the first failing assertion in recorded
//! order with the count of the others, and the same text in `show
//! --fix-prompt`, `show --json` and the viewer's `y`.

mod common;

use niceeval::model::document::{Assertion, Attempt, Document};
use niceeval::model::usage::builtin_prices;
use niceeval::model::verdict::Verdict;
use niceeval::view::fix_prompt::compose;
use serde_json::{Value, json};

fn assertion(label: &str, result: &str, gate: &str, contribution: Option<Value>) -> Assertion {
    Assertion {
        label: label.into(),
        result: Some(result.into()),
        gate: Some(gate.into()),
        requirement: Some("required".into()),
        contribution,
        ..Default::default()
    }
}

fn prompt(verdict: Option<Verdict>, assertions: Vec<Assertion>) -> Result<String, &'static str> {
    let mut attempt = Attempt {
        eval_id: Some("export/keeps-last-row".into()),
        experiment_id: Some("csv-export".into()),
        locator: Some("@1CS47DRTHZA4K".into()),
        verdict,
        outcome: Some("completed".into()),
        ..Default::default()
    };
    attempt.review.assertions = Some(assertions);
    let doc = Document { attempts: vec![attempt], ..Default::default() };
    let (views, _) = niceeval::analysis::build_views(&doc, None, &builtin_prices());
    compose(&doc.attempts[0], &views[0].summary)
}

fn earned(earned: f64, points: f64) -> Option<Value> {
    Some(json!({"state": "earned", "earned": earned, "points": points}))
}

#[test]
fn a_failed_attempt_names_its_first_failing_assertion_in_recorded_order() {
    let p = prompt(
        Some(Verdict::Failed),
        vec![
            assertion("turn succeeded", "matched", "satisfied", None),
            assertion("structured result", "mismatched", "failed", None),
            assertion("judge", "unavailable", "not-gate", None),
            assertion("two shell calls", "errored", "failed", None),
            assertion("optional reply", "mismatched", "not-gate", None),
        ],
    )
    .unwrap();
    insta::assert_snapshot!("failed_pass_eval", p);
    assert!(p.starts_with("Fix the failing eval from this niceeval run.\n\n## Failure\n"));
    assert!(p.contains("\neval \"export/keeps-last-row\" [experiment csv-export] — failed\n"));
    // Unavailable is not a failure; mismatched and errored are, gate or not.
    assert!(p.contains("\n  reason: structured result (+2 more failures)\n"));
    assert!(p.contains("\n  inspect: niceeval show @1CS47DRTHZA4K\n"));
    assert!(p.contains("`npx niceeval exp csv-export export/keeps-last-row`"));
    assert_eq!(p.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).count(), 5, "five steps");
}

#[test]
fn one_failure_has_no_count_and_an_errored_attempt_says_errored() {
    let p = prompt(Some(Verdict::Errored), vec![assertion("exit code", "errored", "unavailable", None)]).unwrap();
    assert!(p.contains("— errored\n  reason: exit code\n"), "{p}");
}

#[test]
fn a_passed_points_eval_that_lost_points_asks_to_recover_them() {
    let p = prompt(
        Some(Verdict::Passed),
        vec![
            assertion("full", "matched", "not-gate", earned(1.0, 1.0)),
            assertion("half", "mismatched", "not-gate", earned(0.5, 1.0)),
            assertion("none", "mismatched", "not-gate", earned(0.0, 2.0)),
        ],
    )
    .unwrap();
    insta::assert_snapshot!("lost_points", p);
    assert!(p.starts_with("Recover the lost points on this NiceEval points eval.\n\n## Lost points\n"));
    assert!(p.contains("— passed\n  reason: half: 0.5/1 (+1 more lost points)\n"), "{p}");
}

#[test]
fn no_prompt_when_nothing_is_to_fix() {
    let failing = || vec![assertion("x", "mismatched", "failed", None)];
    assert_eq!(prompt(Some(Verdict::Passed), vec![assertion("x", "matched", "satisfied", None)]), Err("it passed"));
    assert_eq!(prompt(Some(Verdict::Skipped), failing()), Err("it was skipped"));
    assert_eq!(prompt(None, failing()), Err("its verdict is unknown"));
    assert_eq!(prompt(Some(Verdict::Unavailable), failing()), Err("its verdict is unknown"));
    assert_eq!(
        prompt(Some(Verdict::Errored), vec![assertion("x", "matched", "satisfied", None)]),
        Err("no assertion failed")
    );
    let full = vec![assertion("x", "matched", "not-gate", earned(2.0, 2.0))];
    assert_eq!(prompt(Some(Verdict::Passed), full), Err("every score point was earned"));
}

#[test]
fn show_fix_prompt_prints_it_as_is_and_says_why_an_attempt_has_none() {
    let out = std::process::Command::new(common::bin())
        .args(["show", "assets/demo/record", "--fix-prompt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("demo_record_fix_prompt", stdout);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("no fix prompt for @") && stderr.contains(": it passed"), "{stderr}");
    // An attempt with none: nothing on stdout, exit 1.
    let out = std::process::Command::new(common::bin())
        .args(["show", "assets/demo/session.json", "--fix-prompt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_prompt_of_a_real_record_is_the_same_in_show_json_and_the_viewer() {
    let Some(shared) = common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/generated/record-kitchen/record");
    let out = std::process::Command::new(common::bin())
        .args(["show", &record.display().to_string(), "@1H5T13YM0H4DW", "--fix-prompt"])
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("kitchen_coding_fix_prompt", printed);
    // The first failing entry in the Record's own order names the reason.
    let doc = niceeval::load::load_path(&record).unwrap();
    let a = doc.attempts.iter().find(|a| a.locator.as_deref() == Some("@1H5T13YM0H4DW")).unwrap();
    let first = a
        .review
        .assertions
        .as_ref()
        .unwrap()
        .iter()
        .find(|x| matches!(x.result.as_deref(), Some("mismatched" | "errored")));
    assert!(printed.contains(&format!("  reason: {} ", first.unwrap().label)), "{printed}");
}

/// NiceEval names an unlabelled assertion by its entry id; the reason line
/// says what its matcher said beside the id, never the bare id alone.
#[test]
fn an_unlabelled_failure_gives_its_reason_beside_its_entry_id() {
    let Some(shared) = common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-report/record");
    let out = std::process::Command::new(common::bin())
        .args(["show", &record.display().to_string(), "--fix-prompt"])
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    let reasons: Vec<&str> = printed.lines().filter_map(|l| l.strip_prefix("  reason: ")).collect();
    let by_id: Vec<&&str> = reasons.iter().filter(|r| r.starts_with("ae_")).collect();
    assert!(!by_id.is_empty(), "the Record has unlabelled failures: {printed}");
    for r in by_id {
        let (id, why) = r.split_once(" — ").unwrap_or((r, ""));
        assert!(!id.contains(' ') && !why.trim().is_empty(), "a bare entry id as the reason: {r}");
    }
}

/// A Record whose experiment id is a shell command: the prompt's commands
/// quote it, so a shell given the re-run line runs nothing but `npx`'s words.
#[test]
fn ids_in_the_prompts_commands_are_quoted_for_a_shell() {
    let hostile = "csv; touch pwned #";
    let tmp = std::env::temp_dir().join(format!("niceeval-fixprompt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    common::copy_dir(std::path::Path::new("assets/demo/record"), &tmp.join("record"));
    let run = tmp.join("record/runs/5d1a2c3e-7f40-4b1a-9c2d-0e6f8a9b1c2d/run.json");
    let text =
        std::fs::read_to_string(&run).unwrap().replace("\"csv-export\"", &serde_json::to_string(hostile).unwrap());
    std::fs::write(&run, text).unwrap();
    let out = std::process::Command::new(common::bin())
        .args(["show", "--fix-prompt"])
        .arg(tmp.join("record"))
        .output()
        .unwrap();
    let prompt = String::from_utf8(out.stdout).unwrap();
    let line = prompt.lines().find(|l| l.starts_with("4. Re-run it:")).expect("the re-run step");
    let command = line.split('`').nth(1).unwrap();
    assert_eq!(command, "npx niceeval exp 'csv; touch pwned #' export/keeps-last-row", "{prompt}");
    // The command's words as a shell splits them, with `npx` replaced by a printer.
    let printed = std::process::Command::new("sh")
        .arg("-c")
        .arg(command.replacen("npx", "printf '%s\\n'", 1))
        .current_dir(&tmp)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(printed.stdout).unwrap(),
        format!("niceeval\nexp\n{hostile}\nexport/keeps-last-row\n")
    );
    assert!(!tmp.join("pwned").exists(), "the id ran as a command");
    let _ = std::fs::remove_dir_all(&tmp);
}
