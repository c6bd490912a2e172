//! `parseCodexTranscript`: `codex exec --json` output (`thread.*`,
//! `turn.*`, `item.*`) and session-rollout ResponseItems (`message`,
//! `function_call`, `function_call_output`, `reasoning`, …). Usage is read
//! from the first place a line holds it, on every line; a compaction
//! marker is any type, item type or subtype naming compaction.

use super::codex_state::State;
use super::codex_text::{coerce_args, message_or, reasoning_of, text_of};
use super::js::{self, Throws, get, is_str, or, truthy};
use super::{Out, SkipReason, tool_names};
use serde_json::Value;

/// `isCompactionMarker`: the event type, `item.type` or `subtype`, lower-cased,
/// holds `compact` or `context_truncat`.
fn is_compaction_marker(event_type: Option<&Value>, data: &Value) -> bool {
    [event_type, get(data.get("item"), "type"), data.get("subtype")].into_iter().any(|c| {
        c.and_then(Value::as_str).is_some_and(|s| {
            let s = s.to_lowercase();
            s.contains("compact") || s.contains("context_truncat")
        })
    })
}

pub fn parse(lines: impl Iterator<Item = super::Line>, out: &mut Out, observe: &mut dyn FnMut(usize, &Value)) {
    let mut state = State::default();
    super::each_line(lines, out, observe, |data, out| {
        let counted = state.totals.add_from(data);
        (read_line(data, &mut state, out), counted)
    });
    out.usage = state.totals.write();
}

fn read_line(data: &Value, state: &mut State, out: &mut Out) -> Result<SkipReason, Throws> {
    let event_type = or(or(data.get("type"), data.get("event")), data.get("kind"));
    if is_compaction_marker(event_type, data) {
        out.compaction();
        return Ok(SkipReason::NoShape);
    }
    let ty = event_type.and_then(Value::as_str);
    match ty {
        Some("thread.started" | "thread.completed" | "turn.started" | "response.created" | "response.completed")
        | Some("response.cancelled") => Ok(SkipReason::Metadata),
        Some("turn.completed") => {
            let turn = data.get("turn");
            if !is_str(get(turn, "status"), "failed") {
                return Ok(SkipReason::Metadata);
            }
            let msg = or(get(get(turn, "error"), "message"), data.get("message"));
            out.push(super::error(message_or(msg, "turn failed")?));
            Ok(SkipReason::NoShape)
        }
        Some("turn.failed" | "response.failed") => {
            let msg = or(get(data.get("error"), "message"), data.get("message"));
            out.push(super::error(message_or(msg, "turn failed")?));
            Ok(SkipReason::NoShape)
        }
        Some("item.started") => super::codex_items::item(data.get("item"), false, state, out),
        Some("item.updated") => Ok(SkipReason::Incomplete),
        Some("item.completed") => super::codex_items::item(data.get("item"), true, state, out),
        Some("message" | "chat") => {
            let from_assistant = is_str(data.get("from"), "assistant");
            let role = match or(data.get("role"), None) {
                Some(r) => {
                    if is_str(Some(r), "user") {
                        "user"
                    } else {
                        "assistant"
                    }
                }
                None => {
                    if from_assistant {
                        "assistant"
                    } else {
                        "user"
                    }
                }
            };
            let text = text_of(or(or(data.get("content"), data.get("text")), data.get("message")));
            if text.is_empty() {
                return Ok(SkipReason::NoText);
            }
            out.push(super::message(role, text));
            Ok(SkipReason::NoShape)
        }
        Some("reasoning" | "thinking" | "thought") => {
            let text = reasoning_of(data);
            if text.is_empty() {
                return Ok(SkipReason::NoText);
            }
            out.push(super::thinking(text));
            Ok(SkipReason::NoShape)
        }
        Some("function_call" | "tool_call" | "tool_use" | "custom_tool_call" | "action" | "local_shell_call") => {
            call_line(data, ty == Some("local_shell_call"), state, out)?;
            Ok(SkipReason::NoShape)
        }
        Some("function_call_output" | "tool_result" | "tool_response" | "action_result")
        | Some("local_shell_call_output") => {
            let explicit = or(or(data.get("call_id"), data.get("tool_call_id")), data.get("id"));
            let id = match explicit {
                Some(e) if !e.is_null() => js::string(Some(e))?,
                _ => match state.pending.pop_front() {
                    Some(id) => id,
                    None => state.synth_id("result"),
                },
            };
            let raw = or(or(data.get("output"), data.get("result")), data.get("content"));
            let (output, status) = interpret_output(raw, data);
            out.push(super::finished(id, Some(output), status));
            Ok(SkipReason::NoShape)
        }
        Some("error") => {
            let msg = or(or(get(data.get("error"), "message"), data.get("message")), data.get("content"));
            out.push(super::error(message_or(msg, "error")?));
            Ok(SkipReason::NoShape)
        }
        Some("output_text.delta" | "output_text.done") => Ok(SkipReason::Delta),
        _ => {
            // Guessed from the shape: a line with a role is a message.
            let role = data.get("role").and_then(Value::as_str).filter(|r| matches!(*r, "assistant" | "user"));
            if let Some(role) = role {
                let text = text_of(or(data.get("content"), data.get("text")));
                if text.is_empty() {
                    return Ok(SkipReason::NoText);
                }
                out.push(super::message(role, text));
                return Ok(SkipReason::NoShape);
            }
            Ok(match ty {
                Some(t) => SkipReason::Unmapped(t.to_string()),
                None => SkipReason::NoShape,
            })
        }
    }
}

/// A call line: its name, its arguments coerced, its id (or a made one,
/// queued for an output line with no id).
fn call_line(data: &Value, is_shell: bool, state: &mut State, out: &mut Out) -> Result<(), Throws> {
    let name = if is_shell {
        "shell".to_string()
    } else {
        let raw = or(or(or(data.get("name"), get(data.get("function"), "name")), data.get("tool")), data.get("action"));
        message_or(raw, "unknown")?
    };
    let raw_args = if is_shell {
        or(data.get("action"), data.get("input"))
    } else {
        or(or(or(get(data.get("function"), "arguments"), data.get("arguments")), data.get("input")), data.get("params"))
    };
    let input = coerce_args(raw_args);
    let explicit = or(or(data.get("call_id"), data.get("id")), data.get("tool_call_id"));
    let id = match explicit {
        Some(e) if !e.is_null() => js::string(Some(e))?,
        _ => {
            let id = state.synth_id("call");
            state.pending.push_back(id.clone());
            id
        }
    };
    let command = if is_shell { super::opaque_command() } else { super::not_command() };
    let tool = tool_names::canonical(&name, tool_names::CODEX);
    state.emit_call(out, id, &name, input, tool, command);
    Ok(())
}

/// `interpretOutput`: explicit failure first (`success: false`, an
/// `error`, a failed or rejected `status`), then an `exit_code` in the
/// output (a string output is read as JSON when it is), else completed.
fn interpret_output(raw: Option<&Value>, data: &Value) -> (Value, &'static str) {
    let as_is = || or(raw, None).cloned().unwrap_or(Value::Null);
    if data.get("success") == Some(&Value::Bool(false)) || truthy(data.get("error")) {
        return (as_is(), "failed");
    }
    let status = or(data.get("status"), get(data.get("item"), "status"));
    if is_str(status, "failed") || is_str(status, "error") {
        return (as_is(), "failed");
    }
    if is_str(status, "rejected") || is_str(status, "declined") {
        return (as_is(), "rejected");
    }
    let parsed: Option<Value> = match raw {
        Some(Value::String(s)) => Some(serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))),
        other => other.cloned(),
    };
    let p = parsed.as_ref();
    let exit = or(or(get(p, "exit_code"), get(p, "exitCode")), get(get(p, "metadata"), "exit_code"));
    let output = or(p, None).cloned().unwrap_or(Value::Null);
    match exit.and_then(js::number) {
        Some(x) => (output, if x == 0.0 { "completed" } else { "failed" }),
        None => (output, "completed"),
    }
}
