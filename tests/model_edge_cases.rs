//! The edge cases of derivation spec §6, as the project's own fixtures, checked
//! at the level of derived facts (occurrences, orphans, lifecycles, evidence,
//! legacy tool calls, usage and cost). Plus property tests of the folds.

use niceeval::model::derive::DerivedAttempt;
use niceeval::model::document::Attempt;
use niceeval::model::facts::{build_o11y_summary, derive_run_facts};
use niceeval::model::occurrence::{Evidence, Lifecycle, OpaqueReason};
use niceeval::model::payload::Payload;
use niceeval::model::usage::{PriceTable, Usage, estimate_cost};
use niceeval::model::{Event, derive_attempt};
use proptest::prelude::*;
use serde_json::{Value, json};

fn s(id: &str, name: &str, input: Value) -> Value {
    json!({"type":"operation.started","operationId":id,"operation":{"kind":"tool","name":name,"input":input}})
}
fn f(id: &str, status: &str, output: Option<Value>) -> Value {
    let mut e = json!({"type":"operation.finished","operationId":id,"kind":"tool","status":status});
    if let Some(o) = output {
        e["output"] = o;
    }
    e
}
fn assistant(t: &str) -> Value {
    json!({"type":"message","role":"assistant","text":t})
}

/// Sessions of turns: `[[ (status, events) ]]`.
fn attempt(sessions: Vec<Vec<(&str, Vec<Value>)>>) -> (Attempt, DerivedAttempt) {
    let doc = json!({"sessions": sessions.into_iter().enumerate().map(|(i, turns)| json!({
        "sessionIndex": i + 1,
        "turns": turns.into_iter().map(|(status, events)| json!({"input":{"text":"go"},"turn":{"status":status,"events":events}})).collect::<Vec<_>>()
    })).collect::<Vec<_>>()});
    let d = niceeval::load::load_bytes("case.json", doc.to_string().as_bytes()).unwrap();
    let a = d.attempts.into_iter().next().unwrap();
    let derived = derive_attempt(&a, None, &PriceTable::default());
    (a, derived)
}

fn one(status: &str, events: Vec<Value>) -> (Attempt, DerivedAttempt) {
    attempt(vec![vec![(status, events)]])
}

#[test]
fn e01_plain_pair() {
    let (a, d) = one(
        "completed",
        vec![
            s("c1", "get_weather", json!({"city":"Taipei"})),
            f("c1", "completed", Some(json!({"f":"sunny"}))),
            assistant("ok"),
        ],
    );
    let o = &d.occurrences.occurrences[0];
    assert_eq!(o.id(), r#"["niceeval.logical-tool-occurrence/1","session-1","turn-1",1,1]"#);
    assert_eq!(o.input(&d.events(&a)), Evidence::Complete { value: Some(Payload::new(json!({"city":"Taipei"}))) });
    assert_eq!(
        o.evidence(&d.events(&a)).output,
        Evidence::Complete { value: Some(Payload::new(json!({"f":"sunny"}))) }
    );
    assert!(
        matches!(&o.lifecycle, Lifecycle::Finished { status, finish } if &**status == "completed" && finish.event_ordinal == 2)
    );
    let calls = &d.turn_run_facts(&a, 0).tool_calls;
    assert_eq!(&*calls[0].name, "unknown");
    assert_eq!(calls[0].original_name.as_deref(), Some("get_weather"));
}

#[test]
fn e02_e03_started_only_is_pending_whatever_the_outcome() {
    for status in ["waiting", "completed"] {
        let (a, d) =
            one(status, vec![s("c1", "calculate", json!({})), json!({"type":"input.requested","request":{"id":"r1"}})]);
        let o = &d.occurrences.occurrences[0];
        assert_eq!(o.lifecycle, Lifecycle::Pending);
        assert_eq!(o.evidence(&d.events(&a)).output, Evidence::Unavailable { reason: "tool-output-pending" });
        assert!(d.turn_run_facts(&a, 0).parked);
        assert_eq!(&*d.turn_run_facts(&a, 0).tool_calls[0].status, "pending");
    }
}

#[test]
fn e04_e05_absent_output_is_not_null_output() {
    let (a, d) = one("completed", vec![s("c1", "t", json!({})), f("c1", "completed", None)]);
    assert_eq!(
        d.occurrences.occurrences[0].evidence(&d.events(&a)).output,
        Evidence::Unavailable { reason: "tool-output-absent" }
    );
    assert_eq!(d.turn_run_facts(&a, 0).tool_calls[0].output, None);
    let (a, d) = one("completed", vec![s("c1", "t", json!({})), f("c1", "completed", Some(Value::Null))]);
    assert_eq!(
        d.occurrences.occurrences[0].evidence(&d.events(&a)).output,
        Evidence::Complete { value: Some(Payload::new(Value::Null)) }
    );
}

#[test]
fn e06_orphan_finish() {
    let (a, d) = one("completed", vec![f("z", "failed", Some(json!("boom"))), assistant("x")]);
    assert!(d.occurrences.occurrences.is_empty());
    let orphan = &d.occurrences.orphan_finishes[0];
    assert_eq!((&*orphan.operation_id, &*orphan.status), ("z", "failed"));
    assert_eq!((orphan.position.turn_ordinal, orphan.position.event_ordinal), (1, 1));
    let placeholder = &d.turn_run_facts(&a, 0).tool_calls[0];
    assert!(placeholder.is_placeholder());
    assert_eq!(placeholder.input.as_ref().map(|p| p.value().into_owned()), Some(Value::Null));
    assert!(d.turn_run_facts(&a, 0).has_failed_action());
    assert_eq!(d.turns[0].o11y.total_tool_calls, 0, "the summary ignores placeholders");
}

#[test]
fn e07_kind_mismatch_leaves_the_tool_pending() {
    let (a, d) = one(
        "completed",
        vec![
            s("same", "shell", json!({})),
            json!({"type":"operation.finished","operationId":"same","kind":"subagent","status":"failed"}),
        ],
    );
    assert_eq!(d.occurrences.occurrences[0].lifecycle, Lifecycle::Pending);
    assert!(d.occurrences.orphan_finishes.is_empty());
    let facts = &d.turn_run_facts(&a, 0);
    assert_eq!(&*facts.tool_calls[0].status, "pending");
    assert_eq!(&*facts.subagent_calls[0].status, "failed");
    assert!(facts.has_failed_action());
}

#[test]
fn e08_sequential_reuse_gives_clean_pairs() {
    let (a, d) = one(
        "completed",
        vec![
            s("c1", "read", json!({"path":"init.md"})),
            f("c1", "completed", Some(json!("init"))),
            s("c2", "read", json!({"path":"INDEX.md"})),
            f("c2", "completed", Some(json!("index"))),
            assistant("a"),
            s("c1", "write", json!({"path":"note.md"})),
            f("c1", "completed", Some(json!("ok"))),
        ],
    );
    assert_eq!(d.occurrences.occurrences.len(), 3);
    assert!(d.occurrences.occurrences.iter().all(|o| !o.ambiguous));
    let outputs: Vec<Value> =
        d.turn_run_facts(&a, 0).tool_calls.iter().map(|c| c.output.as_ref().unwrap().value().into_owned()).collect();
    assert_eq!(outputs, vec![json!("init"), json!("index"), json!("ok")]);
}

#[test]
fn e09_e10_overlapping_reuse_is_ambiguous_and_sticky() {
    let (a, d) = one(
        "completed",
        vec![s("x", "a", json!({})), s("x", "b", json!({})), f("x", "completed", None), f("x", "completed", None)],
    );
    assert_eq!(d.occurrences.occurrences.len(), 2);
    for o in &d.occurrences.occurrences {
        assert_eq!(o.lifecycle, Lifecycle::Opaque { reason: OpaqueReason::MissingLifecycleEvidence });
        assert_eq!(
            o.evidence(&d.events(&a)).output,
            Evidence::Unavailable { reason: "tool-output-missing-lifecycle-evidence" }
        );
    }
    assert_eq!(d.occurrences.orphan_finishes.len(), 2);
    let facts = d.turn_run_facts(&a, 0);
    let statuses: Vec<_> = facts.tool_calls.iter().map(|c| &*c.status).collect();
    assert_eq!(statuses, ["pending", "completed", "completed"]);
    let (_, d) = one(
        "completed",
        vec![
            s("x", "a", json!({})),
            s("x", "a", json!({})),
            f("x", "completed", None),
            s("x", "a", json!({})),
            f("x", "completed", None),
        ],
    );
    assert_eq!(d.occurrences.occurrences.len(), 3);
    assert!(d.occurrences.occurrences.iter().all(|o| o.ambiguous));
    assert_eq!(d.occurrences.orphan_finishes.len(), 2);
}

#[test]
fn e11_cross_turn_pairing_in_a_session() {
    let (a, d) = attempt(vec![vec![
        (
            "waiting",
            vec![
                s("call", "calculate", json!({"expression":"(23+19)*3"})),
                json!({"type":"input.requested","request":{"id":"r"}}),
            ],
        ),
        ("completed", vec![f("call", "completed", Some(json!({"value":126}))), assistant("126")]),
    ]]);
    assert_eq!(d.turn_occurrences(&a, 0).occurrences[0].lifecycle, Lifecycle::Pending);
    assert_eq!(d.turn_occurrences(&a, 1).occurrences.len(), 0);
    assert_eq!(d.turn_occurrences(&a, 1).orphan_finishes.len(), 1);
    let session = &d.session_occurrences(0).occurrences[0];
    assert!(
        matches!(&session.lifecycle, Lifecycle::Finished { finish, .. } if (finish.turn_ordinal, finish.event_ordinal) == (2, 1))
    );
    assert_eq!(
        session.evidence(&d.events(&a)).output,
        Evidence::Complete { value: Some(Payload::new(json!({"value":126}))) }
    );
}

#[test]
fn e12_reuse_collision_across_resumed_turns() {
    let (a, d) = attempt(vec![vec![
        ("waiting", vec![s("item_3", "e2e.get-sum", json!({}))]),
        ("completed", vec![s("item_3", "deepwiki.read", json!({})), f("item_3", "completed", None)]),
    ]]);
    assert_eq!(d.turn_occurrences(&a, 1).occurrences.len(), 1);
    assert!(!d.turn_occurrences(&a, 1).occurrences[0].ambiguous);
    assert!(d.session_occurrences(0).occurrences.iter().all(|o| o.ambiguous));
    assert_eq!(d.session_occurrences(0).orphan_finishes.len(), 1);
}

#[test]
fn e13_pairing_never_crosses_sessions() {
    let (_, d) = attempt(vec![
        vec![("completed", vec![s("c1", "t", json!({}))])],
        vec![("completed", vec![f("c1", "completed", None)])],
    ]);
    assert_eq!(d.occurrences.occurrences[0].lifecycle, Lifecycle::Pending);
    assert_eq!(d.occurrences.orphan_finishes.len(), 1);
    assert_eq!(d.occurrences.orphan_finishes[0].session.as_str(), "session-2");
}

#[test]
fn e14_redacted_and_truncated_evidence() {
    let mut start = s("c1", "t", json!({"apiKey":"…","q":"x"}));
    start["redacted"] = json!(["input.apiKey"]);
    let mut finish = f("c1", "completed", Some(json!("long")));
    finish["truncated"] = json!([{"path":"output","originalBytes":300000}]);
    let (a, d) = one("completed", vec![start, finish]);
    let o = &d.occurrences.occurrences[0];
    assert!(matches!(&o.input(&d.events(&a)), Evidence::Partial(p) if p.opaque_pointers == ["/apiKey"]));
    assert!(matches!(&o.evidence(&d.events(&a)).output, Evidence::Partial(p) if p.opaque_pointers == ["/"]));
}

#[test]
fn e21_parked() {
    let parked = |events: Vec<Value>| {
        let evs: Vec<Event> = events.into_iter().map(Event::from_value).collect();
        derive_run_facts(&evs).parked
    };
    assert!(parked(vec![
        json!({"type":"input.requested","request":{}}),
        json!({"type":"thinking","text":"t"}),
        json!({"type":"compaction"})
    ]));
    assert!(!parked(vec![json!({"type":"input.requested","request":{}}), assistant("m")]));
    assert!(!parked(vec![]));
}

#[test]
fn e22_usage_sums_keep_absent_absent() {
    let doc = json!({"sessions":[{"sessionIndex":1,"turns":[
        {"turn":{"status":"completed","events":[],"usage":{"inputTokens":10,"outputTokens":5}}},
        {"turn":{"status":"completed","events":[],"usage":{"outputTokens":3,"cacheReadTokens":100,"costUSD":0.01}}},
        {"turn":{"status":"completed","events":[]}}]}]});
    let d = niceeval::load::load_bytes("u.json", doc.to_string().as_bytes()).unwrap();
    let derived = derive_attempt(&d.attempts[0], None, &PriceTable::default());
    assert_eq!(
        derived.sessions[0].usage.to_json(),
        json!({"inputTokens":10,"outputTokens":8,"cacheReadTokens":100,"costUSD":0.01})
    );
    assert_eq!(derived.usage.billable_tokens(), Some(18.0));
}

#[test]
fn e23_zero_rate_is_zero_and_no_price_is_no_estimate() {
    let prices =
        PriceTable::from_value(&json!({"eval-deterministic":{"inputPerMTok":0,"outputPerMTok":0}}), "o").unwrap();
    let usage = Usage::from_value(&json!({"inputTokens":2,"outputTokens":3,"costUSD":0}));
    assert_eq!(estimate_cost(Some("eval-deterministic"), &usage, &prices).total(), Some(0.0));
    assert_eq!(estimate_cost(Some("eval-deterministic"), &usage, &PriceTable::default()).total(), None);
}

#[test]
fn e25_e26_skills_and_subagents_are_not_tool_calls() {
    let (a, d) =
        one("completed", vec![json!({"type":"skill.loaded","skill":"pdf","operationId":"t1"}), assistant("a")]);
    assert!(d.occurrences.occurrences.is_empty() && d.occurrences.orphan_finishes.is_empty());
    assert!(d.turn_run_facts(&a, 0).tool_calls.is_empty());
    let (a, d) = one(
        "completed",
        vec![
            json!({"type":"operation.started","operationId":"s1","operation":{"kind":"subagent","name":"researcher"}}),
            json!({"type":"operation.finished","operationId":"s1","kind":"subagent","status":"failed"}),
        ],
    );
    assert!(d.occurrences.occurrences.is_empty());
    assert_eq!(&*d.turn_run_facts(&a, 0).subagent_calls[0].name, "researcher");
    assert!(d.turn_run_facts(&a, 0).has_failed_action());
}

#[test]
fn o11y_summary_reads_shell_and_files() {
    let events: Vec<Event> = vec![
        json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Bash","tool":"shell","input":{"command":["git","status"]}}}),
        json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"failed","output":{"metadata":{"exitCode":2}}}),
        json!({"type":"operation.started","operationId":"b","operation":{"kind":"tool","name":"Read","tool":"file_read","input":{"file_path":"a.ts"}}}),
        json!({"type":"error","message":"boom"}),
    ]
    .into_iter()
    .map(Event::from_value)
    .collect();
    let o = build_o11y_summary(&events);
    assert_eq!(o.shell_commands[0].command, "git status");
    assert_eq!(o.shell_commands[0].success, Some(false));
    assert_eq!(o.shell_commands[0].exit_code, Some(json!(2)));
    assert_eq!(o.files_read, ["a.ts"]);
    assert_eq!(o.errors, ["boom"]);
}

fn arb_event() -> impl Strategy<Value = Value> {
    let id = prop::sample::select(vec!["a", "b", "c"]);
    let status = prop::sample::select(vec!["completed", "failed", "rejected", "weird"]);
    prop_oneof![
        (id.clone(), prop::bool::ANY).prop_map(|(id, tool)| {
            let kind = if tool { "tool" } else { "subagent" };
            json!({"type":"operation.started","operationId":id,"operation":{"kind":kind,"name":"n","input":{}}})
        }),
        (id.clone(), status, prop::bool::ANY, prop::bool::ANY).prop_map(|(id, st, tool, out)| {
            let kind = if tool { "tool" } else { "subagent" };
            let mut e = json!({"type":"operation.finished","operationId":id,"kind":kind,"status":st});
            if out {
                e["output"] = json!(null);
            }
            e
        }),
        Just(json!({"type":"message","role":"assistant","text":"m"})),
        Just(json!({"type":"input.requested","request":{}})),
        Just(json!({"type":"thinking","text":"t"})),
        Just(json!({"type":"mystery","x":1})),
        Just(json!({"type":"skill.loaded","skill":"s","operationId":"a"})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn folds_are_total_and_conserve_tool_events(
        sessions in prop::collection::vec(
            prop::collection::vec((prop::sample::select(vec!["completed", "failed", "waiting"]), prop::collection::vec(arb_event(), 0..12)), 1..4),
            1..3)
    ) {
        let (a, d) = attempt(sessions.iter().map(|turns| turns.iter().map(|(st, evs)| (*st, evs.clone())).collect()).collect());
        let events = || a.sessions.iter().flat_map(|s| &s.turns).flat_map(|t| &t.turn.events);
        let starts = events().filter(|e| matches!(e.kind, niceeval::model::EventKind::ToolStarted { .. })).count();
        let finishes = events().filter(|e| matches!(e.kind, niceeval::model::EventKind::ToolFinished { .. })).count();
        // Every tool start yields exactly one occurrence.
        prop_assert_eq!(d.occurrences.occurrences.len(), starts);
        // Every tool finish is attached to exactly one occurrence or is an orphan.
        let attached = d.occurrences.occurrences.iter().filter(|o| o.finish_ref.is_some()).count();
        prop_assert_eq!(attached + d.occurrences.orphan_finishes.len(), finishes);
        let mut refs: Vec<_> = d.occurrences.occurrences.iter().filter_map(|o| o.finish_ref).collect();
        refs.extend(d.occurrences.orphan_finishes.iter().map(|o| o.event_ref));
        let n = refs.len();
        refs.sort();
        refs.dedup();
        prop_assert_eq!(refs.len(), n, "a finish was used twice");
        // Ambiguous occurrences never carry a finish.
        prop_assert!(d.occurrences.occurrences.iter().all(|o| !(o.ambiguous && o.finish_ref.is_some())));
        // The legacy fold never loses a tool start.
        let legacy: usize =
            (0..d.turns.len()).map(|i| d.turn_run_facts(&a, i).tool_calls.iter().filter(|c| !c.is_placeholder()).count()).sum();
        prop_assert_eq!(legacy, starts);
        // A session's part of the root fold is the fold over that session alone,
        // and a turn's counts are those of the fold over that turn alone.
        let (scope, addrs) = niceeval::model::derive::scope_turns(&a.sessions);
        for si in 0..a.sessions.len() {
            let mine: Vec<_> = (0..scope.len()).filter(|&i| addrs[i].session == si).collect();
            let alone: Vec<_> = mine.iter().map(|&i| scope[i].clone()).collect();
            let mut fold = niceeval::model::occurrence::derive_occurrences(&alone);
            for o in &mut fold.occurrences {
                o.start_ref = o.start_ref.in_scope(&mine);
                o.finish_ref = o.finish_ref.map(|f| f.in_scope(&mine));
            }
            for o in &mut fold.orphan_finishes {
                o.event_ref = o.event_ref.in_scope(&mine);
            }
            let part = d.session_occurrences(si);
            prop_assert_eq!(part.occurrences, &fold.occurrences[..]);
            prop_assert_eq!(part.orphan_finishes, &fold.orphan_finishes[..]);
        }
        for (i, t) in d.turns.iter().enumerate() {
            let own = d.turn_occurrences(&a, i);
            prop_assert_eq!((t.tool_calls, t.orphan_finishes), (own.occurrences.len(), own.orphan_finishes.len()));
            prop_assert!(own.occurrences.iter().all(|o| o.start_ref.scope_turn() == i));
        }
        let _ = d.to_json(&a);
    }
}

/// NiceEval tests `outcome !== undefined`: a turn whose `status` is written
/// but not a string still has an outcome, so its open call is pending; only
/// a turn without any `status` leaves it opaque (`partial-stream`).
#[test]
fn a_written_non_string_status_is_still_an_outcome() {
    let load = |turn: Value| {
        let doc = json!({"sessions": [{"sessionIndex": 1, "turns": [{"input": {"text": "go"}, "turn": turn}]}]});
        let d = niceeval::load::load_bytes("case.json", doc.to_string().as_bytes()).unwrap();
        let a = d.attempts.into_iter().next().unwrap();
        derive_attempt(&a, None, &PriceTable::default()).occurrences.occurrences[0].lifecycle.clone()
    };
    let start = s("c1", "t", json!({}));
    assert_eq!(load(json!({"status": null, "events": [start.clone()]})), Lifecycle::Pending);
    assert_eq!(load(json!({"status": 5, "events": [start.clone()]})), Lifecycle::Pending);
    assert_eq!(load(json!({"events": [start]})), Lifecycle::Opaque { reason: OpaqueReason::PartialStream });
}
