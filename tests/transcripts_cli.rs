//! Native agent logs (Claude Code session log and stream-json, `codex exec
//! --json`) through every command: `convert`, `view` (off a terminal),
//! `show`, `show --json`, `check` and `derive`, over the shared samples
//! (when ../shared exists) and the fixtures in tests/fixtures/transcripts.

mod common;

use common::{bin, fixture, json_diff, shared_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str], file: &Path) -> Output {
    Command::new(bin()).args(args).arg(file).stdin(std::process::Stdio::null()).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// The three raw-transcript samples with NiceEval's parse beside each.
fn samples() -> Option<Vec<(PathBuf, Value)>> {
    let Some(shared) = shared_dir() else {
        if std::env::var("NICEEVAL_REQUIRE_SHARED").as_deref() == Ok("1") {
            panic!("NICEEVAL_REQUIRE_SHARED=1 but ../shared (samples/handmade/raw-transcripts) is missing");
        }
        common::report("transcripts_cli: samples skipped (../shared not found)");
        return None;
    };
    let dir = shared.join("samples/handmade/raw-transcripts");
    let names = ["claude-code-session", "claude-code-stream", "codex-exec"];
    Some(
        names
            .iter()
            .map(|n| {
                let parsed = std::fs::read(dir.join(format!("{n}.parsed.json"))).expect("the sample's parse");
                (dir.join(format!("{n}.jsonl")), serde_json::from_slice(&parsed).unwrap())
            })
            .collect(),
    )
}

#[test]
fn samples_convert_to_niceevals_parse_and_every_command_opens_them() {
    let Some(samples) = samples() else { return };
    for (path, expected) in samples {
        let name = path.display().to_string();
        let converted = json(&run(&["convert", "--json"], &path));
        let mut parse = converted.as_object().unwrap().clone();
        assert_eq!(parse.remove("format"), Some("niceeval-viewer.transcript/1".into()));
        assert!(parse.remove("agent").is_some());
        let mut diffs = Vec::new();
        json_diff(&expected, &Value::Object(parse), "", &mut diffs);
        assert!(diffs.is_empty(), "{name}: {diffs:?}");

        // The loaded turn holds exactly the parser's events and usage.
        let shown = json(&run(&["show", "--json"], &path));
        assert_eq!(shown["attempts"].as_array().map(Vec::len), Some(1), "{name}");
        let turns = &shown["attempts"][0]["turns"];
        assert_eq!(turns.as_array().map(Vec::len), Some(1), "{name}: one turn");
        assert_eq!(turns[0]["events"].as_u64(), expected["events"].as_array().map(|e| e.len() as u64), "{name}");

        for args in [&["view"][..], &["show"], &["show", "--all"], &["check"], &["derive"]] {
            let out = run(args, &path);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?} {name}: {err}");
            assert!(!stdout(&out).contains("not NiceEval StreamEvents"), "{args:?} {name} refused");
        }
        let derived = json(&run(&["derive"], &path));
        let usage = &derived["attempt"]["usage"];
        assert_eq!(
            usage["inputTokens"].as_f64(),
            expected["usage"]["inputTokens"].as_f64(),
            "{name}: derive sums the parser's usage: {usage}"
        );
    }
}

#[test]
fn convert_writes_a_turn_that_show_check_and_derive_accept() {
    let src = fixture("transcripts/codex-failed.jsonl");
    let turn = json(&run(&["convert"], &src));
    assert_eq!(turn["status"], "failed", "a turn.failed line: NiceEval's codex adapter says failed");
    assert_eq!(
        turn["usage"],
        serde_json::json!({"inputTokens": 1000, "outputTokens": 30, "cacheReadTokens": 200, "requests": 1})
    );
    let tmp = std::env::temp_dir().join(format!("niceeval-convert-{}.json", std::process::id()));
    std::fs::write(&tmp, serde_json::to_vec(&turn).unwrap()).unwrap();
    let show = run(&["show"], &tmp);
    assert!(stdout(&show).contains("model overloaded"), "{}", stdout(&show));
    assert_eq!(run(&["check"], &tmp).status.code(), Some(0));
    assert_eq!(run(&["derive"], &tmp).status.code(), Some(0));
    let _ = std::fs::remove_file(&tmp);
}

#[test]
fn skipped_lines_are_notices_with_their_line_numbers() {
    let src = fixture("transcripts/codex-failed.jsonl");
    let out = stdout(&run(&["show", "--width", "1000"], &src));
    assert!(out.contains("codex-failed.jsonl:4: not JSON"), "{out}");
    assert!(out.contains("lines 1, 2: session metadata"), "{out}");
    assert!(out.contains("line 6: type \"todo_list\""), "{out}");
    assert!(out.contains("events are partial"), "{out}");
    // The lost line is an input loss: check reports it and fails.
    let check = run(&["check"], &src);
    assert_eq!(check.status.code(), Some(1));
    assert!(stdout(&check).contains("input-line-skipped"), "{}", stdout(&check));
    let parse = json(&run(&["convert", "--json"], &src));
    assert_eq!(parse["parseSuccess"], false);
}

#[test]
fn a_log_whose_first_line_says_nothing_is_told_by_a_later_line() {
    let src = fixture("transcripts/claude-late-sign.jsonl");
    let shown = json(&run(&["show", "--json"], &src));
    assert!(shown.to_string().contains("parseClaudeCodeTranscript"), "{shown}");
    let parse = json(&run(&["convert", "--json"], &src));
    assert_eq!(parse["agent"], "claude-code");
    assert_eq!(parse["events"].as_array().map(Vec::len), Some(4));
}

#[test]
fn agent_forces_the_reading_where_content_cannot_tell() {
    let src = fixture("transcripts/undetectable.jsonl");
    let refused = run(&["convert"], &src);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--agent"));
    let shown = run(&["show"], &src);
    assert_eq!(shown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&shown.stderr).contains("--agent claude-code"));
    for args in [
        &["show", "--agent", "claude-code"][..],
        &["check", "--agent", "claude-code"],
        &["derive", "--agent", "claude-code"],
        &["view", "--agent", "claude-code"],
    ] {
        let out = run(args, &src);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = stdout(&run(&["show", "--agent", "claude-code"], &src));
    assert!(out.contains("hi there") && out.contains("hello"), "{out}");
    // Read as Codex the same lines give the guessed messages too, by its own rules.
    let codex = json(&run(&["convert", "--agent", "codex", "--json"], &src));
    assert_eq!(codex["agent"], "codex");
    assert_eq!(codex["events"][1], serde_json::json!({"type": "message", "role": "assistant", "text": "hi there"}));
}

#[test]
fn invalid_utf8_reads_as_node_reads_it_and_is_reported() {
    let src = fixture("transcripts/claude-invalid-utf8.jsonl");
    let parse = json(&run(&["convert", "--json"], &src));
    assert_eq!(parse["events"][0]["text"], "caf\u{fffd} ok");
    assert_eq!(parse["parseSuccess"], true, "Node decodes the bytes; every line is JSON");
    let check = json(&run(&["check", "--format", "json"], &src));
    let replaced: Vec<(u64, u64)> = check["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "input-text-replaced")
        .map(|f| (f["line"].as_u64().unwrap(), f["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(replaced, vec![(1, 67), (2, 98), (2, 99)]);
}

#[test]
fn a_one_line_log_opens_too() {
    let src = fixture("transcripts/claude-one-line.jsonl");
    let shown = json(&run(&["show", "--json"], &src));
    assert!(shown.to_string().contains("parseClaudeCodeTranscript"), "{shown}");
    assert_eq!(shown["attempts"][0]["turns"][0]["events"], 1);
}

#[test]
fn an_unpaired_surrogate_escape_reads_as_json_parse_takes_it_and_is_reported() {
    // JSON.parse takes "\ud83d" (a string cut inside an emoji); the line is
    // read, with U+FFFD for the lone half, and the place is an input loss.
    let src = fixture("transcripts/claude-lone-surrogate.jsonl");
    let parse = json(&run(&["convert", "--json"], &src));
    assert_eq!(parse["parseSuccess"], true);
    assert_eq!(parse["events"][1]["text"], "cut \u{fffd}");
    let check = json(&run(&["check", "--format", "json"], &src));
    let f = &check["findings"][0];
    assert_eq!(
        (f["code"].as_str(), f["line"].as_u64(), f["column"].as_u64()),
        (Some("input-text-replaced"), Some(2), Some(113))
    );
}

/// The bundled log the README offers: it opens, its calls have the real
/// durations its timestamps give, its model prices the estimate, and
/// `check` says where NiceEval's reading of it is off.
#[test]
fn the_bundled_log_shows_real_durations_and_what_niceeval_misreads() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/claude-code-session.jsonl");
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(readme.contains("view assets/demo/claude-code-session.jsonl"), "the README offers the bundled log");
    let timing = stdout(&run(&["show", "--timing", "--width", "100"], &log));
    for row in ["the log, first to last timestamp", "✗ Bash  tool", "12.0s", "Read  tool", "1.0s", "9.0s"] {
        assert!(timing.contains(row), "{row:?} missing from:\n{timing}");
    }
    let shown = stdout(&run(&["show"], &log));
    assert!(shown.contains("claude-sonnet-4-5") && shown.contains("price key claude-sonnet-4-5"), "{shown}");
    let check = json(&run(&["check", "--format", "json"], &log));
    let codes: Vec<&str> = check["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert_eq!(codes, ["log-summary-read-as-compaction", "log-usage-repeated"], "{check}");
}
