//! NiceEval's `show` grammar. With no path, `show` reads NiceEval's default
//! Record root, the nearest `.niceeval/record` from the working directory
//! upward; `--record DIR` names the root as NiceEval spells it; `--run ID`
//! reads only the published Runs named, `--experiment ID` only those
//! experiments' attempts; the flags only NiceEval's Report
//! takes name NiceEval's own CLI.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A project folder holding a copy of a small Record at `.niceeval/record`.
fn project(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-show-no-path-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_dir(&common::fixture("record-counting"), &dir.join(".niceeval/record"));
    std::fs::create_dir_all(dir.join("src/deep")).unwrap();
    dir
}

fn show(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(common::bin()).arg("show").args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn with_no_path_show_reads_the_nearest_niceeval_record_upward() {
    let dir = project("upward");
    let deep = dir.join("src/deep");
    let root = dir.join(".niceeval/record");
    let root = root.to_str().unwrap();
    for args in [&["--assertions", "--width", "100"][..], &["--json"][..]] {
        let (code, named, _) = show(&deep, &[&[root][..], args].concat());
        assert_eq!(code, 0);
        let (code, found, stderr) = show(&deep, args);
        assert_eq!(code, 0, "{stderr}");
        assert!(!found.is_empty());
        assert_eq!(found, named, "show {args:?} with no path differs from naming the Record");
        let (code, flagged, stderr) = show(&deep, &[&["--record", root][..], args].concat());
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(flagged, named, "show --record differs from naming the Record");
    }
    let (code, named, _) = show(&dir, &[root, "--json"]);
    assert_eq!(code, 0);
    let locator = serde_json::from_str::<serde_json::Value>(&named).unwrap()["attempts"][0]["locator"]
        .as_str()
        .map(str::to_owned)
        .expect("the fixture's first attempt has a locator");
    let (code, at, stderr) = show(&deep, &[&locator, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, at_named, _) = show(&deep, &[root, &locator, "--json"]);
    assert_eq!(at, at_named, "show @LOC with no path differs from naming the Record");
    let value: serde_json::Value = serde_json::from_str(&at).unwrap();
    assert_eq!(value["attempts"].as_array().map(Vec::len), Some(1), "{at}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn with_no_record_above_one_line_in_niceevals_words() {
    let dir = std::env::temp_dir().join(format!("niceeval-show-no-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (code, stdout, stderr) = show(&dir, &[]);
    assert_eq!(code, 2, "{stdout}");
    let start = dir.canonicalize().unwrap();
    assert_eq!(
        stderr,
        format!(
            "niceeval: No .niceeval/record found from {} upward. Run this inside the project, or pass --record <record-root> (or a path) to point at it.\n",
            start.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_and_a_path_together_is_a_usage_error() {
    let dir = project("both");
    let (code, stdout, stderr) = show(&dir, &["--record", ".niceeval/record", ".niceeval/record"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("--record names the Record root: give it or PATHs, not both"), "{stderr}");
    let (code, _, stderr) = show(&dir, &["--record", ".niceeval/record", "--tools"]);
    assert_eq!(code, 0, "a relative --record is read from the working directory: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_browser_flags_name_niceevals_own_cli() {
    let dir = project("browser");
    for (flag, value) in [("--page", "/attempts"), ("--report", "standard")] {
        let (code, stdout, stderr) = show(&dir, &[flag, value]);
        assert_eq!(code, 2, "{flag}: {stdout}");
        assert!(stdout.is_empty(), "{flag}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("niceeval show: {flag} selects a page or module of NiceEval's Report")),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("node_modules/.bin/niceeval show … {flag} …")), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn locators(json: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    value["attempts"].as_array().unwrap().iter().map(|a| a["locator"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn run_selects_the_published_runs_named_as_niceeval_does() {
    let dir = project("run");
    let deep = dir.join("src/deep");
    const A: &str = "a0000000-0000-4000-8000-00000000000a";
    const B: &str = "b0000000-0000-4000-8000-00000000000b";
    let (code, all, _) = show(&deep, &["--json"]);
    assert_eq!(code, 0);
    let all = locators(&all);
    assert_eq!(all.len(), 3, "{all:?}");
    // Run b executed nothing: it carries run a's third attempt.
    let (code, only_b, stderr) = show(&deep, &["--run", B, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(locators(&only_b), vec![all[2].clone()]);
    let (code, both, stderr) = show(&deep, &["--run", A, "--run", B, "--run", A, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(locators(&both), all, "each attempt once");
    let (code, _, stderr) = show(&deep, &["--record", dir.join(".niceeval/record").to_str().unwrap(), "--run", B]);
    assert_eq!(code, 0, "{stderr}");

    for (args, words) in [
        (vec!["--run", "nope"], "--run nope: no run with that id (no runs/nope/run.json)"),
        (vec!["--run", "../record"], "Invalid --run value \"../record\": expected one exact portable RunId."),
        (vec!["--run", B, "@X"], "An Attempt locator cannot combine with --run or --experiment."),
        (vec!["--run", B, "src"], "--run selects runs of a Record root (a folder holding record.json)"),
    ] {
        let (code, stdout, stderr) = show(&deep.join(".."), &args);
        assert_eq!(code, 2, "{args:?}: {stdout}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn experiment_narrows_to_the_attempts_and_slots_of_the_ids_named() {
    let counting = common::fixture("record-counting");
    let other = common::fixture("record/project/.niceeval/record");
    let (counting, other) = (counting.to_str().unwrap(), other.to_str().unwrap());
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, main_alone, _) = show(here, &[counting, "--json"]);
    assert_eq!(code, 0);
    let (code, narrowed, stderr) = show(here, &[counting, other, "--experiment", "main", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(locators(&narrowed), locators(&main_alone));
    // The not-recorded slots are said anew: only main's.
    assert!(stderr.contains("1 selected slot was not recorded: flaky attempt 3 of main"), "{stderr}");
    assert!(!stderr.contains("of fx"), "{stderr}");
    let (code, both, _) = show(here, &[counting, other, "--experiment", "fx", "--experiment", "main", "--json"]);
    assert_eq!(code, 0);
    let (_, unnarrowed, _) = show(here, &[counting, other, "--json"]);
    assert_eq!(locators(&both), locators(&unnarrowed));

    let (code, _, stderr) = show(here, &[counting, other, "--experiment", "nope"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--experiment nope: no attempt or slot of that experiment (experiments here: fx, main)"),
        "{stderr}"
    );
    for (args, words) in [
        (vec![counting, "--experiment", "main", "--run", "x"], "--experiment cannot combine with explicit --run."),
        (vec![counting, "--experiment", "main", "@X"], "An Attempt locator cannot combine with --run or --experiment."),
    ] {
        let (code, _, stderr) = show(here, &args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
}
