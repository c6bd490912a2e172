//! A folder of native agent logs (tests/fixtures/folder: three Claude Code
//! session logs and one `*.jsonl` that is none) through `show`, `check`,
//! `view` off a terminal and `compare` of two folders; and the list's cheap
//! scan agreeing with the full parse on the shared samples.

mod common;

use common::bin;
use niceeval::load::format::transcript::{Agent, detect, load::text_of, scan};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

fn run(args: &[&str]) -> Output {
    Command::new(bin()).args(args).stdin(std::process::Stdio::null()).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// The fixture folder copied to a fresh directory, each log last written
/// `days` days after 2026-11-01 (newest first is by that time).
fn folder(name: &str, days: &[(&str, u64)]) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/folder");
    let dir = std::env::temp_dir().join(format!("niceeval-folders-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_793_491_200);
    for (file, day) in days {
        let f = std::fs::File::options().write(true).open(dir.join(file)).unwrap();
        f.set_modified(base + Duration::from_secs(day * 86_400)).unwrap();
    }
    dir
}

const ORDER: [(&str, u64); 3] =
    [("c3-empty-session.jsonl", 1), ("b2-skill-and-odd-lines.jsonl", 2), ("a1-fix-tests.jsonl", 3)];

#[test]
fn show_lists_every_session_newest_first_and_names_the_file_that_is_none() {
    let dir = folder("show", &ORDER);
    let out = run(&["show", "--json", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    let evals: Vec<&str> = v["attempts"].as_array().unwrap().iter().map(|a| a["eval"].as_str().unwrap()).collect();
    assert_eq!(evals, ["a1-fix-tests", "b2-skill-and-odd-lines", "c3-empty-session"]);
    assert!(v["inputFormat"].as_str().unwrap().starts_with("folder of native agent logs (3 session(s)"));
    let notices = v["notices"].to_string();
    assert!(notices.contains("notes.jsonl: no line says which agent wrote it"), "{notices}");
    assert!(stderr.contains("notes.jsonl"), "the skipped file is said on stderr too: {stderr}");
    // Each session is read in full: the model comes from the log.
    assert_eq!(v["attempts"][0]["model"], "claude-sonnet-4-5", "{}", v["attempts"][0]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_and_view_off_a_terminal_read_every_session() {
    let dir = folder("check", &ORDER);
    let (stdout, _) = text(&run(&["check", dir.to_str().unwrap()]));
    assert!(stdout.contains("in 3 attempts, 3 sessions, 3 turns"), "{stdout}");
    assert!(stdout.contains("log-usage-repeated"), "a1's repeated usage is found: {stdout}");
    let (viewed, _) = text(&run(&["view", dir.to_str().unwrap()]));
    for id in ["a1-fix-tests", "b2-skill-and-odd-lines", "c3-empty-session"] {
        assert!(viewed.contains(id), "{id} missing from view's plain output");
    }
    assert!(!viewed.contains('\u{1b}'), "the first message's escape is sanitised");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compare_of_two_folders_pairs_sessions_by_their_id() {
    let before = folder("before", &ORDER);
    let after = folder("after", &ORDER);
    std::fs::remove_file(after.join("c3-empty-session.jsonl")).unwrap();
    let out = run(&["compare", before.to_str().unwrap(), after.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("a1-fix-tests") && stdout.contains("b2-skill-and-odd-lines"), "{stdout} {stderr}");
    assert!(stdout.contains("paired by experiment and eval · 1 only before · 2 unchanged"), "{stdout}");
    let c3 = stdout.lines().find(|l| l.contains("◀ only before")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(c3.contains("c3-empty-session"), "c3 is in the first folder only: {c3}");
    let _ = std::fs::remove_dir_all(before);
    let _ = std::fs::remove_dir_all(after);
}

#[test]
fn a_directory_of_other_jsonl_files_is_refused_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("niceeval-folders-{}-none", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/folder/notes.jsonl"), dir.join("n.jsonl"))
        .unwrap();
    let out = run(&["show", dir.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("native agent logs (*.jsonl)"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_scan_agrees_with_the_full_parse_on_the_shared_samples() {
    let Some(dir) = common::shared_path("samples/handmade/raw-transcripts") else { return };
    for name in ["claude-code-session.jsonl", "claude-code-stream.jsonl", "codex-exec.jsonl"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let text = text_of(&bytes).0;
        let agent = detect(&text).unwrap_or_else(|| panic!("{name}: no agent"));
        let quick = scan::scan(agent, &bytes);
        let full = <scan::SessionFacts as scan::Scanned>::of_parse(agent, &text);
        assert_eq!(quick, full, "{name}");
        assert!(quick.tool_calls > 0 && !quick.usage.is_empty(), "{name}: {quick:?}");
        if name == "claude-code-session.jsonl" {
            assert_eq!(agent, Agent::ClaudeCode);
            assert!(quick.first_user.as_deref().is_some_and(|m| m.starts_with("The CSV export")), "{quick:?}");
            assert!(quick.started.is_some() && quick.model.is_some(), "{quick:?}");
        }
    }
}
