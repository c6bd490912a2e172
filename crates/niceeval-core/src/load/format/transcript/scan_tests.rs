use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/folder");
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The cheap scan says what the full parse says, field by field.
fn agrees(bytes: &[u8]) -> SessionFacts {
    let quick = scan(Agent::ClaudeCode, bytes);
    let full = SessionFacts::of_parse(Agent::ClaudeCode, &super::super::load::text_of(bytes).0);
    assert_eq!(quick, full);
    quick
}

#[test]
fn the_scan_of_a_plain_session_agrees_with_the_parse() {
    let f = agrees(&fixture("a1-fix-tests.jsonl"));
    assert_eq!(f.first_user.as_deref(), Some("Fix the flaky test in parser_spec"));
    assert_eq!(f.model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(f.started.as_deref(), Some("2026-11-03T10:00:00.000Z"));
    assert_eq!(f.ended.as_deref(), Some("2026-11-03T10:01:04.000Z"));
    assert_eq!((f.user_messages, f.tool_calls, f.failures, f.compactions), (2, 2, 1, 1));
    // Usage repeated on each line of a message is added per line, as NiceEval adds it.
    assert_eq!(f.usage.input_tokens, Some(900.0));
    assert_eq!(f.usage.output_tokens, Some(90.0));
    assert_eq!(f.usage.cache_read_tokens, Some(2000.0));
    assert_eq!(f.usage.cache_creation_tokens, None, "absent, not zero");
    assert_eq!(f.lost_lines, 0);
}

#[test]
fn odd_lines_are_read_by_the_parser_and_still_agree() {
    // A Skill use and its result, a numeric id, a string is_error, a line
    // that is not JSON, a compaction told twice, duplicate keys.
    let f = agrees(&fixture("b2-skill-and-odd-lines.jsonl"));
    assert_eq!(f.first_user.as_deref(), Some("Make a PDF\u{1b}[31m of the report"));
    assert_eq!((f.tool_calls, f.failures, f.compactions, f.lost_lines), (1, 1, 2, 1));
    assert_eq!(f.user_messages, 2, "the compact summary is a marker, the duplicate-key line a message");
    assert_eq!(f.usage.input_tokens, Some(50.0));
}

#[test]
fn a_session_without_usage_has_none() {
    let f = agrees(&fixture("c3-empty-session.jsonl"));
    assert!(f.usage.is_empty());
    assert_eq!(f.model, None);
    assert_eq!(f.user_messages, 1);
}

#[test]
fn text_fallbacks_and_shapes_agree_line_by_line() {
    let lines = [
        r#"{"type":"user","content":"","message":{"content":"hidden by the empty string"}}"#,
        r#"{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}"#,
        r#"{"role":"user","text":"top-level text"}"#,
        r#"{"type":"user","content":{"not":"an array"},"text":"t"}"#,
        r#"{"type":"assistant","usage":{"prompt_tokens":3,"completion_tokens":4},"message":{"usage":null}}"#,
        r#"{"type":"assistant","message":{"usage":{"input_tokens":0,"output_tokens":0}}}"#,
        r#"{"type":"tool_result","tool_use_id":"x","is_error":true}"#,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","id":"y","error":{"m":1}}]}}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"skill","input":{"skill":""}}]}}"#,
        r#"{"type":"assistant","message":{"content":["a string block"]}}"#,
        r#"{"type":"user","timestamp":5,"message":{"content":"numeric time"}}"#,
        r#"[1,2,3]"#,
    ];
    for line in lines {
        agrees(line.as_bytes());
    }
    agrees(lines.join("\n").as_bytes());
}
