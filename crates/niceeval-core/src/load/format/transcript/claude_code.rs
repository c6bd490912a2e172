//! `parseClaudeCodeTranscript`: a Claude Code session log
//! (`~/.claude/projects/<project>/<session>.jsonl`) or stream-json output.
//! Assistant lines give a message, then thinking, then their tool uses;
//! user lines give tool results (paired by `tool_use_id`) or a message;
//! a compaction marker is read before anything else on its line.

use super::js::{self, Throws, get, is_str, or, truthy};
use super::{Out, SkipReason, tool_names};
use rustc_hash::FxHashSet;
use serde_json::{Map, Value};

/// What one usage object adds (`readUsage`).
pub(super) struct Delta {
    pub(super) input: f64,
    pub(super) output: f64,
    pub(super) cache_read: f64,
    pub(super) cache_creation: f64,
}

/// The first of `keys` whose value is a finite number, else 0.
fn first_number(o: &Value, keys: &[&str]) -> f64 {
    keys.iter().find_map(|k| js::finite(o.get(*k))).unwrap_or(0.0)
}

pub(super) fn read_usage(u: Option<&Value>) -> Option<Delta> {
    // `!u || typeof u !== "object"`: arrays pass, and read as all zero.
    let u = u.filter(|u| u.is_object() || u.is_array())?;
    let d = Delta {
        input: first_number(u, &["input_tokens", "prompt_tokens", "inputTokens"]),
        output: first_number(u, &["output_tokens", "completion_tokens", "outputTokens"]),
        cache_read: first_number(u, &["cache_read_input_tokens", "cached_input_tokens", "cache_read_tokens"]),
        cache_creation: cache_creation(u),
    };
    let zero = d.input == 0.0 && d.output == 0.0 && d.cache_read == 0.0 && d.cache_creation == 0.0;
    (!zero).then_some(d)
}

/// The top-level total, else the sum of the two TTL buckets (read as any
/// number, finite or not, as NiceEval does).
fn cache_creation(u: &Value) -> f64 {
    if let Some(top) = js::finite(u.get("cache_creation_input_tokens")) {
        return top;
    }
    match u.get("cache_creation") {
        Some(d @ (Value::Object(_) | Value::Array(_))) => {
            let bucket = |k: &str| d.get(k).and_then(js::number).unwrap_or(0.0);
            bucket("ephemeral_5m_input_tokens") + bucket("ephemeral_1h_input_tokens")
        }
        _ => 0.0,
    }
}

#[derive(Default)]
pub(super) struct Totals {
    pub(super) input: f64,
    pub(super) output: f64,
    pub(super) cache_read: f64,
    pub(super) cache_creation: f64,
    pub(super) requests: u64,
}

impl Totals {
    /// `addUsageFrom`: `message.usage`, else `usage`. True when it counted.
    fn add_from(&mut self, data: &Value) -> bool {
        let Some(d) = read_usage(or(get(get(Some(data), "message"), "usage"), get(Some(data), "usage"))) else {
            return false;
        };
        self.input += d.input;
        self.output += d.output;
        self.cache_read += d.cache_read;
        self.cache_creation += d.cache_creation;
        self.requests += 1;
        true
    }

    pub(super) fn write(&self) -> Map<String, Value> {
        let buckets = [("cacheReadTokens", self.cache_read), ("cacheCreationTokens", self.cache_creation)];
        js::usage_written(self.requests, self.input, self.output, &buckets)
    }
}

/// `content`, else `message.content`, when it is an array.
fn content_array(data: &Value) -> Option<&Vec<Value>> {
    let direct = data.get("content").and_then(Value::as_array);
    direct.or_else(|| get(data.get("message"), "content").and_then(Value::as_array))
}

/// `extractText`: string content (when not empty), else the text blocks
/// joined, else a top-level `text`.
fn text_of(data: &Value) -> String {
    let direct = data.get("content").and_then(Value::as_str);
    let string = direct.or_else(|| get(data.get("message"), "content").and_then(Value::as_str));
    if let Some(s) = string.filter(|s| !s.is_empty()) {
        return s.to_string();
    }
    if let Some(arr) = content_array(data) {
        let texts: Vec<&str> = arr
            .iter()
            .filter(|b| is_str(b.get("type"), "text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect();
        if !texts.is_empty() {
            return texts.join("\n");
        }
    }
    data.get("text").and_then(Value::as_str).unwrap_or_default().to_string()
}

/// `extractThinking`: the thinking blocks' `thinking ?? text`, joined.
fn thinking_of(data: &Value) -> String {
    let Some(arr) = content_array(data) else { return String::new() };
    let blocks: Vec<&str> = arr
        .iter()
        .filter(|b| is_str(b.get("type"), "thinking"))
        .filter_map(|b| or(b.get("thinking"), b.get("text")).and_then(Value::as_str))
        .collect();
    blocks.join("\n")
}

/// `isCompactSummary`: `type: "summary"`, `isCompactSummary` (on the line
/// or its message) or `subtype: "compact_boundary"`.
pub fn is_compaction_marker(data: &Value) -> bool {
    is_str(data.get("type"), "summary")
        || data.get("isCompactSummary") == Some(&Value::Bool(true))
        || get(data.get("message"), "isCompactSummary") == Some(&Value::Bool(true))
        || is_str(data.get("subtype"), "compact_boundary")
}

/// `is_error === true || !!error`.
fn is_error(v: &Value) -> bool {
    v.get("is_error") == Some(&Value::Bool(true)) || truthy(v.get("error"))
}

fn status(failed: bool) -> &'static str {
    if failed { "failed" } else { "completed" }
}

/// The parse state across lines.
#[derive(Default)]
struct State {
    totals: Totals,
    /// Tool uses read as `skill.loaded`: their results are dropped.
    skill_calls: FxHashSet<String>,
}

pub fn parse(lines: impl Iterator<Item = super::Line>, out: &mut Out, observe: &mut dyn FnMut(usize, &Value)) {
    let mut state = State::default();
    super::each_line(lines, out, observe, |data, out| {
        let mut counted = false;
        (read_line(data, &mut state, out, &mut counted), counted)
    });
    out.usage = state.totals.write();
}

/// One parsed line; the reason it gave nothing, should it give nothing.
fn read_line(data: &Value, state: &mut State, out: &mut Out, counted: &mut bool) -> Result<SkipReason, Throws> {
    if is_compaction_marker(data) {
        out.compaction();
        return Ok(SkipReason::NoShape);
    }
    let ty = data.get("type");
    let role = data.get("role");
    if is_str(ty, "user") || is_str(role, "user") {
        *counted = state.totals.add_from(data);
        return user_line(data, state, out);
    }
    if is_str(ty, "assistant") || is_str(role, "assistant") {
        *counted = state.totals.add_from(data);
        return assistant_line(data, state, out);
    }
    if is_str(ty, "tool_result") || is_str(ty, "tool_response") {
        let id = id_or_unknown(or(data.get("tool_use_id"), data.get("id")))?;
        if state.skill_calls.contains(&id) {
            return Ok(SkipReason::SkillResult);
        }
        let output = or(or(or(data.get("content"), data.get("output")), data.get("result")), None);
        out.push(super::finished(id, Some(output.cloned().unwrap_or(Value::Null)), status(is_error(data))));
        return Ok(SkipReason::NoShape);
    }
    if is_str(ty, "system") || is_str(role, "system") {
        return Ok(SkipReason::Metadata);
    }
    if is_str(ty, "error") || truthy(data.get("error")) {
        let err = data.get("error");
        let message = match or(get(err, "message"), data.get("message")) {
            Some(m) if !m.is_null() => js::string(Some(m))?,
            _ => "error".to_string(),
        };
        out.push(super::error(message));
        return Ok(SkipReason::NoShape);
    }
    Ok(match ty.and_then(Value::as_str) {
        Some(t) => SkipReason::Unmapped(t.to_string()),
        None => SkipReason::NoShape,
    })
}

/// `String(x ?? "unknown")`.
fn id_or_unknown(v: Option<&Value>) -> Result<String, Throws> {
    match v {
        Some(v) if !v.is_null() => js::string(Some(v)),
        _ => Ok("unknown".into()),
    }
}

fn user_line(data: &Value, state: &State, out: &mut Out) -> Result<SkipReason, Throws> {
    let results: Vec<&Value> = content_array(data)
        .map(|arr| arr.iter().filter(|b| is_str(b.get("type"), "tool_result")).collect())
        .unwrap_or_default();
    if results.is_empty() {
        let text = text_of(data);
        if text.is_empty() {
            return Ok(SkipReason::NoText);
        }
        out.push(super::message("user", text));
        return Ok(SkipReason::NoShape);
    }
    let mut reason = SkipReason::NoShape;
    for r in results {
        let id = id_or_unknown(or(r.get("tool_use_id"), r.get("id")))?;
        if state.skill_calls.contains(&id) {
            reason = SkipReason::SkillResult;
            continue;
        }
        let output = or(r.get("content"), None).cloned().unwrap_or(Value::Null);
        out.push(super::finished(id, Some(output), status(is_error(r))));
    }
    Ok(reason)
}

fn assistant_line(data: &Value, state: &mut State, out: &mut Out) -> Result<SkipReason, Throws> {
    let text = text_of(data);
    if !text.is_empty() {
        out.push(super::message("assistant", text));
    }
    let thinking = thinking_of(data);
    if !thinking.is_empty() {
        out.push(super::thinking(thinking));
    }
    for b in content_array(data).into_iter().flatten() {
        if !is_str(b.get("type"), "tool_use") {
            continue;
        }
        let name = id_or_unknown(b.get("name"))?;
        let id = id_or_unknown(b.get("id"))?;
        let input = or(b.get("input"), None).cloned().unwrap_or_else(|| Value::Object(Map::new()));
        let lower = name.to_lowercase();
        // The Skill tool: `input.skill` names the skill loaded.
        if lower == "skill"
            && let Some(skill) = input.get("skill").and_then(Value::as_str).filter(|s| !s.is_empty())
        {
            let loaded = super::event(vec![
                ("type", "skill.loaded".into()),
                ("skill", skill.into()),
                ("operationId", id.clone().into()),
            ]);
            out.push(loaded);
            state.skill_calls.insert(id);
            continue;
        }
        // The log carries Bash's source text, never an argv.
        let command = if lower == "bash" { super::opaque_command() } else { super::not_command() };
        let tool = tool_names::canonical(&name, tool_names::CLAUDE);
        out.push(super::started(id, name, input, tool, command));
    }
    Ok(SkipReason::NoText)
}
