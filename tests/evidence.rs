//! Where an assertion's evidence leads, in `show --failures` and its JSON:
//! a call the Record dropped is said to be not in the recorded
//! conversation (not an approximate input row), a scope-status failure
//! points at the turn it judged, and a truncated matcher diagnostic is
//! said once per assertion. Skipped when ../shared is absent.

mod common;

use common::{run_plain, shared_path};
use serde_json::Value;

fn show(args: &[&str]) -> String {
    let (_, out, err) = run_plain(args);
    assert!(err.is_empty() || !err.contains("panicked"), "{err}");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn a_call_the_record_dropped_is_not_in_the_recorded_conversation() {
    let Some(record) = shared_path("samples/niceeval/generated/record-kitchen/record") else { return };
    let record = record.to_str().unwrap();
    let text = show(&["show", record, "@1685J7YTJCETQ", "--failures", "--width", "200"]);
    assert!(
        text.contains(r#""turn-2",2,6] → 2:6 is not in the recorded conversation (turn 2 holds 2:1 to 2:4)"#),
        "{text}"
    );
    assert!(!text.contains("approximate"), "the turn was found exactly; only its event is missing:\n{text}");
    let rows = &text[text.find("Evidence rows").expect("evidence rows")..];
    assert!(!rows.contains("2:0 "), "no input row stands for the dropped call:\n{rows}");
    let json: Value = serde_json::from_str(&show(&["show", record, "@1685J7YTJCETQ", "--failures", "--json"])).unwrap();
    let links: Vec<&Value> = json["attempts"][0]["assertions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["evidence"].as_array().unwrap())
        .filter(|l| l["id"].as_str().is_some_and(|id| id.ends_with("2,6]")))
        .collect();
    assert!(!links.is_empty(), "{json}");
    for l in links {
        assert_eq!(l["at"], "2:6", "{l}");
        assert_eq!(l["inTranscript"], false, "{l}");
    }
}

#[test]
fn a_scope_status_failure_points_at_the_turn_it_judged() {
    let Some(record) = shared_path("samples/niceeval/generated/record-e2e-cli/record") else { return };
    let text = show(&["show", record.to_str().unwrap(), "@1EPKKSFC052VY", "--failures", "--width", "160"]);
    assert!(text.contains("the scope this status check judged → row turn 1"), "{text}");
    let rows = &text[text.find("Evidence rows").expect("evidence rows for the scope-status failure")..];
    assert!(rows.contains("turn 1") && rows.contains("✗ failed"), "{rows}");
}

#[test]
fn a_truncated_matcher_diagnostic_is_said_once_per_assertion() {
    let Some(record) = shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let text = show(&["show", record.to_str().unwrap(), "--failures", "--width", "160"]);
    // Each assertion's detail has one Explanation section; the message is said in it at most once.
    for (i, explanation) in text.split("Explanation").skip(1).enumerate() {
        let said = explanation.matches("matcher diagnostic exceeded the persisted depth limit").count();
        assert!(said <= 1, "explanation {i} says it {said} times:\n{explanation}");
    }
    assert!(text.contains("(diagnostic-truncated, as above)"), "later cuts are still marked:\n{text}");
}
