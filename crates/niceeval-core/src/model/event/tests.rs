use super::*;
use serde_json::json;

#[test]
fn classifies_every_variant() {
    let cases = [
        (json!({"type":"message","role":"assistant","text":"hi"}), "Message"),
        (
            json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Read","input":{}}}),
            "ToolStarted",
        ),
        (
            json!({"type":"operation.started","operationId":"a","operation":{"kind":"subagent","name":"r"}}),
            "SubagentStarted",
        ),
        (json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed"}), "ToolFinished"),
        (
            json!({"type":"operation.finished","operationId":"a","kind":"subagent","status":"failed"}),
            "SubagentFinished",
        ),
        (json!({"type":"skill.loaded","skill":"pdf"}), "SkillLoaded"),
        (json!({"type":"input.requested","request":{}}), "InputRequested"),
        (json!({"type":"thinking","text":"t"}), "Thinking"),
        (json!({"type":"context.injected","text":"t","source":"memory"}), "ContextInjected"),
        (json!({"type":"compaction"}), "Compaction"),
        (json!({"type":"error","message":"boom"}), "Error"),
    ];
    for (raw, want) in cases {
        let ev = Event::from_value(raw);
        let got = format!("{:?}", ev.kind);
        assert!(got.starts_with(want), "{got} should be {want}");
    }
}

#[test]
fn misfits_are_kept_with_a_reason() {
    let ev = Event::from_value(json!({"type":"tool.progress","pct":3}));
    assert_eq!(
        ev.kind,
        EventKind::Unrecognized {
            reason: "unknown event type \"tool.progress\"".into(),
            fault: super::Fault::UnknownType
        }
    );
    assert_eq!(ev.raw()["pct"], 3);
    let ev = Event::from_value(json!({"type":"message","role":"assistant"}));
    assert_eq!(ev.kind, EventKind::Message { role: Role::Assistant });
    assert_eq!(ev.misfit().map(|m| m.words).as_deref(), Some("message: missing required field `text`"));
    let ev = Event::from_value(json!({"type":"operation.finished","operationId":7,"kind":"tool","status":"completed"}));
    assert!(
        matches!(ev.kind, EventKind::Unrecognized { ref reason, fault: super::Fault::InvalidField } if reason.contains("operationId"))
    );
    let ev = Event::from_value(json!([1, 2]));
    assert!(ev.is_unrecognized());
}

/// NiceEval's folds switch on `type` and test `kind === "tool"`: what
/// is outside the contract is still folded, and says why it is a misfit.
#[test]
fn misfits_are_folded_as_niceeval_folds_them() {
    let system = Event::from_value(json!({"type":"message","role":"system","text":"s"}));
    assert_eq!(system.kind, EventKind::Message { role: Role::Other });
    assert!(system.misfit().is_some_and(|m| m.words.contains("\"system\"")));
    let mcp =
        Event::from_value(json!({"type":"operation.started","operationId":"o","operation":{"kind":"mcp","name":"m"}}));
    assert_eq!(mcp.kind, EventKind::SubagentStarted { operation_id: "o".into(), name: "m".into() });
    assert!(mcp.misfit().is_some_and(|m| m.words.contains("subagent call")));
    let no_kind = Event::from_value(json!({"type":"operation.finished","operationId":"o","status":"completed"}));
    assert_eq!(no_kind.kind, EventKind::SubagentFinished { operation_id: "o".into(), status: "completed".into() });
    let null_tool = Event::from_value(
        json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"t","tool":null}}),
    );
    assert_eq!(null_tool.kind, EventKind::ToolStarted { operation_id: "a".into(), name: "t".into(), tool: None });
    assert!(null_tool.misfit().is_some());
    let bare_request = Event::from_value(json!({"type":"input.requested"}));
    assert_eq!(bare_request.kind, EventKind::InputRequested);
    assert!(bare_request.misfit().is_some());
    // Inside the contract: no misfit.
    let fine = Event::from_value(json!({"type":"message","role":"user","text":"hi"}));
    assert_eq!(fine.misfit(), None);
}

#[test]
fn absent_output_differs_from_null_output() {
    let absent =
        Event::from_value(json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed"}));
    let null = Event::from_value(
        json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":null}),
    );
    assert_eq!(absent.output(), None);
    assert_eq!(null.output().as_deref(), Some(&Value::Null));
}

#[test]
fn an_event_is_64_bytes() {
    // A million-event file holds a million of them; the names are one pointer each.
    assert_eq!(std::mem::size_of::<super::Name>(), 8);
    assert_eq!(std::mem::size_of::<super::Event>(), 64);
}

#[test]
fn lint_plain_only_when_the_lint_has_nothing_to_walk() {
    let plain = [
        json!({"type":"message","role":"assistant","text":"hi","truncated":[]}),
        json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":{},"tool":"shell","command":null}}),
        json!({"type":"operation.started","operationId":"a","operation":{"kind":"subagent","name":"r","remoteUrl":"u"}}),
        json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"done","output":1}),
        json!({"type":"message","role":"system"}),
    ];
    for raw in plain {
        assert!(Event::from_value(raw.clone()).has(FIELD_LINT_PLAIN), "{raw} is plain");
    }
    let walked = [
        json!({"type":"message","role":"assistant","text":"hi","loc":{}}),
        json!({"type":"message","role":"assistant","text":"hi","sourceOrder":1}),
        json!({"type":"message","role":"assistant","text":"hi","extra":1}),
        json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":{},"remoteUrl":"u"}}),
        json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","operation":{}}),
        json!({"type":"input.requested","request":{}}),
        json!({"type":"tool.progress"}),
    ];
    for raw in walked {
        assert!(!Event::from_value(raw.clone()).has(FIELD_LINT_PLAIN), "{raw} is walked by the lint");
    }
}

#[test]
fn a_command_after_the_input_is_read_where_it_is() {
    let texts = [
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":{"p":1},"command":{"kind":"not-command"}}}"#,
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":"x" , "command" : {"kind":"a,b"} }}"#,
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","command":{"kind":"first"},"name":"R","input":{}}}"#,
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":{},"tool":"shell","command":null}}"#,
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":{},"c\u006fmmand":{"kind":"escaped"}}}"#,
    ];
    for (i, text) in texts.into_iter().enumerate() {
        let source = Source::shared(Arc::new(text.as_bytes().to_vec()));
        let raw = Event::from_raw(source, 0, text.len() as u32, &mut |s: &str| Name::from(s));
        let parsed = Event::from_value(serde_json::from_str(text).unwrap());
        let walked = parsed.command().map(|n| n.to_value().into_owned());
        assert!(walked.is_some(), "{text}");
        assert_eq!(raw.command().map(|n| n.to_value().into_owned()), walked, "{text}");
        // Read after the input unless another member or none follows it (an escaped key reads as written).
        assert_eq!(raw.member_after_payload("command").is_some(), i != 2 && i != 3, "{text}");
    }
}

/// A text event's string is noted where it is when the event is classified,
/// so a row's preview reads its start without scanning the whole string (a
/// 20 MB message cost a 20 MB scan in every frame before).
#[test]
fn a_text_is_read_where_it_was_noted() {
    let texts = [
        (r#"{"type":"message","role":"assistant","text":"hello \"you\"","extra":1}"#, true),
        (r#"{"type":"thinking","text":"hmm"}"#, true),
        (r#"{"type":"context.injected","text":"ctx","source":"rules"}"#, true),
        (r#"{"type":"error","message":"boom"}"#, true),
        (r#"{"type":"message","role":"assistant","text":42}"#, false),
    ];
    for (text, noted) in texts {
        let source = Source::shared(Arc::new(text.as_bytes().to_vec()));
        let raw = Event::from_raw(source, 0, text.len() as u32, &mut |s: &str| Name::from(s));
        let parsed = Event::from_value(serde_json::from_str(text).unwrap());
        assert_eq!(raw.payload_at != 0, noted, "{text}");
        assert_eq!(raw.text(), parsed.text(), "{text}");
        assert_eq!(raw.text_prefix(3), parsed.text_prefix(3), "{text}");
    }
}
