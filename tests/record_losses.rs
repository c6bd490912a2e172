//! What a Record's conversation does not keep is "not recorded", never
//! absent or zero (issue 38.5): a tool finish NiceEval dropped because it
//! had no output, an input request's id and options (only its prompt is
//! kept), and the events of a turn past the conversation's item cap.
//! Skipped when ../shared is absent.

mod common;

use common::shared_path;
use serde_json::Value;
use std::path::Path;

const HITL_WRONG: &str = "@10VFJB7ST8TSM";
const DELIBERATE_ERROR: &str = "@1TG23FZ5BJDB0";

fn show(path: &Path, args: &[&str]) -> String {
    common::show_wide(path, args)
}

fn attempt_json(path: &Path, locator: &str) -> Value {
    let v: Value = serde_json::from_str(&show(path, &[locator, "--json"])).expect("JSON");
    v["attempts"][0].clone()
}

#[test]
fn a_finish_the_record_dropped_is_not_recorded_not_never_finished() {
    let Some(record) = shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let tools = show(&record, &[HITL_WRONG, "--tools"]);
    assert!(
        tools.contains(
            "status      ? finish not recorded — a Record drops a tool finish that has no output: whether and how it finished is unknown"
        ),
        "{tools}"
    );
    assert!(tools.contains("finished    — (not recorded)"), "{tools}");
    assert!(!tools.contains("never finished"), "{tools}");
    let timeline = show(&record, &[HITL_WRONG]);
    let row = timeline.lines().find(|l| l.trim_start().starts_with("3:2 ")).expect("the start row");
    assert!(row.ends_with("? finish not recorded"), "{row}");
    let hitl = show(&record, &[HITL_WRONG, "--hitl"]);
    assert!(hitl.contains("started at 3:2 → ? finish not recorded"), "{hitl}");
    let a = attempt_json(&record, HITL_WRONG);
    let statuses: Vec<&str> = a["tools"].as_array().unwrap().iter().map(|t| t["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["completed", "finish-not-recorded"]);
}

#[test]
fn an_input_requests_id_and_options_are_not_recorded_in_a_record() {
    let Some(record) = shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let hitl = show(&record, &[HITL_WRONG, "--hitl"]);
    assert!(hitl.contains("id        — not recorded (a Record keeps only an input request's prompt)"), "{hitl}");
    assert!(hitl.contains("options   — not recorded (a Record keeps only an input request's prompt)"), "{hitl}");
    assert!(hitl.contains("turn 1 (id not recorded)"), "{hitl}");
    for absent in ["(free text)", "(no stable id)", "(no id)"] {
        assert!(!hitl.contains(absent), "{absent}: {hitl}");
    }
    let a = attempt_json(&record, HITL_WRONG);
    for r in a["requests"].as_array().unwrap() {
        assert_eq!(r["options"], Value::Null, "not recorded, not an empty list: {r}");
        assert_eq!(r["id"], Value::Null);
    }
}

/// A copy of the realrun-report Record whose `deliberate-error` attempt has
/// a second turn with no item; `capped` adds the conversation's
/// `collection-cap-reached` limitation, as NiceEval writes it.
fn record_with_an_empty_second_turn(capped: bool) -> std::path::PathBuf {
    let from = shared_path("samples/niceeval/realrun-report/record").expect("shared");
    let dir = std::env::temp_dir().join(format!("niceeval-item-cap-{capped}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_dir(&from, &dir);
    let payload = dir.join(
        "runs/effb8ab0-a19e-4bf6-b2d7-33ac28103abd/attempts/221c5a06-6af5-469b-8ddf-f1aa2b16b68e/attachments/niceeval.observability/payload.json",
    );
    let mut v: Value = serde_json::from_slice(&std::fs::read(&payload).unwrap()).unwrap();
    let conv = &mut v["conversation-data"];
    conv["turns"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"outcome": "completed", "sequence": 2, "turnId": "turn_cut"}));
    if capped {
        conv["collection"] = serde_json::json!({"state": "partial", "limitations": [
            {"code": "collection-cap-reached", "target": "conversation", "retained": 4, "omittedAtLeast": 3}
        ]});
    }
    std::fs::write(&payload, serde_json::to_vec(&v).unwrap()).unwrap();
    dir
}

#[test]
fn a_turn_past_the_item_cap_says_its_events_were_not_recorded() {
    if shared_path("samples/niceeval/realrun-report/record").is_none() {
        return;
    }
    let capped = record_with_an_empty_second_turn(true);
    let text = show(&capped, &[DELIBERATE_ERROR]);
    assert!(text.contains("events are partial: collection-cap-reached"), "the cap notice: {text}");
    let header = text.lines().find(|l| l.trim_start().starts_with("turn 2 ")).expect("turn 2 header");
    assert!(header.contains("✓ completed · events not recorded (past the Record's item cap)"), "{header}");
    assert!(!header.contains("0 events"), "{header}");
    assert!(text.contains("Its events were not recorded: the Record keeps no item past its item cap."), "{text}");
    assert!(!text.contains("No events captured"), "{text}");
    let a = attempt_json(&capped, DELIBERATE_ERROR);
    let turns = a["turns"].as_array().unwrap();
    assert_eq!(turns[0]["events"], 3, "the turn before the cap keeps its count");
    assert_eq!(turns[1]["events"], Value::Null, "{}", turns[1]);
    assert_eq!(turns[1]["toolCalls"], Value::Null, "{}", turns[1]);
    let _ = std::fs::remove_dir_all(&capped);

    // Without the cap, an empty turn is an empty turn: 0 events.
    let uncapped = record_with_an_empty_second_turn(false);
    let text = show(&uncapped, &[DELIBERATE_ERROR]);
    let header = text.lines().find(|l| l.trim_start().starts_with("turn 2 ")).expect("turn 2 header");
    assert!(header.contains("0 events · 0 tool calls"), "{header}");
    let _ = std::fs::remove_dir_all(&uncapped);
}
