//! The legacy fold `deriveRunFacts` (spec §2.1) and the human summary
//! `buildO11ySummary` (spec §2.8).

use super::event::{Event, EventKind, Node, Role};
use super::json_node::JsonType;
use super::payload::Payload;
use crate::model::event::Name;
use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A tool call of the legacy fold. `original_name` is `None` only for the
/// placeholder made from a finish that had no open start.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The strings are the events' own (shared), not copies.
    pub operation_id: Name,
    /// Canonical class (`operation.tool`), or `"unknown"`.
    pub name: Name,
    pub original_name: Option<Name>,
    /// `None` when the start had no `input` key; placeholders carry `null`.
    pub input: Option<Payload>,
    /// `None` when absent (unfinished, or a finish without `output`).
    pub output: Option<Payload>,
    /// `pending` until finished, then the finish status as written.
    pub status: Name,
    /// Index (into the folded event list) of the start, or of the finish for a placeholder.
    pub start_index: usize,
    pub finish_index: Option<usize>,
}

impl ToolCall {
    pub fn is_placeholder(&self) -> bool {
        self.original_name.is_none()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SubagentCall {
    pub operation_id: Name,
    pub name: Name,
    pub remote_url: Option<String>,
    pub output: Option<Payload>,
    pub status: Name,
    pub start_index: usize,
    pub finish_index: Option<usize>,
}

/// `DerivedFacts` of the legacy fold.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunFacts {
    pub tool_calls: Vec<ToolCall>,
    pub subagent_calls: Vec<SubagentCall>,
    /// Indices of `input.requested` events, in order.
    pub input_requests: Vec<usize>,
    pub parked: bool,
    pub message_count: usize,
    pub compactions: usize,
    pub context_injections: usize,
}

/// The tool calls of `deriveRunFacts` ("newest start wins" pairing, a
/// placeholder for a finish with no open start), handed to `emit` in the
/// order the fold makes them, each once nothing can change it any more: a
/// whole attempt's calls need not all be held to be summarised.
pub fn fold_tool_calls<'a>(events: impl IntoIterator<Item = &'a Event>, mut emit: impl FnMut(ToolCall)) {
    let (unknown, pending): (Name, Name) = (Name::from("unknown"), Name::from("pending"));
    // Calls made and not yet handed over, from call number `handed` on; each
    // with whether it is settled (finished, or its id taken by a newer start).
    let mut window: std::collections::VecDeque<(ToolCall, bool)> = std::collections::VecDeque::new();
    let mut handed = 0usize;
    let mut open: HashMap<&str, usize> = HashMap::default();
    for (index, event) in events.into_iter().enumerate() {
        match &event.kind {
            EventKind::ToolStarted { operation_id, name, tool } => {
                let number = handed + window.len();
                if let Some(older) = open.insert(operation_id, number) {
                    window[older - handed].1 = true;
                }
                let call = ToolCall {
                    operation_id: operation_id.clone(),
                    name: tool.clone().unwrap_or_else(|| unknown.clone()),
                    original_name: Some(name.clone()),
                    input: Payload::tool_input(event),
                    output: None,
                    status: pending.clone(),
                    start_index: index,
                    finish_index: None,
                };
                window.push_back((call, false));
            }
            EventKind::ToolFinished { operation_id, status } => match open.remove(&**operation_id) {
                Some(at) => {
                    let (call, settled) = &mut window[at - handed];
                    call.output = Payload::output(event);
                    call.status = status.clone();
                    call.finish_index = Some(index);
                    *settled = true;
                }
                None => {
                    let call = ToolCall {
                        operation_id: operation_id.clone(),
                        name: unknown.clone(),
                        original_name: None,
                        input: Some(Payload::new(Value::Null)),
                        output: Payload::output(event),
                        status: status.clone(),
                        start_index: index,
                        finish_index: Some(index),
                    };
                    window.push_back((call, true));
                }
            },
            _ => continue,
        }
        while window.front().is_some_and(|(_, settled)| *settled) {
            if let Some((call, _)) = window.pop_front() {
                emit(call);
                handed += 1;
            }
        }
    }
    window.into_iter().for_each(|(call, _)| emit(call));
}

/// `deriveRunFacts`: one pass in event order with "newest start wins" pairing.
pub fn derive_run_facts<'a>(events: impl IntoIterator<Item = &'a Event> + Clone) -> RunFacts {
    let mut facts = RunFacts::default();
    fold_tool_calls(events.clone(), |call| facts.tool_calls.push(call));
    let (unknown, pending): (Name, Name) = (Name::from("unknown"), Name::from("pending"));
    let mut open_subagents: HashMap<&str, usize> = HashMap::default();
    // Last event that is not thinking/compaction decides `parked`.
    let mut last_significant_is_request = false;
    for (index, event) in events.into_iter().enumerate() {
        match &event.kind {
            EventKind::Thinking | EventKind::Compaction => {}
            EventKind::InputRequested => last_significant_is_request = true,
            _ => last_significant_is_request = false,
        }
        match &event.kind {
            EventKind::Message { .. } => facts.message_count += 1,
            EventKind::ContextInjected => facts.context_injections += 1,
            EventKind::Compaction => facts.compactions += 1,
            EventKind::InputRequested => facts.input_requests.push(index),
            EventKind::SubagentStarted { operation_id, name } => {
                open_subagents.insert(operation_id, facts.subagent_calls.len());
                facts.subagent_calls.push(SubagentCall {
                    operation_id: operation_id.clone(),
                    name: name.clone(),
                    remote_url: event.remote_url().map(std::borrow::Cow::into_owned),
                    output: None,
                    status: pending.clone(),
                    start_index: index,
                    finish_index: None,
                });
            }
            EventKind::SubagentFinished { operation_id, status } => match open_subagents.remove(&**operation_id) {
                Some(at) => {
                    let call = &mut facts.subagent_calls[at];
                    call.output = Payload::output(event);
                    call.status = status.clone();
                    call.finish_index = Some(index);
                }
                None => facts.subagent_calls.push(SubagentCall {
                    operation_id: operation_id.clone(),
                    name: unknown.clone(),
                    remote_url: None,
                    output: Payload::output(event),
                    status: status.clone(),
                    start_index: index,
                    finish_index: Some(index),
                }),
            },
            _ => {}
        }
    }
    facts.parked = last_significant_is_request;
    facts
}

impl RunFacts {
    /// The `DerivedFacts` JSON of NiceEval. `events` must be the list the facts were folded from.
    pub fn to_json(&self, events: &[&Event]) -> Value {
        let mut out = Map::new();
        out.insert("toolCalls".into(), Value::Array(self.tool_calls.iter().map(tool_call_json).collect()));
        out.extend(self.json_after_tool_calls(events));
        Value::Object(out)
    }

    /// The members of [`RunFacts::to_json`] after `toolCalls`, in order (the
    /// streaming writer writes the tool calls itself).
    pub fn json_after_tool_calls(&self, events: &[&Event]) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("subagentCalls".into(), Value::Array(self.subagent_calls.iter().map(subagent_call_json).collect()));
        out.insert(
            "inputRequests".into(),
            Value::Array(
                self.input_requests
                    .iter()
                    .map(|&i| events[i].request().map(|r| r.to_value().into_owned()).unwrap_or(Value::Null))
                    .collect(),
            ),
        );
        out.insert("parked".into(), Value::Bool(self.parked));
        out.insert("messageCount".into(), self.message_count.into());
        out.insert("compactions".into(), self.compactions.into());
        out.insert("contextInjections".into(), self.context_injections.into());
        out
    }

    /// `noFailedActions` counter-examples: failed tool calls (placeholders
    /// included) and failed subagent calls.
    pub fn has_failed_action(&self) -> bool {
        self.tool_calls.iter().any(|c| &*c.status == "failed")
            || self.subagent_calls.iter().any(|c| &*c.status == "failed")
    }
}

pub fn tool_call_json(call: &ToolCall) -> Value {
    let mut o = Map::new();
    o.insert("operationId".into(), Value::from(&*call.operation_id));
    o.insert("name".into(), Value::from(&*call.name));
    if let Some(original) = &call.original_name {
        o.insert("originalName".into(), Value::from(&**original));
    }
    if let Some(input) = &call.input {
        o.insert("input".into(), input.value().into_owned());
    }
    if let Some(output) = &call.output {
        o.insert("output".into(), output.value().into_owned());
    }
    o.insert("status".into(), Value::from(&*call.status));
    Value::Object(o)
}

fn subagent_call_json(call: &SubagentCall) -> Value {
    let mut o = Map::new();
    o.insert("operationId".into(), Value::from(&*call.operation_id));
    o.insert("name".into(), Value::from(&*call.name));
    if let Some(url) = &call.remote_url {
        o.insert("remoteUrl".into(), url.clone().into());
    }
    if let Some(output) = &call.output {
        o.insert("output".into(), output.value().into_owned());
    }
    o.insert("status".into(), Value::from(&*call.status));
    Value::Object(o)
}

/// A shell command seen in the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellCommand {
    pub command: String,
    pub success: Option<bool>,
    pub exit_code: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WebFetch {
    pub url: String,
    pub success: Option<bool>,
    pub status: Option<Value>,
}

/// `O11ySummary` (spec §2.8).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct O11ySummary {
    pub total_turns: usize,
    /// Canonical name → count, in first-seen order.
    pub tool_calls: Vec<(String, usize)>,
    pub total_tool_calls: usize,
    pub files_read: Vec<String>,
    pub files_modified: Vec<String>,
    pub shell_commands: Vec<ShellCommand>,
    pub web_fetches: Vec<WebFetch>,
    /// The truthy `message` of each `error` event: a string, or (a misfit)
    /// whatever else NiceEval pushed as it is.
    pub errors: Vec<Value>,
    pub thinking_blocks: usize,
    pub compactions: usize,
}

const PATH_KEYS: [&str; 4] = ["path", "file", "file_path", "filename"];
const URL_KEYS: [&str; 4] = ["url", "uri", "endpoint", "href"];

fn first_string<'a>(input: Node<'a>, keys: &[&str]) -> Option<Cow<'a, str>> {
    // The members found once for the four keys, not walked for each.
    let input = input.object();
    keys.iter().find_map(|k| input.get(k).and_then(Node::as_str).filter(|s| !s.is_empty()))
}

/// Append `item` unless `seen` (what `list` holds) has it: linear, not quadratic, in the list length.
fn push_unique(list: &mut Vec<String>, seen: &mut FxHashSet<String>, item: &str) {
    if !seen.contains(item) {
        seen.insert(item.to_string());
        list.push(item.to_string());
    }
}

/// JS truthiness of a JSON value (`if (x)`).
fn js_truthy(v: Node<'_>) -> bool {
    match v.json_type() {
        JsonType::Null => false,
        JsonType::Bool => v.as_bool() == Some(true),
        JsonType::Number => v.as_f64().is_some_and(|x| x != 0.0),
        JsonType::String => v.as_str().is_some_and(|s| !s.is_empty()),
        JsonType::Array | JsonType::Object => true,
    }
}

/// Shell command text of a tool input, as `buildO11ySummary` reads it.
pub fn shell_command_text(input: Option<Node<'_>>) -> Option<String> {
    let input = input.filter(|i| i.is_object())?;
    // Only the string items of an argv count: NiceEval filters the rest out
    // before joining, in `command`/`cmd` arrays and in `args` alike.
    let strings = |items: Node<'_>| items.elements().filter_map(Node::as_str).collect::<Vec<_>>().join(" ");
    let text = match first_present(input, "command", "cmd") {
        Some(s) if s.is_string() => s.as_str().unwrap_or_default().into_owned(),
        Some(items) if items.is_array() => strings(items),
        _ => match (input.get("program"), input.get("args")) {
            (Some(program), Some(args)) if program.is_string() && args.is_array() => {
                format!("{} {}", program.as_str().unwrap_or_default(), strings(args))
            }
            _ => String::new(),
        },
    };
    (!text.is_empty()).then_some(text)
}

/// JS `o[a] ?? o[b]` on an object: `a` unless it is absent or null. A present
/// value of any other type hides `b`, even when it is of no use.
fn first_present<'a>(o: Node<'a>, a: &str, b: &str) -> Option<Node<'a>> {
    match o.get(a) {
        None => o.get(b),
        Some(n) if n.is_null() => o.get(b),
        some => some,
    }
}

fn numeric(v: Option<Node<'_>>) -> Option<Node<'_>> {
    v.filter(|x| x.is_number())
}

/// `exit_code ?? exitCode` of the output if it is a number, else the same
/// of `output.metadata`: a present non-number `exit_code` (`"0"`, `true`)
/// hides `exitCode` at its level.
fn exit_code(output: Option<Node<'_>>) -> Option<Value> {
    let output = output.filter(|o| o.is_object())?;
    let nested = || output.get("metadata").and_then(|m| first_present(m, "exit_code", "exitCode"));
    numeric(first_present(output, "exit_code", "exitCode"))
        .or_else(|| numeric(nested()))
        .map(|n| n.to_value().into_owned())
}

/// `buildO11ySummary` over an event list (its tool calls folded as they go,
/// not all held).
pub fn build_o11y_summary<'a>(events: impl IntoIterator<Item = &'a Event> + Clone) -> O11ySummary {
    let mut summary = event_summary(events.clone());
    let mut calls = CallSummary::default();
    fold_tool_calls(events, |call| calls.add(&mut summary, &call));
    summary
}

/// [`build_o11y_summary`] with the events' run facts already derived. The
/// calls' inputs are read where their events are: the pages are handed back
/// as the calls are read (a turn of a million events is the whole file).
pub fn build_o11y_summary_from(events: &[Event], facts: &RunFacts) -> O11ySummary {
    let mut summary = event_summary(super::event::releasing(events));
    let mut calls = CallSummary::default();
    let pages = super::event::Pages::of(events);
    for (i, call) in facts.tool_calls.iter().enumerate() {
        calls.add(&mut summary, call);
        if (i + 1) % super::event::RELEASE_EVERY == 0 {
            pages.release();
        }
    }
    summary
}

/// The parts of the summary that count events.
fn event_summary<'a>(events: impl IntoIterator<Item = &'a Event>) -> O11ySummary {
    let mut summary = O11ySummary::default();
    for event in events {
        match &event.kind {
            EventKind::Message { role: Role::Assistant } => summary.total_turns += 1,
            EventKind::Thinking => summary.thinking_blocks += 1,
            EventKind::Compaction => summary.compactions += 1,
            EventKind::Error => match event.text() {
                Some(m) if !m.is_empty() => summary.errors.push(Value::String(m.into_owned())),
                Some(_) => {}
                None => summary
                    .errors
                    .extend(event.head().get("message").filter(|m| js_truthy(*m)).map(|m| m.to_value().into_owned())),
            },
            _ => {}
        }
    }
    summary
}

/// The parts of the summary that look at tool calls, one call at a time.
#[derive(Default)]
struct CallSummary {
    seen_read: FxHashSet<String>,
    seen_modified: FxHashSet<String>,
}

impl CallSummary {
    fn add(&mut self, summary: &mut O11ySummary, call: &ToolCall) {
        if call.is_placeholder() {
            return;
        }
        let (seen_read, seen_modified) = (&mut self.seen_read, &mut self.seen_modified);
        summary.total_tool_calls += 1;
        match summary.tool_calls.iter_mut().find(|(n, _)| **n == *call.name) {
            Some((_, count)) => *count += 1,
            None => summary.tool_calls.push((call.name.to_string(), 1)),
        }
        // Only these classes are summarised further: the others' inputs are not read.
        if !matches!(&*call.name, "file_read" | "file_write" | "file_edit" | "shell" | "web_fetch") {
            return;
        }
        let input = call.input.as_ref().map(Payload::head);
        let finished = &*call.status != "pending";
        match &*call.name {
            "file_read" => {
                if let Some(p) = input.and_then(|i| first_string(i, &PATH_KEYS)) {
                    push_unique(&mut summary.files_read, seen_read, &p);
                }
            }
            "file_write" | "file_edit" => {
                if let Some(p) = input.and_then(|i| first_string(i, &PATH_KEYS)) {
                    push_unique(&mut summary.files_modified, seen_modified, &p);
                }
            }
            "shell" => {
                if let Some(command) = shell_command_text(input) {
                    summary.shell_commands.push(ShellCommand {
                        command,
                        success: finished.then(|| &*call.status == "completed"),
                        exit_code: if finished { exit_code(call.output.as_ref().map(Payload::head)) } else { None },
                    });
                }
            }
            "web_fetch" => {
                if let Some(url) = input.and_then(|i| first_string(i, &URL_KEYS)) {
                    let status = call
                        .output
                        .as_ref()
                        .map(Payload::head)
                        .filter(|o| o.is_object())
                        .and_then(|o| numeric(o.get("status")))
                        .map(|n| n.to_value().into_owned());
                    summary.web_fetches.push(WebFetch {
                        url: url.to_string(),
                        success: finished.then(|| &*call.status == "completed"),
                        status: if finished { status } else { None },
                    });
                }
            }
            _ => {}
        }
    }
}

impl O11ySummary {
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("totalTurns".into(), self.total_turns.into());
        let mut calls = Map::new();
        for (name, count) in &self.tool_calls {
            calls.insert(name.clone(), (*count).into());
        }
        o.insert("toolCalls".into(), Value::Object(calls));
        o.insert("totalToolCalls".into(), self.total_tool_calls.into());
        o.insert("filesRead".into(), self.files_read.clone().into());
        o.insert("filesModified".into(), self.files_modified.clone().into());
        o.insert(
            "shellCommands".into(),
            Value::Array(
                self.shell_commands
                    .iter()
                    .map(|c| {
                        let mut e = Map::new();
                        e.insert("command".into(), c.command.clone().into());
                        if let Some(s) = c.success {
                            e.insert("success".into(), s.into());
                        }
                        if let Some(x) = &c.exit_code {
                            e.insert("exitCode".into(), x.clone());
                        }
                        Value::Object(e)
                    })
                    .collect(),
            ),
        );
        o.insert(
            "webFetches".into(),
            Value::Array(
                self.web_fetches
                    .iter()
                    .map(|w| {
                        let mut e = Map::new();
                        e.insert("url".into(), w.url.clone().into());
                        if let Some(s) = w.success {
                            e.insert("success".into(), s.into());
                        }
                        if let Some(x) = &w.status {
                            e.insert("status".into(), x.clone());
                        }
                        Value::Object(e)
                    })
                    .collect(),
            ),
        );
        o.insert("errors".into(), self.errors.clone().into());
        o.insert("thinkingBlocks".into(), self.thinking_blocks.into());
        o.insert("compactions".into(), self.compactions.into());
        Value::Object(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Calls come out in the order the fold makes them, whatever order they
    /// settle in: a call whose id a newer start took stays pending.
    #[test]
    fn tool_calls_come_out_in_the_order_they_were_made() {
        let ev = |v: serde_json::Value| Event::from_value(v);
        let start = |id: &str| {
            ev(json!({"type":"operation.started","operationId":id,"operation":{"kind":"tool","name":"t","input":{}}}))
        };
        let finish =
            |id: &str| ev(json!({"type":"operation.finished","operationId":id,"kind":"tool","status":"completed"}));
        let events = [start("a"), start("b"), finish("b"), start("a"), finish("x"), start("c"), finish("a")];
        let mut calls = Vec::new();
        fold_tool_calls(&events, |c| {
            calls.push((c.operation_id.to_string(), c.status.to_string(), c.is_placeholder()))
        });
        let want = [
            ("a", "pending", false),
            ("b", "completed", false),
            ("a", "completed", false),
            ("x", "completed", true),
            ("c", "pending", false),
        ];
        let want: Vec<_> = want.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), *c)).collect();
        assert_eq!(calls, want);
    }

    #[test]
    fn shell_text_keeps_only_the_string_items_of_an_argv() {
        let text = |input: Value| shell_command_text(Some(Node::Value(&input)));
        assert_eq!(text(json!({"program": "node", "args": ["a", 2, null, "b"]})).as_deref(), Some("node a b"));
        // Program and args joined by one space, whatever is left of them.
        assert_eq!(text(json!({"program": "", "args": [2.5, -1, ""]})).as_deref(), Some(" "));
        assert_eq!(text(json!({"command": ["git", 1, "status"]})).as_deref(), Some("git status"));
        // `command ?? cmd`: a present non-string command hides `cmd`, and falls to program/args.
        assert_eq!(text(json!({"command": 5, "cmd": "ls", "program": "p", "args": []})).as_deref(), Some("p "));
        assert_eq!(text(json!({"command": null, "cmd": "ls"})).as_deref(), Some("ls"));
        assert_eq!(text(json!({"program": "node", "args": "a"})), None);
    }

    #[test]
    fn a_present_non_number_exit_code_hides_exit_code_camel_case() {
        let code = |output: Value| exit_code(Some(Node::Value(&output)));
        assert_eq!(code(json!({"exit_code": "0", "exitCode": 2})), None);
        assert_eq!(code(json!({"exit_code": true, "exitCode": -1})), None);
        assert_eq!(code(json!({"metadata": {"exit_code": "0", "exitCode": 3}})), None);
        assert_eq!(code(json!({"exit_code": null, "exitCode": 2})), Some(json!(2)));
        // A useless top level still lets `metadata` answer.
        assert_eq!(code(json!({"exit_code": "0", "metadata": {"exitCode": 4}})), Some(json!(4)));
        assert_eq!(code(json!({"exitCode": 1, "metadata": {"exit_code": 9}})), Some(json!(1)));
    }

    #[test]
    fn summary_counts_what_niceeval_counts_outside_the_contract() {
        let events: Vec<Event> = [
            json!({"type": "message", "role": "system", "text": "s"}),
            json!({"type": "message", "role": "assistant", "text": "a"}),
            json!({"type": "error", "message": 7}),
            json!({"type": "error", "message": ""}),
            json!({"type": "error"}),
            json!({"type": "operation.started", "operationId": "o", "operation": {"kind": "mcp", "name": "m"}}),
        ]
        .into_iter()
        .map(Event::from_value)
        .collect();
        let facts = derive_run_facts(&events);
        assert_eq!(facts.message_count, 2);
        assert_eq!(facts.subagent_calls.len(), 1);
        let summary = build_o11y_summary(&events);
        assert_eq!(summary.total_turns, 1);
        assert_eq!(summary.errors, vec![json!(7)]);
    }
}
