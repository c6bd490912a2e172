//! Payloads (tool inputs and outputs) shared between the derived views
//! without copying: a payload holds its event's JSON (an `Arc`) and which
//! field it is, so the facts, occurrences and summaries of every scope point
//! into the one parsed document instead of holding deep copies.

use super::event::{Event, EventJson, EventKind, FIELD_COMMAND, FIELD_INPUT, FIELD_OUTPUT, Field};
use serde_json::Value;
use std::sync::Arc;

/// A payload value, shared by the derived facts, occurrences and summaries.
/// Dereferences to the value, whole (a lazy event is parsed for it: that is
/// for the views and JSON output); the derivations read [`Payload::head`].
#[derive(Clone)]
pub struct Payload(Place);

#[derive(Clone)]
enum Place {
    /// A value made by the derivation itself (a placeholder's `null`).
    Made(Arc<Value>),
    /// `operation.input` of a tool start.
    ToolInput(EventJson),
    /// `output` of a tool or subagent finish.
    Output(EventJson),
    /// `operation.command` of a tool start.
    Command(EventJson),
}

static NULL: Value = Value::Null;

impl Payload {
    pub fn new(value: Value) -> Payload {
        Payload(Place::Made(Arc::new(value)))
    }

    /// The start's `operation.input`, when the event has one.
    pub fn tool_input(event: &Event) -> Option<Payload> {
        let has = matches!(event.kind, EventKind::ToolStarted { .. }) && event.has(FIELD_INPUT);
        has.then(|| Payload(Place::ToolInput(event.json().clone())))
    }

    /// The finish's `output`, when the event has one.
    pub fn output(event: &Event) -> Option<Payload> {
        let finish = matches!(event.kind, EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. });
        (finish && event.has(FIELD_OUTPUT)).then(|| Payload(Place::Output(event.json().clone())))
    }

    /// The start's `operation.command`, when the event has one.
    pub fn command(event: &Event) -> Option<Payload> {
        let has = matches!(event.kind, EventKind::ToolStarted { .. }) && event.has(FIELD_COMMAND);
        has.then(|| Payload(Place::Command(event.json().clone())))
    }

    /// The payload in its event's head: keys, types, numbers and every string
    /// the derivations read as written, without parsing a lazy event whole
    /// (long strings under other keys may be markers, see `LazyJson`).
    pub fn head(&self) -> &Value {
        self.pick(|json| json.head())
    }

    fn pick<'a>(&'a self, json_of: impl Fn(&'a EventJson) -> &'a Value) -> &'a Value {
        // The field was present when the payload was made, and an event's
        // JSON is never changed once shared; NULL is only a formality.
        match &self.0 {
            Place::Made(v) => v,
            Place::ToolInput(json) => json_of(json).field("operation").and_then(|o| o.field("input")).unwrap_or(&NULL),
            Place::Output(json) => json_of(json).field("output").unwrap_or(&NULL),
            Place::Command(json) => json_of(json).field("operation").and_then(|o| o.field("command")).unwrap_or(&NULL),
        }
    }
}

impl std::ops::Deref for Payload {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.pick(EventJson::raw)
    }
}

impl PartialEq for Payload {
    fn eq(&self, other: &Payload) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::Payload;
    use crate::model::event::Event;
    use serde_json::json;

    /// Both payloads are the same value in memory (not merely equal).
    fn same(a: &Payload, b: &Payload) -> bool {
        std::ptr::eq::<serde_json::Value>(&**a, &**b)
    }

    #[test]
    fn a_payload_points_into_its_event_and_copies_nothing() {
        let start = Event::from_value(
            serde_json::from_str(
                r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Read","input":{"path":"a.rs","n":2.50}}}"#,
            )
            .unwrap(),
        );
        let input = Payload::tool_input(&start).expect("an input");
        assert_eq!(input["path"], json!("a.rs"));
        assert_eq!(input.to_string(), r#"{"path":"a.rs","n":2.50}"#, "numbers as written");
        assert!(std::ptr::eq::<serde_json::Value>(&*input, &start.raw()["operation"]["input"]), "no copy");
        let again = Payload::tool_input(&start).unwrap();
        assert!(same(&input, &again));
        assert!(Payload::output(&start).is_none(), "a start has no output");
        let finish = Event::from_value(json!({"type":"operation.finished","operationId":"a","status":"completed"}));
        assert!(Payload::output(&finish).is_none(), "absent output stays absent");
        let made = Payload::new(json!(null));
        assert_eq!(*made, json!(null));
        assert!(!same(&made, &Payload::new(json!(null))));
    }
}
