//! The format readers: which document formats exist, how each is recognised
//! from its content, and how each becomes attempts.

pub mod assertions;
pub mod capture;
pub mod exp;
pub mod info;
pub mod jsonl;
pub mod legacy;
pub mod locator;
pub mod phases;
pub mod record;
pub mod show;
pub mod summary;

use crate::load::error::LoadError;
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use serde_json::Value;
use std::path::Path;

/// What one JSON document is.
pub(crate) fn classify(path: &str, value: Value) -> Result<Classified, LoadError> {
    if show::looks_like(&value) {
        return show::load(path, value).map(Classified::Document);
    }
    if summary::looks_like(&value) {
        return summary::load(path, value).map(Classified::Document);
    }
    match value.get("format").and_then(Value::as_str) {
        Some("niceeval.record") => {
            let dir = Path::new(path).parent().unwrap_or(Path::new("."));
            return record::load_dir(dir).map(Classified::Document);
        }
        Some("niceeval.results") => {
            let dir = Path::new(path).parent().unwrap_or(Path::new("."));
            return legacy::load_dir(dir).map(Classified::Document);
        }
        _ => {}
    }
    if let Some(doc) = info::classify(path, &value) {
        return Ok(Classified::Document(doc));
    }
    // `run.json` / `attempt.json` inside a Record: that run or attempt.
    if let Some((root, scope)) = record::scope::of_member_file(Path::new(path)) {
        return record::scope::open(&root, &scope, path).map(Classified::Document);
    }
    if let Some(dir) = legacy::attempt_dir_of_file(path, &value) {
        return legacy::load_dir(&dir).map(Classified::Document);
    }
    classify_turns(path, value).map(|(f, a)| Classified::Attempts(f, a))
}

pub(crate) enum Classified {
    Attempts(String, Vec<Attempt>),
    Document(Document),
}

fn classify_turns(path: &str, value: Value) -> Result<(String, Vec<Attempt>), LoadError> {
    if capture::looks_like_capture(&value) {
        let name = match value.get("format").and_then(Value::as_str) {
            Some(f) => format!("session capture ({f})"),
            None => "session capture".into(),
        };
        return Ok((name, vec![capture::from_capture(path, value)?]));
    }
    if capture::looks_like_turn(&value) {
        return Ok(("Turn".into(), vec![capture::from_turns(vec![value])]));
    }
    if let Value::Array(items) = &value {
        if !items.is_empty() && items.iter().all(capture::looks_like_turn) {
            let Value::Array(items) = value else { unreachable!() };
            return Ok(("Turn list".into(), vec![capture::from_turns(items)]));
        }
        if !items.is_empty() && items.iter().all(|e| e.get("type").is_some()) {
            let Value::Array(items) = value else { return Err(LoadError::new(path, "expected an array")) };
            let old = items.iter().filter(|e| legacy::is_old_vocabulary(e)).count();
            let items: Vec<Value> = items.into_iter().map(|e| legacy::map_old_vocabulary(e).0).collect();
            let turn = serde_json::json!({ "events": items });
            let mut attempt = capture::from_turns(vec![turn]);
            attempt.notices.retain(|n| !n.message.contains("`status`"));
            if old > 0 {
                attempt.notices.push(Notice {
                    level: NoticeLevel::Info,
                    message: format!(
                        "{old} event(s) used the old action.called/action.result vocabulary and were read as operation.*"
                    ),
                });
            }
            return Ok(("event array".into(), vec![attempt]));
        }
    }
    Err(LoadError::new(path, unknown_shape(&value)))
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

fn unknown_shape(value: &Value) -> String {
    format!(
        "unrecognised JSON shape ({}); expected a session file {{\"sessions\": [...]}}, a Turn {{\"events\": [...], \"status\": ...}}, an array of Turns or StreamEvents, an InvocationSummary {{\"results\": [...]}}, or a NiceEval file with a known `format`",
        describe_shape(value)
    )
}

/// Wrap attempts into a document. Notices about one attempt stay on that
/// attempt (each surface shows them with it, never with another attempt).
pub fn document_from_attempts(path: &str, format: String, attempts: Vec<Attempt>) -> Document {
    Document { format, sources: vec![path.to_string()], attempts, notices: Vec::new(), losses: Vec::new() }
}

/// The formats whose loaders put the events of `value` into turns as they
/// are (the branches of [`classify`] that reach a capture, a Turn or an
/// InvocationSummary).
pub(crate) fn takes_lazy_events(path: &str, value: &Value) -> bool {
    if show::looks_like(value) {
        return false;
    }
    if summary::looks_like(value) {
        return true;
    }
    if matches!(value.get("format").and_then(Value::as_str), Some("niceeval.record" | "niceeval.results")) {
        return false;
    }
    if info::classify(path, value).is_some() || legacy::attempt_dir_of_file(path, value).is_some() {
        return false;
    }
    capture::looks_like_capture(value) || capture::looks_like_turn(value)
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
    }
    out.format = formats.join(" + ");
    // Parts of one attempt (e.g. several `show --json` pages) become one attempt.
    out.attempts = show::combine_same_locator(out.attempts);
    out
}
