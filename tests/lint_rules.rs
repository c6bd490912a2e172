//! The lint rules on small documents made for each rule.

use niceeval::model::derive_document;
use niceeval::model::diagnostics::Finding;
use niceeval::model::lint::{RULES, lint_document, statuses_recorded};
use niceeval::model::usage::PriceTable;
use niceeval::view::findings::message;
use serde_json::{Value, json};

fn lint(v: Value) -> Vec<Finding> {
    let doc = niceeval::load::load_bytes("t.json", v.to_string().as_bytes()).expect("loads");
    let derived = derive_document(&doc, None, &PriceTable::default());
    lint_document(&doc, &derived)
}

fn codes(v: Value) -> Vec<&'static str> {
    lint(v).iter().map(|f| f.code).collect()
}

fn start(id: &str) -> Value {
    json!({"type":"operation.started","operationId":id,"operation":{"kind":"tool","name":"t","input":{},"command":{"kind":"not-command"}}})
}

fn finish(id: &str, status: &str) -> Value {
    json!({"type":"operation.finished","operationId":id,"kind":"tool","status":status})
}

#[test]
fn catalog_codes_are_unique_kebab_case() {
    let mut seen = std::collections::HashSet::new();
    for r in RULES {
        assert!(seen.insert(r.code), "duplicate {}", r.code);
        assert!(r.code.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", r.code);
        assert!(r.rule.starts_with("derivation §"), "{}", r.code);
        assert!(!r.hint.is_empty() && !r.summary.is_empty());
    }
}

#[test]
fn clean_pair_is_silent() {
    let v = json!({"events":[start("a"), finish("a","completed"), {"type":"message","role":"assistant","text":"ok"}],"status":"completed"});
    assert!(lint(v).is_empty());
}

#[test]
fn overlapping_reuse_points_at_both_starts() {
    let v = json!({"events":[start("x"), start("x"), finish("x","completed"), finish("x","completed")],"status":"completed"});
    let f = lint(v);
    let got: Vec<(&str, Option<usize>)> = f.iter().map(|f| (f.code, f.location.event())).collect();
    assert_eq!(got, vec![("ambiguous-operation-id", Some(1)), ("orphan-finish", Some(2)), ("orphan-finish", Some(3))]);
    assert!(message(&f[0]).contains("1:1") && message(&f[0]).contains("poisoned"), "{}", message(&f[0]));
    assert!(message(&f[1]).contains("ambiguous"), "{}", message(&f[1]));
}

#[test]
fn hitl_resume_across_turns_is_silent_but_single_turn_is_not() {
    let t1 = json!({"events":[start("c"), {"type":"input.requested","request":{"id":"r"}}],"status":"waiting"});
    let t2 = json!({"events":[finish("c","completed"), {"type":"message","role":"assistant","text":"done"}],"status":"completed"});
    assert!(codes(json!([t1.clone(), t2.clone()])).is_empty());
    assert_eq!(codes(t2), vec!["orphan-finish"]);
    assert!(codes(t1).is_empty());
}

#[test]
fn reconstructed_attempts_are_skipped() {
    let doc = niceeval::load::load_bytes(
        "t.json",
        json!({"events":[finish("z","failed")],"status":"nope"}).to_string().as_bytes(),
    )
    .unwrap();
    let mut doc = doc;
    doc.attempts[0].events_exact = false;
    let derived = derive_document(&doc, None, &PriceTable::default());
    assert!(lint_document(&doc, &derived).is_empty());
}

#[test]
fn never_panics_on_odd_values() {
    for v in [
        json!({"events":[1, null, [], {"type":7}, {"type":"operation.started"}, {"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"n","input":1,"command":{"kind":"command","original":{"state":"available","executable":5,"args":"x"},"logical":null}}}],"status":null,"usage":[1],"evidenceCoverage":"x","data":{"a":1}}),
        json!({"events":[{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"n","input":1},"redacted":5,"truncated":[1,{"path":3}]}],"status":"waiting","usage":{"inputTokens":"1","x":null},"evidenceCoverage":{"actions":5,"bogus":{}}}),
    ] {
        let _ = lint(v);
    }
}

#[test]
fn obsolete_vocabulary_gets_a_rename_hint() {
    let v = json!({"events":[{"type":"action.called","callId":"c","name":"x"}, {"type":"operation.finished","callId":"c","kind":"tool","status":"completed"}],"status":"completed"});
    let f = lint(v);
    assert_eq!(f.iter().map(|f| f.code).collect::<Vec<_>>(), vec!["unknown-event-type", "missing-field"]);
    assert!(f[0].hint().contains("operation.started"), "{}", f[0].hint());
    assert!(f[1].hint().contains("`callId` was renamed `operationId`"), "{}", f[1].hint());
}

#[test]
fn short_tool_outputs_are_not_called_wrapped_messages() {
    let v = json!({"events":[start("a"), {"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":"ok"}, {"type":"message","role":"assistant","text":"ok"}],"status":"completed"});
    assert!(codes(v).is_empty());
}

#[test]
fn adapter_user_message_with_bad_loc_is_invalid() {
    let v = json!({"events":[{"type":"message","role":"user","text":"x","loc":"a.ts:3","sourceOrder":"1"}, {"type":"message","role":"assistant","text":"y"}],"status":"completed"});
    assert_eq!(codes(v), vec!["invalid-field", "invalid-field"]);
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "type",
        "operationId",
        "operation",
        "kind",
        "status",
        "name",
        "input",
        "output",
        "command",
        "original",
        "logical",
        "state",
        "executable",
        "args",
        "reason",
        "redacted",
        "truncated",
        "path",
        "originalBytes",
        "request",
        "id",
        "options",
        "role",
        "text",
        "skill",
        "tool",
        "loc",
        "inputTokens",
        "reasoningTokens",
    ];
    const STRINGS: &[&str] = &[
        "message",
        "operation.started",
        "operation.finished",
        "skill.loaded",
        "input.requested",
        "error",
        "tool",
        "subagent",
        "command",
        "not-command",
        "available",
        "opaque",
        "completed",
        "failed",
        "rejected",
        "waiting",
        "assistant",
        "user",
        "a",
        "b",
        "pnpm",
        "exec",
        "npx",
        "-r",
        "",
        "input.x",
        "/output/y",
        "operation.input",
    ];

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3i64..5).prop_map(Value::from),
            Just(json!(1.5)),
            prop::sample::select(STRINGS).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(KEYS), inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
        #[test]
        fn lint_never_panics(events in prop::collection::vec(value(), 0..8), status in value(), usage in value(),
                             coverage in value(), split in 0usize..8) {
            let (a, b) = events.split_at(split.min(events.len()));
            let turn = |ev: &[Value]| json!({"events": ev, "status": status, "usage": usage, "evidenceCoverage": coverage});
            let capture = json!({"sessions": [{"sessionIndex": 1, "turns": [{"input": {"text": "a"}, "turn": turn(a)}, {"turn": turn(b)}]}]});
            let _ = lint(capture);
        }
    }
}

#[test]
fn inputs_without_statuses_skip_status_rules() {
    // As an InvocationSummary loads: events kept, Turn status not recorded, no loader notice.
    let mut doc = niceeval::load::load_bytes(
        "t.json",
        json!({"events":[start("c")],"status":"completed"}).to_string().as_bytes(),
    )
    .unwrap();
    assert_eq!(
        lint_document(&doc, &derive_document(&doc, None, &PriceTable::default()))
            .iter()
            .map(|f| f.code)
            .collect::<Vec<_>>(),
        vec!["pending-at-turn-end"]
    );
    doc.attempts[0].sessions[0].turns[0].turn.status = None;
    assert!(!statuses_recorded(&doc.attempts[0]));
    assert!(lint_document(&doc, &derive_document(&doc, None, &PriceTable::default())).is_empty());
    // A Turn that omits `status` is still reported (the loader notes it).
    assert_eq!(codes(json!({"events":[]})), vec!["turn-status-missing"]);
}

#[test]
fn finish_before_start_says_real_order() {
    let v = json!({"events":[finish("a","completed"), start("a"), {"type":"message","role":"assistant","text":"ok"}],"status":"completed"});
    let f = lint(v);
    assert_eq!(f.iter().map(|f| f.code).collect::<Vec<_>>(), vec!["orphan-finish", "pending-at-turn-end"]);
    assert!(message(&f[0]).contains("before its start at 1:2"), "{}", message(&f[0]));
}

/// `check` derives and lints in parallel: the same findings as the plain
/// sequence, on every fixture and sample.
#[test]
fn derive_and_lint_finds_what_lint_document_finds() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "json" || x == "jsonl") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut files);
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples"), &mut files);
    let prices = PriceTable::default();
    let (mut compared, mut summarised) = (0, 0);
    for path in &files {
        let Ok(doc) = niceeval::load::load_path(path) else { continue };
        let derived = derive_document(&doc, None, &prices);
        let (parallel_derived, parallel) = niceeval::analysis::derive_and_lint(&doc, None, &prices);
        assert_eq!(format!("{:?}", lint_document(&doc, &derived)), format!("{parallel:?}"), "{}", path.display());
        assert_eq!(derived, parallel_derived);
        // `check` derives only what the lint reads: the same findings.
        let depth = niceeval::model::derive::Depth::NoSummaries;
        let (_, for_check) = niceeval::analysis::derive_and_lint_to(&doc, None, &prices, depth);
        assert_eq!(format!("{parallel:?}"), format!("{for_check:?}"), "{}", path.display());
        // Nor do the views: what every surface but `derive` shows skips the summaries.
        let (views, _) = niceeval::analysis::build_views(&doc, None, &prices);
        let empty = niceeval::model::facts::O11ySummary::default();
        assert!(views.iter().all(|v| v.derived.o11y == empty), "{}", path.display());
        summarised += usize::from(derived.iter().any(|d| d.o11y != empty));
        compared += 1;
    }
    assert!(compared > 20, "{compared}");
    assert!(summarised > 5, "only {summarised} inputs have something to summarise");
}
