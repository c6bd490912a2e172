//! `niceeval check` at scale: findings grouped by rule by default, `--all`,
//! `--statistics`, `--select`/`--ignore` and the exit codes they give, the
//! file each finding is in when several are checked, and a Record (whose
//! events `check` cannot read) said attempt by attempt.

mod common;

use common::{bin, fixture, shared_path};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-check-grouped-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TURNS: usize = 20;
const STARTS_PER_TURN: usize = 200;

/// A session of 20 turns whose 4,000 tool starts carry no `command` (an
/// adapter that has not migrated to command projections), and one orphan
/// finish in turn 4.
fn unmigrated_session(dir: &Path) -> PathBuf {
    let turns: Vec<Value> = (0..TURNS)
        .map(|t| {
            let mut events = Vec::new();
            for i in 0..STARTS_PER_TURN {
                let id = format!("call_{t}_{i}");
                events.push(json!({"type": "operation.started", "operationId": id,
                    "operation": {"kind": "tool", "name": "Bash", "input": {"command": "ls"}, "tool": "shell"}}));
                events.push(json!({"type": "operation.finished", "operationId": id, "kind": "tool",
                    "status": "completed", "output": "ok"}));
            }
            if t == 3 {
                events.push(json!({"type": "operation.finished", "operationId": "ghost", "kind": "tool", "status": "completed"}));
            }
            json!({"events": events, "status": "completed"})
        })
        .collect();
    let path = dir.join("unmigrated.json");
    std::fs::write(&path, json!({"sessions": [{"sessionIndex": 1, "turns": turns}]}).to_string()).unwrap();
    path
}

/// Every finding line of a text report: position, severity, code.
fn finding_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.contains(" ▲ warning ") || l.contains(" ✗ error ")).collect()
}

#[test]
fn grouped_all_and_json_carry_the_same_counts() {
    let dir = tempdir("counts");
    let path = unmigrated_session(&dir);
    let p = path.to_str().unwrap();
    let unclassified = TURNS * STARTS_PER_TURN;

    let (code, grouped, _) = run(&["check", p]);
    assert_eq!(code, 1, "the orphan finish is an error: {grouped}");
    assert!(grouped.lines().count() < 100, "{} lines:\n{grouped}", grouped.lines().count());
    assert!(grouped.contains("command-unclassified · 4,000 warnings"), "{grouped}");
    let hidden = unclassified - 3;
    assert!(
        grouped.contains(&format!("… and 3,997 more `command-unclassified` (turns 1–{TURNS}); `--all` lists them")),
        "{hidden} hidden: {grouped}"
    );
    // The first findings are in full: position, message, where, hint and rule.
    assert!(grouped.contains("  1:1    ▲ warning command-unclassified  tool start \"call_0_0\""), "{grouped}");
    assert!(grouped.contains("where: session-1 › turn 1"), "{grouped}");
    assert!(grouped.contains("rule: docs/rules.md#command-unclassified"), "{grouped}");
    let summary = grouped.lines().last().unwrap();
    assert_eq!(
        summary,
        "1 error · 4,000 warnings in 1 attempt, 1 session, 20 turns, 8,001 events: orphan-finish 1, command-unclassified 4,000"
    );

    let (code, all, _) = run(&["check", "--all", p]);
    assert_eq!(code, 1);
    let lines = finding_lines(&all);
    assert_eq!(lines.len(), unclassified + 1, "--all prints every finding");
    assert_eq!(lines.iter().filter(|l| l.contains(" command-unclassified ")).count(), unclassified);
    assert_eq!(all.lines().last().unwrap(), summary, "the same summary line");

    let (code, out, _) = run(&["check", "--format", "json", p]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), unclassified + 1, "JSON keeps every finding");
    assert_eq!(v["warnings"], unclassified);
    assert_eq!(v["errors"], 1);
    let stats = v["statistics"].as_array().unwrap();
    assert_eq!(stats.len(), 2);
    assert_eq!(
        stats[0],
        json!({"code": "orphan-finish", "severity": "error", "count": 1, "first": "4:401", "firstAttempt": 1})
    );
    assert_eq!(stats[1]["code"], "command-unclassified");
    assert_eq!(stats[1]["count"], findings.iter().filter(|f| f["code"] == "command-unclassified").count());
    assert!(findings.iter().all(|f| f.get("source").is_none()), "one file: no source on findings");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn statistics_give_the_count_per_rule_in_text_and_json() {
    let dir = tempdir("stats");
    let path = unmigrated_session(&dir);
    let p = path.to_str().unwrap();
    let (code, text, _) = run(&["check", "--statistics", p]);
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["code", "severity", "count", "first"], "{text}");
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["orphan-finish", "✗", "error", "1", "4:401"],
        "{text}"
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["command-unclassified", "▲", "warning", "4,000", "1:1"],
        "{text}"
    );
    assert!(!text.contains("hint: ") && !text.contains("rule: "), "no finding is printed: {text}");
    assert!(text.lines().count() < 10, "{text}");

    let (code, out, _) = run(&["check", "--statistics", "--format", "json", p]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("findings").is_none(), "statistics only: {v}");
    let counts: Vec<(&str, u64)> = v["statistics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["code"].as_str().unwrap(), s["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [("orphan-finish", 1), ("command-unclassified", 4000)]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn select_and_ignore_choose_the_rules_and_the_exit_code() {
    let dir = tempdir("select");
    let path = unmigrated_session(&dir);
    let p = path.to_str().unwrap();
    // Only the warnings: exit 0 unless warnings fail.
    let (code, out, _) = run(&["check", "--select", "command-unclassified", p]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("orphan-finish"), "{out}");
    assert!(out.contains("0 errors · 4,000 warnings"), "{out}");
    assert!(out.contains("note: rules selected: command-unclassified"), "{out}");
    let (code, _, _) = run(&["check", "--select", "command-unclassified", "--deny-warnings", p]);
    assert_eq!(code, 1);
    // Ignoring the error leaves warnings only.
    let (code, out, _) = run(&["check", "--ignore", "orphan-finish", "--format", "json", p]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["errors"].as_u64(), v["warnings"].as_u64()), (Some(0), Some(4000)));
    assert_eq!(v["ignore"], json!(["orphan-finish"]));
    // Ignoring the warnings leaves the error; a comma-separated list selects both.
    let (code, out, _) = run(&["check", "--ignore", "command-unclassified", p]);
    assert_eq!(code, 1);
    assert_eq!(finding_lines(&out).len(), 1, "{out}");
    let (code, out, _) = run(&["check", "--select", "orphan-finish,command-unclassified", "--statistics", p]);
    assert_eq!(code, 1);
    assert!(out.contains("orphan-finish") && out.contains("command-unclassified"), "{out}");
    // A code no rule has is a usage error that names it.
    let (code, out, err) = run(&["check", "--select", "orphan-finish,command-unclasified", p]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("`command-unclasified`") && err.contains("--select"), "{err}");
    let (code, _, err) = run(&["check", "--ignore", "nope", p]);
    assert_eq!(code, 2);
    assert!(err.contains("`nope`") && err.contains("--ignore"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn several_files_name_the_file_of_every_finding() {
    let orphan = fixture("check/orphan-finish.json");
    let negative = fixture("check/usage-negative.json");
    let (a, b) = (orphan.to_str().unwrap(), negative.to_str().unwrap());
    let (code, text, _) = run(&["check", a, b]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains(&format!("where: attempt 1 · {a} › session-1 › turn 1")), "{text}");
    assert!(text.contains(&format!("where: attempt 2 · {b} › session-1 › turn 1")), "{text}");
    let (_, all, _) = run(&["check", "--all", a, b]);
    assert!(all.contains(&format!("\nattempt 1 · {a}\n")), "{all}");
    assert!(all.contains(&format!("\nattempt 2 · {b}\n")), "{all}");
    let (_, stats, _) = run(&["check", "--statistics", a, b]);
    assert!(stats.contains(&format!("{a} › 1:1")), "the first position names its file: {stats}");

    let (_, out, _) = run(&["check", "--format", "json", a, b]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let sources: Vec<(&str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["code"].as_str().unwrap(), f["source"].as_str().unwrap()))
        .collect();
    assert_eq!(sources, [("orphan-finish", a), ("usage-negative", b)]);
    // One file: the findings are as they were, without a source.
    let (_, out, _) = run(&["check", "--format", "json", a]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["findings"][0].get("source").is_none(), "{v}");
}

#[test]
fn a_record_says_why_each_attempt_is_not_checked_and_exits_2() {
    let Some(record) = shared_path("samples/niceeval/generated/record-kitchen/record") else { return };
    let (code, out, err) = run(&["check", record.to_str().unwrap()]);
    assert_eq!(code, 2, "nothing was checked: {out}{err}");
    for n in 1..=3 {
        let note =
            out.lines().find(|l| l.starts_with(&format!("note: attempt {n} "))).unwrap_or_else(|| panic!("{out}"));
        assert!(note.contains("not checked: its events were rebuilt from a lossy record"), "{note}");
    }
    assert!(out.contains("nothing checked: none of its 3 attempts holds the adapter's own events"), "{out}");
    assert!(err.contains("no attempt with the adapter's own events to check"), "{err}");
    // Many attempts: one note per reason, with the attempts it holds for.
    let Some(big) = shared_path("samples/niceeval/realrun-report/record") else { return };
    let (code, out, _) = run(&["check", big.to_str().unwrap()]);
    assert_eq!(code, 2);
    let notes: Vec<&str> = out.lines().filter(|l| l.starts_with("note: ")).collect();
    assert!(notes.len() <= 3, "{out}");
    assert!(notes.iter().any(|n| n.contains("attempts not checked (attempts ")), "{out}");
}

/// The report of `paths` as `check` builds it.
fn report_json(paths: &[PathBuf], statistics_only: bool) -> (String, String) {
    let doc = niceeval::load::load_paths(paths).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (derived, findings) = niceeval::analysis::derive_and_lint(&doc, None, &prices);
    let report = niceeval::view::check::Report::new(&doc, &derived, findings, false);
    let safe = niceeval::model::text::json_terminal_safe;
    let tree = safe(&serde_json::to_string_pretty(&report.json_as(statistics_only)).unwrap()).into_owned();
    let mut w = niceeval::view::json::PrettyWriter::new(Vec::new(), safe);
    report.write_json(statistics_only, &mut w).unwrap();
    (String::from_utf8(w.into_inner()).unwrap(), tree)
}

/// `--format json` is written a finding at a time, and its bytes are those
/// of the whole tree pretty-printed: one file, several files (each finding
/// names its file), findings about the input itself, hostile text.
#[test]
fn json_written_as_it_is_made_is_the_tree_byte_for_byte() {
    let dir = tempdir("streamed");
    let unmigrated = unmigrated_session(&dir);
    let check = |name: &str| fixture(&format!("check/{name}.json"));
    let sets = [
        vec![unmigrated.clone()],
        vec![unmigrated.clone(), check("input-line-skipped"), check("input-text-replaced")],
        vec![
            fixture("hostile/hostile-format-chars.json"),
            fixture("hostile/hostile-turn.json"),
            check("orphan-finish"),
        ],
    ];
    for paths in &sets {
        for statistics_only in [false, true] {
            let (streamed, tree) = report_json(paths, statistics_only);
            assert!(tree.contains("\"statistics\": ["), "{tree}");
            assert_eq!(tree.contains("\"findings\": ["), !statistics_only);
            assert_eq!(streamed, tree, "{paths:?} statistics_only={statistics_only}");
        }
        // And the command writes it, with the final newline.
        let args: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
        let (_, out, _) = run(&[&["check", "--format", "json"], &args[..]].concat());
        assert_eq!(out, format!("{}\n", report_json(paths, false).1), "{paths:?}");
    }
    let (_, out, _) = run(&["check", "--format", "json", unmigrated.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(TURNS * STARTS_PER_TURN + 1));
}

/// A rule's own hint is the catalog's, not a copy in each of thousands of findings.
#[test]
fn default_hints_are_borrowed_not_copied() {
    let dir = tempdir("hints");
    let doc = niceeval::load::load_paths(&[unmigrated_session(&dir)]).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (_, findings) = niceeval::analysis::derive_and_lint(&doc, None, &prices);
    let unclassified: Vec<_> = findings.iter().filter(|f| f.code == "command-unclassified").collect();
    assert_eq!(unclassified.len(), TURNS * STARTS_PER_TURN);
    let catalog = niceeval::model::lint::rule_info("command-unclassified").unwrap().hint;
    for f in unclassified {
        assert!(std::ptr::eq(f.hint(), catalog), "{:?}", f.hint());
    }
}
