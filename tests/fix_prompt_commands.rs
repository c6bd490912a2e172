//! Every command the fix prompt names works with this binary as `niceeval`
//! (issue 36): in a project holding a shared Record at `.niceeval/record`,
//! the prompt of each failed attempt is printed, and each command it names
//! is read from that text and run as a coding agent would run it, from the
//! project folder: its inspect line `niceeval show @LOC`, that line with
//! `--source`, `--execution`, `--timing` and `--diff`, `niceeval show`, and
//! `niceeval exp EXP EVAL` (handed to the project's NiceEval, a stub here).
//! Each exits 0 and prints what it names.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(dir: &Path, args: &[String]) -> (i32, String, String) {
    let mut cmd = Command::new(common::bin());
    cmd.args(args).current_dir(dir).env("NO_COLOR", "1");
    if args[0] == "show" {
        cmd.args(["--width", "120"]);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A project with `record` at `.niceeval/record` and a stub NiceEval CLI
/// that prints what it was asked.
fn project(record: &Path, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-fix-prompt-commands-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_dir(record, &dir.join(".niceeval/record"));
    let bin = dir.join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("niceeval"), "#!/bin/sh\necho \"NiceEval got: $*\"\n").unwrap();
    std::fs::set_permissions(bin.join("niceeval"), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// The words of a command as the prompt prints it (its ids are plain words
/// or single-quoted, see `fix_prompt::shell_word`).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('\'') {
            let end = quoted.find('\'').expect("closing quote");
            out.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// The commands a prompt names: its inspect line, that line with each flag
/// step 2 names, and each `npx niceeval …` in backquotes (run as `niceeval …`).
fn commands(prompt: &str) -> Vec<Vec<String>> {
    let inspect = prompt.lines().find_map(|l| l.trim().strip_prefix("inspect: ")).expect("an inspect line");
    let inspect = words(inspect);
    assert_eq!(inspect[0], "niceeval");
    let mut out = vec![inspect[1..].to_vec()];
    let step2 = prompt.lines().find(|l| l.starts_with("2. ")).expect("step 2");
    let flags: Vec<&str> = step2.split('`').skip(1).step_by(2).collect();
    assert_eq!(flags, ["--source", "--execution", "--timing", "--diff"], "{step2}");
    for flag in flags {
        out.push(inspect[1..].iter().cloned().chain([flag.to_string()]).collect());
    }
    for quoted in prompt.split('`').skip(1).step_by(2) {
        if let Some(rest) = quoted.strip_prefix("npx niceeval ") {
            out.push(words(rest));
        }
    }
    out
}

/// What a command's output must hold beside exit 0.
fn expect(args: &[String], locator: &str, out: &str) {
    let has = |s: &str| assert!(out.contains(s), "`niceeval {}` does not print {s:?}:\n{out}", args.join(" "));
    match args {
        [exp, ..] if exp == "exp" => has(&format!("NiceEval got: {}", args.join(" "))),
        [show] if show == "show" => has(locator),
        [_, _, flag] if flag == "--source" => has("Eval source"),
        [_, _, flag] if flag == "--execution" => {
            has("Commands");
            has("Diagnostics");
        }
        [_, _, flag] if flag == "--timing" => has("Execution timeline"),
        [_, _, flag] if flag == "--diff" => has("File changes"),
        [_, loc] => {
            assert_eq!(loc, locator);
            has(&format!("locator     {locator}"));
        }
        other => panic!("a command the test does not know: {other:?}"),
    }
}

#[test]
fn every_command_the_fix_prompt_names_runs_and_prints_what_it_names() {
    let Some(shared) = common::shared_dir() else { return };
    let mut ran = 0;
    for (tag, record) in [
        ("cli", "samples/niceeval/generated/record-e2e-cli/record"),
        ("eval", "samples/niceeval/generated/record-e2e-eval/record"),
        ("kitchen", "samples/niceeval/generated/record-kitchen/record"),
        ("report", "samples/niceeval/realrun-report/record"),
    ] {
        let dir = project(&shared.join(record), tag);
        let (_, json, _) = run(&dir, &["show".into(), "--json".into()]);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let prompts: Vec<(String, String)> = doc["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| Some((a["locator"].as_str()?.to_string(), a["fixPrompt"].as_str()?.to_string())))
            .collect();
        assert!(!prompts.is_empty(), "{record}: no attempt with a fix prompt");
        for (locator, prompt) in prompts {
            let (code, printed, _) = run(&dir, &["show".into(), locator.clone(), "--fix-prompt".into()]);
            assert_eq!(code, 0);
            assert_eq!(printed.trim_end(), prompt.trim_end(), "show --fix-prompt prints the prompt of show --json");
            for args in commands(&prompt) {
                let (code, out, err) = run(&dir, &args);
                assert_eq!(code, 0, "`niceeval {}` exited {code}: {err}", args.join(" "));
                expect(&args, &locator, &out);
                ran += 1;
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    common::report(&format!("fix prompt commands run: {ran}"));
    assert!(ran >= 4 * 8, "{ran}");
}
