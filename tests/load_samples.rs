//! Open every sample under ../shared/samples with `niceeval::load::load_path`.
//! Skipped (with a printed notice) when ../shared is absent.

mod common;

use niceeval::load::load_path;
use niceeval::view::notice::words;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Files and Record roots under `dir`; files inside a Record root belong to it.
fn walk(dir: &Path, files: &mut Vec<PathBuf>, records: &mut Vec<PathBuf>) {
    if dir.join("record.json").is_file() {
        records.push(dir.to_path_buf());
        return;
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(_) => return,
    };
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, files, records);
        } else if p.file_name().is_some_and(|n| n != "README.md") {
            files.push(p);
        }
    }
}

#[test]
fn every_sample_opens() {
    let Some(shared) = common::shared_dir() else {
        println!("NOTICE: ../shared is absent; sample walk skipped");
        return;
    };
    let samples = shared.join("samples");
    let (mut files, mut records) = (Vec::new(), Vec::new());
    walk(&samples, &mut files, &mut records);
    let mut opened = 0;
    let mut failed = Vec::new();
    let items = records.iter().chain(files.iter());
    for path in items {
        let rel = path.strip_prefix(&samples).unwrap_or(path).display().to_string();
        match load_path(path.display().to_string()) {
            Ok(doc) => {
                opened += 1;
                every_event_row_is_found(&doc, &rel);
                println!("ok   {rel}: {} ({} attempts, {} events)", doc.format, doc.attempts.len(), doc.event_count());
            }
            Err(e) => failed.push(format!("{rel}: {e}")),
        }
    }
    common::report(&format!(
        "samples: {opened} opened, {} failed ({} record roots, {} files)",
        failed.len(),
        records.len(),
        files.len()
    ));
    for f in &failed {
        println!("FAILED: {f}");
    }
    assert!(opened > 50, "only {opened} samples opened");
    assert!(failed.is_empty(), "{} samples failed to open:\n{}", failed.len(), failed.join("\n"));
}

/// Every event's row is where `row_of_event` says, and every turn's header where `by_turn` says.
fn every_event_row_is_found(doc: &niceeval::model::document::Document, rel: &str) {
    let (views, _) = niceeval::analysis::build_views(doc, None, &niceeval::model::usage::builtin_prices());
    for view in &views {
        for (ri, row) in view.timeline.rows.iter().enumerate() {
            match row.event() {
                Some(e) => assert_eq!(view.timeline.row_of_event(row.addr(), e), Some(ri), "{rel}: row {ri}"),
                None if row.kind == niceeval::model::timeline::RowKind::TurnHeader => {
                    assert_eq!(view.timeline.by_turn.get(&row.addr()), Some(&ri), "{rel}: header {ri}")
                }
                None => {}
            }
        }
        for t in &view.derived.turns {
            assert_eq!(view.timeline.row_of_event(t.addr, 1 << 40), None, "{rel}: past the turn's events");
        }
    }
}

fn turn_nodes(result: &Value) -> Vec<(u64, u64, String)> {
    niceeval::load::format::summary::turn_nodes(result.get("phases"))
        .into_iter()
        .map(|n| {
            (
                n["sessionIndex"].as_u64().unwrap_or(0),
                n["turnIndex"].as_u64().unwrap_or(0),
                n["label"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The summary's turn split agrees with its own agent.turn nodes.
#[test]
fn invocation_summary_turn_split_matches_agent_turn_nodes() {
    let Some(shared) = common::shared_dir() else {
        println!("NOTICE: ../shared is absent; InvocationSummary split check skipped");
        return;
    };
    let dir = shared.join("samples/niceeval/generated/invocation-summary");
    let mut checked = 0;
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("invocation-summary dir").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let raw: Value = serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("sample is JSON");
        let doc = load_path(path.display().to_string()).expect("summary loads");
        assert_eq!(doc.format, "InvocationSummary");
        let results = raw["results"].as_array().expect("results");
        assert_eq!(doc.attempts.len(), results.len(), "{}", path.display());
        for (r, a) in results.iter().zip(&doc.attempts) {
            let nodes = turn_nodes(r);
            let got: Vec<(u64, u64, String)> = a
                .sessions
                .iter()
                .flat_map(|s| {
                    s.turns
                        .iter()
                        .enumerate()
                        .map(move |(i, t)| (s.index, i as u64 + 1, t.label.clone().unwrap_or_default()))
                })
                .collect();
            let mut want = nodes.clone();
            want.sort();
            let mut got_sorted = got.clone();
            got_sorted.sort();
            assert_eq!(got_sorted, want, "{} {}", path.display(), r["id"]);
            // Events: every event except the runner messages (with loc) is in a turn.
            let events = r["events"].as_array().map_or(0, Vec::len);
            let runner = r["events"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| e["role"] == "user" && e.get("loc").is_some())
                .count();
            let kept: usize = a.sessions.iter().flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
            assert_eq!(kept + runner, events, "{} {}", path.display(), r["id"]);
            assert!(a.sessions.iter().flat_map(|s| &s.turns).all(|t| t.turn.status.is_none()));
            assert_eq!(a.attempt_number, r["attempt"].as_u64().map(|n| n + 1));
            // Real summaries split cleanly: no warnings about boundaries
            // (a not-complete attempt coverage is a true warning of its own).
            let warnings: Vec<String> = a
                .notices
                .iter()
                .filter(|n| n.level >= niceeval::model::document::NoticeLevel::Warning)
                .map(words)
                .filter(|m| !m.starts_with("evidence coverage"))
                .collect();
            let partial_coverage = r["evidenceCoverage"]
                .as_object()
                .is_some_and(|c| c.values().any(|e| e["status"].as_str().is_some_and(|s| s != "complete")));
            assert_eq!(
                partial_coverage,
                a.notices.iter().any(|n| words(n).starts_with("evidence coverage")),
                "{} {}",
                path.display(),
                r["id"]
            );
            assert!(warnings.is_empty(), "{} {}: {warnings:?}", path.display(), r["id"]);
            for n in &a.notices {
                println!(
                    "  {} {}: {:?} {}",
                    path.file_name().unwrap_or_default().display(),
                    r["id"],
                    n.level,
                    words(n)
                );
            }
            checked += 1;
        }
    }
    println!("invocation summaries: {checked} results checked against their agent.turn nodes");
    assert!(checked >= 15, "{checked}");
}

/// Kitchen `coding`: 6 agent.turn nodes → session 1 with 4 turns, session 2 with 2.
#[test]
fn kitchen_coding_split() {
    let Some(shared) = common::shared_dir() else {
        println!("NOTICE: ../shared is absent; kitchen split check skipped");
        return;
    };
    let path = shared.join("samples/niceeval/generated/invocation-summary/summary-kitchen.json");
    let doc = load_path(path.display().to_string()).expect("kitchen summary loads");
    let coding = doc.attempts.iter().find(|a| a.eval_id.as_deref() == Some("coding")).expect("coding attempt");
    let shape: Vec<(u64, usize)> = coding.sessions.iter().map(|s| (s.index, s.turns.len())).collect();
    assert_eq!(shape, vec![(1, 4), (2, 2)]);
    let t1 = &coding.sessions[0].turns[0];
    assert_eq!(t1.input_text(), Some("hi"));
    assert_eq!(t1.trace_id.as_deref(), Some("4b0f3a96b5f5bfc256e771f54711d132"));
    assert_eq!(t1.turn.usage.and_then(|u| u.input_tokens), Some(412.0));
    assert_eq!(t1.turn.usage.and_then(|u| u.cost_usd), None, "absent costUSD stays absent");
    // turn3: the agent-internal user message (no loc) stays an event.
    let t3 = &coding.sessions[0].turns[2];
    assert!(t3.turn.events.iter().any(|e| e.raw()["role"] == "user" && e.raw().get("loc").is_none()));
    assert_eq!(coding.attempt_number, Some(1));
    assert_eq!(coding.verdict.map(|v| v.as_str()), Some("failed"));
    assert_eq!(coding.locator.as_deref(), Some("@1H5T13YM0H4DW"));
    assert_eq!(coding.reported_usage.and_then(|u| u.input_tokens), Some(41302.0));
    assert!(coding.reported_estimate.is_some_and(|c| (c - 0.2877354).abs() < 1e-9));
    assert!(coding.events_exact);
    assert!(coding.review.trace.as_ref().and_then(Value::as_array).is_some_and(|t| !t.is_empty()));
    assert!(!coding.review.sources.is_empty());
    assert!(coding.review.timing.intervals.iter().any(|t| t.label == "session2/turn1"));
}
