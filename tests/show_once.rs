//! `show` says a file's facts once: its notices once for the file (not under
//! each attempt), each attempt names its own file, not every file opened, and
//! a Record's partial conversation is one notice; and its wrapped lines keep
//! their place (eval source hangs under its code).

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

#[test]
fn a_records_partial_conversation_is_said_once_per_attempt() {
    let Some(record) = common::shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let (_, stdout, _) = common::run_plain(&["show", record.to_str().unwrap(), "--width", "400"]);
    let stdout = String::from_utf8(stdout).unwrap();
    assert!(stdout.contains("events are partial: capture-failed"), "{stdout}");
    assert!(!stdout.contains("conversation is partial"), "said twice: {stdout}");
}

#[test]
fn a_wrapped_line_of_eval_source_hangs_under_its_code() {
    let (_, stdout, _) = common::run_plain(&["show", "assets/demo/record", "--assertions", "--width", "60"]);
    let stdout = String::from_utf8(stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines.iter().position(|l| l.contains("│     const turn = await t.send(")).expect("the send line");
    // Columns before the code's text (the gutter and the code's indent are one column each per character here).
    let code_col = lines[at][..lines[at].find("const").unwrap()].chars().count();
    let hang = lines[at + 1].chars().take_while(|c| *c == ' ').count();
    assert_eq!(hang, code_col, "{stdout}");
}
