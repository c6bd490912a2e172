use super::*;
use serde_json::json;

#[test]
fn events_say_their_line_and_skipped_lines_say_why() {
    let text = "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n\nnot json\n{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Skill\",\"input\":{\"skill\":\"pdf\"}}]}}\n{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"ok\"}]}}\n";
    let p = parse(Agent::ClaudeCode, text);
    assert_eq!(p.event_lines, vec![4, 4]);
    assert_eq!(p.events[1], json!({"type":"skill.loaded","skill":"pdf","operationId":"t1"}));
    let reasons: Vec<(usize, &SkipReason)> = p.skipped.iter().map(|s| (s.line, &s.reason)).collect();
    assert_eq!(reasons.len(), 3);
    assert_eq!(reasons[0], (1, &SkipReason::Metadata));
    assert!(matches!(reasons[1], (3, SkipReason::NotJson(_))));
    assert_eq!(reasons[2], (5, &SkipReason::SkillResult));
    assert!(!p.parse_success);
    assert!(p.usage.is_empty(), "no usage line: usage is absent, not zero");
}

#[test]
fn codex_pairs_calls_without_ids_first_in_first_out() {
    let text = "{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{\\\"cmd\\\":[\\\"ls\\\"]}\"}\n{\"type\":\"function_call\",\"name\":\"exec\"}\n{\"type\":\"function_call_output\",\"output\":\"{\\\"exit_code\\\":2}\"}\n{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":10,\"cached_input_tokens\":4,\"output_tokens\":3}}\n";
    let p = parse(Agent::Codex, text);
    assert_eq!(p.events[0]["operationId"], "call_1");
    assert_eq!(p.events[0]["operation"]["input"], json!({"cmd":["ls"]}));
    assert_eq!(p.events[1]["operation"]["input"], json!({}));
    assert_eq!(p.events[2]["operationId"], "call_1");
    assert_eq!(p.events[2]["status"], "failed");
    assert_eq!(
        Value::Object(p.usage.clone()),
        json!({"inputTokens":6,"outputTokens":3,"cacheReadTokens":4,"requests":1})
    );
    assert!(p.skipped.is_empty(), "the usage line counted: {:?}", p.skipped);
}

#[test]
fn an_object_with_a_to_string_key_as_an_id_is_a_lost_line() {
    let text = "{\"type\":\"tool_result\",\"tool_use_id\":{\"toString\":1}}\n";
    let p = parse(Agent::ClaudeCode, text);
    assert!(p.events.is_empty());
    assert_eq!(p.skipped, vec![Skipped { line: 1, reason: SkipReason::Throws }]);
    assert!(!p.parse_success);
}

#[test]
fn the_agent_is_told_from_content() {
    assert_eq!(detect("{\"type\":\"summary\",\"summary\":\"t\",\"leafUuid\":\"u\"}\n"), Some(Agent::ClaudeCode));
    assert_eq!(detect("junk\n{\"type\":\"thread.started\",\"thread_id\":\"x\"}\n"), Some(Agent::Codex));
    assert_eq!(detect("{\"type\":\"message\",\"role\":\"user\",\"text\":\"x\"}\n"), None);
}

#[test]
fn a_tool_named_like_an_object_method_has_no_canonical_name() {
    let text = "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"constructor\"},{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"__proto__\"}]}}";
    let p = parse(Agent::ClaudeCode, text);
    assert!(p.events[0]["operation"].get("tool").is_none());
    assert_eq!(p.events[1]["operation"]["tool"], json!({}));
}

#[test]
fn json_parse_corners_read_as_javascript_reads_them() {
    // Duplicate keys: the last value wins; an overflowing number is Infinity
    // (a number, truthy, not zero), written null.
    let text =
        "{\"type\":\"function_call_output\",\"call_id\":\"a\",\"call_id\":\"b\",\"output\":{\"exit_code\":1e400}}\n";
    let p = parse(Agent::Codex, text);
    assert_eq!(p.events[0]["operationId"], "b");
    assert_eq!(p.events[0]["status"], "failed", "typeof Infinity is number, not 0: failed");
    assert_eq!(p.events[0]["output"], json!({"exit_code": null}));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any text: no panic, every event has its line, the lines only grow,
    /// and a line is skipped at most once.
    #[test]
    fn any_log_parses_without_panic(lines in proptest::collection::vec(
        proptest::prop_oneof![
            proptest::strategy::Just("{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\",\"id\":{\"toString\":1},\"name\":\"Bash\"}],\"usage\":{\"input_tokens\":1e400}}}".to_string()),
            proptest::strategy::Just("{\"type\":\"item.completed\",\"item\":{\"type\":\"file_change\",\"changes\":[1,{\"kind\":\"ADD\"}]}}".to_string()),
            proptest::strategy::Just("{\"type\":\"function_call_output\",\"output\":\"{\\\"exit_code\\\":1}\"}".to_string()),
            "[ -~]{0,40}",
            "\\PC{0,20}",
        ], 0..12)) {
        let text = lines.join("\n");
        for agent in [Agent::ClaudeCode, Agent::Codex] {
            let p = parse(agent, &text);
            proptest::prop_assert_eq!(p.events.len(), p.event_lines.len());
            proptest::prop_assert!(p.event_lines.windows(2).all(|w| w[0] <= w[1]));
            let mut skipped: Vec<usize> = p.skipped.iter().map(|s| s.line).collect();
            skipped.dedup();
            proptest::prop_assert_eq!(skipped.len(), p.skipped.len());
            proptest::prop_assert_eq!(p.parse_success, !p.skipped.iter().any(|s| s.reason.is_loss()));
        }
    }
}
