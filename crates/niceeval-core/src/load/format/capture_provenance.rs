//! The provenance of an sdk-converters capture: each converter call its
//! turns' `raw` records (`[{kind, calls: [{method, args, result}]}]`) is a
//! native line, and the events it returned are the next ones of its turn
//! (the converter appends them in call order).

use crate::model::derive::TurnAddr;
use crate::model::document::Attempt;
use crate::model::event::Source;
use crate::model::provenance::{DropReason, NativeLine, Origin, ProvenanceBuilder};
use serde_json::Value;

/// How many events a call returned: a list of events (`add`, `end`), or a
/// Turn (`turnFrom*`). `None`: it returned nothing (`markRejected`).
fn returned(call: &Value) -> Option<usize> {
    match call.get("result")? {
        Value::Array(events) => Some(events.len()),
        Value::Object(turn) => turn.get("events").and_then(Value::as_array).map(Vec::len),
        _ => None,
    }
}

/// `add assistant`, `add item.completed file_change`, `markRejected`,
/// `turnFromResponses`: the method, and the kind of the frame it was given.
fn kind_of(call: &Value) -> String {
    let method = call.get("method").and_then(Value::as_str).unwrap_or("(no method)");
    // A frame's kind as a native log line's (`item.completed file_change`, `system init`).
    let frame = call.get("args").and_then(|a| a.get(0)).filter(|f| f.get("type").is_some_and(Value::is_string));
    match frame {
        Some(frame) => format!("{method} {}", super::transcript::provenance::kind_of(frame)),
        None => method.to_string(),
    }
}

/// Attach the calls' provenance. Whether the calls returned exactly each
/// turn's events is the view's to say (a lazy load places the events later).
pub fn attach(attempt: &mut Attempt, raws: &[(TurnAddr, Value)]) {
    if raws.is_empty() {
        return;
    }
    let mut text = String::new();
    let mut lines = Vec::new();
    for (addr, raw) in raws {
        let calls =
            raw.as_array().into_iter().flatten().flat_map(|s| s.get("calls").and_then(Value::as_array)).flatten();
        let mut next = 0usize;
        for call in calls {
            let start = text.len();
            text.push_str(&serde_json::to_string(call).unwrap_or_default());
            let count = returned(call).unwrap_or(0);
            lines.push((*addr, start, text.len() - start, kind_of(call), next..next + count));
            text.push('\n');
            next += count;
        }
    }
    let mut builder =
        ProvenanceBuilder::new(Origin::ConverterCalls, Source::shared(std::sync::Arc::new(text.into_bytes())));
    for (n, (addr, start, len, kind, events)) in lines.into_iter().enumerate() {
        let kind = builder.kind(&kind);
        let (session, turn) = (addr.session as u32, addr.turn as u32);
        let line = NativeLine { number: n as u32 + 1, start: start as u64, len: len as u32, kind, session, turn };
        let events: Vec<u32> = events.map(|e| e as u32).collect();
        builder.push(line, &events, Some(DropReason::ReturnedNothing));
    }
    attempt.provenance = Some(std::sync::Arc::new(builder.finish()));
}
