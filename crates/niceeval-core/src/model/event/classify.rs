//! Which StreamEvent variant an event is, as NiceEval's folds read it.
//!
//! NiceEval validates nothing in a Turn (derivation §5.5): its folds switch on
//! `type` and read fields as they are. An event outside the contract is still
//! folded the way NiceEval folds it (a `system` message is counted as a
//! message, an operation of kind `mcp` goes to the subagent map) and carries a
//! *misfit*: why it breaks the contract, which `check` reports. Only what
//! NiceEval cannot fold as a variant at all is [`EventKind::Unrecognized`].

use super::{
    EventKind, FIELD_COMMAND, FIELD_INPUT, FIELD_LINT_PLAIN, FIELD_MISFIT, FIELD_OUTPUT, FIELD_REDACTED,
    FIELD_TOOL_NULL, FIELD_TRUNCATED, Fault, Intern, Node, Role,
};
use crate::model::json_node::{JsonType, Object};

/// An event's kind, and why it breaks the contract when it does.
pub(super) struct Classified {
    pub kind: EventKind,
    pub misfit: Option<Misfit>,
}

/// Why an event NiceEval still folds breaks the contract: a required field
/// missing, or a field there but wrong (which decides `check`'s rule), and
/// in what words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    pub fault: Fault,
    pub words: String,
}

impl Misfit {
    fn invalid(words: String) -> Misfit {
        Misfit { fault: Fault::InvalidField, words }
    }

    /// The same fault, with what NiceEval does with the event after it.
    fn then(self, what_niceeval_does: &str) -> Misfit {
        Misfit { words: format!("{}; {what_niceeval_does}", self.words), ..self }
    }
}

fn folded(kind: EventKind, misfit: Option<Misfit>) -> Classified {
    Classified { kind, misfit }
}

fn unrecognized(fault: Fault, reason: String) -> Classified {
    Classified { kind: EventKind::Unrecognized { reason, fault }, misfit: None }
}

/// Whether `key` is missing from `v` or there but wrong.
fn field_fault(v: &Object<'_>, key: &str) -> Fault {
    if v.get(key).is_none() { Fault::MissingField } else { Fault::InvalidField }
}

/// Why a required string field is missing or of the wrong type.
fn string_problem(v: &Object<'_>, key: &str, ty: &str) -> Option<Misfit> {
    match v.get(key) {
        Some(n) if n.is_string() => None,
        Some(other) => {
            Some(Misfit::invalid(format!("{ty}: field `{key}` must be a string, found {}", other.type_name())))
        }
        None => Some(Misfit { fault: Fault::MissingField, words: format!("{ty}: missing required field `{key}`") }),
    }
}

/// Why an optional string field has the wrong type (absent and null are fine).
fn optional_string_problem(v: &Object<'_>, key: &str, ty: &str) -> Option<Misfit> {
    match v.get(key) {
        None => None,
        Some(n) if n.is_null() || n.is_string() => None,
        Some(other) => {
            Some(Misfit::invalid(format!("{ty}: field `{key}` must be a string, found {}", other.type_name())))
        }
    }
}

fn need_str(
    v: &Object<'_>,
    key: &str,
    ty: &str,
    intern: Intern<'_>,
) -> Result<crate::model::event::Name, (Fault, String)> {
    match v.get(key).and_then(Node::as_str) {
        Some(s) => Ok(intern(&s)),
        None => Err((field_fault(v, key), string_problem(v, key, ty).map(|m| m.words).unwrap_or_default())),
    }
}

/// `operation`: the members of `raw`'s `operation` when it is an object.
pub(super) fn classify(raw: &Object<'_>, operation: Option<&Object<'_>>, intern: Intern<'_>) -> Classified {
    if !raw.node().is_object() {
        return unrecognized(
            Fault::InvalidField,
            format!("an event must be a JSON object, found {}", raw.node().type_name()),
        );
    }
    let ty = match raw.get("type") {
        Some(n) if n.is_string() => n.as_str().unwrap_or_default(),
        Some(other) => {
            return unrecognized(
                Fault::InvalidField,
                format!("field `type` must be a string, found {}", other.type_name()),
            );
        }
        None => return unrecognized(Fault::MissingField, "missing field `type`".to_string()),
    };
    match &*ty {
        "message" => message(raw),
        "operation.started" => started(raw, operation, intern).unwrap_or_else(|(f, r)| unrecognized(f, r)),
        "operation.finished" => finished(raw, intern).unwrap_or_else(|(f, r)| unrecognized(f, r)),
        "skill.loaded" => {
            let skill = match need_str(raw, "skill", &ty, intern) {
                Ok(s) => s,
                Err((fault, reason)) => return unrecognized(fault, reason),
            };
            match raw.get("operationId") {
                None => folded(EventKind::SkillLoaded { skill, operation_id: None }, None),
                Some(n) if n.is_null() => folded(EventKind::SkillLoaded { skill, operation_id: None }, None),
                Some(n) if n.is_string() => {
                    let id = intern(&n.as_str().unwrap_or_default());
                    folded(EventKind::SkillLoaded { skill, operation_id: Some(id) }, None)
                }
                Some(other) => unrecognized(
                    Fault::InvalidField,
                    format!("skill.loaded: field `operationId` must be a string, found {}", other.type_name()),
                ),
            }
        }
        "input.requested" => {
            let misfit = match raw.get("request") {
                Some(n) if n.is_object() => None,
                Some(other) => Some(Misfit::invalid(format!(
                    "input.requested: field `request` must be an object, found {}",
                    other.type_name()
                ))),
                None => Some(Misfit {
                    fault: Fault::MissingField,
                    words: "input.requested: missing required field `request`".into(),
                }),
            };
            folded(EventKind::InputRequested, misfit)
        }
        "thinking" => folded(EventKind::Thinking, string_problem(raw, "text", &ty)),
        "context.injected" => folded(
            EventKind::ContextInjected,
            string_problem(raw, "text", &ty).or_else(|| optional_string_problem(raw, "source", &ty)),
        ),
        "compaction" => folded(EventKind::Compaction, optional_string_problem(raw, "reason", &ty)),
        "error" => folded(EventKind::Error, string_problem(raw, "message", &ty)),
        other => unrecognized(Fault::UnknownType, format!("unknown event type \"{other}\"")),
    }
}

/// Every `message` counts, whatever its role; only `user` and `assistant` are
/// the contract's.
fn message(raw: &Object<'_>) -> Classified {
    let (role, role_problem) = match raw.get("role").and_then(Node::as_str) {
        Some(r) if r == "user" => (Role::User, None),
        Some(r) if r == "assistant" => (Role::Assistant, None),
        Some(r) => (
            Role::Other,
            Some(Misfit::invalid(format!(
                "message: role \"{r}\" is neither \"user\" nor \"assistant\"; NiceEval counts it as a message, but never as an assistant reply"
            ))),
        ),
        _ => (Role::Other, string_problem(raw, "role", "message")),
    };
    folded(EventKind::Message { role }, role_problem.or_else(|| string_problem(raw, "text", "message")))
}

/// A start whose operation kind is not `tool` is folded as a subagent call
/// (`deriveRunFacts` tests `kind === "tool"` and sends the rest to subagents).
fn started(
    raw: &Object<'_>,
    operation: Option<&Object<'_>>,
    intern: Intern<'_>,
) -> Result<Classified, (Fault, String)> {
    const TY: &str = "operation.started operation";
    let operation_id = need_str(raw, "operationId", "operation.started", intern)?;
    let op = match (operation, raw.get("operation")) {
        (Some(op), _) => op,
        (None, Some(other)) => {
            let reason = format!("operation.started: field `operation` must be an object, found {}", other.type_name());
            return Err((Fault::InvalidField, reason));
        }
        (None, None) => {
            return Err((Fault::MissingField, "operation.started: missing required field `operation`".into()));
        }
    };
    let name = need_str(op, "name", TY, intern)?;
    let kind = op.get("kind");
    let kind_text = kind.and_then(Node::as_str);
    if kind_text.as_deref() == Some("tool") {
        let tool_node = op.get("tool");
        let (tool, misfit) = match tool_node.map(|t| (t.json_type(), t)) {
            None => (None, None),
            Some((JsonType::String, t)) => (t.as_str().map(|t| intern(&t)), None),
            Some((JsonType::Null, _)) => (
                None,
                Some(Misfit::invalid(format!(
                    "{TY}: field `tool` is null; NiceEval names the call \"unknown\" in toolCalls but keeps canonical null on its occurrence"
                ))),
            ),
            Some((_, other)) => (
                None,
                Some(Misfit::invalid(format!(
                    "{TY}: field `tool` must be a ToolName string, found {}",
                    other.type_name()
                ))),
            ),
        };
        return Ok(folded(EventKind::ToolStarted { operation_id, name, tool }, misfit));
    }
    let misfit = match kind_text {
        Some(k) if k == "subagent" => optional_string_problem(op, "remoteUrl", TY),
        Some(k) => Some(Misfit::invalid(format!(
            "operation.started: operation kind \"{k}\" is neither \"tool\" nor \"subagent\"; NiceEval folds it as a subagent call"
        ))),
        _ => string_problem(op, "kind", TY).map(|p| p.then("NiceEval folds it as a subagent call")),
    };
    Ok(folded(EventKind::SubagentStarted { operation_id, name }, misfit))
}

/// A finish whose `kind` is not `tool` closes a subagent call.
fn finished(raw: &Object<'_>, intern: Intern<'_>) -> Result<Classified, (Fault, String)> {
    const TY: &str = "operation.finished";
    let operation_id = need_str(raw, "operationId", TY, intern)?;
    let status = need_str(raw, "status", TY, intern)?;
    Ok(match raw.get("kind").and_then(Node::as_str) {
        Some(k) if k == "tool" => folded(EventKind::ToolFinished { operation_id, status }, None),
        Some(k) if k == "subagent" => folded(EventKind::SubagentFinished { operation_id, status }, None),
        kind => {
            let problem = match kind {
                Some(k) => Some(Misfit::invalid(format!("{TY}: kind \"{k}\" is neither \"tool\" nor \"subagent\""))),
                _ => string_problem(raw, "kind", TY),
            };
            let misfit = problem.map(|p| p.then("NiceEval folds it as a subagent finish"));
            folded(EventKind::SubagentFinished { operation_id, status }, misfit)
        }
    })
}

/// Keys every variant may carry (spec §1.2).
pub const COMMON_KEYS: [&str; 3] = ["type", "truncated", "redacted"];

/// The keys a variant has besides [`COMMON_KEYS`] (by `type`).
pub fn variant_keys(ty: &str) -> &'static [&'static str] {
    match ty {
        "message" => &["role", "text", "loc", "sourceOrder"],
        "operation.started" => &["operationId", "operation"],
        "operation.finished" => &["operationId", "kind", "output", "status"],
        "skill.loaded" => &["skill", "operationId"],
        "input.requested" => &["request"],
        "thinking" => &["text"],
        "context.injected" => &["text", "source"],
        "compaction" => &["reason"],
        "error" => &["message"],
        _ => &[],
    }
}

/// The keys of a start's `operation`: a tool's, or a subagent's.
pub fn operation_keys(kind: &EventKind) -> &'static [&'static str] {
    match kind {
        EventKind::ToolStarted { .. } => &["kind", "name", "input", "tool", "command"],
        _ => &["kind", "name", "remoteUrl"],
    }
}

/// Whether the per-event lint has nothing to read in the event beyond its
/// kind and field bits: every key is the contract's, and there is no
/// `loc`, `sourceOrder` or `request`, whose shapes it checks. Found here,
/// where the members are at hand, so the lint need not walk them again.
pub(super) fn lint_plain(raw: &Object<'_>, operation: Option<&Object<'_>>, kind: &EventKind) -> bool {
    let keys: &[&str] = match kind {
        EventKind::Message { .. } => &["role", "text"],
        EventKind::ToolStarted { .. } | EventKind::SubagentStarted { .. } => variant_keys("operation.started"),
        EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } => variant_keys("operation.finished"),
        EventKind::SkillLoaded { .. } => variant_keys("skill.loaded"),
        EventKind::Thinking => variant_keys("thinking"),
        EventKind::ContextInjected => variant_keys("context.injected"),
        EventKind::Compaction => variant_keys("compaction"),
        EventKind::Error => variant_keys("error"),
        EventKind::InputRequested | EventKind::Unrecognized { .. } => return false,
    };
    raw.node().is_object()
        && raw.keys_outside(&COMMON_KEYS, keys).is_empty()
        && operation.is_none_or(|op| op.keys_outside(&[], operation_keys(kind)).is_empty())
}

/// The kind, the `FIELD_` bits and where the payload begins (see `Event::payload_at`).
pub(super) fn kind_and_fields(object: &Object<'_>, intern: Intern<'_>) -> (EventKind, u8, (u16, u32)) {
    let operation = operation_of(object);
    let classified = classify(object, operation.as_ref(), intern);
    let misfit = if classified.misfit.is_some() { FIELD_MISFIT } else { 0 };
    let plain = if lint_plain(object, operation.as_ref(), &classified.kind) { FIELD_LINT_PLAIN } else { 0 };
    let payload = match classified.kind {
        EventKind::ToolStarted { .. } => operation.as_ref().and_then(|op| op.get("input")),
        EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } => object.get("output"),
        // A text can be most of its event too: noted, a timeline row's
        // preview reads its start without walking (and scanning) all of it.
        EventKind::Message { .. } | EventKind::Thinking | EventKind::ContextInjected => {
            object.get("text").filter(|n| n.is_string())
        }
        EventKind::Error => object.get("message").filter(|n| n.is_string()),
        _ => None,
    };
    let payload_at = match (object.node().raw_text(), payload.and_then(Node::raw_text)) {
        (Some(event), Some(payload)) => {
            let at = u16::try_from(payload.as_ptr() as usize - event.as_ptr() as usize);
            at.ok().zip(u32::try_from(payload.len()).ok()).unwrap_or((0, 0))
        }
        _ => (0, 0),
    };
    (classified.kind, fields_of(object, operation.as_ref()) | misfit | plain, payload_at)
}

/// The members of the event's `operation` when it is an object, found once
/// for both the classification and the fields.
pub fn operation_of<'a>(event: &Object<'a>) -> Option<Object<'a>> {
    event.object_at("operation")
}

fn fields_of(head: &Object<'_>, operation: Option<&Object<'_>>) -> u8 {
    // Looked up rather than walked: a lookup compares the few keys by length
    // and bytes, where a walk decodes every key of every event.
    let mut fields = 0;
    for (key, field) in [("output", FIELD_OUTPUT), ("redacted", FIELD_REDACTED), ("truncated", FIELD_TRUNCATED)] {
        if head.get(key).is_some() {
            fields |= field;
        }
    }
    if let Some(operation) = operation {
        if operation.get("input").is_some() {
            fields |= FIELD_INPUT;
        }
        if operation.get("command").is_some() {
            fields |= FIELD_COMMAND;
        }
        if operation.get("tool").is_some_and(Node::is_null) {
            fields |= FIELD_TOOL_NULL;
        }
    }
    fields
}
