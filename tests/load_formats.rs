//! Every input format of src/load/{jsonl,summary,legacy,info}.rs against the
//! project's own fixtures in tests/fixtures/load/, plus one negative fixture
//! per load error.

mod common;

use niceeval::load::format::jsonl;
use niceeval::load::parse::lines;
use niceeval::load::{LoadError, load_bytes, load_path};
use niceeval::model::document::{Completeness, Document, NoticeLevel};
use niceeval::model::event::EventKind;
use niceeval::view::notice::words;

fn fx(rel: &str) -> String {
    common::fixture("load").join(rel).display().to_string()
}

fn open(rel: &str) -> Document {
    match load_path(fx(rel)) {
        Ok(d) => d,
        Err(e) => panic!("{rel} should load: {e}"),
    }
}

fn fail(rel: &str) -> LoadError {
    match load_path(fx(rel)) {
        Ok(d) => panic!("{rel} should not load, got {} with {} attempts", d.format, d.attempts.len()),
        Err(e) => e,
    }
}

fn errors(doc: &Document) -> Vec<String> {
    doc.all_notices().filter(|n| n.level == NoticeLevel::Error).map(words).collect()
}

fn types(doc: &Document) -> Vec<String> {
    doc.attempts[0].sessions[0].turns[0]
        .turn
        .events
        .iter()
        .map(|e| e.type_name().as_deref().unwrap_or("?").to_string())
        .collect()
}

// ---------------------------------------------------------------- JSONL

#[test]
fn jsonl_stream_events_become_one_turn_without_status() {
    let doc = open("jsonl/events.jsonl");
    assert_eq!(doc.format, "JSONL StreamEvents");
    assert_eq!(doc.attempts.len(), 1);
    let a = &doc.attempts[0];
    assert_eq!(a.sessions.len(), 1);
    assert_eq!(a.sessions[0].index, 1);
    assert_eq!(a.sessions[0].turns.len(), 1);
    let t = &a.sessions[0].turns[0];
    assert_eq!(t.turn.status, None, "a raw stream records no status; none is invented");
    assert_eq!(t.turn.usage, None);
    assert_eq!(t.turn.events.len(), 6);
    // The unknown event type is kept, not dropped.
    assert!(matches!(t.turn.events[4].kind, EventKind::Unrecognized { .. }));
    assert_eq!(t.turn.events[4].raw()["pct"], 100);
    assert!(errors(&doc).is_empty());
    assert_eq!(a.events, Some(Completeness::Complete));
}

#[test]
fn jsonl_turns_become_one_session() {
    let doc = open("jsonl/turns.jsonl");
    assert_eq!(doc.format, "JSONL Turns");
    let s = &doc.attempts[0].sessions;
    assert_eq!(s.len(), 1);
    let statuses: Vec<Option<&str>> = s[0].turns.iter().map(|t| t.turn.status.as_deref()).collect();
    assert_eq!(statuses, vec![Some("completed"), Some("waiting"), Some("completed")]);
    assert_eq!(s[0].turns[0].turn.usage.and_then(|u| u.input_tokens), Some(10.0));
    assert_eq!(s[0].turns[0].turn.usage.and_then(|u| u.cost_usd), None);
    assert_eq!(s[0].turns[2].turn.data, Some(serde_json::json!({"ok": true})));
}

#[test]
fn jsonl_capture_entries_group_into_sessions() {
    let doc = open("jsonl/capture.jsonl");
    assert_eq!(doc.format, "JSONL capture entries");
    let s = &doc.attempts[0].sessions;
    let shape: Vec<(u64, Option<&str>, usize)> = s.iter().map(|s| (s.index, s.id.as_deref(), s.turns.len())).collect();
    assert_eq!(shape, vec![(1, Some("thread_main"), 2), (2, Some("thread_side"), 1)]);
    assert_eq!(s[0].turns[0].input_text(), Some("Rebuild the package."));
    assert_eq!(s[0].turns[1].label.as_deref(), Some("turn2"));
    assert_eq!(s[0].turns[1].responses().len(), 1);
    assert_eq!(s[1].turns[0].label.as_deref(), Some("session2/turn1"));
    assert!(s[0].turns[0].turn.is_waiting());
}

#[test]
fn jsonl_bom_crlf_blank_lines_and_last_line_without_newline() {
    let doc = open("jsonl/crlf-bom.jsonl");
    assert_eq!(doc.format, "JSONL StreamEvents");
    assert_eq!(types(&doc), vec!["thinking", "message", "message"]);
    assert!(errors(&doc).is_empty(), "{:?}", doc.notices);
}

#[test]
fn jsonl_bad_line_is_an_error_notice_and_good_lines_still_load() {
    let path = fx("jsonl/bad-line.jsonl");
    let doc = open("jsonl/bad-line.jsonl");
    assert_eq!(types(&doc), vec!["thinking", "message", "operation.started", "operation.finished"]);
    let errs = errors(&doc);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].starts_with(&format!("{path}:3:")), "{}", errs[0]);
    assert!(errs[0].contains("line skipped"));
    assert!(matches!(doc.attempts[0].events, Some(Completeness::Partial(_))));
}

#[test]
fn jsonl_invalid_utf8_line_is_reported_by_line() {
    let path = fx("jsonl/bad-utf8.jsonl");
    let doc = open("jsonl/bad-utf8.jsonl");
    assert_eq!(types(&doc), vec!["thinking", "message"]);
    let errs = errors(&doc);
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with(&format!("{path}:2: ")), "{}", errs[0]);
    assert!(errs[0].contains("UTF-8"));
}

#[test]
fn jsonl_partial_last_line_is_reported_incomplete() {
    let doc = open("jsonl/partial-last-line.jsonl");
    assert_eq!(types(&doc).len(), 3);
    let errs = errors(&doc);
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains(":4:") && errs[0].contains("incomplete"), "{}", errs[0]);
}

#[test]
fn jsonl_with_a_bad_first_line_is_still_jsonl() {
    let doc = open("jsonl/first-line-bad.jsonl");
    assert_eq!(doc.format, "JSONL StreamEvents");
    assert_eq!(types(&doc).len(), 3);
    assert!(errors(&doc)[0].contains(":1:1:"), "{:?}", errors(&doc));
}

#[test]
fn jsonl_exp_stream_is_dispatched_to_the_exp_loader() {
    // The exp loader is implemented on another branch; here it may only say
    // "not supported yet". Either way it must be the exp loader that answers.
    match load_path(fx("jsonl/exp-stream.ndjson")) {
        Ok(doc) => assert!(doc.format.contains("exp"), "{}", doc.format),
        Err(e) => assert!(e.message.contains("exp --json"), "{e}"),
    }
}

#[test]
fn incremental_parser_feeds_appended_bytes() {
    let bytes = std::fs::read(fx("jsonl/events.jsonl")).expect("fixture");
    let cut = bytes.len() - 10;
    let first = lines::parse_complete_lines(&bytes[..cut], 1);
    assert_eq!(first.values.len(), 5);
    assert!(first.errors.is_empty());
    assert_eq!(first.next_line_no, 6);
    let second = lines::parse_complete_lines(&bytes[first.consumed_bytes..], first.next_line_no);
    assert_eq!(second.values.len(), 1);
    assert_eq!(second.values[0].0, 6);
    assert_eq!(first.consumed_bytes + second.consumed_bytes, bytes.len());
}

// ---------------------------------------------------------------- InvocationSummary

#[test]
fn invocation_summary_attempt_identity_and_review() {
    let doc = open("summary/summary-two-sessions.json");
    assert_eq!(doc.format, "InvocationSummary");
    assert_eq!(doc.attempts.len(), 2);
    assert_eq!(doc.attempts[0].model.as_deref(), Some("claude-sonnet-4-5"));
    let a = &doc.attempts[0];
    assert_eq!(a.eval_id.as_deref(), Some("release/cleanup"));
    assert_eq!(a.experiment_id.as_deref(), Some("nightly"));
    assert_eq!(a.attempt_number, Some(2), "0-based attempt 1 is the second attempt");
    assert_eq!(a.locator.as_deref(), Some("@1TESTLOC0001"));
    assert_eq!(a.verdict.map(|v| v.as_str()), Some("failed"));
    assert_eq!(a.agent.as_deref(), Some("claude-code"));
    assert_eq!(a.duration_ms, Some(5120.0));
    assert_eq!(a.started_at.as_deref(), Some("2026-11-30T05:00:00.000Z"));
    assert_eq!(a.score.as_ref().and_then(|s| s.earned), Some(2.0));
    let u = a.reported_usage.expect("usage");
    assert_eq!((u.input_tokens, u.output_tokens, u.cache_read_tokens), (Some(1300.0), Some(140.0), None));
    assert_eq!(a.reported_estimate, Some(0.0061));
    assert!(a.events_exact);
    let d = &a.review.diagnostics;
    assert_eq!(d.len(), 2);
    assert_eq!((d[0].kind.as_str(), d[0].code.as_str()), ("execution-error", "assertion-error"));
    assert_eq!(d[0].phase.as_deref(), Some("eval.run"));
    assert_eq!(d[0].causes, vec!["ENOENT: dist/index.js not found".to_string(), "stat failed".to_string()]);
    assert_eq!(d[1].message, "turn2 took 1.2 s");
    assert_eq!(d[1].causes, vec!["model-latency: provider queueing".to_string()]);
    let fc = a.review.file_changes.as_ref().expect("diff");
    let kinds: Vec<(&str, char)> = fc.changes.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(kinds, vec![("dist/index.js", 'D'), ("package.json", 'M'), ("CHANGELOG.md", 'A'), ("big.bin", 'M')]);
    assert_eq!(fc.changes[1].after.as_deref(), Some("{\"v\":2}\n"));
    assert!(matches!(fc.state, Some(Completeness::Partial(_))), "elided content makes the diff partial");
    assert_eq!(a.review.sources.len(), 1);
    assert_eq!(a.review.commands.len(), 1);
    assert!(a.review.trace.is_some());
    // The activity keeps its key as its kind and the phase it ran in as its parent.
    let iv = &a.review.timing.intervals;
    let turn2 = iv.iter().find(|t| t.label == "turn2").expect("turn2 interval");
    assert_eq!(turn2.phase.as_deref(), Some("agent.turn"));
    assert_eq!(turn2.parent_index.map(|p| iv[p].label.as_str()), Some("eval.run"));
    // The skipped result.
    let b = &doc.attempts[1];
    assert_eq!(b.verdict.map(|v| v.as_str()), Some("skipped"));
    assert!(b.sessions.is_empty());
    assert!(b.notices.iter().any(|n| words(n).contains("not on this platform")));
}

#[test]
fn invocation_summary_splits_turns_by_runner_messages_and_agent_turn_nodes() {
    let doc = open("summary/summary-two-sessions.json");
    let a = &doc.attempts[0];
    let shape: Vec<(u64, usize)> = a.sessions.iter().map(|s| (s.index, s.turns.len())).collect();
    assert_eq!(shape, vec![(1, 2), (2, 1)]);
    let t1 = &a.sessions[0].turns[0];
    assert_eq!(t1.input_text(), Some("Rebuild the package from scratch."));
    assert_eq!(t1.label.as_deref(), Some("turn1"));
    assert_eq!(t1.trace_id.as_deref(), Some("aaaa1111"));
    assert_eq!(t1.duration_ms, Some(900.0));
    assert_eq!(t1.turn.status, None);
    assert_eq!(t1.turn.usage.and_then(|u| u.input_tokens), Some(800.0));
    let names: Vec<String> = t1.turn.events.iter().filter_map(|e| e.type_name().map(|t| t.into_owned())).collect();
    assert_eq!(names, vec!["thinking", "operation.started", "input.requested"], "runner message not kept in events");
    // turn2 (node out of tree order, sorted by start): keeps the injected user message.
    let t2 = &a.sessions[0].turns[1];
    assert_eq!(t2.label.as_deref(), Some("turn2"));
    assert_eq!(t2.input_text(), Some("approve"));
    assert_eq!(t2.turn.events.len(), 3);
    assert_eq!(t2.turn.events[1].raw()["text"], "Reminder: keep the lockfile.");
    assert_eq!(t2.turn.usage.and_then(|u| u.cost_usd), Some(0.004));
    let s2 = &a.sessions[1].turns[0];
    assert_eq!(s2.label.as_deref(), Some("session2/turn1"));
    assert_eq!(s2.trace_id, None);
    assert_eq!(s2.turn.usage, None, "a node without usage gives no usage, not zeros");
    assert!(s2.turn.events[0].is_unrecognized(), "unknown event kept");
    assert_eq!(s2.ordinal, Some(3));
    assert!(!a.notices.iter().any(|n| n.level >= NoticeLevel::Warning), "{:?}", a.notices);
}

// ---------------------------------------------------------------- legacy

#[test]
fn legacy_project_dir_opens_the_newest_run() {
    let doc = open("legacy/project");
    assert_eq!(doc.format, "legacy niceeval.results");
    assert!(doc.sources[0].ends_with("2026-08-02T09-30-00-000Z-cd34"), "{:?}", doc.sources);
    assert!(doc.notices.iter().any(|n| n.level == NoticeLevel::Info && words(n).contains("1 older run")));
    let ids: Vec<(Option<&str>, Option<u64>)> =
        doc.attempts.iter().map(|a| (a.eval_id.as_deref(), a.attempt_number)).collect();
    assert_eq!(
        ids,
        vec![(Some("greet"), Some(1)), (Some("release/cleanup"), Some(1)), (Some("release/cleanup"), Some(2))]
    );
    assert!(doc.attempts.iter().all(|a| a.experiment_id.as_deref() == Some("release")));
    assert_eq!(doc.attempts[0].model.as_deref(), Some("claude-sonnet-4-5"));
}

#[test]
fn legacy_attempt_maps_old_vocabulary_sessions_and_side_files() {
    let doc = open("legacy/project");
    let a = &doc.attempts[0];
    assert_eq!(a.verdict.map(|v| v.as_str()), Some("failed"));
    assert_eq!(a.locator.as_deref(), Some("@NEWRUN0001"));
    let shape: Vec<(u64, usize)> = a.sessions.iter().map(|s| (s.index, s.turns.len())).collect();
    assert_eq!(shape, vec![(1, 1), (2, 1)]);
    let t1 = &a.sessions[0].turns[0];
    assert_eq!(t1.label.as_deref(), Some("turn1"), "t1 normalised");
    assert_eq!(a.sessions[1].turns[0].label.as_deref(), Some("session2/turn1"), "s2/t1 normalised");
    let kinds: Vec<String> = t1.turn.events.iter().map(|e| format!("{:?}", e.kind)).collect();
    assert!(kinds[0].starts_with("ToolStarted"), "{kinds:?}");
    assert_eq!(t1.turn.events[0].operation_id(), Some("c1"));
    assert!(matches!(t1.turn.events[1].kind, EventKind::ToolFinished { ref status, .. } if &**status == "completed"));
    assert!(matches!(t1.turn.events[3].kind, EventKind::ToolFinished { ref status, .. } if &**status == "failed"));
    assert_eq!(t1.turn.events[1].output().as_deref(), Some(&serde_json::json!("README.md\n")));
    assert_eq!(t1.trace_id.as_deref(), Some("cafe0001"));
    assert_eq!(t1.turn.usage.and_then(|u| u.input_tokens), Some(70.0));
    assert!(a.notices.iter().any(|n| words(n).contains("4 event(s) used the old action")));
    // Side files.
    assert!(a.review.trace.is_some());
    assert_eq!(a.review.commands.len(), 1);
    assert_eq!(a.review.file_changes.as_ref().map(|f| f.changes.len()), Some(1));
    let src = &a.review.sources;
    assert_eq!(src.len(), 2);
    assert!(src[0].content.as_deref().is_some_and(|c| c.contains("defineEval")), "resolved from sources/<sha>.json");
    assert_eq!(src[1].content, None);
    assert!(a.notices.iter().any(|n| n.level == NoticeLevel::Warning && words(n).contains("evals/missing.ts")));
    let asserts = a.review.assertions.as_ref().expect("assertions");
    assert_eq!(asserts.len(), 2);
    assert_eq!(asserts[1].result.as_deref(), Some("mismatched"));
    assert_eq!(asserts[1].label, "called Bash once");
}

#[test]
fn legacy_missing_and_broken_files_are_notices() {
    let doc = open("legacy/project");
    let a0 = &doc.attempts[1];
    assert_eq!(a0.verdict, None, "no result.json: verdict not recorded");
    assert!(a0.notices.iter().any(|n| words(n).contains("no result.json")));
    assert_eq!(a0.sessions[0].turns[0].input_text(), Some("clean"));
    let a1 = &doc.attempts[2];
    assert_eq!(a1.verdict.map(|v| v.as_str()), Some("errored"));
    assert_eq!(a1.review.diagnostics[0].code, "timeout");
    assert!(a1.review.diagnostics[0].causes[0].contains("60000"));
    let err = a1.notices.iter().find(|n| n.level == NoticeLevel::Error).expect("events.json error");
    assert!(words(err).contains("events.json:3:") && words(err).contains("events.json skipped"), "{}", words(err));
    assert!(a1.sessions.is_empty());
}

#[test]
fn legacy_run_dir_attempt_dir_and_run_json_open_directly() {
    let run = "legacy/project/.niceeval/release/2026-08-01T10-00-00-000Z-ab12";
    let doc = open(run);
    assert_eq!(doc.attempts.len(), 1);
    assert_eq!(doc.attempts[0].locator.as_deref(), Some("@OLDRUN0001"));
    assert!(!doc.notices.iter().any(|n| words(n).contains("older run")));
    let doc = open(&format!("{run}/run.json"));
    assert_eq!(doc.attempts.len(), 1);
    let doc = open("legacy/project/.niceeval/release/2026-08-02T09-30-00-000Z-cd34/greet/a0");
    assert_eq!(doc.attempts.len(), 1);
    assert_eq!(doc.attempts[0].eval_id.as_deref(), Some("greet"));
    let doc = open("legacy/project/.niceeval/release/2026-08-02T09-30-00-000Z-cd34/greet/a0/result.json");
    assert_eq!(doc.attempts[0].locator.as_deref(), Some("@NEWRUN0001"));
    let doc = open("legacy/project/.niceeval/release/2026-08-02T09-30-00-000Z-cd34/greet/a0/events.json");
    assert_eq!(doc.attempts.len(), 1, "events.json inside a run opens its attempt");
    assert_eq!(doc.attempts[0].sessions.len(), 2);
    let project = common::fixture("load").join("legacy/project");
    let runs = niceeval::load::format::legacy::find_all(&project);
    assert_eq!(runs.len(), 2);
    assert!(runs[0].ends_with("2026-08-01T10-00-00-000Z-ab12"), "oldest first");
    let all = niceeval::load::format::legacy::load_all(&project).expect("all runs");
    assert_eq!(all.attempts.len(), 4);
    assert_eq!(all.sources.len(), 2);
}

#[test]
fn standalone_old_vocabulary_event_array_is_mapped() {
    let doc = open("legacy/standalone-events.json");
    assert_eq!(doc.format, "event array");
    let ev = &doc.attempts[0].sessions[0].turns[0].turn.events;
    assert!(matches!(ev[1].kind, EventKind::ToolStarted { ref name, .. } if &**name == "Bash"));
    assert!(matches!(ev[2].kind, EventKind::ToolFinished { ref operation_id, .. } if &**operation_id == "c9"));
    assert!(doc.all_notices().any(|n| words(n).contains("2 event(s) used the old")));
}

// ---------------------------------------------------------------- non-conversation files

#[test]
fn non_conversation_files_open_as_info_documents() {
    let cases = [
        ("info/spans.trace-spans.json", "OTel TraceSpan[]", "2 TraceSpans"),
        ("info/otlp-request.json", "OTLP ExportTraceServiceRequest", "2 spans"),
        ("info/session-list.json", "NiceEval invocation status index", "2 invocation session"),
        ("info/session-show.json", "NiceEval invocation status index", "niceeval.session"),
        ("info/s_invocation.json", "NiceEval invocation session record", "run-1"),
        ("info/dry-plan.json", "exp --dry --json plan", "4 planned, 3 reused"),
        ("info/exp-plan.json", "exp --dry --json plan", "2 planned, 1 reused"),
        ("info/exp-list.json", "NiceEval experiment list", "2 experiment(s): baseline, memory-b"),
        ("info/show-groups.json", "niceeval show --json (groups)", "project overview page"),
        ("info/show-experiment-group.json", "niceeval show --json (experiment-group)", "an experiment's page"),
        ("info/raw-frames.json", "sdk-converter raw frames", "2 upstream protocol frames"),
    ];
    for (rel, format, detail) in cases {
        let doc = open(rel);
        assert_eq!(doc.format, format, "{rel}");
        assert!(doc.attempts.is_empty(), "{rel}");
        assert_eq!(doc.notices.len(), 1, "{rel}");
        assert_eq!(doc.notices[0].level, NoticeLevel::Info, "{rel}");
        assert!(words(&doc.notices[0]).contains(detail), "{rel}: {}", words(&doc.notices[0]));
        assert!(words(&doc.notices[0]).to_lowercase().contains("open"), "{rel} says how to get a viewable file");
    }
}

#[test]
fn native_agent_logs_open_as_one_turn_of_niceevals_parse() {
    for (rel, format, events) in [
        ("info/claude-code.jsonl", "Claude Code transcript (parseClaudeCodeTranscript)", 1),
        ("info/codex.jsonl", "codex exec --json transcript (parseCodexTranscript)", 1),
    ] {
        let doc = open(rel);
        assert_eq!(doc.format, format, "{rel}");
        assert_eq!(doc.attempts.len(), 1, "{rel}");
        let sessions = &doc.attempts[0].sessions;
        assert_eq!((sessions.len(), sessions[0].turns.len()), (1, 1), "{rel}");
        assert_eq!(sessions[0].turns[0].turn.events.len(), events, "{rel}");
    }
}

// ---------------------------------------------------------------- errors

#[test]
fn not_json_is_a_clear_error() {
    let e = fail("errors/not-json.txt");
    assert_eq!(e.position, Some((1, 1)));
    assert!(e.message.contains("neither JSON nor JSONL") && e.message.contains("Hello"), "{e}");
}

#[test]
fn binary_file_is_a_clear_error() {
    let e = fail("errors/binary.bin");
    assert!(e.message.contains("not UTF-8"), "{e}");
}

#[test]
fn truncated_json_has_line_and_column() {
    let e = fail("errors/truncated.json");
    assert_eq!(e.position, Some((4, 28)), "{e}");
    assert!(e.message.contains("ends early"), "{e}");
    assert!(e.to_string().starts_with(&format!("{}:4:28: ", fx("errors/truncated.json"))));
}

#[test]
fn syntax_error_has_line_and_column() {
    let e = fail("errors/syntax.json");
    assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
    assert!(e.message.contains("not valid JSON"), "{e}");
}

#[test]
fn unknown_json_shape_stays_an_error() {
    let e = fail("errors/unknown-shape.json");
    assert!(e.message.contains("unrecognised JSON shape") && e.message.contains("name, version, plugins"), "{e}");
}

#[test]
fn unknown_jsonl_line_shape_is_an_error() {
    let e = fail("errors/unknown-lines.jsonl");
    assert_eq!(e.position, Some((1, 1)));
    assert!(e.message.contains("unrecognised JSONL line shape"), "{e}");
}

#[test]
fn jsonl_with_no_readable_line_is_an_error() {
    // No line parses, so nothing says it is JSONL: the first bad spot is reported.
    let e = fail("errors/all-lines-bad.jsonl");
    assert_eq!(e.position, Some((1, 10)), "{e}");
    assert!(e.message.contains("not valid JSON"), "{e}");
    // Handed to the JSONL reader directly, it names the count and the first bad line.
    let bytes = std::fs::read(fx("errors/all-lines-bad.jsonl")).expect("fixture");
    let e = jsonl::load("x.jsonl", &bytes).expect_err("no readable line");
    assert_eq!(e.position, Some((1, 10)));
    assert!(e.message.contains("no line of this JSONL file could be read (3 bad lines)"), "{e}");
}

#[test]
fn empty_files_are_errors() {
    for rel in ["errors/empty.json", "errors/whitespace.json"] {
        let e = fail(rel);
        assert!(e.message.contains("the file is empty"), "{rel}: {e}");
    }
    let e = load_bytes("x.json", b"\xEF\xBB\xBF\n").expect_err("BOM only is empty");
    assert!(e.message.contains("empty"));
}

#[test]
fn missing_path_is_an_error() {
    let e = fail("errors/does-not-exist.json");
    assert!(e.message.contains("no such file or directory"), "{e}");
}

#[test]
fn directory_without_a_run_is_an_error() {
    let e = fail("errors/dir-without-run");
    assert!(e.message.contains("without a NiceEval Record") && e.message.contains("legacy results run"), "{e}");
}

#[test]
fn no_input_panics() {
    // Odd inputs must come back as errors or documents, never a panic.
    let inputs: [&[u8]; 12] = [
        b"\n\n{}\n",
        b"{\"results\": 3}",
        b"{\"results\": [{\"verdict\": \"passed\", \"events\": 5, \"phases\": {\"x\": 1}}]}",
        b"{\"results\": [{\"verdict\": 1, \"attempt\": -1, \"diff\": 7, \"error\": [1], \"usage\": \"x\"}]}",
        b"[{\"traceId\": 1}]",
        b"{\"turn\": {}}\n{\"turn\": 5}\n",
        b"{\"sessionIndex\": -3, \"turn\": {\"events\": 1}}\n{\"x\": 1}\n",
        b"{\"type\": \"action.called\"}\n{\"type\": \"action.result\", \"callId\": 5}\n",
        b"null",
        b"\xff\xfe\x00",
        b"[[[[[[",
        b"{\"format\": \"niceeval.sessions\"}",
    ];
    for bytes in inputs {
        let _ = load_bytes("odd", bytes);
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn fragment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"hi\"}".to_string()),
            Just("{\"events\":[],\"status\":\"completed\"}".to_string()),
            Just("{\"turn\":{\"events\":[]},\"sessionIndex\":2}".to_string()),
            Just("{\"results\":[{\"verdict\":\"failed\",\"events\":[],\"phases\":[]}]}".to_string()),
            Just("{\"type\":\"action.called\",\"callId\":\"c\"}".to_string()),
            Just("{\"format\":\"niceeval.sessions\"}".to_string()),
            Just("[{\"traceId\":\"t\",\"spanId\":\"s\",\"startMs\":1}]".to_string()),
            Just("{\"a\":".to_string()),
            Just("\u{feff}".to_string()),
            Just("\r".to_string()),
            "[ -~]{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = load_bytes("fuzz", &bytes);
        }

        #[test]
        fn line_structured_input_never_panics(lines in proptest::collection::vec(fragment(), 0..8)) {
            let _ = load_bytes("fuzz", lines.join("\n").as_bytes());
            let _ = load_bytes("fuzz", lines.concat().as_bytes());
        }

        #[test]
        fn follower_sees_the_same_lines_at_any_split(
            lines in proptest::collection::vec(fragment(), 0..8),
            cut in any::<proptest::sample::Index>(),
        ) {
            let bytes = lines.join("\n").into_bytes();
            let whole = lines::parse_all(&bytes);
            let at = if bytes.is_empty() { 0 } else { cut.index(bytes.len() + 1) };
            let mut f = lines::LineFollower::new();
            let mut values = f.feed(&bytes[..at]).values;
            values.extend(f.feed(&bytes[at..]).values);
            if let Ok(Some(last)) = f.finish() {
                values.push(last);
            }
            prop_assert_eq!(values, whole.values);
        }
    }
}

#[test]
fn a_session_file_with_a_null_session_says_where() {
    let doc = niceeval::load::load_bytes(
        "s.json",
        br#"{"format":"niceeval-viewer.session/1","sessions":[null,{"turns":[]}]}"#,
    )
    .expect("a named session file is read, its bad session reported");
    let notices: Vec<String> = doc.attempts[0].notices.iter().map(words).collect();
    assert!(notices.iter().any(|n| n.starts_with("sessions[0] is null, not a session")), "{notices:?}");
    assert_eq!(doc.attempts[0].sessions.len(), 2);
}
