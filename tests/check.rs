//! `niceeval check`: one fixture per rule (exact code, severity, position),
//! a clean complex session, the CLI contract (exit codes, --format json,
//! --deny-warnings, closed pipes, sanitizing), and every real sample in
//! ../shared with the findings reviewed.

mod common;

use common::{bin, fixture, shared_dir};
use niceeval::model::diagnostics::{Finding, Severity};
use niceeval::model::lint::{RULES, lint_document, rule_info};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use Severity::{Error as E, Warning as W};
use niceeval::view::findings::message;

fn lint_paths(paths: &[&Path]) -> Vec<Finding> {
    let paths: Vec<String> = paths.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let doc = niceeval::load::load_paths(&paths).expect("fixture loads");
    let derived = niceeval::model::derive_document(&doc, None, &niceeval::model::usage::builtin_prices());
    lint_document(&doc, &derived)
}

fn check_fixture(name: &str) -> PathBuf {
    fixture(&format!("check/{name}.json"))
}

/// `(code, severity, session index, "turn:event")` with 1-based turn and event
/// ordinal (index + 1), `-` for a whole-turn finding.
type Want = (&'static str, Severity, usize, &'static str);

fn got(findings: &[Finding]) -> Vec<(&'static str, Severity, usize, String)> {
    findings
        .iter()
        .map(|f| {
            let turn = f.location.turn().map(|t| (t + 1).to_string()).unwrap_or("-".into());
            let event = f.location.event().map(|e| (e + 1).to_string()).unwrap_or("-".into());
            (f.code, f.severity, f.location.session(), format!("{turn}:{event}"))
        })
        .collect()
}

fn want(w: &[Want]) -> Vec<(&'static str, Severity, usize, String)> {
    w.iter().map(|(c, s, si, p)| (*c, *s, *si, p.to_string())).collect()
}

/// Every rule's fixture and exactly what check must say about it.
const RULE_FIXTURES: &[(&str, &[Want])] = &[
    ("unknown-event-type", &[("unknown-event-type", E, 0, "1:1")]),
    ("missing-field", &[("missing-field", E, 0, "1:1")]),
    ("invalid-field", &[("invalid-field", E, 0, "1:2")]),
    ("invalid-truncated", &[("invalid-truncated", E, 0, "1:2")]),
    ("invalid-redacted", &[("invalid-redacted", E, 0, "1:1")]),
    ("limit-path-unmatched", &[("limit-path-unmatched", E, 0, "1:2")]),
    ("tool-input-json-string", &[("tool-input-json-string", W, 0, "1:1")]),
    ("unknown-canonical-tool", &[("unknown-canonical-tool", W, 0, "1:1")]),
    ("unknown-field", &[("unknown-field", W, 0, "1:1")]),
    ("index-written-as-float", &[("index-written-as-float", W, 0, "1:-")]),
    ("invalid-index", &[("invalid-index", E, 0, "1:-")]),
    ("duplicate-session-index", &[("duplicate-session-index", W, 1, "-:-")]),
    ("orphan-finish", &[("orphan-finish", E, 0, "1:1")]),
    (
        "ambiguous-operation-id",
        &[
            ("ambiguous-operation-id", E, 0, "1:2"),
            ("orphan-finish", E, 0, "1:3"),
            // Poisoned for the rest of the session: the clean-looking pair in turn 2 is not trusted.
            ("ambiguous-operation-id", E, 0, "2:1"),
            ("orphan-finish", E, 0, "2:2"),
        ],
    ),
    (
        "finish-kind-mismatch",
        // The tool start never gets a tool finish, so it is also left pending.
        &[("pending-at-turn-end", W, 0, "1:1"), ("finish-kind-mismatch", E, 0, "1:2")],
    ),
    ("orphan-subagent-finish", &[("orphan-subagent-finish", W, 0, "1:1")]),
    ("subagent-rejected", &[("subagent-rejected", E, 0, "1:2")]),
    ("invalid-finish-status", &[("invalid-finish-status", E, 0, "1:2")]),
    ("pending-at-turn-end", &[("pending-at-turn-end", W, 0, "1:1")]),
    ("skill-tool-not-suppressed", &[("skill-tool-not-suppressed", E, 0, "1:2")]),
    ("turn-shape", &[("turn-shape", E, 0, "1:-")]),
    ("turn-status-missing", &[("turn-status-missing", E, 0, "1:-")]),
    ("invalid-turn-status", &[("invalid-turn-status", E, 0, "1:-")]),
    ("waiting-without-input-request", &[("waiting-without-input-request", E, 0, "1:-")]),
    (
        "input-request-not-waiting",
        // A completed turn also leaves the announced call pending.
        &[("pending-at-turn-end", W, 0, "1:1"), ("input-request-not-waiting", E, 0, "1:2")],
    ),
    ("input-request-without-id", &[("input-request-without-id", W, 0, "1:2")]),
    ("failed-without-error", &[("failed-without-error", W, 0, "1:-")]),
    ("usage-not-object", &[("usage-not-object", E, 0, "1:-")]),
    ("usage-not-a-number", &[("usage-not-a-number", E, 0, "1:-")]),
    ("usage-negative", &[("usage-negative", E, 0, "1:-")]),
    ("usage-not-integer", &[("usage-not-integer", E, 0, "1:-")]),
    ("usage-not-finite", &[("usage-not-finite", E, 0, "1:-")]),
    ("usage-too-large", &[("usage-too-large", E, 0, "1:-")]),
    ("usage-sum-overflow", &[("usage-sum-overflow", E, 0, "-:-")]),
    ("usage-reasoning-exceeds-output", &[("usage-reasoning-exceeds-output", E, 0, "1:-")]),
    ("usage-zero-requests", &[("usage-zero-requests", W, 0, "1:-")]),
    ("usage-unknown-field", &[("usage-unknown-field", W, 0, "1:-")]),
    ("command-malformed", &[("command-malformed", E, 0, "1:1")]),
    ("command-empty-executable", &[("command-empty-executable", E, 0, "1:1")]),
    ("command-args-not-strings", &[("command-args-not-strings", E, 0, "1:1")]),
    ("command-logical-mismatch", &[("command-logical-mismatch", E, 0, "1:1")]),
    ("command-unknown-opaque-reason", &[("command-unknown-opaque-reason", W, 0, "1:1")]),
    ("command-unclassified", &[("command-unclassified", W, 0, "1:1")]),
    ("needless-unclassified-coverage", &[("needless-unclassified-coverage", W, 0, "1:-")]),
    ("coverage-not-object", &[("coverage-not-object", E, 0, "1:-")]),
    ("coverage-unknown-channel", &[("coverage-unknown-channel", W, 0, "1:-")]),
    ("coverage-invalid-entry", &[("coverage-invalid-entry", E, 0, "1:-")]),
    ("coverage-invalid-status", &[("coverage-invalid-status", E, 0, "1:-")]),
    ("coverage-missing-reason", &[("coverage-missing-reason", E, 0, "1:-")]),
    ("coverage-reason-on-complete", &[("coverage-reason-on-complete", E, 0, "1:-")]),
    ("tool-output-as-message", &[("tool-output-as-message", W, 0, "1:3")]),
    ("data-repeats-message", &[("data-repeats-message", W, 0, "1:-")]),
    ("user-message-echo", &[("user-message-echo", W, 0, "1:1")]),
    ("log-usage-repeated", &[("log-usage-repeated", W, 0, "1:3")]),
    ("log-compaction-counted-twice", &[("log-compaction-counted-twice", W, 0, "1:3")]),
    ("log-summary-read-as-compaction", &[("log-summary-read-as-compaction", W, 0, "1:1")]),
    ("log-result-without-use", &[("orphan-finish", E, 0, "1:1"), ("log-result-without-use", W, 0, "1:1")]),
    ("log-error-flag-not-boolean", &[("log-error-flag-not-boolean", W, 0, "1:2")]),
    ("log-time-backwards", &[("log-time-backwards", W, 0, "1:3")]),
    ("input-line-skipped", &[("input-line-skipped", E, 0, "-:-")]),
    ("input-text-replaced", &[("input-text-replaced", W, 0, "-:-")]),
];

#[test]
fn every_rule_has_a_fixture_with_exact_findings() {
    for rule in RULES {
        assert!(
            RULE_FIXTURES.iter().any(|(name, _)| *name == rule.code),
            "rule {} has no fixture in tests/fixtures/check/",
            rule.code
        );
    }
    for (name, expected) in RULE_FIXTURES {
        let findings = lint_paths(&[&check_fixture(name)]);
        assert_eq!(got(&findings), want(expected), "fixture {name}.json");
        for f in &findings {
            let info = rule_info(f.code).expect("code is in the catalog");
            assert_eq!(f.severity, info.severity, "{}", f.code);
            assert_eq!(f.rule(), info.rule, "{}", f.code);
            assert!(f.rule().starts_with("derivation §"), "{}", f.rule());
            assert!(!message(f).is_empty() && !f.hint().is_empty(), "{}", f.code);
            assert!(!message(f).contains('\n'), "one-line message: {}", message(f));
        }
    }
}

#[test]
fn messages_name_what_is_wrong() {
    let f = lint_paths(&[&check_fixture("ambiguous-operation-id")]);
    // The collision points at both starts and says the id is poisoned.
    assert!(message(&f[0]).contains("\"x\"") && message(&f[0]).contains("1:1"), "{}", message(&f[0]));
    assert!(message(&f[0]).contains("poisoned for the rest of session-1"), "{}", message(&f[0]));
    assert!(message(&f[2]).contains("1:1") && message(&f[2]).contains("1:2"), "{}", message(&f[2]));
    let f = lint_paths(&[&check_fixture("command-logical-mismatch")]);
    assert!(message(&f[0]).contains("\"executable\":\"vitest\""), "{}", message(&f[0]));
    let f = lint_paths(&[&check_fixture("skill-tool-not-suppressed")]);
    assert!(message(&f[0]).contains("1:1, 1:3"), "{}", message(&f[0]));
    let f = lint_paths(&[&check_fixture("pending-at-turn-end")]);
    assert!(message(&f[0]).contains("no later turn finishes it"), "{}", message(&f[0]));
    let f = lint_paths(&[&check_fixture("coverage-missing-reason")]);
    assert!(message(&f[0]).contains("requires a non-empty reason when status is unavailable"), "{}", message(&f[0]));
}

/// Each orphan finish says why it has no start: in another session, in a
/// session line with the same sessionIndex, already finished, or nowhere.
#[test]
fn orphan_finishes_say_where_their_start_is() {
    let findings = lint_paths(&[&check_fixture("orphan-finish-sessions")]);
    let orphans: Vec<(usize, String, String)> = got(&findings)
        .into_iter()
        .zip(&findings)
        .filter(|((code, ..), _)| *code == "orphan-finish")
        .map(|((_, _, si, at), f)| (si, at, message(f).into_owned()))
        .collect();
    let expected = [
        (1, "1:1", "\"a\" has no start in session-2 (a start with this id is in another session"),
        (1, "1:2", "\"c\" has no start in session-2; NiceEval records an orphan finish"),
        (1, "1:5", "\"d\" has no open start in session-2: its start was already finished"),
        (2, "1:1", "\"b\" has no start in this session line, but a session line with the same sessionIndex started it"),
    ];
    assert_eq!(orphans.len(), expected.len(), "{orphans:#?}");
    for ((si, at, message), (want_si, want_at, want)) in orphans.iter().zip(expected) {
        assert_eq!((*si, at.as_str()), (want_si, want_at), "{message}");
        assert!(message.contains(want), "{message}\n  wants: {want}");
    }
}

#[test]
fn clean_complex_session_is_silent() {
    // Two sessions, HITL approve and deny across turns (same operationId in both
    // sessions), subagents, skills with suppressed tool calls, every command
    // projection state with correct logical values, full usage, a failed turn
    // with an error event, redacted input and truncated output.
    let path = check_fixture("clean-complex");
    let findings = lint_paths(&[&path]);
    assert!(findings.is_empty(), "{:#?}", findings);
    let doc = niceeval::load::load_paths(&[path.to_string_lossy().into_owned()]).unwrap();
    let sessions = &doc.attempts[0].sessions;
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions[0].turns.len() + sessions[1].turns.len(), 9);
    // The file really exercises what it claims: 14 projections incl. absent, and full usage.
    let text = std::fs::read_to_string(&path).unwrap();
    for needle in
        ["pnpm-exec", "\"npx\"", "multiple-executions", "ambiguous-wrapper-target", "compound-shell", "costUSD"]
    {
        assert!(text.contains(needle), "{needle}");
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn p(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn cli_exit_0_on_clean_input_with_a_summary_line() {
    let (code, out, err) = run(&["check", &p(&check_fixture("clean-complex"))]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no findings: checked 1 attempt, 2 sessions, 9 turns, "), "{out}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn cli_exit_1_on_errors_with_position_code_hint_and_rule() {
    let (code, out, _) = run(&["check", &p(&check_fixture("orphan-finish"))]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("session-1 › turn 1"), "{out}");
    let line = out.lines().find(|l| l.contains("  orphan-finish  ")).expect("finding line");
    assert!(line.trim_start().starts_with("1:1"), "{line}");
    assert!(line.contains("✗ error"), "{line}");
    assert!(line.contains("\"z\""), "{line}");
    assert!(out.contains("hint: "), "{out}");
    // The rule is cited where it is written in the project, with the NiceEval behaviour it follows.
    assert!(out.contains("rule: docs/rules.md#orphan-finish — NiceEval §2.2"), "{out}");
    assert!(out.contains("1 error · 0 warnings"), "{out}");
}

#[test]
fn cli_exit_2_on_input_errors() {
    let (code, out, err) = run(&["check", "/nonexistent/niceeval-check.json"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with("niceeval: /nonexistent/niceeval-check.json: "), "{err}");
    let dir = tempdir("bad-json");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, b"{\"events\": [").unwrap();
    let (code, _, err) = run(&["check", &p(&bad)]);
    assert_eq!(code, 2);
    assert!(err.starts_with("niceeval: "), "{err}");
}

#[test]
fn cli_deny_warnings_fails_on_warnings() {
    let path = p(&check_fixture("usage-zero-requests"));
    let (code, out, _) = run(&["check", &path]);
    assert_eq!(code, 0, "warnings alone pass: {out}");
    assert!(out.contains("▲ warning"), "{out}");
    assert!(out.contains("--deny-warnings fails on them"), "{out}");
    let (code, _, _) = run(&["check", "--deny-warnings", &path]);
    assert_eq!(code, 1);
    // Clean input stays clean with --deny-warnings.
    let (code, _, _) = run(&["check", "--deny-warnings", &p(&check_fixture("clean-complex"))]);
    assert_eq!(code, 0);
}

#[test]
fn cli_json_has_the_same_codes_as_the_library() {
    for name in ["ambiguous-operation-id", "finish-kind-mismatch", "usage-zero-requests", "clean-complex"] {
        let path = check_fixture(name);
        let (code, out, _) = run(&["check", "--format", "json", &p(&path)]);
        let v: Value = serde_json::from_str(&out).expect("json output");
        assert_eq!(v["format"], "niceeval.check/1");
        let lib = lint_paths(&[&path]);
        let codes: Vec<&str> = v["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
        assert_eq!(codes, lib.iter().map(|f| f.code).collect::<Vec<_>>(), "{name}");
        let errors = lib.iter().filter(|f| f.severity == E).count();
        assert_eq!(v["errors"], errors);
        assert_eq!(v["failed"], errors > 0);
        assert_eq!(code, if errors > 0 { 1 } else { 0 });
    }
    let (_, out, _) = run(&["check", "--format", "json", &p(&check_fixture("ambiguous-operation-id"))]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let f = &v["findings"][2];
    assert_eq!(f["severity"], "error");
    assert!(f["rule"].as_str().unwrap().starts_with("docs/rules.md#ambiguous-operation-id — NiceEval §2.2"), "{f}");
    assert_eq!(f["doc"], "docs/rules.md#ambiguous-operation-id");
    assert_eq!(f["attempt"], 1);
    assert_eq!(f["session"], "session-1");
    assert_eq!(f["sessionIndex"], 1);
    assert_eq!(f["turn"], 2);
    assert_eq!(f["eventOrdinal"], 1);
    assert_eq!(f["eventIndex"], 0);
    assert_eq!(f["position"], "2:1");
    assert_eq!(v["checked"]["turns"], 2);
    assert_eq!(v["checked"]["events"], 7);
}

#[test]
fn cli_list_rules_lists_every_code() {
    let (code, out, _) = run(&["check", "--list-rules", "--format", "json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), RULES.len());
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-check-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn cli_closed_pipe_is_a_normal_exit() {
    // Enough orphan finishes that the report is far larger than a pipe buffer.
    let events: Vec<Value> = (0..3000)
        .map(|i| serde_json::json!({"type":"operation.finished","operationId":format!("z{i}"),"kind":"tool","status":"completed"}))
        .collect();
    let dir = tempdir("pipe");
    let path = dir.join("many.json");
    std::fs::write(&path, serde_json::json!({"events": events, "status": "completed"}).to_string()).unwrap();
    let mut child =
        Command::new(bin()).args(["check", &p(&path)]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take()); // like `| head` exiting at once
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn cli_sanitizes_input_text() {
    let dir = tempdir("sanitize");
    let path = dir.join("esc.json");
    let turn = serde_json::json!({"events":[{"type":"operation.finished","operationId":"x\u{1b}]52;c;AAAA\u{7}\u{202e}","kind":"tool","status":"completed"}],"status":"completed"});
    std::fs::write(&path, turn.to_string()).unwrap();
    for format in ["text", "json"] {
        let out = Command::new(bin()).args(["check", "--format", format, &p(&path)]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{202e}'), "{text}");
        // The id is shown JSON-escaped in messages; bidi controls become placeholders.
        assert!(text.contains("u001b]52"), "{text}");
        if format == "text" {
            assert!(text.contains("‹U+202E›"), "{text}");
        }
    }
}

#[test]
fn cli_reads_stdin() {
    let bytes = std::fs::read(check_fixture("orphan-finish")).unwrap();
    let mut child =
        Command::new(bin()).args(["check", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("orphan-finish"));
}

#[test]
fn docs_list_every_rule() {
    let docs = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/adapters.md")).unwrap();
    for r in RULES {
        let row = docs
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", r.code)))
            .unwrap_or_else(|| panic!("docs/adapters.md has no table row for {}", r.code));
        assert!(row.contains(&format!("| {} |", r.severity.as_str())), "severity of {} differs: {row}", r.code);
        assert!(row.contains(r.rule.trim_start_matches("derivation ")), "spec rule of {} differs: {row}", r.code);
    }
}

/// Every real sample in ../shared: the exact findings, reviewed.
/// `(path under samples/, [(code, session index, "turn:event")])`.
type SampleWant = (&'static str, usize, &'static str);
const SAMPLES: &[(&str, &[SampleWant])] = &[
    // handmade/turns: bare Turns, each checked alone.
    ("handmade/turns/turn-01-assistant-message.json", &[]),
    ("handmade/turns/turn-02-tools-completed-and-failed.json", &[]),
    // Waiting with a pending call and its input request: the HITL pattern, silent.
    ("handmade/turns/turn-03-input-requested-waiting.json", &[]),
    // The resume turns finish `call_rm_1`, started in turn-03. Alone, that finish
    // has no start: true for this file (NiceEval would record an orphan if this
    // Turn were the whole session); in session-01 the same turn is silent.
    ("handmade/turns/turn-04-approved-resume.json", &[("orphan-finish", 0, "1:1")]),
    ("handmade/turns/turn-05-denied-resume-rejected.json", &[("orphan-finish", 0, "1:1")]),
    // The Skill tool_use is emitted as skill.loaded WITH operationId "toolu_skill_1"
    // and ALSO as the tool start/finish with that id (1:2, 1:4). The spec says the
    // adapter must suppress the call (derivation §1.2): NiceEval counts it as a tool
    // call, so usedNoTools()/maxToolCalls() see a "Skill" call. True finding.
    ("handmade/turns/turn-06-subagents-skills-context.json", &[("skill-tool-not-suppressed", 0, "1:3")]),
    ("handmade/turns/turn-07-error-failed.json", &[]),
    ("handmade/turns/turn-08-compaction.json", &[]),
    ("handmade/turns/turn-09-structured-data.json", &[]),
    // Every projection state with correct logical values; the absent one is covered
    // by the UNCLASSIFIED downgrade. Silent.
    ("handmade/turns/turn-10-command-projections.json", &[]),
    // OpenAI-style calls that are requested but never executed: three starts never
    // finish in a completed turn. True: NiceEval reports them pending forever (the
    // turn's own coverage reason says they were not executed).
    (
        "handmade/turns/turn-11-pending-truncated-redacted.json",
        &[("pending-at-turn-end", 0, "1:2"), ("pending-at-turn-end", 0, "1:3"), ("pending-at-turn-end", 0, "1:6")],
    ),
    // Approve and deny across turns, same id in two sessions: silent.
    ("handmade/sessions/session-01-hitl-approve-and-deny.json", &[]),
    // Session 2 turn 1 is turn-06: the same unsuppressed Skill call.
    ("handmade/sessions/session-02-coding-multiturn.json", &[("skill-tool-not-suppressed", 1, "1:3")]),
    // --- Real converter output (NiceEval's own converters at HEAD). ---
    // Claude Agent SDK: Bash gets an opaque command projection, but Read (1:3) and
    // Write (1:4) carry no `command` and the Turn declares no actions downgrade.
    // True: the converter classifies some calls and silently leaves others
    // unclassified without unclassifiedToolActionsCoverage(), so coverage claims
    // complete while commandMatch() is unavailable for those calls (§1.7, §3.3).
    (
        "niceeval/sdk-converters/turns/claude-sdk-stream.session1.turn1.json",
        &[("command-unclassified", 0, "1:3"), ("command-unclassified", 0, "1:4")],
    ),
    ("niceeval/sdk-converters/turns/codex-thread-stream.session1.turn1.json", &[]),
    ("niceeval/sdk-converters/turns/codex-thread-stream.session2.turn1.json", &[]),
    // LangGraph: the tool start has no `command` and no downgrade. True, as above.
    ("niceeval/sdk-converters/turns/langgraph-core.session1.turn1.json", &[("command-unclassified", 0, "1:2")]),
    ("niceeval/sdk-converters/turns/langgraph-hitl.session1.turn1.json", &[("command-unclassified", 0, "1:2")]),
    // Resume turns checked alone: the finish's start is in turn 1 of the session
    // (true for the lone Turn; the capture below pairs them and is silent on it).
    ("niceeval/sdk-converters/turns/langgraph-hitl.session1.turn2.json", &[("orphan-finish", 0, "1:1")]),
    ("niceeval/sdk-converters/turns/langgraph-hitl.session2.turn1.json", &[("command-unclassified", 0, "1:2")]),
    ("niceeval/sdk-converters/turns/langgraph-hitl.session2.turn2.json", &[("orphan-finish", 0, "1:1")]),
    // Chat Completions / Responses: function calls the model requested but nobody
    // executed stay started without a finish in a completed turn. True: NiceEval
    // reports them `pending` with no output; calledTool(…{status:"completed"})
    // can never match them.
    (
        "niceeval/sdk-converters/turns/openai-chat-completion.session1.turn1.json",
        &[("pending-at-turn-end", 0, "1:1"), ("pending-at-turn-end", 0, "1:2")],
    ),
    ("niceeval/sdk-converters/turns/openai-responses.session1.turn1.json", &[("pending-at-turn-end", 0, "1:2")]),
    // Pi Agent: tool start without `command`, no downgrade. True, as above.
    ("niceeval/sdk-converters/turns/pi-agent-subscribe.session1.turn1.json", &[("command-unclassified", 0, "1:1")]),
    ("niceeval/sdk-converters/turns/pi-agent-subscribe.session2.turn1.json", &[]),
    // AI SDK: the waiting turn leaves the approval call open (HITL) and declares
    // UNCLASSIFIED: silent. The resume turns alone have orphan finishes (see above).
    ("niceeval/sdk-converters/turns/turn-from-ai-sdk.session1.turn1.json", &[]),
    ("niceeval/sdk-converters/turns/turn-from-ai-sdk.session1.turn2.json", &[("orphan-finish", 0, "1:1")]),
    ("niceeval/sdk-converters/turns/turn-from-ai-sdk.session2.turn1.json", &[]),
    ("niceeval/sdk-converters/turns/turn-from-ai-sdk.session2.turn2.json", &[("orphan-finish", 0, "1:1")]),
    // Captures: whole sessions. Cross-turn HITL finishes pair and are silent; what
    // remains are the findings above.
    (
        "niceeval/sdk-converters/captures/claude-sdk-stream.capture.json",
        &[("command-unclassified", 0, "1:3"), ("command-unclassified", 0, "1:4")],
    ),
    ("niceeval/sdk-converters/captures/codex-thread-stream.capture.json", &[]),
    ("niceeval/sdk-converters/captures/langgraph-core.capture.json", &[("command-unclassified", 0, "1:2")]),
    (
        "niceeval/sdk-converters/captures/langgraph-hitl.capture.json",
        &[("command-unclassified", 0, "1:2"), ("command-unclassified", 1, "1:2")],
    ),
    (
        "niceeval/sdk-converters/captures/openai-chat-completion.capture.json",
        &[("pending-at-turn-end", 0, "1:1"), ("pending-at-turn-end", 0, "1:2")],
    ),
    ("niceeval/sdk-converters/captures/openai-responses.capture.json", &[("pending-at-turn-end", 0, "1:2")]),
    ("niceeval/sdk-converters/captures/pi-agent-subscribe.capture.json", &[("command-unclassified", 0, "1:1")]),
    ("niceeval/sdk-converters/captures/turn-from-ai-sdk.capture.json", &[]),
];

#[test]
fn shared_samples_have_exactly_the_reviewed_findings() {
    let Some(shared) = shared_dir() else {
        println!("check samples: skipped (../shared not found)");
        return;
    };
    let samples = shared.join("samples");
    // Every file in the four directories is listed above.
    let mut on_disk = Vec::new();
    for dir in
        ["handmade/turns", "handmade/sessions", "niceeval/sdk-converters/turns", "niceeval/sdk-converters/captures"]
    {
        for entry in std::fs::read_dir(samples.join(dir)).unwrap().flatten() {
            on_disk.push(format!("{dir}/{}", entry.file_name().to_string_lossy()));
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = SAMPLES.iter().map(|(p, _)| p.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk, "every sample file is reviewed");
    let (mut files, mut findings_total) = (0, 0);
    for (rel, expected) in SAMPLES {
        let findings = lint_paths(&[&samples.join(rel)]);
        let actual: Vec<(&str, usize, String)> = got(&findings).into_iter().map(|(c, _, s, pos)| (c, s, pos)).collect();
        let expected: Vec<(&str, usize, String)> = expected.iter().map(|(c, s, p)| (*c, *s, p.to_string())).collect();
        assert_eq!(actual, expected, "{rel}");
        files += 1;
        findings_total += findings.len();
    }
    println!("check samples: {files} files, {findings_total} findings, all as reviewed");
}

#[test]
fn reconstructed_attempts_are_skipped_and_said_so() {
    let paths = [p(&check_fixture("orphan-finish")), p(&check_fixture("usage-negative"))];
    let mut doc = niceeval::load::load_paths(&paths).unwrap();
    doc.attempts[0].events_exact = false; // as a Record's conversation projection loads
    let derived = niceeval::model::derive_document(&doc, None, &niceeval::model::usage::builtin_prices());
    let findings = lint_document(&doc, &derived);
    assert_eq!(
        findings.iter().map(|f| (f.code, f.location.attempt())).collect::<Vec<_>>(),
        vec![("usage-negative", 1)]
    );
    let report = niceeval::view::check::Report::new(&doc, &derived, findings, false);
    assert_eq!(report.skipped, vec![0]);
    assert_eq!(report.checked.attempts, 1);
    let text = report.text();
    // The attempt is named with its file, since two files were checked.
    let note = text.lines().find(|l| l.starts_with("note: attempt 1 · ")).expect("a note on attempt 1");
    assert!(note.contains("orphan-finish.json not checked: its events were rebuilt"), "{text}");
    assert_eq!(report.json()["skippedAttempts"][0]["attempt"], 1);
}

/// The derivation folds inputs outside the contract as NiceEval does (the
/// conformance `corners/`), and `check` still flags each of them.
#[test]
fn conformance_corners_outside_the_contract_are_flagged() {
    let Some(shared) = shared_dir() else {
        println!("check corners: skipped (../shared not found)");
        return;
    };
    let corners: &[(&str, &str)] = &[
        ("duplicate-session-index", "duplicate-session-index"),
        ("event-extra-keys", "unknown-field"),
        ("float-ordinal-and-index", "index-written-as-float"),
        ("message-role-system", "invalid-field"),
        ("operation-kind-other", "invalid-field"),
        ("request-extra-keys", "unknown-field"),
        ("subagent-rejected", "subagent-rejected"),
        ("tool-finish-bad-status", "invalid-finish-status"),
        ("tool-noncanonical-tool", "unknown-canonical-tool"),
        ("tool-null", "invalid-field"),
        ("tool-start-no-input", "missing-field"),
        ("unknown-event-last-unparks", "unknown-event-type"),
        ("unknown-event-type-shifts-ordinals", "unknown-event-type"),
        ("usage-extra-key", "usage-unknown-field"),
        ("usage-null-field", "usage-not-a-number"),
    ];
    let dir = std::env::temp_dir().join(format!("niceeval-check-corners-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, code) in corners {
        let case: Value = serde_json::from_slice(
            &std::fs::read(shared.join(format!("conformance/corners/corner-x-{name}.json"))).unwrap(),
        )
        .unwrap();
        let input = dir.join(format!("{name}.json"));
        std::fs::write(&input, serde_json::to_vec(&case["input"]).unwrap()).unwrap();
        let findings = lint_paths(&[&input]);
        assert!(findings.iter().any(|f| f.code == *code), "corner {name}: no {code} among {:?}", got(&findings));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_turn_finds_an_output_repeated_as_a_message_stretches_apart() {
    // More events than the lint digests in one stretch: the output and the
    // message that repeats it are digested on different stretches.
    let mut events = Vec::new();
    for i in 0..3000 {
        let id = format!("op{i}");
        let op = serde_json::json!({"kind": "tool", "name": "count", "input": {}, "command": {"kind": "not-command"}});
        events.push(serde_json::json!({"type": "operation.started", "operationId": id, "operation": op}));
        let output = format!("{i} files counted");
        events.push(serde_json::json!({"type": "operation.finished", "operationId": id, "kind": "tool", "status": "completed", "output": output}));
    }
    events.push(serde_json::json!({"type": "message", "role": "assistant", "text": "7 files counted"}));
    events.push(serde_json::json!({"type": "message", "role": "assistant", "text": "  2999 files counted "}));
    let turn = serde_json::json!({"events": events, "status": "completed"});
    let dir = tempdir("long-turn");
    let path = dir.join("long.json");
    std::fs::write(&path, serde_json::to_vec(&turn).unwrap()).unwrap();
    let found: Vec<_> = got(&lint_paths(&[&path])).into_iter().filter(|f| f.0 == "tool-output-as-message").collect();
    assert_eq!(found, want(&[("tool-output-as-message", W, 0, "1:6001"), ("tool-output-as-message", W, 0, "1:6002")]));
    let _ = std::fs::remove_dir_all(dir);
}
