//! Per-event rules: shape, statuses, optional fields, limit paths, command
//! projections.

use super::{Sink, q};
use crate::model::command::{CommandState, command_state, normalize_logical_command};
use crate::model::diagnostics::Location;
use crate::model::document::TurnRecord;
use crate::model::event::{
    COMMON_KEYS, Event, EventKind, FIELD_LINT_PLAIN, Fault, Node, Role, SUBAGENT_FINISH_STATUSES, TOOL_FINISH_STATUSES,
    json_type, operation_keys, variant_keys,
};
use crate::model::json_node::Object;
use crate::model::occurrence::path_to_pointer;
use serde_json::Value;

pub const TOOL_NAMES: [&str; 11] = [
    "file_read",
    "file_write",
    "file_edit",
    "shell",
    "web_fetch",
    "web_search",
    "glob",
    "grep",
    "list_dir",
    "agent_task",
    "unknown",
];

pub const OPAQUE_REASONS: [&str; 5] =
    ["redacted", "truncated", "compound-shell", "dynamic-shell", "unsupported-protocol"];

pub fn check_turn_events(sink: &mut Sink, here: Location, record: &TurnRecord) {
    let input_text = record.input_text().map(str::trim).filter(|t| !t.is_empty());
    for (ei, event) in crate::model::event::releasing(&record.turn.events).enumerate() {
        let at = here.with_event(ei);
        check_event(sink, at, event);
        if let (EventKind::Message { role: Role::User }, Some(sent)) = (&event.kind, input_text)
            && event.text().as_deref().map(str::trim) == Some(sent)
            && event.head().get("loc").is_none()
        {
            sink.push("user-message-echo", at, format!("user message {} repeats this turn's input text", q(sent)));
        }
    }
}

fn check_event(sink: &mut Sink, at: Location, event: &Event) {
    // The event's members and its operation's, found once for every check;
    // not walked at all when the loader found nothing in them to check.
    let members = (!event.has(FIELD_LINT_PLAIN)).then(|| event.members());
    if let Some(misfit) = event.misfit() {
        let code =
            if misfit.fault == crate::model::event::Fault::MissingField { "missing-field" } else { "invalid-field" };
        sink.push(code, at, misfit.words);
    }
    match &event.kind {
        EventKind::Unrecognized { reason, fault } => unrecognized(sink, at, event, reason, *fault),
        EventKind::ToolStarted { operation_id, tool, .. } => {
            let input = match &members {
                Some((_, op)) => op.as_ref().and_then(|o| o.get("input")),
                None => event.tool_input_head(),
            };
            if let Some(text) = input.and_then(Node::as_str)
                && matches!(text.trim_start().chars().next(), Some('{' | '['))
                && serde_json::from_str::<Value>(&text).is_ok_and(|v| v.is_object() || v.is_array())
            {
                sink.push(
                    "tool-input-json-string",
                    at,
                    format!(
                        "tool start {}: `operation.input` is a string of JSON; jsonMatch({{…}}) on it never sees fields",
                        q(operation_id)
                    ),
                );
            }
            if input.is_none() {
                sink.push(
                    "missing-field",
                    at,
                    format!("tool start {}: missing required field `operation.input`", q(operation_id)),
                );
            }
            if let Some(tool) = tool
                && !TOOL_NAMES.contains(&&**tool)
            {
                sink.push(
                    "unknown-canonical-tool",
                    at,
                    format!("tool start {}: `operation.tool` {} is not a ToolName", q(operation_id), q(tool)),
                );
            }
            // Most starts have a small projection: it is read whole here.
            let command = match &members {
                Some((_, op)) => op.as_ref().and_then(|o| o.get("command")),
                None => event.command(),
            };
            check_command(sink, at, operation_id, command.map(Node::to_value).as_deref());
        }
        EventKind::ToolFinished { operation_id, status } if !TOOL_FINISH_STATUSES.contains(&&**status) => {
            sink.push(
                "invalid-finish-status",
                at,
                format!("tool finish {}: status {} is not completed, failed or rejected", q(operation_id), q(status)),
            );
        }
        EventKind::SubagentFinished { operation_id, status } => {
            if &**status == "rejected" {
                sink.push(
                    "subagent-rejected",
                    at,
                    format!("subagent finish {}: status \"rejected\" does not exist for subagents", q(operation_id)),
                );
            } else if !SUBAGENT_FINISH_STATUSES.contains(&&**status) {
                sink.push(
                    "invalid-finish-status",
                    at,
                    format!("subagent finish {}: status {} is not completed or failed", q(operation_id), q(status)),
                );
            }
        }
        EventKind::InputRequested => {
            let request = members.as_ref().and_then(|(obj, _)| obj.get("request"));
            check_request(sink, at, request.map(Node::to_value).as_deref())
        }
        EventKind::Message { .. } => {
            let Some((obj, _)) = &members else { return check_limits(sink, at, event) };
            if let Some(loc) = obj.get("loc")
                && !(loc.get("file").is_some_and(Node::is_string) && loc.get("line").is_some_and(Node::is_number))
            {
                sink.push("invalid-field", at, "message: `loc` must be {file: string, line: number, …}".into());
            }
            if let Some(order) = obj.get("sourceOrder")
                && !order.is_number()
            {
                sink.push(
                    "invalid-field",
                    at,
                    format!("message: `sourceOrder` must be a number, found {}", order.type_name()),
                );
            }
        }
        _ => {}
    }
    check_limits(sink, at, event);
    if let Some((obj, op)) = &members {
        check_unknown_keys(sink, at, event, obj, op.as_ref());
    }
}

/// Keys outside the contract: NiceEval ignores them, so whatever the
/// producer meant by them is lost.
fn check_unknown_keys(sink: &mut Sink, at: Location, event: &Event, obj: &Object<'_>, op: Option<&Object<'_>>) {
    let Some(ty) = obj.get("type").and_then(Node::as_str) else { return };
    if event.is_unrecognized() || !obj.node().is_object() {
        return;
    }
    let known = variant_keys(&ty);
    let mut unknown: Vec<String> =
        obj.keys_outside(&COMMON_KEYS, known).into_iter().map(std::borrow::Cow::into_owned).collect();
    for k in op.map(|op| op.keys_outside(&[], operation_keys(&event.kind))).unwrap_or_default() {
        unknown.push(format!("operation.{k}"));
    }
    let request = obj.get("request").filter(|_| event.kind == EventKind::InputRequested);
    if let Some(request) = request.filter(|r| r.is_object()) {
        const REQUEST_KEYS: [&str; 6] = ["id", "prompt", "display", "action", "input", "options"];
        for k in request.keys().filter(|k| !REQUEST_KEYS.contains(&&**k)) {
            unknown.push(format!("request.{k}"));
        }
        let options = request.get("options").filter(|o| o.is_array()).into_iter().flat_map(Node::elements);
        for (i, option) in options.enumerate() {
            for k in option.keys().filter(|k| *k != "id" && *k != "label") {
                unknown.push(format!("request.options[{i}].{k}"));
            }
        }
    }
    if !unknown.is_empty() {
        let list = unknown.iter().map(|k| q(k)).collect::<Vec<_>>().join(", ");
        sink.push("unknown-field", at, format!("{ty}: {list} not in the StreamEvent contract; NiceEval ignores it"));
    }
}

fn unrecognized(sink: &mut Sink, at: Location, event: &Event, reason: &str, fault: Fault) {
    let code = match fault {
        Fault::UnknownType => "unknown-event-type",
        Fault::MissingField => "missing-field",
        Fault::InvalidField => "invalid-field",
    };
    let message = match (code, event.type_name().as_deref()) {
        ("unknown-event-type", Some(t)) => {
            format!("event type {} is not a StreamEvent variant; NiceEval ignores it", q(t))
        }
        _ => format!("{reason}: the event breaks the StreamEvent contract, and NiceEval's folds misread it"),
    };
    // The vocabulary before 2026-08 (derivation §0.3).
    let renamed = match event.type_name().as_deref() {
        Some("action.called") => Some("`action.called` was renamed `operation.started` (with `operationId`)"),
        Some("action.result") => Some("`action.result` was renamed `operation.finished` (with `operationId`)"),
        _ if event.head().get("callId").is_some() && event.head().get("operationId").is_none() => {
            Some("`callId` was renamed `operationId`")
        }
        _ => None,
    };
    sink.push_hint(code, at, message, renamed.map(str::to_string));
}

fn check_request(sink: &mut Sink, at: Location, request: Option<&Value>) {
    let Some(request) = request else { return };
    match request.get("id") {
        Some(Value::String(_)) => {}
        None => sink.push(
            "input-request-without-id",
            at,
            "input request has no `id`: t.respond() throws \"Input request has no stable id\"".into(),
        ),
        Some(other) => sink.push(
            "invalid-field",
            at,
            format!("input.requested: `request.id` must be a string, found {}", json_type(other)),
        ),
    }
    for key in ["prompt", "display", "action"] {
        if let Some(v) = request.get(key)
            && !v.is_string()
        {
            sink.push(
                "invalid-field",
                at,
                format!("input.requested: `request.{key}` must be a string, found {}", json_type(v)),
            );
        }
    }
    match request.get("options") {
        None => {}
        Some(Value::Array(options)) => {
            for (i, option) in options.iter().enumerate() {
                if !option.get("id").is_some_and(Value::is_string) {
                    sink.push(
                        "invalid-field",
                        at,
                        format!("input.requested: `request.options[{i}]` needs a string `id`"),
                    );
                }
            }
        }
        Some(other) => sink.push(
            "invalid-field",
            at,
            format!("input.requested: `request.options` must be an array, found {}", json_type(other)),
        ),
    }
}

/// `truncated` / `redacted` shapes and where their paths point.
fn check_limits(sink: &mut Sink, at: Location, event: &Event) {
    use crate::model::event::{FIELD_REDACTED, FIELD_TRUNCATED};
    let obj = event.head();
    if !event.has(FIELD_REDACTED | FIELD_TRUNCATED) || !obj.is_object() {
        return;
    }
    let mut paths: Vec<(&str, std::borrow::Cow<'_, str>)> = Vec::new();
    match obj.get("truncated") {
        None => {}
        Some(entries) if entries.is_array() => {
            for (i, entry) in entries.elements().enumerate() {
                let path = entry.get("path");
                let bytes = entry.get("originalBytes");
                match path.and_then(Node::as_str) {
                    Some(p) => paths.push(("truncated", p)),
                    _ => sink.push(
                        "invalid-truncated",
                        at,
                        format!("`truncated[{i}]` needs a string `path`, found {}", describe(path)),
                    ),
                }
                match bytes.and_then(Node::as_f64) {
                    Some(n) if n >= 0.0 && n.fract() == 0.0 => {}
                    _ => sink.push(
                        "invalid-truncated",
                        at,
                        format!(
                            "`truncated[{i}].originalBytes` must be a non-negative integer, found {}",
                            describe(bytes)
                        ),
                    ),
                }
            }
        }
        Some(other) => {
            sink.push("invalid-truncated", at, format!("`truncated` must be an array, found {}", other.type_name()))
        }
    }
    match obj.get("redacted") {
        None => {}
        Some(entries) if entries.is_array() => {
            for (i, entry) in entries.elements().enumerate() {
                match entry.as_str() {
                    Some(p) => paths.push(("redacted", p)),
                    None => sink.push(
                        "invalid-redacted",
                        at,
                        format!("`redacted[{i}]` must be a string path, found {}", entry.type_name()),
                    ),
                }
            }
        }
        Some(other) => {
            sink.push("invalid-redacted", at, format!("`redacted` must be an array, found {}", other.type_name()))
        }
    }
    for (list, path) in paths {
        if let Some(why) = unmatched_path(event, &path) {
            sink.push("limit-path-unmatched", at, format!("`{list}` path {} {why}", q(&path)));
        }
    }
}

fn describe<'a>(v: Option<impl Into<Node<'a>>>) -> String {
    match v {
        None => "nothing".into(),
        Some(v) => v.into().type_name().into(),
    }
}

/// Why a limit path points at nothing NiceEval reads, or `None` when it does.
fn unmatched_path(event: &Event, path: &str) -> Option<String> {
    let field = match event.kind {
        EventKind::ToolStarted { .. } => Some("input"),
        EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } => Some("output"),
        _ => None,
    };
    if let Some(f) = field
        && path_to_pointer(path, f).is_some()
    {
        return None;
    }
    // Other fields: the first segment must name a field of the event (or of `operation`).
    let segments: Vec<&str> = match path.strip_prefix('/') {
        Some(rest) => rest.split('/').collect(),
        None => path.split('.').collect(),
    };
    let (container, name) = match segments.as_slice() {
        ["operation", name, ..] => (event.head().get("operation"), *name),
        [name, ..] => (Some(event.head()), *name),
        [] => (None, ""),
    };
    let exists = !name.is_empty() && container.and_then(|c| c.get(name)).is_some();
    let tool_payload = matches!(name, "input" | "output");
    if exists && !tool_payload {
        return None;
    }
    Some(match field {
        Some("input") => "is not under `operation.input` and names no field of this event; NiceEval ignores it and treats the input as complete".to_string(),
        Some(f) => format!(
            "is not under `{f}` and names no field of this event; NiceEval ignores it and treats the {f} as complete"
        ),
        _ => "names no field of this event; NiceEval ignores it".to_string(),
    })
}

fn check_command(sink: &mut Sink, at: Location, id: &str, command: Option<&Value>) {
    let Some(command) = command else { return };
    let state = command_state(Some(command));
    if let CommandState::Malformed(why) = &state {
        sink.push("command-malformed", at, format!("tool start {}: `operation.command` is malformed: {why}", q(id)));
        return;
    }
    let (Some(original), Some(logical)) = (command.get("original"), command.get("logical")) else {
        if let CommandState::Opaque { .. } = state {
            sink.push("command-malformed", at, format!("tool start {}: command projection has no `logical`", q(id)));
        }
        return;
    };
    match state {
        CommandState::Available { .. } => {
            let executable = original.get("executable");
            match executable {
                Some(Value::String(s)) if !s.is_empty() => {}
                Some(Value::String(_)) => sink.push(
                    "command-empty-executable",
                    at,
                    format!(
                        "tool start {}: available original command executable must not be empty (commandProjection() would throw)",
                        q(id)
                    ),
                ),
                other => sink.push(
                    "command-malformed",
                    at,
                    format!("tool start {}: `original.executable` must be a string, found {}", q(id), describe(other)),
                ),
            }
            let args_ok =
                original.get("args").and_then(Value::as_array).is_some_and(|a| a.iter().all(Value::is_string));
            if !args_ok {
                sink.push(
                    "command-args-not-strings",
                    at,
                    format!(
                        "tool start {}: available original command argv must contain only string tokens (commandProjection() would throw)",
                        q(id)
                    ),
                );
            }
            if args_ok && executable.is_some_and(Value::is_string) {
                check_logical(sink, at, id, original, logical);
            }
        }
        CommandState::Opaque { reason, .. } => {
            if !OPAQUE_REASONS.contains(&reason) {
                sink.push(
                    "command-unknown-opaque-reason",
                    at,
                    format!("tool start {}: opaque original reason {} is not a known reason", q(id), q(reason)),
                );
            }
            check_logical(sink, at, id, original, logical);
        }
        _ => {}
    }
}

fn check_logical(sink: &mut Sink, at: Location, id: &str, original: &Value, logical: &Value) {
    let expected = normalize_logical_command(original);
    if &expected != logical {
        sink.push(
            "command-logical-mismatch",
            at,
            format!(
                "tool start {}: logical is {}, but logical-command/v1 gives {}",
                q(id),
                short_json(logical),
                short_json(&expected)
            ),
        );
    }
}

fn short_json(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 200 { format!("{}…", s.chars().take(200).collect::<String>()) } else { s }
}
