//! Typed view of the StreamEvent contract (spec §1.2).
//!
//! Every event keeps its exact JSON (`raw`): payloads such as tool input and
//! output are read from there on demand, so they keep key order and numbers
//! as written, and are not stored twice. The typed `kind` carries only the
//! small fields the derivations need. An event that does not fit the contract
//! is kept as [`EventKind::Unrecognized`] with the reason, never dropped.

use serde_json::Value;
use std::sync::Arc;

/// One StreamEvent with its exact JSON. The JSON is shared (`Arc`) so the
/// derived views can point at its payloads instead of copying them.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub raw: Arc<Value>,
}

/// The ten variants of the contract, plus a catch-all for what does not fit.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// `message`; `role` is `user` or `assistant`.
    Message {
        role: Role,
    },
    /// The strings are shared (`Arc`) with the occurrences and facts made
    /// from the event, which every scope keeps.
    ToolStarted {
        operation_id: Arc<str>,
        name: Arc<str>,
        tool: Option<Arc<str>>,
    },
    SubagentStarted {
        operation_id: Arc<str>,
        name: Arc<str>,
    },
    /// `status` is kept as written so derivations see what the adapter sent.
    ToolFinished {
        operation_id: Arc<str>,
        status: Arc<str>,
    },
    SubagentFinished {
        operation_id: Arc<str>,
        status: Arc<str>,
    },
    SkillLoaded {
        skill: String,
        operation_id: Option<String>,
    },
    InputRequested,
    Thinking,
    ContextInjected,
    Compaction,
    Error,
    Unrecognized {
        reason: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// `Truncation` entry of the `truncated` field.
#[derive(Debug, Clone, PartialEq)]
pub struct Truncation {
    pub path: String,
    pub original_bytes: Option<f64>,
}

pub const TOOL_FINISH_STATUSES: [&str; 3] = ["completed", "failed", "rejected"];
pub const SUBAGENT_FINISH_STATUSES: [&str; 2] = ["completed", "failed"];

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Reason a required string field is missing or of the wrong type.
fn need_str(v: &Value, key: &str, ty: &str) -> Result<String, String> {
    match v.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("{ty}: field `{key}` must be a string, found {}", json_type(other))),
        None => Err(format!("{ty}: missing required field `{key}`")),
    }
}

fn opt_str(v: &Value, key: &str, ty: &str) -> Result<Option<String>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{ty}: field `{key}` must be a string, found {}", json_type(other))),
    }
}

/// JSON type name, for messages.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Event {
    /// Classify one JSON value as a StreamEvent. Never fails: what does not
    /// fit becomes `Unrecognized` with the reason.
    pub fn from_value(raw: Value) -> Event {
        let kind = match classify(&raw) {
            Ok(kind) => kind,
            Err(reason) => EventKind::Unrecognized { reason },
        };
        Event { kind, raw: Arc::new(raw) }
    }

    /// The `type` string as written, if any.
    pub fn type_name(&self) -> Option<&str> {
        str_field(&self.raw, "type")
    }

    pub fn is_unrecognized(&self) -> bool {
        matches!(self.kind, EventKind::Unrecognized { .. })
    }

    /// Text of `message`, `thinking`, `context.injected`; message of `error`.
    pub fn text(&self) -> Option<&str> {
        match self.kind {
            EventKind::Message { .. } | EventKind::Thinking | EventKind::ContextInjected => {
                str_field(&self.raw, "text")
            }
            EventKind::Error => str_field(&self.raw, "message"),
            _ => None,
        }
    }

    pub fn operation(&self) -> Option<&Value> {
        self.raw.get("operation")
    }

    /// Tool start `operation.input` (absent stays `None`).
    pub fn tool_input(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolStarted { .. } => self.operation().and_then(|o| o.get("input")),
            _ => None,
        }
    }

    /// Tool start `operation.command` when present.
    pub fn command(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolStarted { .. } => self.operation().and_then(|o| o.get("command")),
            _ => None,
        }
    }

    pub fn remote_url(&self) -> Option<&str> {
        match self.kind {
            EventKind::SubagentStarted { .. } => self.operation().and_then(|o| str_field(o, "remoteUrl")),
            _ => None,
        }
    }

    /// Finish `output`: `None` when the key is absent, `Some(Null)` for `output: null`.
    pub fn output(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } => self.raw.get("output"),
            _ => None,
        }
    }

    pub fn request(&self) -> Option<&Value> {
        match self.kind {
            EventKind::InputRequested => self.raw.get("request"),
            _ => None,
        }
    }

    pub fn source(&self) -> Option<&str> {
        match self.kind {
            EventKind::ContextInjected => str_field(&self.raw, "source"),
            _ => None,
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self.kind {
            EventKind::Compaction => str_field(&self.raw, "reason"),
            _ => None,
        }
    }

    /// `operationId` of operation events and of `skill.loaded`.
    pub fn operation_id(&self) -> Option<&str> {
        match &self.kind {
            EventKind::ToolStarted { operation_id, .. }
            | EventKind::SubagentStarted { operation_id, .. }
            | EventKind::ToolFinished { operation_id, .. }
            | EventKind::SubagentFinished { operation_id, .. } => Some(operation_id),
            EventKind::SkillLoaded { operation_id, .. } => operation_id.as_deref(),
            _ => None,
        }
    }

    /// The `redacted` paths that are strings, in order.
    pub fn redacted(&self) -> impl Iterator<Item = &str> {
        self.raw.get("redacted").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
    }

    /// The `truncated` entries that carry a string `path`, in order.
    pub fn truncated(&self) -> impl Iterator<Item = Truncation> + '_ {
        self.raw.get("truncated").and_then(Value::as_array).into_iter().flatten().filter_map(|t| {
            Some(Truncation {
                path: str_field(t, "path")?.to_string(),
                original_bytes: t.get("originalBytes").and_then(Value::as_f64),
            })
        })
    }

    /// True when the producer withheld or cut anything in this event.
    pub fn has_evidence_limits(&self) -> bool {
        self.redacted().next().is_some() || self.truncated().next().is_some()
    }
}

fn classify(raw: &Value) -> Result<EventKind, String> {
    let Value::Object(_) = raw else {
        return Err(format!("an event must be a JSON object, found {}", json_type(raw)));
    };
    let ty = match raw.get("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(format!("field `type` must be a string, found {}", json_type(other))),
        None => return Err("missing field `type`".to_string()),
    };
    match ty {
        "message" => {
            let role = need_str(raw, "role", ty)?;
            let role = match role.as_str() {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                other => return Err(format!("message: role \"{other}\" is neither \"user\" nor \"assistant\"")),
            };
            need_str(raw, "text", ty)?;
            Ok(EventKind::Message { role })
        }
        "operation.started" => {
            let operation_id = need_str(raw, "operationId", ty)?;
            let op = match raw.get("operation") {
                Some(op @ Value::Object(_)) => op,
                Some(other) => {
                    return Err(format!(
                        "operation.started: field `operation` must be an object, found {}",
                        json_type(other)
                    ));
                }
                None => return Err("operation.started: missing required field `operation`".into()),
            };
            let kind = need_str(op, "kind", "operation.started operation")?;
            let name = need_str(op, "name", "operation.started operation")?;
            match kind.as_str() {
                "tool" => {
                    let tool = opt_str(op, "tool", "operation.started operation")?.map(Arc::from);
                    Ok(EventKind::ToolStarted { operation_id: operation_id.into(), name: name.into(), tool })
                }
                "subagent" => {
                    opt_str(op, "remoteUrl", "operation.started operation")?;
                    Ok(EventKind::SubagentStarted { operation_id: operation_id.into(), name: name.into() })
                }
                other => {
                    Err(format!("operation.started: operation kind \"{other}\" is neither \"tool\" nor \"subagent\""))
                }
            }
        }
        "operation.finished" => {
            let operation_id = need_str(raw, "operationId", ty)?;
            let kind = need_str(raw, "kind", ty)?;
            let status = need_str(raw, "status", ty)?;
            match kind.as_str() {
                "tool" => Ok(EventKind::ToolFinished { operation_id: operation_id.into(), status: status.into() }),
                "subagent" => {
                    Ok(EventKind::SubagentFinished { operation_id: operation_id.into(), status: status.into() })
                }
                other => Err(format!("operation.finished: kind \"{other}\" is neither \"tool\" nor \"subagent\"")),
            }
        }
        "skill.loaded" => {
            let skill = need_str(raw, "skill", ty)?;
            let operation_id = opt_str(raw, "operationId", ty)?;
            Ok(EventKind::SkillLoaded { skill, operation_id })
        }
        "input.requested" => match raw.get("request") {
            Some(Value::Object(_)) => Ok(EventKind::InputRequested),
            Some(other) => {
                Err(format!("input.requested: field `request` must be an object, found {}", json_type(other)))
            }
            None => Err("input.requested: missing required field `request`".into()),
        },
        "thinking" => {
            need_str(raw, "text", ty)?;
            Ok(EventKind::Thinking)
        }
        "context.injected" => {
            need_str(raw, "text", ty)?;
            opt_str(raw, "source", ty)?;
            Ok(EventKind::ContextInjected)
        }
        "compaction" => {
            opt_str(raw, "reason", ty)?;
            Ok(EventKind::Compaction)
        }
        "error" => {
            need_str(raw, "message", ty)?;
            Ok(EventKind::Error)
        }
        other => Err(format!("unknown event type \"{other}\"")),
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(ev.kind, EventKind::Unrecognized { reason: "unknown event type \"tool.progress\"".into() });
        assert_eq!(ev.raw["pct"], 3);
        let ev = Event::from_value(json!({"type":"message","role":"assistant"}));
        assert_eq!(ev.kind, EventKind::Unrecognized { reason: "message: missing required field `text`".into() });
        let ev =
            Event::from_value(json!({"type":"operation.finished","operationId":7,"kind":"tool","status":"completed"}));
        assert!(matches!(ev.kind, EventKind::Unrecognized { ref reason } if reason.contains("operationId")));
        let ev = Event::from_value(json!([1, 2]));
        assert!(ev.is_unrecognized());
    }

    #[test]
    fn absent_output_differs_from_null_output() {
        let absent = Event::from_value(
            json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed"}),
        );
        let null = Event::from_value(
            json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":null}),
        );
        assert_eq!(absent.output(), None);
        assert_eq!(null.output(), Some(&Value::Null));
    }
}
