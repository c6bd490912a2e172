//! An errored attempt says why, on every surface, from what the input
//! holds (issue 38 items 2 and 4): the execution error of `deliberate-error`
//! (realrun-report Record), the undecided required assertion of
//! `realrun/hitl-wrong` (realrun-sdk Record), and "no reason recorded" where
//! the input holds neither. Errored is not failed in `show --failures`, the
//! Timing tab marks the interval of the error's phase, and `e` goes to the
//! reason. Skipped when ../shared is absent.

mod common;

use common::shared_path;
use niceeval::app::{App, Focus, Intent, Panel, update};
use niceeval::view::inspect::Selected;
use serde_json::Value;
use std::path::Path;

const DELIBERATE_ERROR: &str = "@1TG23FZ5BJDB0";
const HITL_WRONG: &str = "@10VFJB7ST8TSM";

fn report_record() -> Option<std::path::PathBuf> {
    shared_path("samples/niceeval/realrun-report/record")
}

fn sdk_record() -> Option<std::path::PathBuf> {
    shared_path("samples/niceeval/realrun-sdk/record")
}

fn show(path: &Path, args: &[&str]) -> String {
    common::show_wide(path, args)
}

fn show_json(path: &Path, locator: &str, extra: &[&str]) -> Value {
    let mut args = vec![locator, "--json"];
    args.extend_from_slice(extra);
    let v: Value = serde_json::from_str(&show(path, &args)).expect("show --json is JSON");
    v["attempts"][0].clone()
}

#[test]
fn the_header_says_the_execution_error_an_errored_attempt_records() {
    let Some(record) = report_record() else { return };
    let text = show(&record, &[DELIBERATE_ERROR]);
    assert!(
        text.contains("  why         error in eval.run (unexpected-error): deliberate error for report fixture\n"),
        "{text}"
    );
    let a = show_json(&record, DELIBERATE_ERROR, &[]);
    assert_eq!(a["verdict"], "errored");
    let why = &a["erroredBecause"];
    assert_eq!(why["cause"], "execution-error", "{why}");
    assert_eq!(why["phase"], "eval.run");
    assert_eq!(why["code"], "unexpected-error");
    assert_eq!(why["text"], "error in eval.run (unexpected-error): deliberate error for report fixture");
}

#[test]
fn an_errored_attempt_without_an_error_says_what_the_record_holds() {
    let Some(record) = sdk_record() else { return };
    // `error: null`: the Record holds no execution error, but a required
    // assertion NiceEval could not decide, which makes the fold errored.
    let a = show_json(&record, HITL_WRONG, &[]);
    assert_eq!(a["verdict"], "errored");
    assert_eq!(a["error"], Value::Null);
    let why = &a["erroredBecause"];
    assert_eq!(why["cause"], "required-assertion-undecided", "{why}");
    assert_eq!(why["assertion"], "ae_8f84fc3578fcaa3d8748");
    assert_eq!(why["outcome"], "unavailable");
    assert_eq!(why["reason"], "evidence-unavailable");
    let text = show(&record, &[HITL_WRONG]);
    assert!(
        text.contains(
            "  why         required assertion unavailable: approve_change completed in rejected session (wrong on purpose)"
        ),
        "{text}"
    );
    let failures = show(&record, &[HITL_WRONG, "--failures"]);
    assert!(failures.contains("\n  required assertion unavailable: approve_change completed"), "{failures}");
}

#[test]
fn an_errored_attempt_whose_input_holds_no_reason_says_so() {
    let Some(summary) = shared_path("samples/niceeval/generated/invocation-summary/summary-kitchen.json") else {
        return;
    };
    let a = show_json(&summary, "@1685J7YTJCETQ", &[]);
    assert_eq!(a["verdict"], "errored");
    let why = &a["erroredBecause"];
    assert_eq!(why["cause"], "not-recorded", "{why}");
    assert!(why["text"].as_str().is_some_and(|t| t.starts_with("no reason recorded: ")), "{why}");
    let text = show(&summary, &["@1685J7YTJCETQ"]);
    assert!(text.contains("  why         no reason recorded: the verdict errored is stated"), "{text}");
    // An attempt that did not error has none.
    let Some(record) = report_record() else { return };
    let passed = show(&record, &["--json"]);
    let v: Value = serde_json::from_str(&passed).unwrap();
    for a in v["attempts"].as_array().unwrap() {
        assert_eq!(a["erroredBecause"].is_null(), a["verdict"] != "errored", "{}", a["locator"]);
    }
}

#[test]
fn failures_word_an_errored_attempt_as_errored_not_failed() {
    let Some(record) = report_record() else { return };
    let text = show(&record, &["--failures"]);
    assert!(text.contains("ERRORED deliberate-error · main · attempt 1"), "{text}");
    assert!(!text.contains("FAILED deliberate-error"), "{text}");
    // A failed one is still FAILED.
    assert!(text.contains("FAILED deliberate-fail · main · attempt 1"), "{text}");
}

#[test]
fn the_timing_tab_marks_the_interval_of_the_errors_phase() {
    let Some(record) = report_record() else { return };
    let text = show(&record, &[DELIBERATE_ERROR, "--timing"]);
    assert!(text.contains("3 nodes · ! 1 errored"), "{text}");
    assert!(text.contains("    ! eval.run "), "{text}");
    let a = show_json(&record, DELIBERATE_ERROR, &["--timing"]);
    let timing = a["timing"].as_array().expect("timing list");
    let run = timing.iter().find(|n| n["phase"] == "eval.run").expect("eval.run");
    // The interval says completed; the error recorded in its phase is beside it.
    assert_eq!(run["outcome"], "completed");
    assert_eq!(run["executionError"]["code"], "unexpected-error", "{run}");
    for other in timing.iter().filter(|n| n["phase"] != "eval.run") {
        assert_eq!(other["executionError"], Value::Null, "{other}");
    }
}

/// The viewer on `path`, showing the attempt of `eval`. The path is
/// loaded relative to the crate root (cargo's test cwd), so the snapshots
/// do not depend on the checkout folder.
fn viewer_on(path: &Path, eval: &str) -> App {
    let shared = common::shared_dir().expect("shared");
    let relative = Path::new("../shared").join(path.strip_prefix(&shared).expect("under ../shared"));
    let doc = niceeval::load::load_path(&relative).expect("loads");
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 140, height: 40 });
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    for _ in 0..app.nav().len() {
        if app.attempt().and_then(|a| a.eval_id.as_deref()) == Some(eval) {
            break;
        }
        update(&mut app, Intent::Down);
    }
    assert_eq!(app.attempt().and_then(|a| a.eval_id.as_deref()), Some(eval));
    app
}

fn screen(app: &mut App) -> String {
    let (w, h) = (140, 40);
    common::mono_screen(app, w, h)
}

#[test]
fn e_goes_to_the_execution_error_of_an_errored_attempt() {
    let Some(record) = report_record() else { return };
    let mut app = viewer_on(&record, "deliberate-error");
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    update(&mut app, Intent::NextFailure);
    assert_eq!(app.tab(), Panel::Diagnostics);
    assert_eq!(app.focus(), Focus::List);
    assert_eq!(app.selected(), Some(Selected::Diagnostic(0)));
    let flash = app.flash_text().unwrap_or_default();
    assert_eq!(
        flash,
        "errored: error in eval.run (unexpected-error): deliberate error for report fixture (Diagnostics)"
    );
    insta::assert_snapshot!("errored_e_jumps_to_the_execution_error", screen(&mut app));
    // From the Timeline list too (`e` there moves among failing rows first: there are none).
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    update(&mut app, Intent::NextFailure);
    assert_eq!(app.selected(), Some(Selected::Diagnostic(0)));
}

#[test]
fn e_goes_to_the_undecided_assertion_when_no_error_is_recorded() {
    let Some(record) = sdk_record() else { return };
    let mut app = viewer_on(&record, "realrun/hitl-wrong");
    update(&mut app, Intent::ShowTab(Panel::Timing));
    update(&mut app, Intent::NextFailure);
    assert_eq!(app.tab(), Panel::Assertions);
    let Some(Selected::Assertion(i)) = app.selected() else { panic!("selected {:?}", app.selected()) };
    let entry = app.attempt().unwrap().review.assertions.as_ref().unwrap()[i].entry_id.clone();
    assert_eq!(entry.as_deref(), Some("ae_8f84fc3578fcaa3d8748"));
}

#[test]
fn the_header_and_inspector_say_why_and_timing_agrees() {
    let Some(record) = report_record() else { return };
    let mut app = viewer_on(&record, "deliberate-error");
    let attempt = screen(&mut app);
    assert!(
        attempt.contains("! errored │ error in eval.run (unexpected-error): deliberate error for report fixture"),
        "{attempt}"
    );
    assert!(attempt.contains("│why         error in eval.run (unexpected-error):"), "{attempt}");
    update(&mut app, Intent::ShowTab(Panel::Timing));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
    insta::assert_snapshot!("errored_timing_tab_marks_eval_run", screen(&mut app));
}

/// The demo (a capture with failing rows), made errored: with `error`, an
/// execution error is recorded; without, nothing says why.
fn errored_demo(error: bool) -> App {
    let mut doc = niceeval::load::load_path("assets/demo/session.json").expect("demo loads");
    let a = &mut doc.attempts[0];
    a.verdict = Some(niceeval::model::verdict::Verdict::Errored);
    a.outcome = Some("errored".into());
    if error {
        a.review.diagnostics.push(niceeval::model::document::Diagnostic {
            kind: "execution-error".into(),
            code: "unexpected-error".into(),
            phase: Some("eval.run".into()),
            message: "boom".into(),
            causes: vec![],
        });
    }
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 140, height: 40 });
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    app
}

/// Where each of `n` presses of `e` lands: a timeline row, or another tab.
fn e_presses(app: &mut App, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            update(app, Intent::NextFailure);
            match app.selected() {
                Some(Selected::Row(r)) if app.tab() == Panel::Timeline => format!("row {r}"),
                other => format!("{:?} {other:?}", app.tab()),
            }
        })
        .collect()
}

#[test]
fn e_cycles_the_failing_rows_then_the_error_then_the_rows_again() {
    let mut app = errored_demo(true);
    let seen = e_presses(&mut app, 12);
    let at_error = seen.iter().position(|s| s == "Diagnostics Some(Diagnostic(0))").expect("e reaches the error");
    assert!(at_error > 0 && seen[..at_error].iter().all(|s| s.starts_with("row ")), "rows first: {seen:?}");
    assert_eq!(seen[at_error + 1], seen[0], "after the error, the first failing row again: {seen:?}");
    // Nothing recorded: `e` keeps cycling the rows, never stuck on a reason with nowhere to go.
    let mut app = errored_demo(false);
    let seen = e_presses(&mut app, 12);
    assert!(seen.iter().all(|s| s.starts_with("row ")), "{seen:?}");
    assert!(seen[1..].contains(&seen[0]), "e wraps around to the first failing row: {seen:?}");
}
