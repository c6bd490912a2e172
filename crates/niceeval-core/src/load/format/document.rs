//! Documents made of attempts, or of several documents, and the words for
//! a value's shape that the readers' messages use.

use crate::model::document::{Attempt, Document};
use serde_json::Value;

/// Wrap attempts into a document. Notices about one attempt stay on that
/// attempt (each surface shows them with it, never with another attempt).
pub fn document_from_attempts(path: &str, format: String, attempts: Vec<Attempt>) -> Document {
    Document { format, sources: vec![path.to_string()], attempts, ..Default::default() }
}

/// A short description of a JSON value's shape, for messages.
pub fn describe_shape(value: &Value) -> String {
    match value {
        Value::Object(o) => {
            let keys: Vec<&str> = o.keys().take(6).map(String::as_str).collect();
            let more = if o.len() > 6 { ", …" } else { "" };
            format!("an object with keys [{}{more}]", keys.join(", "))
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        other => format!("a {}", crate::model::event::json_type(other)),
    }
}

/// Several documents as one (attempts side by side).
pub fn merge(mut docs: Vec<Document>) -> Document {
    if docs.len() == 1 {
        return docs.remove(0);
    }
    let mut out = Document::default();
    let mut formats: Vec<String> = Vec::new();
    for d in docs {
        if !formats.contains(&d.format) {
            formats.push(d.format.clone());
        }
        // Each attempt remembers its file, so a list of several files can say which is which.
        let source = d.sources.first().cloned();
        out.sources.extend(d.sources);
        out.attempts.extend(d.attempts.into_iter().map(|mut a| {
            a.source = a.source.take().or_else(|| source.clone());
            a
        }));
        out.notices.extend(d.notices);
        out.losses.extend(d.losses);
        out.slots_not_recorded.extend(d.slots_not_recorded);
    }
    out.format = formats.join(" + ");
    // Parts of one attempt (e.g. several `show --json` pages) become one attempt.
    out.attempts = super::show::combine_same_locator(out.attempts);
    out
}
