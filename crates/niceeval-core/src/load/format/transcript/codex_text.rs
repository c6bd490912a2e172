//! The text helpers of `parseCodexTranscript`: arguments, message text,
//! reasoning and `String(msg ?? fallback)`.

use super::js::{self, Throws, or};
use serde_json::{Map, Value};

/// `coerceArgs`: a string that parses as JSON is that JSON, else the
/// string; `undefined` is `{}` (non-finite numbers become `null` when
/// written, as `normalizeJsonValue` makes them).
pub(super) fn coerce_args(v: Option<&Value>) -> Value {
    match v {
        Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
        Some(v) => v.clone(),
        None => Value::Object(Map::new()),
    }
}

/// `extractText`: a string, or the string blocks and the blocks'
/// `text ?? content ?? thinking` strings of an array, joined.
pub(super) fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => {
            let parts: Vec<&str> = blocks
                .iter()
                .filter_map(|b| match b {
                    Value::String(s) => Some(s.as_str()),
                    b => or(or(b.get("text"), b.get("content")), b.get("thinking")).and_then(Value::as_str),
                })
                .collect();
            parts.join("\n")
        }
        _ => String::new(),
    }
}

/// `extractReasoning`: `text ?? content` when a non-empty string, else the
/// `summary` array's text, else the text of that first value.
pub(super) fn reasoning_of(item: &Value) -> String {
    let direct = or(item.get("text"), item.get("content"));
    if let Some(s) = direct.and_then(Value::as_str).filter(|s| !s.is_empty()) {
        return s.to_string();
    }
    match item.get("summary") {
        Some(summary @ Value::Array(_)) => text_of(Some(summary)),
        _ => text_of(direct),
    }
}

/// `String(msg ?? fallback)`.
pub(super) fn message_or(msg: Option<&Value>, fallback: &str) -> Result<String, Throws> {
    match msg {
        Some(m) if !m.is_null() => js::string(Some(m)),
        _ => Ok(fallback.to_string()),
    }
}
