//! `niceeval compare`: every (experiment, eval) cell of a real Record is the
//! verdict and locator NiceEval's own `exp --json` eval line gives it (on
//! realrun-report, and held out on the other real Records); two Records of
//! two runs of the same evals pair as NiceEval's verdicts say; a Record and
//! the InvocationSummary of the same run pair attempt with attempt; the
//! text at 80 columns; and the CLI's errors. Skipped without ../shared.

mod common;

use common::{bin, report, shared_path};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// NiceEval's verdict and locator per (experiment, eval): the `event: eval`
/// lines of `exp --json` files (lines that are not JSON, like a package
/// manager's banner before the stream, are skipped).
fn niceeval_cells(files: &[PathBuf]) -> BTreeMap<(String, String), (String, String, u64, u64)> {
    let mut out = BTreeMap::new();
    for f in files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            if v["event"] != "eval" {
                continue;
            }
            let s = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{}: {k} in {line}", f.display())).to_string();
            let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{}: {k} in {line}", f.display()));
            let key = (s("experimentId"), s("evalId"));
            assert!(out.insert(key, (s("verdict"), s("locator"), n("passed"), n("attempts"))).is_none());
        }
    }
    out
}

fn exp_files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".ndjson")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {prefix}*.ndjson in {}", dir.display());
    files
}

fn compare_json(args: &[&Path], extra: &[&str]) -> Value {
    let out = Command::new(bin()).arg("compare").args(args).args(extra).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("compare --json is JSON")
}

/// The cells of `compare --json` by (experiment, eval): verdict, locator, passed, attempts.
fn our_cells(doc: &Value) -> BTreeMap<(String, String), (String, String, u64, u64)> {
    let experiment: BTreeMap<&str, &str> = doc["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["id"].as_str().unwrap(), x["experiment"].as_str().unwrap()))
        .collect();
    let mut out = BTreeMap::new();
    for row in doc["rows"].as_array().unwrap() {
        for (id, cell) in row["cells"].as_object().unwrap() {
            let key = (experiment[id.as_str()].to_string(), row["eval"].as_str().unwrap().to_string());
            let facts = (
                cell["verdict"].as_str().unwrap_or("(none)").to_string(),
                cell["locator"].as_str().unwrap_or("(none)").to_string(),
                cell["passed"].as_u64().unwrap(),
                cell["attempts"].as_u64().unwrap(),
            );
            assert!(out.insert(key, facts).is_none());
        }
    }
    out
}

/// Every cell equals NiceEval's line for it, and there is a cell for every line.
fn assert_cells_equal(name: &str, ours: &BTreeMap<(String, String), (String, String, u64, u64)>, files: &[PathBuf]) {
    let theirs = niceeval_cells(files);
    let mut diffs = Vec::new();
    for (key, want) in &theirs {
        match ours.get(key) {
            Some(got) if got == want => {}
            got => diffs.push(format!("{key:?}: NiceEval {want:?}, compare {got:?}")),
        }
    }
    for key in ours.keys().filter(|k| !theirs.contains_key(*k)) {
        diffs.push(format!("{key:?}: a cell NiceEval's exp --json has no line for"));
    }
    assert!(diffs.is_empty(), "{name}:\n{}", diffs.join("\n"));
    report(&format!("compare {name}: {} cells equal NiceEval's exp --json", theirs.len()));
}

fn samples() -> Option<PathBuf> {
    shared_path("samples/niceeval/realrun-report")?;
    shared_path("samples/niceeval")
}

#[test]
fn every_cell_of_realrun_report_is_niceevals_verdict_and_locator() {
    let Some(s) = samples() else { return };
    let dir = s.join("realrun-report");
    let doc = compare_json(&[&dir.join("record")], &[]);
    assert_eq!(doc["format"], "niceeval-viewer.compare/1");
    let ids: Vec<&str> = doc["experiments"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["classic/baseline", "classic/memory-b", "main"]);
    let ours = our_cells(&doc);
    assert_eq!(ours.len(), 22);
    assert_cells_equal("realrun-report", &ours, &exp_files(&dir, "exp-"));
}

#[test]
fn held_out_real_records_have_niceevals_cells_too() {
    let Some(s) = samples() else { return };
    let g = s.join("generated");
    for (name, record, exp_dir, prefix) in [
        ("realrun-sdk", s.join("realrun-sdk/record"), s.join("realrun-sdk"), "exp-"),
        ("record-e2e-cli", g.join("record-e2e-cli/record"), g.join("exp-json"), "exp-cli-"),
        ("record-e2e-eval", g.join("record-e2e-eval/record"), g.join("exp-json"), "exp-eval-"),
        ("record-kitchen", g.join("record-kitchen/record"), g.join("exp-json"), "exp-kitchen"),
    ] {
        let ours = our_cells(&compare_json(&[&record], &[]));
        assert_cells_equal(name, &ours, &exp_files(&exp_dir, prefix));
    }
}

#[test]
fn exp_json_files_as_one_source_keep_niceevals_tally() {
    let Some(s) = samples() else { return };
    let dir = s.join("realrun-sdk");
    let files = exp_files(&dir, "exp-");
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let doc = compare_json(&paths, &["--one-source"]);
    let ours = our_cells(&doc);
    assert_cells_equal("realrun-sdk exp --json", &ours, &files);
    // realrun/claude ran its eval twice and both failed: 0 of 2, as the eval line says.
    let key = ("realrun/claude".to_string(), "realrun/claude-wrong".to_string());
    assert_eq!(ours[&key].2..ours[&key].3, 0..2);
}

/// The runs of a Record's experiments, by experiment id.
fn run_dirs(record: &Path) -> BTreeMap<String, PathBuf> {
    std::fs::read_dir(record.join("runs"))
        .unwrap()
        .flatten()
        .map(|e| {
            let run: Value = serde_json::from_slice(&std::fs::read(e.path().join("run.json")).unwrap()).unwrap();
            (run["context"]["experimentId"].as_str().unwrap().to_string(), e.path())
        })
        .collect()
}

#[test]
fn two_runs_of_the_same_evals_pair_by_eval_as_niceevals_verdicts_say() {
    let Some(s) = samples() else { return };
    let dir = s.join("realrun-report");
    let runs = run_dirs(&dir.join("record"));
    let doc = compare_json(&[&runs["classic/baseline"], &runs["classic/memory-b"]], &[]);
    assert_eq!(doc["pairedBy"], "eval");
    let theirs = niceeval_cells(&exp_files(&dir, "exp-classic-"));
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 9);
    let mut fixed = 0;
    for p in pairs {
        let eval = p["eval"].as_str().unwrap().to_string();
        let before = &theirs[&("classic/baseline".to_string(), eval.clone())];
        let after = &theirs[&("classic/memory-b".to_string(), eval.clone())];
        assert_eq!(
            (p["before"]["verdict"].as_str().unwrap(), p["before"]["locator"].as_str().unwrap()),
            (before.0.as_str(), before.1.as_str())
        );
        assert_eq!(
            (p["after"]["verdict"].as_str().unwrap(), p["after"]["locator"].as_str().unwrap()),
            (after.0.as_str(), after.1.as_str())
        );
        let want = match (before.0.as_str(), after.0.as_str()) {
            ("passed", "passed") => "still passing",
            ("passed", _) => "broken",
            (_, "passed") => "fixed",
            (b, a) if b == a => "still failing",
            _ => "changed",
        };
        assert_eq!(p["change"], want, "{eval}");
        fixed += usize::from(want == "fixed");
        assert_eq!(p["before"]["experiment"], "classic/baseline");
        assert_eq!(p["after"]["experiment"], "classic/memory-b");
    }
    assert_eq!(fixed, 6, "the memory condition fixed six recall evals");
    // Pairs are listed broken first, then fixed, …, still passing last.
    assert_eq!(pairs[0]["change"], "fixed");
    assert_eq!(pairs.last().unwrap()["change"], "still passing");
}

#[test]
fn a_record_and_the_invocation_summary_of_the_same_run_pair_attempt_with_attempt() {
    let Some(s) = samples() else { return };
    let g = s.join("generated");
    for (record, summary) in [
        ("record-kitchen/record", "invocation-summary/summary-kitchen.json"),
        ("record-e2e-eval/record", "invocation-summary/summary-eval-assertion-score.json"),
    ] {
        let doc = compare_json(&[&g.join(record), &g.join(summary)], &[]);
        assert_eq!(doc["pairedBy"], "experiment-and-eval");
        let both: Vec<&Value> = doc["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| !p["after"].is_null() && !p["before"].is_null())
            .collect();
        assert!(!both.is_empty(), "{summary}");
        for p in both {
            assert_eq!(p["before"]["locator"], p["after"]["locator"], "{p}");
            assert_eq!(p["before"]["verdict"], p["after"]["verdict"], "{p}");
            assert!(matches!(p["change"].as_str(), Some("still passing" | "still failing" | "unchanged")), "{p}");
            assert_eq!(p["before"]["attempts"], p["after"]["attempts"], "{p}");
        }
    }
}

#[test]
fn chosen_experiments_are_the_columns_in_that_order() {
    let Some(s) = samples() else { return };
    let record = s.join("realrun-report/record");
    let doc = compare_json(&[&record], &["--experiment", "main", "--experiment", "classic/baseline"]);
    let ids: Vec<&str> = doc["experiments"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["main", "classic/baseline"]);
    assert_eq!(doc["rows"].as_array().unwrap().len(), 13);
    assert!(doc["rows"].as_array().unwrap().iter().all(|r| r["change"] == "unchanged"), "memory-b is left out");

    let out = Command::new(bin()).arg("compare").arg(&record).args(["--experiment", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--experiment nope") && err.contains("known: classic/baseline, classic/memory-b, main"),
        "{err}"
    );
}

#[test]
fn the_matrix_at_80_columns() {
    let Some(_) = samples() else { return };
    let out = Command::new(bin())
        .args(["compare", "../shared/samples/niceeval/realrun-report/record", "--width", "80"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().all(|l| niceeval::model::text::width(l) <= 80), "{text}");
    insta::assert_snapshot!("realrun_report_80", text);
}

#[test]
fn two_runs_at_80_columns_boxed() {
    let Some(s) = samples() else { return };
    let runs = run_dirs(&s.join("realrun-report/record"));
    let rel = |p: &Path| {
        format!("../shared/samples/niceeval/realrun-report/record/runs/{}", p.file_name().unwrap().to_string_lossy())
    };
    let out = Command::new(bin())
        .args(["compare", &rel(&runs["classic/baseline"]), &rel(&runs["classic/memory-b"]), "--width", "80", "--boxed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().filter(|l| !l.is_empty()).all(|l| niceeval::model::text::width(l) == 80), "{text}");
    insta::assert_snapshot!("realrun_report_two_runs_80_boxed", text);
}

#[test]
fn bad_input_and_usage_are_clear_errors() {
    let dir = tempdir();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"sessions\": [\n  {\"turns\": [}\n]}").unwrap();
    let out = Command::new(bin()).arg("compare").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.json:2:"), "names the file and the position: {err}");

    let good = common::fixture("show/multiturn.json");
    let out = Command::new(bin()).arg("compare").args([&good, &good, &good]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--one-source"));

    // Two captures without experiments: the only attempts pair, and the viewer's input is untouched.
    let before = std::fs::read(&good).unwrap();
    let doc = compare_json(&[&good, &good], &[]);
    assert_eq!(doc["pairs"].as_array().unwrap().len(), 1);
    assert_eq!(std::fs::read(&good).unwrap(), before);
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_record_attempt_and_a_session_file_pair_as_the_only_attempts() {
    let Some(s) = samples() else { return };
    let record = s.join("generated/record-kitchen/record/runs/7d7040ae-f511-4441-8fd9-0e9ec9687373");
    let attempt = record.join("attempts/bd0a0c3c-e3c4-4a8f-9ca5-203670d5d3c2");
    let session = s.join("../handmade/sessions/session-02-coding-multiturn.json");
    let doc = compare_json(&[&attempt, &session], &[]);
    assert_eq!(doc["pairedBy"], "only-attempts");
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    let p = &pairs[0];
    assert_eq!((p["before"]["eval"].as_str(), p["after"]["eval"].as_str()), (Some("release"), Some("coding/fix-add")));
    assert_eq!(p["before"]["verdict"], "failed");
    assert!(p["after"]["verdict"].is_null(), "a capture has no verdict");
    assert_eq!(p["after"]["status"], "failed", "its status says how it went");
    assert_eq!(p["change"], "changed");
    let after = &doc["experiments"][1];
    assert_eq!((after["id"].as_str(), after["decided"].as_u64()), (Some("after"), Some(0)));
    assert!(after["passRate"].is_null(), "no verdict: no pass rate, not 0%");
}

#[test]
fn view_compare_off_a_terminal_prints_what_compare_prints() {
    let Some(s) = samples() else { return };
    let record = s.join("realrun-report/record");
    let run = |args: &[&str]| Command::new(bin()).args(args).arg(&record).output().unwrap();
    let view = run(&["view", "--compare"]);
    let compare = run(&["compare", "--plain", "--color", "never", "--width", "80"]);
    assert_eq!(view.status.code(), Some(0));
    assert!(!view.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&view.stdout), String::from_utf8_lossy(&compare.stdout));
    // The choosing flags belong to --compare.
    let out = run(&["view", "--experiment", "main"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compare"));
}

#[test]
fn the_pairs_at_80_columns_name_every_eval_whole_and_show_both_sides() {
    let Some(s) = samples() else { return };
    let g = s.join("generated");
    let runs = run_dirs(&s.join("realrun-report/record"));
    for (before, after) in [
        (g.join("record-e2e-eval/record"), g.join("invocation-summary/summary-eval-assertion-score.json")),
        (runs["classic/baseline"].clone(), runs["main"].clone()),
        (runs["classic/baseline"].clone(), runs["classic/memory-b"].clone()),
    ] {
        let doc = compare_json(&[&before, &after], &[]);
        for boxed in [false, true] {
            let mut cmd = Command::new(bin());
            cmd.arg("compare").args([&before, &after]).args(["--width", "80"]);
            if boxed {
                cmd.arg("--boxed");
            }
            let out = cmd.output().unwrap();
            assert_eq!(out.status.code(), Some(0));
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.lines().all(|l| niceeval::model::text::width(l) <= 80), "{text}");
            let pairs = &text[text.find("Pairs").expect("a Pairs section")..];
            assert!(!pairs.contains("not shown"), "a side of the pairs was dropped:\n{pairs}");
            for p in doc["pairs"].as_array().unwrap() {
                let eval = p["eval"].as_str().unwrap();
                assert!(pairs.contains(eval), "{eval} is not named whole:\n{pairs}");
                for side in ["before", "after"] {
                    if let Some(l) = p[side]["locator"].as_str() {
                        assert!(pairs.contains(l), "{side} {l} of {eval} is missing:\n{pairs}");
                    }
                }
            }
        }
    }
}

/// One truth: every attempt of every cell reads as its own `show --json`
/// page does (verdict, status, attempt, score, tokens, observed and
/// estimated cost, how many turns report the cost), on the real Records.
#[test]
fn every_attempt_of_every_cell_reads_as_its_show_json_page() {
    let Some(s) = samples() else { return };
    let g = s.join("generated");
    let mut checked = 0;
    for source in [
        s.join("realrun-report/record"),
        s.join("realrun-sdk/record"),
        g.join("record-e2e-cli/record"),
        g.join("record-e2e-eval/record"),
        g.join("record-kitchen/record"),
        g.join("invocation-summary/summary-kitchen.json"),
    ] {
        let doc = compare_json(&[&source], &[]);
        let out = Command::new(bin()).arg("show").arg(&source).args(["--json", "--all"]).output().unwrap();
        let show: Value = serde_json::from_slice(&out.stdout).unwrap();
        let pages: BTreeMap<&str, &Value> =
            show["attempts"].as_array().unwrap().iter().map(|a| (a["locator"].as_str().unwrap(), a)).collect();
        for row in doc["rows"].as_array().unwrap() {
            for cell in row["cells"].as_object().unwrap().values() {
                for a in cell["attemptList"].as_array().unwrap() {
                    let page = pages[a["locator"].as_str().unwrap()];
                    for (ours, theirs) in [
                        ("verdict", "verdict"),
                        ("status", "status"),
                        ("attempt", "attempt"),
                        ("score", "score"),
                        ("tokens", "tokens"),
                        ("costUSD", "observedCostUSD"),
                        ("observedCostTurns", "observedCostTurns"),
                        ("estimatedCostUSD", "estimatedCostUSD"),
                    ] {
                        assert_eq!(a[ours], page[theirs], "{}: {ours} of {}", source.display(), a["locator"]);
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50);
    report(&format!("compare: {checked} attempts read as their show --json page"));
}

#[test]
fn a_record_without_attempts_says_there_is_nothing_to_compare() {
    let dir = tempdir().join("empty-record");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("record.json"), r#"{"format":"niceeval.record","recordId":"r"}"#).unwrap();
    let out = Command::new(bin()).arg("compare").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("no attempts to compare"), "an empty table says nothing:\n{text}");
    assert!(!text.contains("change   eval"), "no empty matrix:\n{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the Record has no published attempts"));
}

/// Every cost `compare --json` prints on the real Records is rounded as
/// NiceEval's pricing allows (9 decimals): no `0.0007647999999999999`.
#[test]
fn compare_json_costs_carry_no_float_noise_on_real_records() {
    let mut costs = 0;
    for name in ["realrun-report", "realrun-sdk"] {
        let Some(record) = shared_path(&format!("samples/niceeval/{name}/record")) else { return };
        let out = Command::new(bin()).args(["compare", "--json"]).arg(&record).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut stack = vec![&v];
        while let Some(x) = stack.pop() {
            match x {
                Value::Object(o) => {
                    for (k, v) in o {
                        if let (true, Some(n)) = (k.ends_with("USD"), v.as_f64()) {
                            costs += 1;
                            let rounded: f64 = format!("{n:.9}").parse().unwrap();
                            assert_eq!(n, rounded, "{name}: {k} = {n} carries float noise");
                        }
                        stack.push(v);
                    }
                }
                Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    }
    assert!(costs > 0, "no cost was printed");
    report(&format!("compare --json: {costs} costs on real Records, none with float noise"));
}
