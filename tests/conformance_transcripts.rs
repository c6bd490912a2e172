//! Runs every case in ../shared/conformance/transcripts (native Claude Code
//! and Codex logs, parsed by NiceEval's own `parseClaudeCodeTranscript` /
//! `parseCodexTranscript`) through the library and through
//! `niceeval convert --agent A FILE --json`, when that folder exists.
//! Prints `conformance transcripts: N passed, M failed`.

mod common;

use common::{bin, json_diff, shared_dir};
use niceeval::load::format::transcript::{self, Agent};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The differences of one case, from the library and from the CLI.
fn check_case(path: &Path, tmp: &Path) -> Vec<String> {
    let case: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let agent_name = case["agent"].as_str().expect("a case names its agent");
    let agent = Agent::from_name(agent_name).expect("a known agent");
    let input = case["input"].as_str().expect("a case's input is text");
    let expected = &case["expected"];
    let mut diffs = Vec::new();

    let parsed = transcript::parse(agent, input);
    assert_eq!(parsed.events.len(), parsed.event_lines.len(), "every event has its line");
    json_diff(expected, &parsed.to_value(), "lib", &mut diffs);

    let file = tmp.join(format!("{}.jsonl", path.file_stem().unwrap().to_string_lossy()));
    std::fs::write(&file, input).unwrap();
    let out = Command::new(bin()).args(["convert", "--agent", agent_name]).arg(&file).arg("--json").output().unwrap();
    if !out.status.success() {
        diffs.push(format!("cli: exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr)));
        return diffs;
    }
    let cli: Value = serde_json::from_slice(&out.stdout).expect("convert --json prints JSON");
    if cli["format"] != "niceeval-viewer.transcript/1" || cli["agent"] != agent_name {
        diffs.push(format!("cli: format/agent are {} / {}", cli["format"], cli["agent"]));
    }
    let mut cli_parsed = serde_json::Map::new();
    for key in ["events", "usage", "compactions", "parseSuccess"] {
        if let Some(v) = cli.get(key) {
            cli_parsed.insert(key.into(), v.clone());
        }
    }
    json_diff(expected, &Value::Object(cli_parsed), "cli", &mut diffs);
    diffs
}

#[test]
fn transcript_cases_agree_with_niceeval() {
    let Some(shared) = shared_dir() else {
        if std::env::var("NICEEVAL_REQUIRE_SHARED").as_deref() == Ok("1") {
            panic!("NICEEVAL_REQUIRE_SHARED=1 but ../shared (conformance/transcripts) is missing");
        }
        common::report("conformance transcripts: skipped (../shared/conformance/transcripts not found)");
        return;
    };
    let dir = shared.join("conformance").join("transcripts");
    let files = cases(&dir);
    if files.is_empty() && std::env::var("NICEEVAL_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("NICEEVAL_REQUIRE_SHARED=1 but {} holds no cases", dir.display());
    }
    let tmp = std::env::temp_dir().join(format!("niceeval-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut report = Vec::new();
    for path in &files {
        let diffs = check_case(path, &tmp);
        if diffs.is_empty() {
            passed += 1;
        } else {
            failed += 1;
            let name = path.file_name().unwrap().to_string_lossy();
            report.push(format!("{name}:\n  {}", diffs.iter().take(8).cloned().collect::<Vec<_>>().join("\n  ")));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    common::report(&format!("conformance transcripts: {passed} passed, {failed} failed"));
    assert!(failed == 0, "{failed} transcript case(s) differ from NiceEval:\n{}", report.join("\n"));
}
