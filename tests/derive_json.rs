//! `derive` writes its JSON as it makes it (`model::derive_json`): the text
//! must be exactly the pretty text of `DerivedAttempt::to_json`, the value
//! the conformance contract is checked on. Every input the project and
//! ../shared hold that has raw events, and the same through the command.

mod common;

use niceeval::model::derive_json::DerivedJson;
use niceeval::model::usage::PriceTable;
use std::path::{Path, PathBuf};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json" || x == "jsonl") {
            out.push(p);
        }
    }
}

#[test]
fn the_written_json_is_the_json_of_the_derived_facts() {
    let mut files = Vec::new();
    json_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut files);
    json_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo"), &mut files);
    if let Some(shared) = common::shared_dir() {
        json_files(&shared.join("samples"), &mut files);
        json_files(&shared.join("conformance"), &mut files);
    }
    let prices = PriceTable::default();
    let mut compared = 0;
    for path in &files {
        let Ok(doc) = niceeval::load::load_path(path) else { continue };
        for attempt in doc.attempts.iter().filter(|a| a.events_exact) {
            let d = niceeval::model::derive_attempt(attempt, None, &prices);
            let whole = serde_json::to_string_pretty(&d.to_json(attempt)).unwrap();
            let written = serde_json::to_string_pretty(&DerivedJson::new(&d, attempt)).unwrap();
            assert_eq!(written, whole, "{}", path.display());
            compared += 1;
        }
    }
    common::report(&format!("derive: {compared} attempts written as their derived JSON"));
    assert!(compared > 50, "{compared}");
}

/// The command's output, whole characters escaped for the terminal across
/// the writer's chunks: a long text of C1 and bidi characters.
#[test]
fn the_command_escapes_what_a_terminal_would_act_on() {
    let text: String = "x\u{202e}y\u{85}é".repeat(30_000);
    let turn = serde_json::json!({"events": [
        {"type": "message", "role": "assistant", "text": text},
        {"type": "operation.started", "operationId": "a", "operation": {"kind": "tool", "name": "R", "input": {"t": text}}},
        {"type": "operation.finished", "operationId": "a", "kind": "tool", "status": "completed", "output": text}
    ], "status": "completed"});
    let dir = std::env::temp_dir().join(format!("niceeval-derive-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("turn.json");
    std::fs::write(&file, turn.to_string()).unwrap();
    let out = std::process::Command::new(common::bin()).arg("derive").arg(&file).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(!stdout.contains('\u{202e}') && !stdout.contains('\u{85}'), "escaped");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let input = &v["attempt"]["occurrences"]["occurrences"][0]["input"]["value"]["t"];
    assert_eq!(input.as_str(), Some(text.as_str()), "the same value once parsed");
}
