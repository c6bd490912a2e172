//! Payloads (tool inputs and outputs) shared between the derived views
//! without copying: a payload holds its event's JSON (an `Arc`) and which
//! field it is, so the facts, occurrences and summaries of every scope point
//! into the one parsed document instead of holding deep copies.

use super::event::{Event, EventJson, EventKind, FIELD_COMMAND, FIELD_INPUT, FIELD_OUTPUT, Node};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// A payload value, shared by the derived facts, occurrences and summaries.
/// The derivations read it where it is ([`Payload::head`]); the views and
/// JSON output take it whole ([`Payload::value`]), which parses a raw
/// event's part.
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
    /// A raw event's input or output, its own text.
    Part(EventJson),
}

static NULL: Value = Value::Null;

impl Payload {
    pub fn new(value: Value) -> Payload {
        Payload(Place::Made(Arc::new(value)))
    }

    /// The start's `operation.input`, when the event has one.
    pub fn tool_input(event: &Event) -> Option<Payload> {
        let has = matches!(event.kind, EventKind::ToolStarted { .. }) && event.has(FIELD_INPUT);
        has.then(|| Payload(event.payload_part().map_or_else(|| Place::ToolInput(event.json().clone()), Place::Part)))
    }

    /// The finish's `output`, when the event has one.
    pub fn output(event: &Event) -> Option<Payload> {
        let finish = matches!(event.kind, EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. });
        (finish && event.has(FIELD_OUTPUT))
            .then(|| Payload(event.payload_part().map_or_else(|| Place::Output(event.json().clone()), Place::Part)))
    }

    /// The start's `operation.command`, when the event has one.
    pub fn command(event: &Event) -> Option<Payload> {
        let has = matches!(event.kind, EventKind::ToolStarted { .. }) && event.has(FIELD_COMMAND);
        has.then(|| Payload(Place::Command(event.json().clone())))
    }

    /// The payload where it is: keys, types, numbers and strings as written,
    /// nothing parsed.
    pub fn head(&self) -> Node<'_> {
        // The field was present when the payload was made, and an event's
        // JSON is never changed once shared; NULL is only a formality.
        let null = Node::Value(&NULL);
        match &self.0 {
            Place::Made(v) => Node::Value(v),
            Place::ToolInput(json) => json.node().get("operation").and_then(|o| o.get("input")).unwrap_or(null),
            Place::Output(json) => json.node().get("output").unwrap_or(null),
            Place::Command(json) => json.node().get("operation").and_then(|o| o.get("command")).unwrap_or(null),
            Place::Part(json) => json.node(),
        }
    }

    /// The payload whole (a raw event's part is parsed for it).
    pub fn value(&self) -> Cow<'_, Value> {
        self.head().to_value()
    }
}

impl PartialEq for Payload {
    fn eq(&self, other: &Payload) -> bool {
        self.value() == other.value()
    }
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::Payload;
    use crate::model::event::Event;
    use serde_json::json;

    /// Both payloads are the same value in memory (not merely equal).
    fn same(a: &Payload, b: &Payload) -> bool {
        matches!((a.value(), b.value()), (std::borrow::Cow::Borrowed(x), std::borrow::Cow::Borrowed(y)) if std::ptr::eq(x, y))
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
        assert_eq!(input.value()["path"], json!("a.rs"));
        assert_eq!(input.value().to_string(), r#"{"path":"a.rs","n":2.50}"#, "numbers as written");
        let raw = start.raw();
        assert!(same(&input, &input.clone()) && std::ptr::eq(&*input.value(), &raw["operation"]["input"]), "no copy");
        let again = Payload::tool_input(&start).unwrap();
        assert!(same(&input, &again));
        assert!(Payload::output(&start).is_none(), "a start has no output");
        let finish = Event::from_value(json!({"type":"operation.finished","operationId":"a","status":"completed"}));
        assert!(Payload::output(&finish).is_none(), "absent output stays absent");
        let made = Payload::new(json!(null));
        assert_eq!(*made.value(), json!(null));
        assert!(!same(&made, &Payload::new(json!(null))));
    }

    #[test]
    fn a_raw_payload_is_its_own_text_found_when_the_event_was_classified() {
        use crate::model::event::{Name, Source};
        let start = r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Read","input":{"path":"a.rs","n":2.50}}}"#;
        let finish = r#"{"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":[1,{"x":"y"}]}"#;
        let text = format!("{start} {finish}");
        let source = Source::shared(std::sync::Arc::new(text.clone().into_bytes()));
        let mut intern = |s: &str| Name::from(s);
        let start_event = Event::from_raw(source.clone(), 0, start.len() as u32, &mut intern);
        let finish_event = Event::from_raw(source, start.len() + 1, finish.len() as u32, &mut intern);
        let input = Payload::tool_input(&start_event).expect("an input");
        assert!(matches!(input.0, super::Place::Part(_)), "read without walking the event");
        assert_eq!(input.head().raw_text(), Some(&br#"{"path":"a.rs","n":2.50}"#[..]));
        assert_eq!(input.value().to_string(), r#"{"path":"a.rs","n":2.50}"#);
        let output = Payload::output(&finish_event).expect("an output");
        assert!(matches!(output.0, super::Place::Part(_)));
        assert_eq!(*output.value(), json!([1, {"x": "y"}]));
        assert!(Payload::output(&start_event).is_none() && Payload::tool_input(&finish_event).is_none());
        // The event's own readers take the same part.
        let raw = |n: Option<crate::model::event::Node<'_>>| n.and_then(|n| n.raw_text()).map(<[u8]>::to_vec);
        assert_eq!(raw(start_event.tool_input_head()), Some(br#"{"path":"a.rs","n":2.50}"#.to_vec()));
        assert_eq!(raw(finish_event.output_head()), Some(br#"[1,{"x":"y"}]"#.to_vec()));
        assert_eq!(finish_event.output_prefix(100).as_deref(), Some(&json!([1, {"x": "y"}])));
    }
}
