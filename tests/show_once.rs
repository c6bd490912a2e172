//! `show` says a file's facts once: its notices once for the file (not under
//! each attempt), and each attempt names its own file, not every file opened.

mod common;

const EXP: &str = "tests/fixtures/exp/run.ndjson";
const MULTI: &str = "tests/fixtures/show/multiturn.json";

#[test]
fn an_exp_json_files_notices_are_said_once_not_under_each_attempt() {
    let (code, stdout, stderr) = common::run_plain(&["show", EXP]);
    assert!(code == 0 || code == 1, "{stderr}");
    let stdout = String::from_utf8(stdout).unwrap();
    let attempts = stdout.lines().filter(|l| l.starts_with(|c: char| !c.is_whitespace()) && l.contains(" · ")).count();
    assert!(attempts > 1, "the file has several attempts: {stdout}");
    let note = "exp --json carries no conversation";
    let said = stdout.matches(note).count() + stderr.matches(note).count();
    assert_eq!(said, 1, "stdout:\n{stdout}\nstderr:\n{stderr}");
}

#[test]
fn each_attempt_names_its_own_file_when_several_are_opened() {
    let (_, stdout, stderr) = common::run_plain(&["show", MULTI, EXP]);
    let stdout = String::from_utf8(stdout).unwrap();
    let files: Vec<&str> = stdout.lines().filter_map(|l| l.trim_start().strip_prefix("file ")).map(str::trim).collect();
    assert!(files.len() > 1, "{stdout}\n{stderr}");
    assert!(files.iter().all(|f| *f == MULTI || *f == EXP), "one file per attempt: {files:?}");
    assert!(files.contains(&MULTI) && files.contains(&EXP), "{files:?}");
}
