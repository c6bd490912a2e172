//! NiceEval's evidence flags on `show @LOC`: `--execution [--grep]`,
//! `--timing[=summary|full]`, `--source[=FILE]`, `--diff[=PATH]`, with
//! NiceEval's exclusion rules in its words, and `--commands`: each
//! lifecycle command's card, a failing one's stderr shown and folded.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const SANDBOX: &str = "@14R83JM9GP1Z2";
const RECORD: &str = "samples/niceeval/generated/record-e2e-eval/record";

fn show(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(common::bin())
        .arg("show")
        .args(args)
        .args(["--width", "120", "--color", "never"])
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A project holding a copy of the e2e-eval Record at `.niceeval/record`,
/// the sandbox attempt's `test -f …` command made to fail with `stderr`.
fn project(tag: &str, stderr: &str) -> Option<PathBuf> {
    let record = common::shared_path(RECORD)?;
    let dir = std::env::temp_dir().join(format!("niceeval-show-evidence-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_dir(&record, &dir.join(".niceeval/record"));
    let payload = dir.join(
        ".niceeval/record/runs/6ee7f686-f419-405a-8978-5db83de7aafd/attempts/e3f2c08c-33c6-422d-827a-23cf4f1bff51/attachments/niceeval.observability/payload.json",
    );
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&payload).unwrap()).unwrap();
    let commands = v["commands-data"]["commands"].as_array_mut().unwrap();
    let test = commands
        .iter_mut()
        .find(|c| c["manifest"]["invocation"]["command"].as_str().is_some_and(|s| s.starts_with("test -f")))
        .expect("the sandbox attempt's test command");
    test["result"]["outcome"] = serde_json::json!({"kind": "exited", "exitCode": 1});
    test["result"]["stderr"] = serde_json::json!({
        "storage": {"kind": "inline", "text": stderr},
        "retainedBytes": stderr.len(), "totalSafeUtf8Bytes": stderr.len() + 5000,
    });
    std::fs::write(&payload, serde_json::to_vec(&v).unwrap()).unwrap();
    Some(dir)
}

#[test]
fn two_evidence_flags_grep_beside_another_and_evidence_over_runs_are_niceevals_usage_errors() {
    let Some(dir) = project("conflicts", "x") else { return };
    let one = "niceeval show chooses one evidence Report at a time.";
    for pair in [["--source", "--timing"], ["--execution", "--diff"], ["--timing=full", "--source=a.ts"]] {
        let (code, out, err) = show(&dir, &[SANDBOX, pair[0], pair[1]]);
        assert_eq!((code, out.as_str()), (2, ""), "{pair:?}");
        assert_eq!(err.trim(), format!("niceeval show: {one}"), "{pair:?}");
    }
    for flag in ["--source", "--timing", "--diff"] {
        let (code, _, err) = show(&dir, &[SANDBOX, flag, "--grep", "git"]);
        assert_eq!(code, 2);
        assert!(err.contains("--grep only combines with --execution."), "{err}");
    }
    let (code, _, err) = show(&dir, &["--experiment", "assertion-sandbox", "--execution"]);
    assert_eq!(code, 2);
    assert!(err.contains("Evidence slicing requires exactly one Attempt locator."), "{err}");
    // `--source FILE` is a PATH, as NiceEval reads it: the value needs `=`.
    let (code, _, err) = show(&dir, &[SANDBOX, "--timing=sometimes"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_test_commands_stderr_is_shown_folded_with_what_the_record_did_not_keep() {
    let lines: Vec<String> = (1..=40).map(|i| format!("  at step {i}")).collect();
    let stderr = format!("FAIL fixture.test > changed file\n{}\nTests  1 failed | 3 passed\n", lines.join("\n"));
    let Some(dir) = project("stderr", &stderr) else { return };
    let (code, out, err) = show(&dir, &[SANDBOX, "--commands"]);
    assert_eq!(code, 0, "{err}");
    let card = out.split("command 7 · eval.run").nth(1).expect("command 7's card");
    let card = card.split("command 8 ·").next().unwrap();
    assert!(card.contains("✗ exit 1"), "{card}");
    assert!(card.contains("$ test -f fixture/changed.txt && test ! -e fixture/delete-me.txt"), "{card}");
    assert!(card.contains("after turn 1"), "{card}");
    assert!(card.contains("FAIL fixture.test > changed file"), "the first lines: {card}");
    assert!(card.contains("Tests  1 failed | 3 passed"), "the last lines: {card}");
    assert!(card.contains("… 22 lines not shown (--full shows all)"), "{card}");
    assert!(!card.contains("at step 10\n"), "a middle line is folded: {card}");
    assert!(card.contains("(5.0 KB not recorded)"), "what the file did not keep: {card}");
    assert!(out.contains("9 commands · ✗ 1 failed"), "{out}");
    let (_, full, _) = show(&dir, &[SANDBOX, "--commands", "--full"]);
    assert!(full.contains("at step 20\n"), "--full unfolds: {full}");
    // The same facts in show --json.
    let (_, json, _) = show(&dir, &[SANDBOX, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let c = &v["attempts"][0]["commands"][6];
    assert_eq!(c["outcome"], serde_json::json!({"kind": "exited", "exitCode": 1}));
    assert_eq!(c["failed"], true);
    assert_eq!(c["stderr"]["text"].as_str(), Some(stderr.as_str()));
    assert_eq!(c["stderr"]["omittedBytes"], 5000);
    assert_eq!(c["when"], "after turn 1");
    assert_eq!(c["durationMs"], 6);
    // Where it began: the failed command, with its stderr's last line, in --failures and in --json.
    let ff = &v["attempts"][0]["firstFailure"];
    assert_eq!((ff["at"].as_str(), ff["kind"].as_str()), (Some("command 7"), Some("command")), "{ff}");
    let summary = ff["summary"].as_str().unwrap();
    assert!(summary.starts_with("eval.run command ✗ exit 1: test -f fixture/changed.txt"), "{summary}");
    assert!(summary.ends_with("(stderr: Tests  1 failed | 3 passed)"), "{summary}");
    assert!(ff["chain"].as_array().is_some_and(|c| !c.is_empty()), "the failing assertions follow: {ff}");
    let (code, failures, _) = show(&dir, &[SANDBOX, "--failures"]);
    assert_eq!(code, 1);
    let began = failures.split("Where it began").nth(1).expect("--failures opens with where it began");
    let first_line = began.lines().nth(1).unwrap().trim();
    assert!(began.trim_start().starts_with("command") && summary.starts_with(&first_line[11..]), "{began}");
    assert!(first_line.starts_with("command 7  eval.run command ✗ exit 1"), "{began}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn execution_grep_keeps_the_commands_and_rows_that_match() {
    let Some(dir) = project("grep", "boom") else { return };
    let (code, out, err) = show(&dir, &[SANDBOX, "--execution", "--grep", "delete-me"]);
    assert_eq!(code, 0, "{err}");
    for section in ["Commands", "Tools", "Usage", "Diagnostics"] {
        assert!(out.contains(&format!("\n  {section} ")), "--execution shows {section}: {out}");
    }
    let cards = |out: &str| {
        out.lines().filter(|l| l.strip_prefix("    command ").is_some_and(|r| r.split(' ').nth(1) == Some("·"))).count()
    };
    assert_eq!(cards(&out), 2, "the rm and the test command mention delete-me: {out}");
    let (_, all, _) = show(&dir, &[SANDBOX, "--execution"]);
    assert_eq!(cards(&all), 9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timing_full_adds_each_intervals_id_start_and_parent_and_summary_is_the_default() {
    let Some(dir) = project("timing", "x") else { return };
    let (_, bare, _) = show(&dir, &[SANDBOX, "--timing"]);
    let (_, summary, _) = show(&dir, &[SANDBOX, "--timing=summary"]);
    assert_eq!(bare, summary);
    assert!(!bare.contains("interval_"), "{bare}");
    let (code, full, _) = show(&dir, &[SANDBOX, "--timing=full"]);
    assert_eq!(code, 0);
    let header = full.lines().find(|l| l.trim_start().starts_with("id ")).expect("the intervals table");
    for column in ["phase", "label", "start", "took", "outcome", "parent"] {
        assert!(header.contains(column), "{header}");
    }
    assert_eq!(full.lines().filter(|l| l.trim_start().starts_with("interval_")).count(), 19, "{full}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_and_source_take_one_path_and_say_which_there_are_when_it_names_none() {
    let Some(dir) = project("paths", "x") else { return };
    let (_, one, _) = show(&dir, &[SANDBOX, "--diff=fixture/changed.txt"]);
    assert!(one.contains("fixture/changed.txt") && !one.contains("delete-me.txt"), "{one}");
    let (_, both, _) = show(&dir, &[SANDBOX, "--diff"]);
    assert!(both.contains("fixture/changed.txt") && both.contains("delete-me.txt"), "{both}");
    let (_, none, _) = show(&dir, &[SANDBOX, "--diff=nope.txt"]);
    assert!(
        none.contains("no file change at nope.txt (changed: fixture/changed.txt, fixture/delete-me.txt)"),
        "{none}"
    );
    let (code, src, _) = show(&dir, &[SANDBOX, "--source"]);
    assert_eq!(code, 0);
    let (own, other) = (src.find("evals/assertion-sandbox.eval.ts"), src.find("evals/workspace-diff-cap.eval.ts"));
    assert!(own.is_some() && other.is_some() && own < other, "the attempt's own eval first: {src}");
    let (_, named, _) = show(&dir, &[SANDBOX, "--source=assertion-sandbox.eval.ts"]);
    assert!(named.contains("evals/assertion-sandbox.eval.ts") && !named.contains("workspace-diff-cap"), "{named}");
    let (_, path, _) = show(&dir, &[SANDBOX, "--source=evals/assertion-sandbox.eval.ts"]);
    assert_eq!(path, named, "its path and its name select the same file");
    let (_, missing, _) = show(&dir, &[SANDBOX, "--source=nope.ts"]);
    assert!(missing.contains("no recorded source file nope.ts (recorded: "), "{missing}");
    let _ = std::fs::remove_dir_all(&dir);
}
