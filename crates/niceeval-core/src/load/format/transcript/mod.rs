//! Native coding-agent logs read as NiceEval reads them: a Claude Code
//! session log or `--output-format stream-json` output, and `codex exec
//! --json` output (with Responses-style rollout lines), turned into
//! StreamEvents, usage and a compaction count by ports of NiceEval's
//! `parseClaudeCodeTranscript` and `parseCodexTranscript`
//! (`packages/niceeval/src/o11y/parsers/`), rule for rule.
//!
//! Beyond what NiceEval returns, the result says which line each event came
//! from and which lines gave nothing, and why: the viewer reports skipped
//! input instead of dropping it silently. This module is pure: text in,
//! [`Parsed`] out.

mod claude_code;
mod codex;
mod codex_items;
mod codex_state;
mod codex_text;
pub mod folder;
pub mod js;
pub mod load;
pub mod provenance;
pub mod scan;
mod timing;
mod tool_names;
pub mod truth;

pub use crate::model::provenance::{Agent, SkipReason};
use serde_json::{Map, Value};

/// A line that gave nothing, with its 1-based number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub line: usize,
    pub reason: SkipReason,
}

/// What the parser made of a log: NiceEval's `ParsedTranscript` plus
/// where each event came from and what was skipped.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// StreamEvents in the wire shape, numbers as NiceEval's doubles.
    pub events: Vec<Value>,
    /// The 1-based line each event came from (as long as `events`).
    pub event_lines: Vec<usize>,
    /// `Usage`: absent keys are absent (no usage line: `{}`).
    pub usage: Map<String, Value>,
    pub compactions: u64,
    pub parse_success: bool,
    pub skipped: Vec<Skipped>,
    /// Where an unpaired surrogate escape was read as U+FFFD: line, byte column.
    pub surrogates_replaced: Vec<(usize, usize)>,
}

impl Parsed {
    /// `{events, usage, compactions, parseSuccess}`, as NiceEval returns it.
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("events".into(), Value::Array(self.events.clone()));
        o.insert("usage".into(), Value::Object(self.usage.clone()));
        o.insert("compactions".into(), self.compactions.into());
        o.insert("parseSuccess".into(), self.parse_success.into());
        Value::Object(o)
    }
}

/// Parse `text` (the whole log) as `agent` wrote it.
pub fn parse(agent: Agent, text: &str) -> Parsed {
    parse_observed(agent, text, &mut |_, _| {})
}

/// [`parse`], showing `observe` each JSON line after the parser read it:
/// each line is parsed once for every reader, and dropped after. No line
/// (a blank log, `!raw.trim()`) is an empty, successful parse.
pub fn parse_observed(agent: Agent, text: &str, observe: &mut dyn FnMut(usize, &Value)) -> Parsed {
    let mut out = Out::default();
    match agent {
        Agent::ClaudeCode => claude_code::parse(lines(text), &mut out, observe),
        Agent::Codex => codex::parse(lines(text), &mut out, observe),
    }
    out.finish()
}

/// A non-blank line of a log: its 1-based number, and its JSON value or
/// why it is not JSON.
/// With the value, the byte column of an unpaired surrogate escape
/// replaced in it, if any.
type Line = (usize, Result<(Value, Option<usize>), String>);

/// The walk both parsers make: each line's JSON (a line that is not JSON is
/// skipped as such, a replaced surrogate noted) read by `read`, which also
/// says whether the line counted usage; a line that gave no event and no
/// usage is skipped with the reason `read` gives. `observe` sees every line.
fn each_line(
    lines: impl Iterator<Item = Line>,
    out: &mut Out,
    observe: &mut dyn FnMut(usize, &Value),
    mut read: impl FnMut(&Value, &mut Out) -> (Result<SkipReason, js::Throws>, bool),
) {
    for (line, data) in lines {
        out.line = line;
        let data = match data {
            Ok((data, replaced)) => {
                if let Some(column) = replaced {
                    out.surrogates_replaced.push((line, column));
                }
                data
            }
            Err(message) => {
                out.skip(SkipReason::NotJson(message));
                continue;
            }
        };
        let before = out.events.len();
        match read(&data, out) {
            (Err(js::Throws), _) => out.skip(SkipReason::Throws),
            (Ok(reason), false) if out.events.len() == before => out.skip(reason),
            _ => {}
        }
        observe(line, &data);
    }
}

/// The lines of a log as NiceEval splits them (`raw.split("\n")`, trimmed,
/// blank ones dropped), each parsed.
fn lines(text: &str) -> impl Iterator<Item = Line> + '_ {
    text.split('\n').enumerate().filter_map(|(i, line)| {
        let trimmed = js::trim(line);
        let indent = line.len() - line.trim_start_matches(js::is_space).len();
        (!trimmed.is_empty()).then(|| (i + 1, parse_line(trimmed).map(|(v, at)| (v, at.map(|c| c + indent)))))
    })
}

/// `JSON.parse` of one line. It takes an unpaired UTF-16 surrogate escape
/// (`"\ud83d"`, what `JSON.stringify` writes of a string cut inside an
/// emoji); serde_json does not, so such a line is read with the escape
/// replaced by U+FFFD (NiceEval keeps the lone half), and says so.
fn parse_line(line: &str) -> Result<(Value, Option<usize>), String> {
    let err = match serde_json::from_str::<Value>(line) {
        Ok(v) => return Ok((v, None)),
        Err(e) => e.to_string(),
    };
    if line.contains("\\u") {
        let (fixed, repairs) = crate::load::parse::repair::repair(line.as_bytes());
        if repairs.lone_surrogates > 0
            && let Ok(v) = serde_json::from_slice::<Value>(&fixed)
        {
            return Ok((v, Some(repairs.first.map_or(1, |(_, column)| column))));
        }
    }
    Err(err)
}

/// The parse under way: events and skips as the lines give them.
#[derive(Default)]
struct Out {
    events: Vec<Value>,
    event_lines: Vec<usize>,
    skipped: Vec<Skipped>,
    usage: Map<String, Value>,
    compactions: u64,
    parse_failed: bool,
    line: usize,
    surrogates_replaced: Vec<(usize, usize)>,
}

impl Out {
    fn push(&mut self, event: Value) {
        self.events.push(js::as_written(event));
        self.event_lines.push(self.line);
    }

    fn skip(&mut self, reason: SkipReason) {
        if reason.is_loss() {
            self.parse_failed = true;
        }
        self.skipped.push(Skipped { line: self.line, reason });
    }

    fn compaction(&mut self) {
        self.push(serde_json::json!({"type": "compaction"}));
        self.compactions += 1;
    }

    fn finish(self) -> Parsed {
        Parsed {
            events: self.events,
            event_lines: self.event_lines,
            usage: self.usage,
            compactions: self.compactions,
            parse_success: !self.parse_failed,
            skipped: self.skipped,
            surrogates_replaced: self.surrogates_replaced,
        }
    }
}

/// The object of a wire event from its members in order.
fn event(members: Vec<(&str, Value)>) -> Value {
    Value::Object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// `{type:"message", role, text}`.
fn message(role: &str, text: String) -> Value {
    event(vec![("type", "message".into()), ("role", role.into()), ("text", text.into())])
}

/// `{type:"thinking", text}`.
fn thinking(text: String) -> Value {
    event(vec![("type", "thinking".into()), ("text", text.into())])
}

/// `{type:"error", message}`.
fn error(message: String) -> Value {
    event(vec![("type", "error".into()), ("message", message.into())])
}

/// `{type:"operation.finished", operationId, kind:"tool", output?, status}`
/// (`output` absent when NiceEval's is `undefined`).
fn finished(id: String, output: Option<Value>, status: &str) -> Value {
    let mut members = vec![("type", "operation.finished".into()), ("operationId", id.into()), ("kind", "tool".into())];
    if let Some(output) = output {
        members.push(("output", output));
    }
    members.push(("status", status.into()));
    event(members)
}

/// `{type:"operation.started", operationId, operation:{kind:"tool", name, input, tool?, command}}`.
fn started(id: String, name: String, input: Value, tool: Option<Value>, command: Value) -> Value {
    let mut op = vec![("kind", "tool".into()), ("name", name.into()), ("input", input)];
    if let Some(tool) = tool {
        op.push(("tool", tool));
    }
    op.push(("command", command));
    event(vec![("type", "operation.started".into()), ("operationId", id.into()), ("operation", event(op))])
}

/// `notCommandProjection()`.
fn not_command() -> Value {
    serde_json::json!({"kind": "not-command"})
}

/// `opaqueCommandProjection("unsupported-protocol")`: the logs carry shell
/// source text, never an argv.
fn opaque_command() -> Value {
    let original = serde_json::json!({"state": "opaque", "reason": "unsupported-protocol"});
    let logical = crate::model::command::normalize_logical_command(&original);
    event(vec![("kind", "command".into()), ("original", original), ("logical", logical)])
}

/// Which agent wrote a log, from its content: the first lines that only one
/// of the two writes. `None` when no line says.
pub fn detect(text: &str) -> Option<Agent> {
    let mut seen = 0;
    for (_, value) in lines(text) {
        let Ok((value, _)) = value else { continue };
        if let Some(agent) = agent_of_line(&value) {
            return Some(agent);
        }
        seen += 1;
        if seen >= 50 {
            break;
        }
    }
    None
}

/// The agent a single line belongs to, when its shape is one only that
/// agent writes.
pub fn agent_of_line(v: &Value) -> Option<Agent> {
    let ty = v.get("type").and_then(Value::as_str).unwrap_or("");
    if ty.starts_with("thread.") || ty.starts_with("turn.") || ty.starts_with("item.") {
        return Some(Agent::Codex);
    }
    if matches!(
        ty,
        "function_call"
            | "function_call_output"
            | "local_shell_call"
            | "local_shell_call_output"
            | "response_item"
            | "event_msg"
            | "session_meta"
    ) {
        return Some(Agent::Codex);
    }
    let claude_keys = ["uuid", "parentUuid", "sessionId", "session_id", "isSidechain", "leafUuid", "toolUseResult"];
    let claude_type = matches!(ty, "system" | "assistant" | "user" | "result" | "summary");
    if claude_type
        && (v.get("message").is_some() || v.get("subtype").is_some() || claude_keys.iter().any(|k| v.get(*k).is_some()))
    {
        return Some(Agent::ClaudeCode);
    }
    None
}

#[cfg(test)]
mod tests;
