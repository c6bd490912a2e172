//! Files that are not conversations but that a user may well hand the
//! viewer: OTel spans, OTLP requests, sdk-converter
//! raw frames, invocation status indexes, `exp list --json` catalogs,
//! `exp --dry --json` plans and `show --json` overview pages. Each
//! opens cleanly as a document with no attempts and an Info notice that says
//! what the file is and where a viewable file comes from.

use crate::model::document::{Document, Notice, NoticeLevel};
use crate::model::notice::{NotAConversation, OverviewPage};
use serde_json::Value;

pub(crate) fn info_doc(path: &str, format: &str, what: NotAConversation) -> Document {
    Document {
        format: format.to_string(),
        sources: vec![path.to_string()],
        attempts: Vec::new(),
        notices: vec![Notice::new(NoticeLevel::Info, what)],
        ..Default::default()
    }
}

fn is_trace_span(v: &Value) -> bool {
    v.get("traceId").is_some_and(Value::is_string)
        && v.get("spanId").is_some_and(Value::is_string)
        && (v.get("startMs").is_some() || v.get("name").is_some())
}

fn is_raw_frame(v: &Value) -> bool {
    v.get("method").is_some_and(Value::is_string)
        && v.get("producer").is_some()
        && (v.get("session").is_some() || v.get("turn").is_some() || v.get("args").is_some())
}

fn is_invocation_session(v: &Value) -> bool {
    v.get("sessionId").and_then(Value::as_str).is_some_and(|s| s.starts_with("s_"))
        && v.get("experiments").is_some_and(Value::is_array)
        && (v.get("pid").is_some() || v.get("status").is_some())
}

/// A `niceeval show --json` page that holds comparison rows, not attempts:
/// the project overview (`groups`) or one experiment's page (`experiment-group`).
pub fn show_overview(path: &str, kind: &str, value: &Value) -> Document {
    let experiments: Vec<String> = value
        .get("selection")
        .and_then(|s| s.get("experimentIds"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    let page = if kind == "groups" { OverviewPage::Project } else { OverviewPage::Experiment };
    let what = NotAConversation::ShowOverview { page, kind: kind.to_string(), experiments };
    info_doc(path, &format!("niceeval show --json ({kind})"), what)
}

fn count_distinct<'a>(items: impl Iterator<Item = &'a str>) -> usize {
    let mut seen: Vec<&str> = Vec::new();
    for s in items {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen.len()
}

/// A JSON document that is not a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An OTel `TraceSpan[]`.
    TraceSpans,
    /// sdk-converter raw frames.
    RawFrames,
    /// An OTLP/JSON ExportTraceServiceRequest.
    Otlp,
    /// An invocation status index (`niceeval.sessions`, `niceeval.session`).
    StatusIndex,
    /// `niceeval exp list --json` (`niceeval.experiments`).
    ExperimentList,
    /// An `exp --dry --json` plan.
    Plan,
    /// `.niceeval/sessions/s_<uuid>.json`.
    InvocationSession,
}

impl Kind {
    /// Recognise a non-conversation JSON document. `None` when it is not one.
    pub fn of(value: &Value) -> Option<Kind> {
        if let Value::Array(items) = value {
            if !items.is_empty() && items.iter().all(is_trace_span) {
                return Some(Kind::TraceSpans);
            }
            if !items.is_empty() && items.iter().all(is_raw_frame) {
                return Some(Kind::RawFrames);
            }
            return None;
        }
        if value.get("resourceSpans").and_then(Value::as_array).is_some() {
            return Some(Kind::Otlp);
        }
        match value.get("format").and_then(Value::as_str) {
            Some("niceeval.sessions" | "niceeval.session") => return Some(Kind::StatusIndex),
            Some("niceeval.experiments") => return Some(Kind::ExperimentList),
            Some(f) if f.starts_with("niceeval.current-reuse-plan") || f == "niceeval.exp-plan" => {
                return Some(Kind::Plan);
            }
            _ => {}
        }
        is_invocation_session(value).then_some(Kind::InvocationSession)
    }
}

/// The document of a file [`Kind::of`] recognised: what it is, and what to
/// open instead.
pub fn document(path: &str, kind: Kind, value: &Value) -> Document {
    let format = value.get("format").and_then(Value::as_str).unwrap_or_default();
    let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
    match kind {
        Kind::TraceSpans => {
            let traces = count_distinct(items.iter().filter_map(|s| s.get("traceId").and_then(Value::as_str)));
            info_doc(path, "OTel TraceSpan[]", NotAConversation::TraceSpans { spans: items.len(), traces })
        }
        Kind::RawFrames => {
            info_doc(path, "sdk-converter raw frames", NotAConversation::RawFrames { frames: items.len() })
        }
        Kind::Otlp => otlp(path, value),
        Kind::StatusIndex => {
            let n = match format {
                "niceeval.sessions" => value.get("sessions").and_then(Value::as_array).map_or(0, Vec::len),
                _ => 1,
            };
            let what = NotAConversation::StatusIndex { format: format.to_string(), sessions: n };
            info_doc(path, "NiceEval invocation status index", what)
        }
        Kind::ExperimentList => experiment_list(path, value),
        Kind::Plan => plan(path, format, value),
        Kind::InvocationSession => invocation_session(path, value),
    }
}

fn otlp(path: &str, value: &Value) -> Document {
    let rs = value.get("resourceSpans").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let spans: usize = rs
        .iter()
        .flat_map(|r| r.get("scopeSpans").and_then(Value::as_array).into_iter().flatten())
        .map(|s| s.get("spans").and_then(Value::as_array).map_or(0, Vec::len))
        .sum();
    info_doc(path, "OTLP ExportTraceServiceRequest", NotAConversation::Otlp { spans })
}

fn experiment_list(path: &str, value: &Value) -> Document {
    let ids: Vec<String> = value
        .get("experiments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get("experimentId").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    info_doc(path, "NiceEval experiment list", NotAConversation::ExperimentList { ids })
}

fn plan(path: &str, format: &str, value: &Value) -> Document {
    let total = value.get("total").and_then(Value::as_u64);
    let reused = value.get("reused").and_then(Value::as_u64);
    let what = NotAConversation::Plan { format: format.to_string(), counts: total.zip(reused) };
    info_doc(path, "exp --dry --json plan", what)
}

fn invocation_session(path: &str, value: &Value) -> Document {
    let status = value.get("status").and_then(Value::as_str).map(str::to_string);
    let runs: Vec<String> = value
        .get("experiments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get("runId").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    info_doc(path, "NiceEval invocation session record", NotAConversation::InvocationSession { status, runs })
}
