//! `show --translation` and `show --json`'s provenance: each native line (a
//! log's line, a capture's converter call) beside the events it became, on
//! the shared native logs and an sdk-converters capture, and on a fixture.

mod common;

use common::{bin, fixture, shared_path};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn show(args: &[&str], file: &Path) -> (String, i32) {
    let o = Command::new(bin()).arg("show").args(args).arg(file).stdin(std::process::Stdio::null()).output().unwrap();
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.status.code().unwrap_or(-1))
}

fn translation(file: &Path) -> String {
    let (out, code) = show(&["--translation", "--plain", "--color", "never", "--width", "120"], file);
    assert_eq!(code, 0, "{out}");
    out
}

fn json(file: &Path) -> Value {
    let (out, code) = show(&["--json"], file);
    assert_eq!(code, 0, "{out}");
    serde_json::from_str(&out).expect("show --json prints JSON")
}

/// The row of native line `n` in `show --translation`'s table.
fn row(out: &str, n: u32) -> String {
    out.lines()
        .find(|l| l.trim_start().strip_prefix(&n.to_string()).is_some_and(|rest| rest.starts_with("   ")))
        .unwrap_or_else(|| panic!("no row for line {n} in:\n{out}"))
        .to_string()
}

#[test]
fn claude_code_session_lines_beside_their_events() {
    let Some(file) = shared_path("samples/handmade/raw-transcripts/claude-code-session.jsonl") else { return };
    let out = translation(&file);
    assert!(out.contains("Translation · claude-code log lines"), "{out}");
    assert!(out.contains("16 lines · 15 made 15 events · 1 dropped (user 1)"), "{out}");
    assert!(row(&out, 2).contains("user") && row(&out, 2).contains("→ 1:2"), "{}", row(&out, 2));
    assert!(row(&out, 12).contains("system compact_boundary"), "{}", row(&out, 12));
    assert!(row(&out, 15).contains("dropped: skill result"), "{}", row(&out, 15));
    let doc = json(&file);
    let a = &doc["attempts"][0];
    assert_eq!(a["translation"]["counts"]["lines"], 16);
    assert_eq!(a["translation"]["lines"][14]["dropped"]["reason"], "skill result");
    let rows = a["turns"][0]["rows"].as_array().unwrap();
    let last = rows.last().unwrap();
    assert_eq!(last["sourceLine"], 16, "the last event came from the last line: {last}");
    assert!(rows[0]["sourceLine"].is_null(), "the input row has no source line");
}

#[test]
fn codex_exec_lines_with_item_types() {
    let Some(file) = shared_path("samples/handmade/raw-transcripts/codex-exec.jsonl") else { return };
    let out = translation(&file);
    assert!(out.contains("12 lines · 9 made 12 events · 3 dropped"), "{out}");
    assert!(row(&out, 1).contains("dropped: metadata"), "{}", row(&out, 1));
    assert!(row(&out, 8).contains("→ 1:6 1:7"), "two events from one file_change line: {}", row(&out, 8));
    let lines = &json(&file)["attempts"][0]["translation"]["lines"];
    assert_eq!(lines[3]["kind"], "item.started command_execution");
    assert_eq!(lines[7]["kind"], "item.completed file_change");
    assert_eq!(lines[11]["dropped"]["reason"], "usage/state only");
    let bytes = &lines[0]["bytes"];
    let text = std::fs::read(&file).unwrap();
    let (a, b) = (bytes[0].as_u64().unwrap() as usize, bytes[1].as_u64().unwrap() as usize);
    assert!(text[a..b].starts_with(b"{\"type\":\"thread.started\""), "byte range points at line 1");
    assert_eq!(json(&file)["attempts"][0]["translation"]["bytesIn"], "file");
}

#[test]
fn sdk_converter_capture_calls_are_native_lines() {
    let Some(file) = shared_path("samples/niceeval/sdk-converters/captures/claude-sdk-stream.capture.json") else {
        return;
    };
    let out = translation(&file);
    assert!(out.contains("Translation · recorded converter calls"), "{out}");
    assert!(out.contains("6 calls · 3 made 9 events · 3 dropped"), "{out}");
    assert!(row(&out, 2).contains("add assistant") && row(&out, 2).contains("→ 1:1 1:2 1:3 1:4 1:5"));
    assert!(row(&out, 4).contains("markRejected") && row(&out, 4).contains("dropped: returned nothing"));
    let doc = json(&file);
    let rows = doc["attempts"][0]["turns"][0]["rows"].as_array().unwrap();
    assert!(rows.iter().skip(1).all(|r| r["sourceLine"].is_u64()), "every event row names its call: {rows:?}");
}

#[test]
fn every_capture_with_calls_translates_all_its_events() {
    let Some(dir) = shared_path("samples/niceeval/sdk-converters/captures") else { return };
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().path();
        let doc = json(&file);
        let a = &doc["attempts"][0];
        let t = &a["translation"];
        assert!(t.is_object(), "{}: no translation", file.display());
        let events: u64 = a["turns"].as_array().unwrap().iter().map(|t| t["events"].as_u64().unwrap()).sum();
        assert_eq!(t["counts"]["events"].as_u64(), Some(events), "{}", file.display());
        assert_eq!(t["mismatches"], serde_json::json!([]), "{}: calls and turns agree", file.display());
    }
}

#[test]
fn fixture_names_dropped_lines_and_a_file_without_lines_says_so() {
    let out = translation(&fixture("translation-small.jsonl"));
    assert!(out.contains("7 lines · "), "{out}");
    assert!(row(&out, 6).contains("dropped: not JSON"), "{}", row(&out, 6));
    assert!(row(&out, 2).contains("system init") && row(&out, 2).contains("dropped: metadata"));
    let (plain, _) = show(&["--translation", "--plain", "--color", "never"], &fixture("translation-none.json"));
    assert!(plain.contains("no native lines"), "{plain}");
    assert!(json(&fixture("translation-none.json"))["attempts"][0]["translation"].is_null());
}

#[test]
fn a_log_with_invalid_utf8_says_its_ranges_are_into_the_repaired_text() {
    let t = &json(&fixture("transcripts/claude-invalid-utf8.jsonl"))["attempts"][0]["translation"];
    assert_eq!(t["bytesIn"], "repairedText", "{t}");
    assert_eq!(t["counts"]["lines"], 2);
}
