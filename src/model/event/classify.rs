//! Which StreamEvent variant an event is, as NiceEval's folds read it.
//!
//! NiceEval validates nothing in a Turn (derivation §5.5): its folds switch on
//! `type` and read fields as they are. An event outside the contract is still
//! folded the way NiceEval folds it (a `system` message is counted as a
//! message, an operation of kind `mcp` goes to the subagent map) and carries a
//! *misfit*: why it breaks the contract, which `check` reports. Only what
//! NiceEval cannot fold as a variant at all is [`EventKind::Unrecognized`].

use super::{EventKind, Field, Role, json_type};
use serde_json::Value;
use std::sync::Arc;

/// An event's kind, and why it breaks the contract when it does.
pub(super) struct Classified {
    pub kind: EventKind,
    pub misfit: Option<String>,
}

fn folded(kind: EventKind, misfit: Option<String>) -> Classified {
    Classified { kind, misfit }
}

fn unrecognized(reason: String) -> Classified {
    Classified { kind: EventKind::Unrecognized { reason }, misfit: None }
}

/// Why a required string field is missing or of the wrong type.
fn string_problem(v: &Value, key: &str, ty: &str) -> Option<String> {
    match v.field(key) {
        Some(Value::String(_)) => None,
        Some(other) => Some(format!("{ty}: field `{key}` must be a string, found {}", json_type(other))),
        None => Some(format!("{ty}: missing required field `{key}`")),
    }
}

/// Why an optional string field has the wrong type (absent and null are fine).
fn optional_string_problem(v: &Value, key: &str, ty: &str) -> Option<String> {
    match v.field(key) {
        None | Some(Value::Null | Value::String(_)) => None,
        Some(other) => Some(format!("{ty}: field `{key}` must be a string, found {}", json_type(other))),
    }
}

fn need_str(v: &Value, key: &str, ty: &str) -> Result<Arc<str>, String> {
    match v.field(key) {
        Some(Value::String(s)) => Ok(Arc::from(s.as_str())),
        _ => Err(string_problem(v, key, ty).unwrap_or_default()),
    }
}

pub(super) fn classify(raw: &Value) -> Classified {
    let Value::Object(_) = raw else {
        return unrecognized(format!("an event must be a JSON object, found {}", json_type(raw)));
    };
    let ty = match raw.field("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return unrecognized(format!("field `type` must be a string, found {}", json_type(other))),
        None => return unrecognized("missing field `type`".to_string()),
    };
    match ty {
        "message" => message(raw),
        "operation.started" => started(raw).unwrap_or_else(unrecognized),
        "operation.finished" => finished(raw).unwrap_or_else(unrecognized),
        "skill.loaded" => {
            let skill = match need_str(raw, "skill", ty) {
                Ok(s) => s.to_string(),
                Err(reason) => return unrecognized(reason),
            };
            match raw.field("operationId") {
                None | Some(Value::Null) => folded(EventKind::SkillLoaded { skill, operation_id: None }, None),
                Some(Value::String(id)) => {
                    folded(EventKind::SkillLoaded { skill, operation_id: Some(id.clone()) }, None)
                }
                Some(other) => unrecognized(format!(
                    "skill.loaded: field `operationId` must be a string, found {}",
                    json_type(other)
                )),
            }
        }
        "input.requested" => {
            let misfit = match raw.field("request") {
                Some(Value::Object(_)) => None,
                Some(other) => {
                    Some(format!("input.requested: field `request` must be an object, found {}", json_type(other)))
                }
                None => Some("input.requested: missing required field `request`".into()),
            };
            folded(EventKind::InputRequested, misfit)
        }
        "thinking" => folded(EventKind::Thinking, string_problem(raw, "text", ty)),
        "context.injected" => folded(
            EventKind::ContextInjected,
            string_problem(raw, "text", ty).or_else(|| optional_string_problem(raw, "source", ty)),
        ),
        "compaction" => folded(EventKind::Compaction, optional_string_problem(raw, "reason", ty)),
        "error" => folded(EventKind::Error, string_problem(raw, "message", ty)),
        other => unrecognized(format!("unknown event type \"{other}\"")),
    }
}

/// Every `message` counts, whatever its role; only `user` and `assistant` are
/// the contract's.
fn message(raw: &Value) -> Classified {
    let (role, role_problem) = match raw.field("role") {
        Some(Value::String(r)) if r == "user" => (Role::User, None),
        Some(Value::String(r)) if r == "assistant" => (Role::Assistant, None),
        Some(Value::String(r)) => (
            Role::Other,
            Some(format!(
                "message: role \"{r}\" is neither \"user\" nor \"assistant\"; NiceEval counts it as a message, but never as an assistant reply"
            )),
        ),
        _ => (Role::Other, string_problem(raw, "role", "message")),
    };
    folded(EventKind::Message { role }, role_problem.or_else(|| string_problem(raw, "text", "message")))
}

/// A start whose operation kind is not `tool` is folded as a subagent call
/// (`deriveRunFacts` tests `kind === "tool"` and sends the rest to subagents).
fn started(raw: &Value) -> Result<Classified, String> {
    const TY: &str = "operation.started operation";
    let operation_id = need_str(raw, "operationId", "operation.started")?;
    let op = match raw.field("operation") {
        Some(op @ Value::Object(_)) => op,
        Some(other) => {
            return Err(format!("operation.started: field `operation` must be an object, found {}", json_type(other)));
        }
        None => return Err("operation.started: missing required field `operation`".into()),
    };
    let name = need_str(op, "name", TY)?;
    let kind = op.field("kind");
    if kind.and_then(Value::as_str) == Some("tool") {
        let (tool, misfit) = match op.field("tool") {
            None => (None, None),
            Some(Value::String(t)) => (Some(Arc::from(t.as_str())), None),
            Some(Value::Null) => (
                None,
                Some(format!(
                    "{TY}: field `tool` is null; NiceEval names the call \"unknown\" in toolCalls but keeps canonical null on its occurrence"
                )),
            ),
            Some(other) => {
                (None, Some(format!("{TY}: field `tool` must be a ToolName string, found {}", json_type(other))))
            }
        };
        return Ok(folded(EventKind::ToolStarted { operation_id, name, tool }, misfit));
    }
    let misfit = match kind {
        Some(Value::String(k)) if k == "subagent" => optional_string_problem(op, "remoteUrl", TY),
        Some(Value::String(k)) => Some(format!(
            "operation.started: operation kind \"{k}\" is neither \"tool\" nor \"subagent\"; NiceEval folds it as a subagent call"
        )),
        _ => string_problem(op, "kind", TY).map(|p| format!("{p}; NiceEval folds it as a subagent call")),
    };
    Ok(folded(EventKind::SubagentStarted { operation_id, name }, misfit))
}

/// A finish whose `kind` is not `tool` closes a subagent call.
fn finished(raw: &Value) -> Result<Classified, String> {
    const TY: &str = "operation.finished";
    let operation_id = need_str(raw, "operationId", TY)?;
    let status = need_str(raw, "status", TY)?;
    Ok(match raw.field("kind") {
        Some(Value::String(k)) if k == "tool" => folded(EventKind::ToolFinished { operation_id, status }, None),
        Some(Value::String(k)) if k == "subagent" => folded(EventKind::SubagentFinished { operation_id, status }, None),
        kind => {
            let problem = match kind {
                Some(Value::String(k)) => format!("{TY}: kind \"{k}\" is neither \"tool\" nor \"subagent\""),
                _ => string_problem(raw, "kind", TY).unwrap_or_default(),
            };
            let misfit = format!("{problem}; NiceEval folds it as a subagent finish");
            folded(EventKind::SubagentFinished { operation_id, status }, Some(misfit))
        }
    })
}
