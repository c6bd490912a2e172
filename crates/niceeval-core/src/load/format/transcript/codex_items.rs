//! The `item` of `codex exec --json`'s `item.started` / `item.completed`
//! lines (`handleItem`): reasoning and messages count once, when
//! completed; a command, MCP call or web search starts at `item.started`
//! (or at completion, when it never started) and finishes at completion;
//! a file change is one started-and-finished operation per changed file.

use super::codex_state::State;
use super::codex_text::{coerce_args, message_or, reasoning_of, text_of};
use super::js::{self, Throws, get, is_str, or, truthy};
use super::{Out, SkipReason, tool_names};
use serde_json::{Map, Value};

/// `{key: v}`, or `{}` when `v` is `undefined` (`JSON.stringify` drops it).
fn single(key: &str, v: Option<&Value>) -> Value {
    let mut o = Map::new();
    if let Some(v) = v {
        o.insert(key.to_string(), v.clone());
    }
    Value::Object(o)
}

pub(super) fn item(
    item: Option<&Value>,
    completed: bool,
    state: &mut State,
    out: &mut Out,
) -> Result<SkipReason, Throws> {
    // `!item || typeof item !== "object"`; an array passes and has no type.
    let Some(item) = item.filter(|i| i.is_object() || i.is_array()) else { return Ok(SkipReason::NoShape) };
    let id_raw = item.get("id");
    let base_id = match id_raw {
        Some(v @ (Value::String(_) | Value::Number(_))) => js::string(Some(v))?,
        _ => String::new(),
    };
    let ty = item.get("type").and_then(Value::as_str);
    match ty {
        Some("reasoning" | "thinking") => {
            if !completed {
                return Ok(SkipReason::Incomplete);
            }
            let text = reasoning_of(item);
            if text.is_empty() {
                return Ok(SkipReason::NoText);
            }
            out.push(super::thinking(text));
        }
        Some("agent_message" | "assistant_message" | "message") => {
            if !completed {
                return Ok(SkipReason::Incomplete);
            }
            let text = text_of(or(or(item.get("text"), item.get("content")), item.get("message")));
            if text.is_empty() {
                return Ok(SkipReason::NoText);
            }
            out.push(super::message("assistant", text));
        }
        Some("command_execution" | "local_shell_call") => command(item, base_id, completed, state, out),
        Some("mcp_tool_call") => mcp_call(item, base_id, completed, state, out)?,
        Some("web_search") => {
            let id = if base_id.is_empty() { state.synth_id("web") } else { base_id };
            let input = single("query", or(item.get("query"), item.get("search")));
            if !completed || !state.started.contains(&id) {
                let tool = Some("web_search".into());
                state.emit_call(out, id.clone(), "web_search", input, tool, super::not_command());
            }
            if !completed {
                return Ok(SkipReason::NoShape);
            }
            let result = or(or(item.get("results"), item.get("result")), None).cloned().unwrap_or(Value::Null);
            out.push(super::finished(id, Some(result), "completed"));
        }
        Some("file_change" | "patch" | "file_patch") => {
            if !completed {
                return Ok(SkipReason::Incomplete);
            }
            file_changes(item, &base_id, state, out);
        }
        Some("error") => {
            let msg = or(item.get("message"), item.get("text"));
            out.push(super::error(message_or(msg, "error")?));
        }
        Some(t) => return Ok(SkipReason::Unmapped(t.to_string())),
        None => return Ok(SkipReason::NoShape),
    }
    Ok(SkipReason::NoShape)
}

/// A shell command: its status from `status` and the exit code (snake_case
/// from `codex exec --json`, camelCase from app-server v2).
fn command(item: &Value, base_id: String, completed: bool, state: &mut State, out: &mut Out) {
    let id = if base_id.is_empty() { state.synth_id("cmd") } else { base_id };
    let input = single("command", or(item.get("command"), get(item.get("action"), "command")));
    if !completed || !state.started.contains(&id) {
        let tool = Some("shell".into());
        state.emit_call(out, id.clone(), "command_execution", input, tool, super::opaque_command());
    }
    if !completed {
        return;
    }
    let exit = or(item.get("exit_code"), item.get("exitCode"));
    let output = or(or(item.get("aggregated_output"), item.get("aggregatedOutput")), item.get("output"));
    let status_str = item.get("status");
    let status = if is_str(status_str, "declined") || is_str(status_str, "rejected") {
        "rejected"
    } else if js::is_zero(exit) || (js::nullish(exit) && !is_str(status_str, "failed") && !is_str(status_str, "error"))
    {
        "completed"
    } else {
        "failed"
    };
    let result = match (output, exit) {
        (None, None) => None,
        _ => {
            let mut o = Map::new();
            o.insert("output".into(), or(output, None).cloned().unwrap_or(Value::Null));
            o.insert("exit_code".into(), or(exit, None).cloned().unwrap_or(Value::Null));
            Some(Value::Object(o))
        }
    };
    out.push(super::finished(id, result, status));
}

fn mcp_call(item: &Value, base_id: String, completed: bool, state: &mut State, out: &mut Out) -> Result<(), Throws> {
    let id = if base_id.is_empty() { state.synth_id("mcp") } else { base_id };
    let tool_raw = message_or(or(item.get("tool"), item.get("name")), "unknown")?;
    let name = match item.get("server") {
        Some(Value::String(server)) => format!("{server}.{tool_raw}"),
        _ => tool_raw.clone(),
    };
    let input = coerce_args(or(item.get("arguments"), item.get("input")));
    if !completed || !state.started.contains(&id) {
        let tool = tool_names::canonical(&tool_raw, tool_names::CODEX);
        state.emit_call(out, id.clone(), &name, input, tool, super::not_command());
    }
    if !completed {
        return Ok(());
    }
    let success = !truthy(item.get("error")) && !is_str(item.get("status"), "failed");
    let result = or(item.get("result"), None).cloned().unwrap_or(Value::Null);
    out.push(super::finished(id, Some(result), if success { "completed" } else { "failed" }));
    Ok(())
}

/// One operation per change, `<id or "patch">#<index>`, started and
/// finished at once; adding or deleting a file is a write, else an edit.
fn file_changes(item: &Value, base_id: &str, state: &mut State, out: &mut Out) {
    let fallback;
    let list: &[Value] = match item.get("changes") {
        Some(Value::Array(changes)) => changes,
        _ => {
            fallback = [single("path", item.get("path"))];
            &fallback
        }
    };
    for (i, ch) in list.iter().enumerate() {
        let path = or(get(Some(ch), "path"), get(Some(ch), "file"));
        let kind_raw = or(or(get(Some(ch), "kind"), get(Some(ch), "type")), item.get("kind"));
        let kind = match kind_raw {
            Some(Value::String(k)) => k.to_lowercase(),
            _ => "update".to_string(),
        };
        let tool = if kind == "add" || kind == "delete" { "file_write" } else { "file_edit" };
        let id = format!("{}#{i}", if base_id.is_empty() { "patch" } else { base_id });
        let mut change = single("path", path);
        if let Value::Object(o) = &mut change {
            o.insert("kind".into(), kind.into());
        }
        state.emit_call(out, id.clone(), "file_change", change.clone(), Some(tool.into()), super::not_command());
        out.push(super::finished(id, Some(change), "completed"));
    }
}
