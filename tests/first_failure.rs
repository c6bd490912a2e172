//! Where it began (issue 36): every failed or errored attempt of the shared
//! Records opens `show --failures` with its earliest failed step and the
//! chain to its failing assertions, and `show --json` carries the same as
//! `firstFailure`; a passed attempt has none.

mod common;

use serde_json::Value;

/// `show` wide enough that no line wraps.
fn show(path: &std::path::Path, args: &[&str]) -> String {
    common::show_at(path, args, 400)
}

const RECORDS: [&str; 5] = [
    "samples/niceeval/generated/record-e2e-cli/record",
    "samples/niceeval/generated/record-e2e-eval/record",
    "samples/niceeval/generated/record-kitchen/record",
    "samples/niceeval/realrun-report/record",
    "samples/niceeval/realrun-sdk/record",
];

#[test]
fn every_failed_or_errored_attempt_opens_failures_with_where_it_began() {
    let Some(shared) = common::shared_dir() else { return };
    let mut checked = 0;
    for record in RECORDS {
        let record = shared.join(record);
        let doc: Value = serde_json::from_str(&show(&record, &["--json"])).unwrap();
        for a in doc["attempts"].as_array().unwrap() {
            let locator = a["locator"].as_str().unwrap();
            let ff = &a["firstFailure"];
            if !a["toReview"].as_bool().unwrap() {
                assert!(ff.is_null(), "{locator} is not one to review and has a first failure: {ff}");
                continue;
            }
            assert!(ff.is_object(), "{locator} ({}) has no first failure", a["verdict"]);
            let kind = ff["kind"].as_str().unwrap();
            assert!(
                ["command", "tool", "denied", "provider-error", "turn", "execution-error", "assertion"].contains(&kind),
                "{kind}"
            );
            let text = show(&record, &[locator, "--failures"]);
            let began = text.split("Where it began").nth(1).unwrap_or_else(|| panic!("{locator}: {text}"));
            let head = began.lines().next().unwrap();
            assert!(head.trim_end().ends_with(kind), "the meta names the kind: {head}");
            let first = began.lines().nth(1).unwrap().trim();
            let summary = ff["summary"].as_str().unwrap();
            let expected = match ff["at"].as_str() {
                Some(at) => format!("{at}  {summary}"),
                None => summary.to_string(),
            };
            assert_eq!(first, expected, "{locator}: --failures and --json say the first step differently");
            for (i, link) in ff["chain"].as_array().unwrap().iter().enumerate() {
                let line = began.lines().nth(2 + i).unwrap().trim();
                assert!(line.starts_with("→ ") && line.ends_with(link["summary"].as_str().unwrap()), "{line} / {link}");
            }
            // It comes before the failing assertions' own sections.
            let verdict_at = text.find("  verdict").unwrap();
            assert!(text.find("Where it began").unwrap() > verdict_at);
            checked += 1;
        }
    }
    common::report(&format!("first failures checked: {checked}"));
    assert!(checked >= 20, "{checked}");
}

#[test]
fn the_earliest_step_is_the_one_named() {
    let Some(shared) = common::shared_dir() else { return };
    let first = |record: &str, locator: &str| -> Value {
        let doc: Value = serde_json::from_str(&show(&shared.join(record), &[locator, "--json"])).unwrap();
        doc["attempts"][0]["firstFailure"].clone()
    };
    let at_kind = |v: &Value| (v["at"].as_str().map(str::to_string), v["kind"].as_str().unwrap().to_string());
    // A failed vitest run in turn 2, before the failed turn 4: the tool, not the turn.
    let coding = first(RECORDS[2], "@1H5T13YM0H4DW");
    assert_eq!(at_kind(&coding), (Some("2:4".into()), "tool".into()));
    assert!(coding["summary"].as_str().unwrap().contains("pnpm exec vitest run"), "{coding}");
    // A denied call (the user said no).
    assert_eq!(at_kind(&first(RECORDS[2], "@10G3VFDSDX7AY")), (Some("3:2".into()), "denied".into()));
    // The provider's terminal error, then the failed turn, then the scope assertion.
    let broken = first(RECORDS[0], "@1EPKKSFC052VY");
    assert_eq!(at_kind(&broken), (Some("1:1".into()), "provider-error".into()));
    let chain: Vec<&str> = broken["chain"].as_array().unwrap().iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(chain, ["turn", "assertion"]);
    // An errored attempt whose execution error is all there is.
    let errored = first(RECORDS[3], "@1TG23FZ5BJDB0");
    assert_eq!(at_kind(&errored), (Some("eval.run".into()), "execution-error".into()));
    assert!(errored["summary"].as_str().unwrap().contains("deliberate error for report fixture"));
}
