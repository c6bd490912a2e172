//! Record directories, `show --json` documents and `exp --json` streams.

mod common;

use niceeval::load::{self, locator::attempt_locator};
use niceeval::model::document::{Attempt, Document};
use std::path::{Path, PathBuf};

#[allow(dead_code)]
fn attempt<'a>(doc: &'a Document, eval: &str) -> &'a Attempt {
    doc.attempts.iter().find(|a| a.eval_id.as_deref() == Some(eval)).unwrap_or_else(|| {
        panic!("no attempt for eval {eval}: {:?}", doc.attempts.iter().map(|a| &a.eval_id).collect::<Vec<_>>())
    })
}

fn notices(doc: &Document) -> String {
    doc.notices.iter().map(|n| format!("{:?}: {}\n", n.level, n.message)).collect()
}

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                all_files(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

fn print_attempts(doc: &Document) {
    for a in &doc.attempts {
        let failing = a.review.assertions.as_deref().unwrap_or(&[]).iter().filter(|x| x.is_failing()).count();
        println!(
            "  {} {:<30} verdict={:<8} outcome={:<10} turns={} assertions={} failing={}",
            a.locator.as_deref().unwrap_or("-"),
            format!("{}/{}", a.experiment_id.as_deref().unwrap_or("-"), a.eval_id.as_deref().unwrap_or("-")),
            a.verdict.as_deref().unwrap_or("?"),
            a.outcome.as_deref().unwrap_or("?"),
            a.sessions.iter().map(|s| s.turns.len()).sum::<usize>(),
            a.review.assertions.as_ref().map_or(0, Vec::len),
            failing
        );
    }
}

#[test]
fn locator_test_vector() {
    assert_eq!(attempt_locator("fff46600-698f-440f-aa51-e5f027964599"), "@1EPKKSFC052VY");
}

// ---------- shared samples (skipped when ../shared is absent) ----------

const FAILING: [&str; 6] =
    ["@1EPKKSFC052VY", "@14R83JM9GP1Z2", "@11QF4V20M9X1V", "@1H5T13YM0H4DW", "@10G3VFDSDX7AY", "@1685J7YTJCETQ"];

fn record_roots(shared: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    all_files(&shared.join("samples/niceeval"), &mut files);
    let mut roots: Vec<PathBuf> = files
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "record.json"))
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .collect();
    roots.sort();
    roots
}

#[test]
fn shared_records_open_and_failing_attempts_are_found() {
    let Some(shared) = common::shared_dir() else {
        println!("NOTICE: ../shared is absent; shared Record samples skipped");
        return;
    };
    let roots = record_roots(&shared);
    assert!(roots.len() >= 4, "expected the generated Records and the v1 repo Record, found {roots:?}");
    let mut found = Vec::new();
    for root in &roots {
        let found_root = load::record::find(root).expect("find() recognises the root");
        let doc = load::record::load_dir(&found_root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
        println!("{} → {} attempt(s)", root.display(), doc.attempts.len());
        print_attempts(&doc);
        print!("{}", notices(&doc));
        assert!(!doc.attempts.is_empty(), "{}: no attempts", root.display());
        for a in &doc.attempts {
            assert!(a.locator.is_some() || a.review.membership.as_ref().is_some_and(|m| m.origin_run_id.is_none()));
            if a.attempt_id.is_some() {
                assert!(
                    a.verdict.is_some() || a.review.assertions.is_none(),
                    "{:?} has assertions but no verdict",
                    a.locator
                );
                assert!(!a.events_exact);
            }
            if let Some(loc) = a.locator.as_deref()
                && FAILING.contains(&loc)
            {
                found.push((loc.to_string(), root.clone(), a.clone()));
            }
        }
    }
    for loc in FAILING {
        let (_, root, a) =
            found.iter().find(|(l, _, _)| l == loc).unwrap_or_else(|| panic!("{loc} not found in any Record"));
        let failing: Vec<_> = a.review.assertions.as_deref().unwrap_or(&[]).iter().filter(|x| x.is_failing()).collect();
        println!(
            "{loc} ({}) in {}: verdict {:?}, {} failing assertion(s): {}",
            a.eval_id.as_deref().unwrap_or("-"),
            root.display(),
            a.verdict,
            failing.len(),
            failing
                .iter()
                .map(|x| format!("{} [{:?}/{:?}]", x.label, x.result, x.gate))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        assert!(matches!(a.verdict.as_deref(), Some("failed" | "errored")), "{loc}: verdict {:?}", a.verdict);
        assert!(!failing.is_empty(), "{loc}: no failing assertion");
    }
}
