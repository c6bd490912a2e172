//! Record directories, `show --json` documents and `exp --json` streams.

mod common;

use niceeval::load::{self, format::locator::attempt_locator};
use niceeval::model::document::{Attempt, Completeness, DiagnosticLocator, Document, Fact, NoticeLevel, Score};
use niceeval::model::event::EventKind;
use niceeval::view::notice::words;
use std::path::{Path, PathBuf};

fn attempt<'a>(doc: &'a Document, eval: &str) -> &'a Attempt {
    doc.attempts.iter().find(|a| a.eval_id.as_deref() == Some(eval)).unwrap_or_else(|| {
        panic!("no attempt for eval {eval}: {:?}", doc.attempts.iter().map(|a| &a.eval_id).collect::<Vec<_>>())
    })
}

fn notices(doc: &Document) -> String {
    doc.all_notices().map(|n| format!("{:?}: {}\n", n.level, words(n))).collect()
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
        let failing = a.review.assertions.as_deref().unwrap_or(&[]).iter().filter(|x| failing(x)).count();
        println!(
            "  {} {:<30} verdict={:<8} outcome={:<10} turns={} assertions={} failing={}",
            a.locator.as_deref().unwrap_or("-"),
            format!("{}/{}", a.experiment_id.as_deref().unwrap_or("-"), a.eval_id.as_deref().unwrap_or("-")),
            a.verdict.map(|v| v.as_str()).unwrap_or("?"),
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
        let found_root = load::format::record::find(root).expect("find() recognises the root");
        let doc = load::format::record::load_dir(&found_root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
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
        let failing: Vec<_> = a.review.assertions.as_deref().unwrap_or(&[]).iter().filter(|x| failing(x)).collect();
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
        assert!(matches!(a.verdict.map(|v| v.as_str()), Some("failed" | "errored")), "{loc}: verdict {:?}", a.verdict);
        assert!(!failing.is_empty(), "{loc}: no failing assertion");
    }
}

// ---------- the project's own Record fixture ----------

fn fixture_doc() -> Document {
    let project = common::fixture("record").join("project");
    let root = load::format::record::find(&project).expect("find() looks in dir/.niceeval/record");
    assert!(root.ends_with(".niceeval/record"));
    load::format::record::load_dir(&root).expect("fixture Record opens")
}

/// Failing, errored, unavailable, or a soft (not gating) mismatch: anything to look at.
fn failing(a: &niceeval::model::document::Assertion) -> bool {
    use niceeval::model::verdict::{AssertionOutcome, assertion_outcome};
    let o = assertion_outcome(a);
    o.is_failing() || o == AssertionOutcome::FailedSoft
}

fn has_notice(doc: &Document, level: NoticeLevel, parts: &[&str]) -> bool {
    doc.all_notices().any(|n| n.level == level && parts.iter().all(|p| words(n).contains(p)))
}

#[test]
fn fixture_record_runs_members_and_drafts() {
    let doc = fixture_doc();
    print_attempts(&doc);
    print!("{}", notices(&doc));
    assert_eq!(doc.format, "NiceEval Record");
    // 4 executed attempts from run A, + the carried attempt from run B; run A's
    // not-dispatched slot is no attempt (NiceEval: a slot not recorded).
    // Attempt 1 is accepted by run B too but appears once. The draft run's attempt is ignored.
    let evals: Vec<_> = doc.attempts.iter().map(|a| a.eval_id.as_deref().unwrap_or("-")).collect();
    assert_eq!(evals, ["values", "judge", "files", "blobs", "carried"]);
    assert!(!evals.contains(&"draft-eval"));
    assert!(has_notice(&doc, NoticeLevel::Info, &["draft", "draft-run"]));

    let values = attempt(&doc, "values");
    let m = values.review.membership.as_ref().expect("membership");
    assert_eq!(m.action.as_deref(), Some("executed"));
    assert_eq!(m.also_in, vec![("22222222-2222-4222-8222-222222222222".to_string(), "accepted".to_string())]);

    let carried = attempt(&doc, "carried");
    let m = carried.review.membership.as_ref().expect("membership");
    assert_eq!(m.action.as_deref(), Some("carried"));
    assert_eq!(m.run_id.as_deref(), Some("22222222-2222-4222-8222-222222222222"));
    assert_eq!(m.origin_run_id.as_deref(), Some("11111111-1111-4111-8111-111111111111"));
    assert_eq!(carried.locator.as_deref(), Some(attempt_locator("aaaaaaaa-0000-4000-8000-000000000006").as_str()));
    // v1 assertion shape (subject/result) read; its failed gate folds to failed.
    let a = &carried.review.assertions.as_ref().expect("v1 assertions")[0];
    assert_eq!((a.result.as_deref(), a.gate.as_deref()), (Some("mismatched"), Some("failed")));
    assert_eq!(a.criterion.as_deref(), Some("value-match"));
    assert_eq!(a.checked_value, Some(serde_json::json!({"answer": 42})));
    assert_eq!(a.diagnostic().and_then(|d| d.code).as_deref(), Some("equals-mismatch"));
    assert_eq!(carried.verdict.map(|v| v.as_str()), Some("failed"));

    let [skipped] = doc.slots_not_recorded.as_slice() else { panic!("{:?}", doc.slots_not_recorded) };
    assert_eq!(skipped.eval_id.as_deref(), Some("skipped-slot"));
    assert_eq!(skipped.action.as_deref(), Some("not-dispatched"));
    assert_eq!((skipped.attempt_number, skipped.experiment_id.as_deref()), (Some(1), Some("fx")));
    assert!(has_notice(&doc, NoticeLevel::Warning, &["1 selected slot was not recorded", "skipped-slot"]));

    // Run facts on every attempt.
    assert_eq!(values.experiment_id.as_deref(), Some("fx"));
    assert_eq!(values.model.as_deref(), Some("fixture-model"));
    assert_eq!(values.agent.as_deref(), Some("fixture-agent"));
    assert_eq!(values.attempt_number, Some(1));
    assert_eq!(values.started_at.as_deref(), Some("2026-11-30T00:53:20.000Z"));
    // Sources come from the origin run, blob-resolved.
    assert_eq!(values.review.sources.len(), 1);
    assert!(values.review.sources[0].content.as_deref().is_some_and(|c| c.contains("t.send(\"hi\")")));
}

#[test]
fn fixture_record_turns_are_rebuilt_without_fabrication() {
    let doc = fixture_doc();
    let a = attempt(&doc, "values");
    assert!(!a.events_exact);
    assert!(
        matches!(&a.events, Some(Completeness::Partial(l)) if l.iter().any(|x| x.contains("unsupported-input") && x.contains("at least 2")))
    );
    assert!(a.notices.iter().any(|n| words(n).contains("recorded as completed")), "waiting-as-completed notice");
    // Two sessions from the timing labels via the source-navigation join.
    assert_eq!(a.sessions.iter().map(|s| (s.index, s.turns.len())).collect::<Vec<_>>(), [(1, 1), (2, 1)]);
    let t1 = &a.sessions[0].turns[0];
    assert!(t1.reconstructed);
    assert_eq!(t1.label.as_deref(), Some("turn1"));
    assert_eq!(t1.input_text(), Some("hi"));
    assert_eq!(t1.duration_ms, Some(300.0));
    assert_eq!(t1.turn.status.as_deref(), Some("completed"));
    assert_eq!(t1.turn.usage, None, "per-turn usage is not attributable in a Record");
    // One event per non-input item; the runner's user message became the input.
    let kinds: Vec<String> = t1.turn.events.iter().filter_map(|e| e.type_name().map(|t| t.into_owned())).collect();
    assert_eq!(
        kinds,
        [
            "message",
            "operation.started",
            "operation.finished",
            "skill.loaded",
            "operation.started",
            "operation.finished",
            "context.injected"
        ]
    );
    assert!(t1.turn.events.iter().all(|e| !e.is_unrecognized()), "{:?}", t1.turn.events);
    let started = &t1.turn.events[1];
    assert!(
        matches!(&started.kind, EventKind::ToolStarted { operation_id, name, .. } if &**operation_id == "call_0001" && &**name == "Read")
    );
    assert_eq!(
        started.tool_input().as_deref(),
        Some(&serde_json::json!({"path": "a.txt"})),
        "input parsed from the JSON summary"
    );
    let finished = &t1.turn.events[2];
    assert_eq!(
        finished.output().as_deref(),
        Some(&serde_json::json!("plain text, not JSON")),
        "unparseable summary kept as a string"
    );
    assert!(matches!(&t1.turn.events[5].kind, EventKind::SubagentFinished { status, .. } if &**status == "failed"));
    let t2 = &a.sessions[1].turns[0];
    assert_eq!(t2.label.as_deref(), Some("session2/turn1"));
    let kinds: Vec<String> = t2.turn.events.iter().filter_map(|e| e.type_name().map(|t| t.into_owned())).collect();
    assert_eq!(kinds, ["operation.started", "input.requested", "error"]);

    // Usage is the attempt total.
    let u = a.reported_usage.expect("usage");
    assert_eq!(
        (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_creation_tokens),
        (Some(100.0), Some(20.0), Some(5.0), None)
    );
    assert_eq!(u.requests, Some(2.0));
    assert_eq!(u.cost_usd, Some(0.0123));
    // Timing, diagnostics, send sites.
    assert_eq!(a.review.timing.intervals.len(), 3);
    assert_eq!(a.duration_ms, Some(900.0));
    assert_eq!(a.review.diagnostics.len(), 1);
    assert_eq!(a.review.diagnostics[0].causes, ["latency: provider slow"]);
    let send = a.review.source_sites.iter().find(|s| s.role.as_deref() == Some("send")).expect("send site");
    assert_eq!((send.line, send.turn_label.as_deref()), (5, Some("turn1")));
}

#[test]
fn fixture_record_assertions_and_verdicts() {
    let doc = fixture_doc();
    let a = attempt(&doc, "values");
    assert_eq!(a.verdict.map(|v| v.as_str()), Some("failed"));
    let list = a.review.assertions.as_ref().expect("assertions");
    assert_eq!(list.len(), 3);
    assert_eq!(list.iter().filter(|x| failing(x)).count(), 2);

    // Failed value check with a json-pointer locator.
    let v = &list[0];
    assert_eq!(v.label, "answer is 42");
    assert_eq!(v.group_path, ["fixture"]);
    assert_eq!(v.criterion.as_deref(), Some("value-match"));
    assert_eq!(v.requirement.as_deref(), Some("required"));
    assert_eq!(v.checked_value, Some(serde_json::json!({"answer": 41})));
    assert_eq!(v.source_order, Some(3));
    assert_eq!(v.check.as_ref().and_then(|c| c.get("id")).and_then(|f| f.as_str()), Some("value-match/v1"));
    assert_eq!(v.expected.as_ref().and_then(|c| c.get("kind")).and_then(|f| f.as_str()), Some("boolean"));
    let d = v.diagnostic().expect("diagnostic tree");
    assert_eq!(d.code.as_deref(), Some("equals-mismatch"));
    assert_eq!(d.path, ["answer"]);
    assert_eq!(d.locator, Some(DiagnosticLocator::JsonPointer("/answer".into())));

    // Failed tool-occurrence check: the locator resolves to the shell call in session 2.
    let t = &list[1];
    assert_eq!(t.criterion.as_deref(), Some("occurrence"));
    let d = t.diagnostic().expect("diagnostic tree");
    let occ = d.tool_occurrences();
    assert_eq!(occ.len(), 1, "locator and candidate label name the same occurrence");
    let r = &occ[0];
    assert_eq!((r.session_index(), r.turn_index(), r.event_index()), (Some(2), Some(1), Some(0)));
    assert_eq!(d.children.len(), 1);
    assert_eq!(d.children[0].state.as_deref(), Some("matched"));
    assert_eq!(d.children[0].diagnostic.as_ref().and_then(|x| x.code.as_deref()), Some("all-of-match"));
    let session = a.sessions.iter().find(|s| Some(s.index) == r.session_index()).expect("session 2");
    let turn = &session.turns[r.turn_index().unwrap_or(1) as usize - 1];
    let ev = &turn.turn.events[r.event_index().unwrap_or(usize::MAX)];
    assert!(matches!(&ev.kind, EventKind::ToolStarted { name, .. } if &**name == "shell"));

    // Unavailable required judge → errored, with the judge's reason.
    let j = attempt(&doc, "judge");
    assert_eq!(j.verdict.map(|v| v.as_str()), Some("errored"));
    let ja = &j.review.assertions.as_ref().expect("assertions")[0];
    assert_eq!(ja.result.as_deref(), Some("unavailable"));
    let judge = ja.judge.as_ref().expect("judge reading");
    assert_eq!(judge.unavailable_reason.as_deref(), Some("judge-model-unresolved"));
    assert_eq!(judge.threshold, Some(0.7));
    assert_eq!(judge.score, None);
    assert_eq!(judge.recipe.as_deref(), Some("closed-qa"));
    assert!(matches!(judge.rationale, Some(Fact::Unavailable(ref r)) if r == "not-recorded"));
    assert_eq!(j.score, Some(Score { earned: None, points: Some(1.0) }));
    // The judge attempt's trace artifact resolves.
    assert!(j.review.trace.as_ref().and_then(|t| t.as_array()).is_some_and(|s| s.len() == 1));

    // Empty assertions list with a completed outcome → passed.
    assert_eq!(attempt(&doc, "files").verdict.map(|v| v.as_str()), Some("passed"));
}

#[test]
fn fixture_record_unknown_family_and_future_version_are_notices() {
    let doc = fixture_doc();
    assert!(has_notice(&doc, NoticeLevel::Warning, &["unknown attachment family", "acme.custom"]), "{}", notices(&doc));
    assert!(
        has_notice(&doc, NoticeLevel::Warning, &["niceeval.observability schemaVersion 3", "newer"]),
        "{}",
        notices(&doc)
    );
    // The rest of the judge attempt still opened.
    let j = attempt(&doc, "judge");
    assert!(j.review.assertions.is_some());
    assert_eq!(j.events, Some(Completeness::NotRecorded));
}

#[test]
fn fixture_record_file_changes_and_blob_problems() {
    let doc = fixture_doc();
    let f = attempt(&doc, "files").review.file_changes.as_ref().expect("file changes");
    assert_eq!(f.state, Some(Completeness::Complete));
    let c: Vec<_> = f.changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(c, [('M', "config.toml"), ('A', "new.txt"), ('D', "logo.png")]);
    assert_eq!(f.changes[0].before.as_deref(), Some("version = 1\n"));
    assert_eq!(f.changes[0].after.as_deref(), Some("version = 2\n"));
    assert_eq!(f.changes[1].before, None);
    assert!(f.changes[2].note.as_deref().is_some_and(|n| n.contains("binary") && n.contains("2048")));
    // Not recorded ≠ no changes.
    let v = attempt(&doc, "values").review.file_changes.as_ref().expect("state");
    assert_eq!(v.state, Some(Completeness::NotRecorded));

    let b = attempt(&doc, "blobs");
    assert!(
        has_notice(&doc, NoticeLevel::Warning, &["b0000000-0000-4000-8000-00000000dead", "missing"]),
        "missing blob named: {}",
        notices(&doc)
    );
    assert!(
        has_notice(&doc, NoticeLevel::Warning, &["b0000000-0000-4000-8000-000000000006", "sha256"]),
        "sha mismatch named: {}",
        notices(&doc)
    );
    assert_eq!(b.review.trace, None, "a blob failing its sha256 is not shown");
    let fc = b.review.file_changes.as_ref().expect("file changes");
    assert_eq!(fc.changes[0].after, None);
    assert!(fc.changes[0].note.as_deref().is_some_and(|n| n.contains("unavailable")));
    assert_eq!(b.verdict.map(|v| v.as_str()), Some("passed"), "the rest of the attempt still opens");
}

#[test]
fn fixture_record_json_path_opens_through_load_path() {
    let p = common::fixture("record").join("project/.niceeval/record/record.json");
    let doc = load::load_path(p.display().to_string()).expect("record.json opens its Record");
    assert_eq!((doc.attempts.len(), doc.slots_not_recorded.len()), (5, 1));
    let dir = common::fixture("record").join("project");
    let doc = load::load_path(dir.display().to_string()).expect("project dir opens its Record");
    assert_eq!((doc.attempts.len(), doc.slots_not_recorded.len()), (5, 1));
}

// ---------- show --json and exp --json ----------

#[test]
fn fixture_show_json_attempt_and_merge() {
    let attempt_path = common::fixture("show-json").join("broken.attempt.json").display().to_string();
    let source_path = common::fixture("show-json").join("broken.source.json").display().to_string();
    let doc = load::load_path(&attempt_path).expect("show attempt opens");
    assert_eq!(doc.format, "niceeval show --json (attempt)");
    assert_eq!(doc.attempts.len(), 1);
    let a = &doc.attempts[0];
    assert_eq!(a.locator.as_deref(), Some("@1EPKKSFC052VY"));
    assert_eq!((a.eval_id.as_deref(), a.experiment_id.as_deref()), (Some("broken"), Some("fx")));
    assert_eq!(a.model.as_deref(), Some("fixture-model"));
    assert_eq!((a.verdict.map(|v| v.as_str()), a.outcome.as_deref()), (Some("failed"), Some("completed")));
    let x = &a.review.assertions.as_ref().expect("assertions")[0];
    assert_eq!(x.criterion.as_deref(), Some("scope-status"));
    assert_eq!(
        (x.result.as_deref(), x.gate.as_deref(), x.requirement.as_deref()),
        (Some("mismatched"), Some("failed"), Some("required"))
    );
    assert_eq!(x.checked_value, Some(serde_json::json!({"status": "failed"})));
    assert_eq!(x.receipt.as_ref().and_then(|r| r.get("examined")), Some(&serde_json::json!(1)));
    assert_eq!(x.diagnostic().and_then(|d| d.message).as_deref(), Some("turn status was failed"));
    // Conversation rebuilt; label from the agent.send interval by order.
    assert_eq!(a.sessions.len(), 1);
    let t = &a.sessions[0].turns[0];
    assert_eq!(
        (t.label.as_deref(), t.turn.status.as_deref(), t.input_text()),
        (Some("turn1"), Some("failed"), Some("return a failed turn"))
    );
    assert_eq!(t.turn.events.len(), 1);
    assert_eq!(t.turn.events[0].type_name().as_deref(), Some("error"));
    assert_eq!(a.reported_usage.and_then(|u| u.input_tokens), Some(7.0));
    assert_eq!(a.review.file_changes.as_ref().and_then(|f| f.state.clone()), Some(Completeness::NotRecorded));

    // The source page of the same locator combines into the same attempt.
    let doc = load::load_paths(&[attempt_path, source_path]).expect("both open");
    assert_eq!(doc.attempts.len(), 1, "same-locator parts combine");
    let a = &doc.attempts[0];
    assert_eq!(a.review.sources.len(), 1);
    assert_eq!(a.review.sources[0].content.as_deref(), Some("export default 1;\n"));
    assert!(a.review.assertions.is_some() && !a.sessions.is_empty());
}

#[test]
fn fixture_exp_stream() {
    let path = common::fixture("exp").join("run.ndjson");
    let bytes = std::fs::read(&path).expect("fixture");
    let doc = load::format::exp::load(&path.display().to_string(), &bytes).expect("exp stream opens");
    print!("{}", notices(&doc));
    let locs: Vec<_> = doc
        .attempts
        .iter()
        .map(|a| (a.locator.as_deref().unwrap_or("-"), a.verdict.map(|v| v.as_str()).unwrap_or("?")))
        .collect();
    assert_eq!(locs, [("@1H5T13YM0H4DW", "failed"), ("@11QF4V20M9X1V", "errored"), ("@185JBHE14AE4C", "passed")]);
    let coding = &doc.attempts[0];
    assert_eq!(coding.events, Some(Completeness::NotRecorded));
    assert!(coding.sessions.is_empty());
    let x = &coding.review.assertions.as_ref().expect("failure line → assertion")[0];
    assert_eq!(x.label, "edited a file");
    assert_eq!(niceeval::model::verdict::assertion_outcome(x), niceeval::model::verdict::AssertionOutcome::Failed);
    assert_eq!(x.observed, Some(Fact::Value(serde_json::json!("0 definite matches"))));
    let judge = &doc.attempts[1];
    assert_eq!(judge.review.diagnostics[0].message, "judge model unresolved");
    assert_eq!(judge.review.diagnostics[0].phase.as_deref(), Some("eval.run"));
    assert!(has_notice(&doc, NoticeLevel::Warning, &["price-missing"]));
    assert!(has_notice(&doc, NoticeLevel::Info, &["from_the_future"]));
    assert!(!doc.notices.iter().any(|n| words(n).contains("progress")), "heartbeats are skipped");
}

fn shared_files(sub: &str, ext: &str) -> Option<Vec<PathBuf>> {
    let shared = common::shared_dir()?;
    let mut files = Vec::new();
    all_files(&shared.join("samples/niceeval/generated").join(sub), &mut files);
    files.retain(|p| p.to_string_lossy().ends_with(ext));
    files.sort();
    Some(files)
}

#[test]
fn shared_show_json_files_open_and_agree_with_the_record_fold() {
    let Some(files) = shared_files("show-json", ".json") else {
        println!("NOTICE: ../shared is absent; show-json samples skipped");
        return;
    };
    assert!(files.len() >= 20, "{files:?}");
    let mut official: Vec<(String, String)> = Vec::new();
    for f in &files {
        let doc = load::load_path(f.display().to_string()).unwrap_or_else(|e| panic!("{e}"));
        println!("{} → {} ({} attempt(s))", f.display(), doc.format, doc.attempts.len());
        print_attempts(&doc);
        assert!(!doc.attempts.is_empty(), "{}", f.display());
        for a in &doc.attempts {
            assert!(a.locator.is_some());
            if let Some(v) = a.verdict.map(|v| v.as_str()) {
                official.push((a.locator.clone().unwrap_or_default(), v.to_string()));
            }
            if f.to_string_lossy().ends_with(".attempt.json") {
                assert!(a.review.assertions.is_some(), "{}: assertions", f.display());
                assert!(a.events.is_some(), "{}: conversation state", f.display());
                if let Some(loc) = a.locator.as_deref()
                    && FAILING.contains(&loc)
                {
                    let failing = a.review.assertions.as_deref().unwrap_or(&[]).iter().filter(|x| failing(x)).count();
                    println!("  {loc}: verdict {:?}, {failing} failing assertion(s)", a.verdict);
                    assert!(matches!(a.verdict.map(|v| v.as_str()), Some("failed" | "errored")));
                    assert!(failing > 0);
                }
            }
        }
    }
    // The verdict `show` folded must equal ours from the Record.
    let shared = common::shared_dir().expect("present");
    let mut ours = std::collections::HashMap::new();
    for root in record_roots(&shared) {
        for a in load::format::record::load_dir(&root).expect("opens").attempts {
            if let (Some(l), Some(v)) = (a.locator, a.verdict) {
                ours.insert(l, v.as_str().to_string());
            }
        }
    }
    let mut compared = 0;
    for (loc, v) in &official {
        if let Some(mine) = ours.get(loc) {
            assert_eq!(mine, v, "{loc}: Record fold {mine} vs show --json {v}");
            compared += 1;
        }
    }
    println!("{compared} show --json verdicts equal the Record fold");
    assert!(compared >= 6);
}

#[test]
fn shared_exp_json_streams_open() {
    let Some(files) = shared_files("exp-json", ".ndjson") else {
        println!("NOTICE: ../shared is absent; exp-json samples skipped");
        return;
    };
    assert!(files.len() >= 8);
    let mut seen = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).expect("readable");
        let doc = load::format::exp::load(&f.display().to_string(), &bytes).unwrap_or_else(|e| panic!("{e}"));
        println!("{} → {} attempt(s)", f.display(), doc.attempts.len());
        print_attempts(&doc);
        for a in &doc.attempts {
            assert_eq!(a.events, Some(Completeness::NotRecorded));
            assert!(a.verdict.is_some(), "{:?} has a verdict", a.locator);
            seen.push((
                a.locator.clone().unwrap_or_default(),
                a.verdict.map(|v| v.as_str()).unwrap_or_default(),
                a.clone(),
            ));
        }
    }
    for loc in FAILING {
        let (_, v, a) = seen.iter().find(|(l, _, _)| l == loc).unwrap_or_else(|| panic!("{loc} not in exp streams"));
        assert!(*v == "failed" || *v == "errored", "{loc}: {v}");
        assert!(a.review.assertions.is_some() || !a.review.diagnostics.is_empty(), "{loc}: a failure or error line");
    }
}

#[test]
fn shared_record_derivations_equal_show_json() {
    let Some(files) = shared_files("show-json", ".attempt.json") else {
        println!("NOTICE: ../shared is absent; comparison skipped");
        return;
    };
    let shared = common::shared_dir().expect("present");
    let mut record_attempts = Vec::new();
    for root in record_roots(&shared) {
        record_attempts.extend(load::format::record::load_dir(&root).expect("opens").attempts);
    }
    let (mut entries, mut turns) = (0, 0);
    for f in &files {
        let doc = load::load_path(f.display().to_string()).expect("opens");
        for s in &doc.attempts {
            let r = record_attempts.iter().find(|a| a.locator == s.locator).expect("same attempt in a Record");
            let (sl, rl) =
                (s.review.assertions.as_deref().unwrap_or(&[]), r.review.assertions.as_deref().unwrap_or(&[]));
            assert_eq!(sl.len(), rl.len(), "{:?}", s.locator);
            for (x, y) in sl.iter().zip(rl) {
                assert_eq!(x.entry_id, y.entry_id);
                assert_eq!(
                    (&x.label, &x.criterion, &x.result, &x.gate, &x.requirement),
                    (&y.label, &y.criterion, &y.result, &y.gate, &y.requirement)
                );
                assert_eq!(x.check, y.check, "{:?} check", x.entry_id);
                assert_eq!(x.expected, y.expected, "{:?} expected", x.entry_id);
                assert_eq!(x.observed, y.observed, "{:?} observed", x.entry_id);
                assert_eq!(x.explanation, y.explanation, "{:?} explanation", x.entry_id);
                assert_eq!(x.contribution, y.contribution, "{:?} contribution", x.entry_id);
                assert_eq!(x.receipt, y.receipt, "{:?} receipt", x.entry_id);
                entries += 1;
            }
            // Same turns, labels and events whether joined by source-navigation or by order.
            let shape = |a: &Attempt| {
                a.sessions
                    .iter()
                    .flat_map(|s| {
                        s.turns
                            .iter()
                            .map(move |t| (s.index, t.label.clone(), t.turn.events.len(), t.turn.status.clone()))
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(shape(s), shape(r), "{:?} turns", s.locator);
            turns += shape(s).len();
            assert_eq!(s.reported_usage, r.reported_usage);
        }
    }
    println!("{entries} assertion entries and {turns} turns agree between show --json and the Record");
    assert!(entries > 50 && turns > 10);
}

// ---------- no panics on damaged input ----------

/// Every variant of `v` with one sub-value replaced by a value of another type.
fn mutations(v: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::{Value, json};
    let replacements = [Value::Null, json!(-1), json!(1.5e300), json!("x"), json!([]), json!({}), json!(true)];
    let mut paths = Vec::new();
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    path.push(k.clone());
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(i.to_string());
                    walk(x, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    walk(v, &mut Vec::new(), &mut paths);
    let mut out = Vec::new();
    for p in paths {
        for r in &replacements {
            let mut m = v.clone();
            let pointer = p.iter().map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1"))).collect::<String>();
            if let Some(slot) = m.pointer_mut(&pointer) {
                *slot = r.clone();
                out.push(m);
            }
        }
    }
    out
}

fn read_fixture_json(rel: &str) -> serde_json::Value {
    let p = common::fixture("record").join("project/.niceeval/record").join(rel);
    serde_json::from_slice(&std::fs::read(&p).expect("fixture")).expect("json")
}

#[test]
fn damaged_inputs_never_panic() {
    use niceeval::load::format::assertions;
    use niceeval::load::format::record::observability;
    let a1 = "runs/11111111-1111-4111-8111-111111111111/attempts/aaaaaaaa-0000-4000-8000-000000000001/attachments";
    let obs = read_fixture_json(&format!("{a1}/niceeval.observability/payload.json"));
    let nav = read_fixture_json(&format!("{a1}/niceeval.source-navigation/payload.json"));
    let asr = read_fixture_json(&format!("{a1}/niceeval.assertions/payload.json"));
    let mut n = 0;
    for m in mutations(&obs) {
        let mut a = Attempt::default();
        let rows = nav.get("rows-data").and_then(|r| r.as_array()).cloned().unwrap_or_default();
        observability::apply(&mut a, observability::Obs::from_value(&m), Some(&rows), None);
        n += 1;
    }
    for m in mutations(&nav) {
        let mut a = Attempt::default();
        let rows = m.get("rows-data").and_then(|r| r.as_array()).cloned().unwrap_or_default();
        observability::apply(&mut a, observability::Obs::from_value(&obs), Some(&rows), None);
        n += 1;
    }
    for m in mutations(&asr) {
        for e in m.get("entries-data").and_then(|e| e.as_array()).map(Vec::as_slice).unwrap_or(&[]) {
            let x = assertions::from_v2(e, None);
            let _ = x.diagnostic().map(|d| d.tool_occurrences());
            let y = assertions::from_v1(e, None);
            let _ = assertions::fold_verdict(Some("completed"), Some(&[x, y]));
        }
        n += 1;
    }
    let show: serde_json::Value = serde_json::from_slice(
        &std::fs::read(common::fixture("show-json").join("broken.attempt.json")).expect("fixture"),
    )
    .expect("json");
    for m in mutations(&show) {
        let _ = load::format::show::load("mutated.json", m);
        n += 1;
    }
    let exp = std::fs::read_to_string(common::fixture("exp").join("run.ndjson")).expect("fixture");
    for line in exp.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        for m in mutations(&v) {
            let _ = load::format::exp::load("mutated.ndjson", format!("{m}\n{line}\n").as_bytes());
            n += 1;
        }
    }
    let _ = load::format::exp::load("garbage.ndjson", b"\xff\xfe{not json\n[]\n\"str\"\n");
    println!("{n} damaged inputs loaded without a panic");
    assert!(n > 1000);
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("readdir").flatten() {
        let p = e.path();
        let q = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &q);
        } else {
            std::fs::copy(&p, &q).expect("copy");
        }
    }
}

#[test]
fn damaged_record_files_never_panic() {
    let src = common::fixture("record").join("project/.niceeval/record");
    let tmp = std::env::temp_dir().join(format!("niceeval-record-damage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    copy_tree(&src, &tmp);
    let mut files = Vec::new();
    all_files(&tmp, &mut files);
    files.sort();
    let mut loads = 0;
    for f in &files {
        let original = std::fs::read(f).expect("read");
        let half = original[..original.len() / 2].to_vec();
        for damage in [b"null".to_vec(), b"[]".to_vec(), b"{}".to_vec(), b"\"x\"".to_vec(), half, b"\xff\xfe".to_vec()]
        {
            std::fs::write(f, &damage).expect("write");
            match load::format::record::load_dir(&tmp) {
                Ok(doc) => assert!(f.ends_with("record.json") || !doc.attempts.is_empty() || f.ends_with("complete")),
                Err(e) => assert!(f.ends_with("record.json"), "only a broken record.json refuses the Record: {e}"),
            }
            loads += 1;
        }
        std::fs::write(f, &original).expect("restore");
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("{loads} damaged Records loaded without a panic");
    assert!(loads > 200);
}

#[test]
fn shared_kitchen_release_candidate_resolves_to_the_shell_call() {
    let Some(shared) = common::shared_dir() else {
        println!("NOTICE: ../shared is absent; kitchen check skipped");
        return;
    };
    let doc = load::format::record::load_dir(&shared.join("samples/niceeval/generated/record-kitchen/record"))
        .expect("opens");
    let a = doc.attempts.iter().find(|a| a.locator.as_deref() == Some("@10G3VFDSDX7AY")).expect("release");
    let failing = a
        .review
        .assertions
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .find(|x| x.gate.as_deref() == Some("failed"))
        .expect("failed");
    let d = failing.diagnostic().expect("diagnostic");
    assert_eq!(d.code.as_deref(), Some("tool-count-mismatch"));
    let occ = d.tool_occurrences();
    assert_eq!(occ.len(), 1);
    let r = &occ[0];
    let session = a.sessions.iter().find(|s| Some(s.index) == r.session_index()).expect("session 2");
    let turn = &session.turns[0];
    assert_eq!(turn.label.as_deref(), Some("session2/turn1"));
    let ev = &turn.turn.events[r.event_index().expect("not the user message")];
    assert!(matches!(&ev.kind, EventKind::ToolStarted { name, .. } if &**name == "shell"), "{ev:?}");
    println!("{} → {:?}", failing.label, ev.raw());
    // The approved call's result is recorded under turn 1 although it arrived in turn 2.
    assert!(a.notices.iter().any(|n| words(n).contains("arrived after a later turn began")));
    // Sandbox-free attempt: file changes not recorded; the trace artifact resolved.
    assert!(a.review.trace.as_ref().and_then(|t| t.as_array()).is_some_and(|s| !s.is_empty()));

    let sandbox = load::format::record::load_dir(&shared.join("samples/niceeval/generated/record-e2e-eval/record"))
        .expect("opens");
    let s = sandbox.attempts.iter().find(|a| a.locator.as_deref() == Some("@14R83JM9GP1Z2")).expect("sandbox");
    let fc = s.review.file_changes.as_ref().expect("file changes");
    let kinds: Vec<_> = fc.changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(kinds, [('M', "fixture/changed.txt"), ('D', "fixture/delete-me.txt")]);
    assert_eq!(fc.changes[0].after.as_deref(), Some("after-agent-change\n"));
    assert!(!s.review.commands.is_empty());
    assert!(
        s.review
            .commands
            .iter()
            .all(|c| c.stdout.text.is_some() || matches!(c.outcome, niceeval::model::sandbox::Outcome::NotStarted(_)))
    );
}
