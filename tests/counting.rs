//! NiceEval's counts on a Record (`tests/fixtures/record-counting`): eval
//! `flaky` ran attempt 1 (passed) and 2 (errored) and its third slot was
//! never dispatched; `steady` passed once and a second run carries that
//! attempt. NiceEval's figures (`runner/feedback/eval-conclusions.ts`,
//! `analysis/bindings.ts`, `report/model/metrics.ts`, its summaries):
//! the never-run slot is "1 selected slot(s) were not recorded", no
//! attempt; `flaky` reads errored from the two that ran; "Attempts" counts
//! 4 slots (the carried attempt in each run); the pass rate is 3 of 4
//! slots; tokens are 120, none (the usage collection of attempt 2 is
//! partial: its 60 is a partial sum) and 0 (complete, no token bucket);
//! durations are the `eval.run` intervals (40, 4 and 10 ms), not the whole
//! timing span with assertion evaluation (175, 178 and 14 ms).

mod common;

use common::bin;
use serde_json::Value;
use std::process::Command;

fn record() -> std::path::PathBuf {
    common::fixture("record-counting")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).arg(record()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The words of a text, wrapped lines joined.
fn words_of(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_never_run_slot_is_not_an_attempt_but_a_slot_not_recorded() {
    let doc = niceeval::load::load_path(record().display().to_string()).unwrap();
    let evals: Vec<_> = doc.attempts.iter().map(|a| (a.eval_id.as_deref(), a.attempt_number)).collect();
    assert_eq!(evals, [(Some("flaky"), Some(1)), (Some("flaky"), Some(2)), (Some("steady"), Some(1))]);
    assert!(doc.attempts.iter().all(|a| a.locator.is_some()), "no attempt without a locator");
    let [slot] = doc.slots_not_recorded.as_slice() else { panic!("{:?}", doc.slots_not_recorded) };
    assert_eq!(
        (slot.eval_id.as_deref(), slot.attempt_number, slot.action.as_deref()),
        (Some("flaky"), Some(3), Some("not-dispatched"))
    );

    let shown = json(&["show", "--json"]);
    let attempts = shown["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 3);
    assert_eq!(
        shown["slotsNotRecorded"],
        serde_json::json!([{"run": "a0000000-0000-4000-8000-00000000000a", "experiment": "main", "eval": "flaky",
            "attempt": 3, "action": "not-dispatched"}])
    );
    let notices: Vec<&str> =
        shown["notices"].as_array().unwrap().iter().filter_map(|n| n["message"].as_str()).collect();
    assert!(
        notices
            .iter()
            .any(|n| n.starts_with("1 selected slot was not recorded: flaky attempt 3 of main (not-dispatched)")),
        "{notices:?}"
    );
}

#[test]
fn compare_gives_the_eval_the_verdict_of_its_last_recorded_attempt_and_niceevals_counts() {
    let c = json(&["compare", "--json"]);
    let cell = &c["rows"].as_array().unwrap().iter().find(|r| r["eval"] == "flaky").unwrap()["cells"]["main"];
    assert_eq!((&cell["verdict"], &cell["attempts"], &cell["passed"]), (&"errored".into(), &2.into(), &1.into()));
    assert_eq!(cell["locator"], "@14DBBZWSRFDFG");
    let x = &c["experiments"][0];
    assert_eq!(x["evals"], 2);
    assert_eq!(x["decided"], 2, "both evals have a verdict");
    assert_eq!((&x["attempts"], &x["distinctAttempts"]), (&4.into(), &3.into()), "slots, as NiceEval counts");
    assert_eq!(x["passRate"], 0.75, "3 of 4 slots");
    assert_eq!(x["passRateSlots"], serde_json::json!({"passed": 3, "decided": 4, "notRecorded": 1}));
    assert_eq!(x["evalPassRate"], 0.5, "this viewer's own: 1 of 2 evals");
    assert_eq!(x["totalCostUSD"], 0.01);
    assert_eq!(x["totalCostReported"], serde_json::json!({"reporting": 1, "of": 5}));
    assert_eq!(c["slotsNotRecorded"].as_array().map(Vec::len), Some(1));

    let (code, text, _) = run(&["compare", "--width", "140"]);
    assert_eq!(code, 0);
    assert!(text.contains("! 1 selected slot was not recorded"), "{text}");
    assert!(text.lines().next().unwrap().ends_with("1 experiment · 2 evals · 1 flaky · 1 slot not recorded"), "{text}");
    assert!(words_of(&text).contains("pass rate (slots with a verdict) A 4 of 5"), "the * of the pass rate: {text}");
    assert!(text.contains("~ flaky   flaky    ! 1/2"), "{text}");
    assert!(!text.contains("1/3"), "the never-run slot is no attempt: {text}");
    let header = text.lines().find(|l| l.trim_start().starts_with("col ")).unwrap();
    for name in ["pass rate", "evals passed", "total cost", "observed", "estimated"] {
        assert!(header.contains(name), "{name}: {header}");
    }
    let row = text.lines().find(|l| l.trim_start().starts_with("A ")).unwrap();
    let cells: Vec<&str> = row.split("   ").map(str::trim).filter(|s| !s.is_empty()).collect();
    assert_eq!(&cells[2..5], ["3/4 · 75%*", "1/2 · 50%", "120*"], "{row}");
    assert!(
        words_of(&text).contains("A 4 slots for 3 attempts, 3 of 4 with a verdict passed, 1 slot not recorded"),
        "{text}"
    );
}

#[test]
fn tokens_and_duration_are_niceevals_with_this_viewers_own_beside_them() {
    let shown = json(&["show", "--json"]);
    let by = |n: u64| shown["attempts"].as_array().unwrap().iter().find(|a| a["attempt"] == n && a["eval"] == "flaky");
    let (one, two) = (by(1).unwrap(), by(2).unwrap());
    let steady = shown["attempts"].as_array().unwrap().iter().find(|a| a["eval"] == "steady").unwrap();
    assert_eq!((&one["tokens"], one.get("partialTokens")), (&120.into(), None));
    assert_eq!(two["tokens"], Value::Null);
    assert_eq!(two["tokensNoValue"], "usage collection is incomplete");
    assert_eq!(two["partialTokens"], 60);
    assert_eq!((&steady["tokens"], steady.get("partialTokens")), (&0.into(), None), "complete, no bucket: 0");
    for (a, niceeval, ours) in [(one, 40, 175), (two, 4, 178), (steady, 10, 14)] {
        assert_eq!((&a["durationMs"], &a["viewerDurationMs"]), (&niceeval.into(), &ours.into()), "{}", a["locator"]);
    }

    // The same words in show, the viewer's header line and its inspector.
    let (_, text, _) = run(&["show", "@14DBBZWSRFDFG", "--width", "200"]);
    assert!(
        text.contains("tokens      — (NiceEval has no value: usage collection is incomplete) · partial sum 60 tokens"),
        "{text}"
    );
    assert!(text.contains("duration    4ms (eval.run) · ours 178ms (the whole timing span)"), "{text}");
    let doc = niceeval::load::load_path(record().display().to_string()).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (views, _) = niceeval::analysis::build_views(&doc, None, &prices);
    let s = &views[1].summary;
    assert_eq!(s.tokens_short(), "— tokens · partial 60");
    assert_eq!(s.duration_text().as_plain(), "4ms (eval.run) · ours 178ms (the whole timing span)");
    assert_eq!(views[2].summary.tokens_short(), "0 tokens");
    let top = niceeval::view::header::top_line(&doc, 1, None, 200).as_plain();
    assert!(
        top.ends_with("4 attempts (3 listed) · pass rate 75% of 4 slots · 1 slot not recorded · 1 to review"),
        "{top}"
    );
}

#[test]
fn view_with_a_locator_opens_that_attempt_as_show_does() {
    let (code, viewed, err) = run(&["view", "@14DBBZWSRFDFG"]);
    assert_eq!(code, 0, "{err}");
    let (_, shown, _) = run(&["show", "@14DBBZWSRFDFG", "--all"]);
    assert_eq!(viewed, shown);
    assert!(viewed.starts_with("flaky · main · attempt 2"), "{viewed}");
    let (code, _, err) = run(&["view", "@1NOSUCHATTEMPT"]);
    assert_eq!(code, 2);
    assert!(err.contains("no attempt with the locator @1NOSUCHATTEMPT"), "{err}");
}

/// NiceEval's duration reads a Record's timing collection: a native log's
/// call timings have no `eval.run` interval, and are no 0 ms duration.
#[test]
fn a_native_log_has_no_eval_run_duration() {
    let out = Command::new(bin()).args(["show", "--json", "assets/demo/claude-code-session.jsonl"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = &v["attempts"][0];
    assert_eq!((&a["durationMs"], a.get("viewerDurationMs")), (&Value::Null, None), "{a:#}");
}
