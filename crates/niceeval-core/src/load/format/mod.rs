//! The format readers: which document formats exist, how each is recognised
//! from its content, and how each becomes attempts.
//!
//! [`Format`] is the one classification every load path uses: [`Format::of`]
//! recognises a parsed document, [`read`] reads it, and
//! [`Format::event_paths`] says where it holds StreamEvents. A raw load
//! follows [`EVENT_PATHS`] while it parses and keeps the events it finds
//! raw only for a format that [takes them raw](Format::takes_raw_events). A
//! JSONL stream is told by its first lines instead ([`jsonl::Kind`]).

pub mod assertions;
pub mod capture;
mod capture_provenance;
pub mod document;
pub mod exp;
pub mod info;
pub mod jsonl;
pub mod legacy;
pub mod locator;
pub mod phases;
pub mod record;
pub mod show;
pub mod summary;
pub mod transcript;

use crate::load::error::LoadError;
use crate::load::parse::lazy::EventPath;
use crate::load::parse::lazy::Step::{Each, Key};
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use document::{describe_shape, document_from_attempts};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a parsed JSON document is: every format a document is read as, in
/// the order [`Format::of`] tries them (the first that fits is it). A JSONL
/// stream is told by its first lines instead ([`jsonl::detect_kind`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Format {
    /// A one-line file that holds a StreamEvent, a capture entry or an
    /// `exp --json` line: a JSONL stream of one line, read as one.
    LineStream,
    /// A `niceeval show --json` page (`format: niceeval.show`).
    Show,
    /// An InvocationSummary (`results[]` of EvalResults).
    Summary,
    /// A Record's `record.json`: the Record it is the root of.
    RecordRoot,
    /// A legacy results run's `run.json`: that run.
    LegacyRun,
    /// A file that is not a conversation.
    Info(info::Kind),
    /// A Record's `runs/<id>/run.json` or `…/attempts/<id>/attempt.json`:
    /// the Record at this root, scoped to that run or attempt.
    RecordMember(PathBuf, record::Scope),
    /// A legacy attempt's `result.json` or `events.json`: the attempt in this directory.
    LegacyAttempt(PathBuf),
    /// A session capture (`niceeval-viewer.session/1`, or without `format`).
    Capture,
    /// A bare Turn.
    Turn,
    /// An array of Turns: one session.
    TurnList,
    /// An array of StreamEvents: one turn.
    EventArray,
    /// None of these.
    Unknown,
}

// Where the formats hold StreamEvents (see `Format::event_paths`).
/// `sessions[].turns[].turn.events`: a capture's turn entries.
const CAPTURE_ENTRY_EVENTS: EventPath = &[Key("sessions"), Each, Key("turns"), Each, Key("turn"), Key("events")];
/// `sessions[].turns[].events`: a capture with a bare Turn in place of an entry.
const CAPTURE_TURN_EVENTS: EventPath = &[Key("sessions"), Each, Key("turns"), Each, Key("events")];
/// `events`: a bare Turn.
const TURN_EVENTS: EventPath = &[Key("events")];
/// `results[].events`: an InvocationSummary's EvalResults.
const SUMMARY_EVENTS: EventPath = &[Key("results"), Each, Key("events")];
/// `turn.events`: a capture entry on a line of its own.
const LINE_ENTRY_EVENTS: EventPath = &[Key("turn"), Key("events")];

/// Every path some format holds StreamEvents at: what a raw load follows,
/// all of them, since it scans a document before its format is known
/// (a test checks that these are the paths of [`Format::event_paths`]).
pub const EVENT_PATHS: [EventPath; 5] =
    [CAPTURE_ENTRY_EVENTS, CAPTURE_TURN_EVENTS, TURN_EVENTS, SUMMARY_EVENTS, LINE_ENTRY_EVENTS];

impl Format {
    /// Recognise a parsed document from its content (`path` only places a
    /// file inside a Record or a legacy run). `one_line` says whether the
    /// file is one line; it is asked only of a value a one-line JSONL stream
    /// could hold.
    pub fn of(path: &str, value: &Value, one_line: impl FnOnce() -> bool) -> Format {
        if jsonl::is_one_line_stream(value) && one_line() {
            return Format::LineStream;
        }
        if show::looks_like(value) {
            return Format::Show;
        }
        if summary::looks_like(value) {
            return Format::Summary;
        }
        match value.get("format").and_then(Value::as_str) {
            Some("niceeval.record") => return Format::RecordRoot,
            Some("niceeval.results") => return Format::LegacyRun,
            _ => {}
        }
        if let Some(kind) = info::Kind::of(value) {
            return Format::Info(kind);
        }
        if let Some((root, scope)) = record::scope::of_member_file(Path::new(path)) {
            return Format::RecordMember(root, scope);
        }
        if let Some(dir) = legacy::attempt_dir_of_file(path, value) {
            return Format::LegacyAttempt(dir);
        }
        if capture::looks_like_capture(value) {
            return Format::Capture;
        }
        if capture::looks_like_turn(value) {
            return Format::Turn;
        }
        if let Value::Array(items) = value {
            if !items.is_empty() && items.iter().all(capture::looks_like_turn) {
                return Format::TurnList;
            }
            if !items.is_empty() && items.iter().all(|e| e.get("type").is_some()) {
                return Format::EventArray;
            }
        }
        Format::Unknown
    }

    /// The paths at which this format holds StreamEvents (a Turn list and an
    /// event array hold them too, but at paths a raw load does not follow).
    pub fn event_paths(&self) -> &'static [EventPath] {
        match self {
            Format::Capture => &[CAPTURE_ENTRY_EVENTS, CAPTURE_TURN_EVENTS],
            Format::Turn => &[TURN_EVENTS],
            Format::Summary => &[SUMMARY_EVENTS],
            Format::LineStream => &[LINE_ENTRY_EVENTS],
            _ => &[],
        }
    }

    /// Whether this format's reader puts the events at its
    /// [`event_paths`](Format::event_paths) into turns as they are, so a raw
    /// load's events can stay raw. A one-line stream is read again from its
    /// text, line by line.
    pub fn takes_raw_events(&self) -> bool {
        *self != Format::LineStream && !self.event_paths().is_empty()
    }
}

/// Read a parsed document of `format` into a document (`bytes`, its text,
/// is read again only for a one-line JSONL stream).
pub fn read(path: &str, bytes: &[u8], format: Format, value: Value) -> Result<Document, LoadError> {
    let parent = || Path::new(path).parent().unwrap_or(Path::new("."));
    let doc = match format {
        Format::LineStream => return jsonl::load(path, bytes),
        Format::Show => show::load(path, value)?,
        Format::Summary => summary::load(path, value)?,
        Format::RecordRoot => record::load_dir(parent())?,
        Format::LegacyRun => legacy::load_dir(parent())?,
        Format::Info(kind) => info::document(path, kind, &value),
        Format::RecordMember(root, scope) => record::scope::open(&root, &scope, path)?,
        Format::LegacyAttempt(dir) => legacy::load_dir(&dir)?,
        Format::Capture => {
            let name = match value.get("format").and_then(Value::as_str) {
                Some(f) => format!("session capture ({f})"),
                None => "session capture".into(),
            };
            return Ok(document_from_attempts(path, name, vec![capture::from_capture(path, value)?]));
        }
        Format::Turn => return Ok(document_from_attempts(path, "Turn".into(), vec![capture::from_turns(vec![value])])),
        Format::TurnList => {
            let Value::Array(items) = value else { return Err(LoadError::new(path, "expected an array")) };
            return Ok(document_from_attempts(path, "Turn list".into(), vec![capture::from_turns(items)]));
        }
        Format::EventArray => {
            return Ok(document_from_attempts(path, "event array".into(), vec![event_array(path, value)?]));
        }
        Format::Unknown => return Err(LoadError::new(path, unknown_shape(&value))),
    };
    Ok(with_source(doc, path))
}

/// A document read from a file names that file when its reader named none.
fn with_source(mut doc: Document, path: &str) -> Document {
    if doc.sources.is_empty() {
        doc.sources.push(path.to_string());
    }
    doc
}

/// An array of StreamEvents as one turn, the old `action.*` vocabulary
/// read as `operation.*`.
fn event_array(path: &str, value: Value) -> Result<Attempt, LoadError> {
    let Value::Array(items) = value else { return Err(LoadError::new(path, "expected an array")) };
    let old = items.iter().filter(|e| legacy::is_old_vocabulary(e)).count();
    let items: Vec<Value> = items.into_iter().map(|e| legacy::map_old_vocabulary(e).0).collect();
    let turn = serde_json::json!({ "events": items });
    let mut attempt = capture::from_turns(vec![turn]);
    // An array of events has no Turn around it to carry a status.
    attempt.notices.retain(|n| !n.kind.is_turn_status_problem());
    if old > 0 {
        attempt
            .notices
            .push(Notice::new(NoticeLevel::Info, crate::model::notice::NoticeKind::OldVocabulary { events: old }));
    }
    Ok(attempt)
}

fn unknown_shape(value: &Value) -> String {
    format!(
        "unrecognised JSON shape ({}); expected a session file {{\"sessions\": [...]}}, a Turn {{\"events\": [...], \"status\": ...}}, an array of Turns or StreamEvents, an InvocationSummary {{\"results\": [...]}}, or a NiceEval file with a known `format`",
        describe_shape(value)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::parse::lazy::Place;

    /// Where a walk from the root along `steps` (`None`: an array element) ends.
    fn walk(steps: &[Option<&str>]) -> Place {
        steps.iter().fold(Place::root(&EVENT_PATHS), |place, key| place.child(*key))
    }

    #[test]
    fn a_raw_load_follows_every_event_path_and_nothing_else() {
        let s = Some;
        for events in [
            &[s("sessions"), None, s("turns"), None, s("turn"), s("events")][..],
            &[s("sessions"), None, s("turns"), None, s("events")],
            &[s("events")],
            &[s("results"), None, s("events")],
            &[s("turn"), s("events")],
        ] {
            assert!(walk(events).is_events(), "{events:?}");
            let mut element = events.to_vec();
            element.push(None);
            assert!(matches!(walk(&element), Place::Event), "{element:?}");
            element.push(s("events"));
            assert!(walk(&element).is_plain(), "inside an event: {element:?}");
        }
        for plain in [
            &[s("sessions"), None, s("events")][..],
            &[s("sessions"), s("turns")],
            &[None],
            &[s("results"), None, s("turn"), s("events")],
            &[s("events"), s("events")],
            &[s("sessions"), None, s("turns"), None, s("turn"), s("turn")],
        ] {
            assert!(walk(plain).is_plain(), "{plain:?}");
        }
        assert!(walk(&[s("sessions"), None, s("turns"), None]).on_path());
    }

    /// Every variant, so that a new one has to say where it holds events.
    fn every_format() -> Vec<Format> {
        let all = vec![
            Format::LineStream,
            Format::Show,
            Format::Summary,
            Format::RecordRoot,
            Format::LegacyRun,
            Format::Info(info::Kind::Otlp),
            Format::RecordMember(PathBuf::new(), record::Scope::Whole),
            Format::LegacyAttempt(PathBuf::new()),
            Format::Capture,
            Format::Turn,
            Format::TurnList,
            Format::EventArray,
            Format::Unknown,
        ];
        for f in &all {
            match f {
                Format::LineStream
                | Format::Show
                | Format::Summary
                | Format::RecordRoot
                | Format::LegacyRun
                | Format::Info(_)
                | Format::RecordMember(..)
                | Format::LegacyAttempt(_)
                | Format::Capture
                | Format::Turn
                | Format::TurnList
                | Format::EventArray
                | Format::Unknown => {}
            }
        }
        all
    }

    #[test]
    fn the_followed_paths_are_the_paths_of_the_formats() {
        let named: Vec<EventPath> = every_format().iter().flat_map(|f| f.event_paths().iter().copied()).collect();
        assert_eq!(named.len(), EVENT_PATHS.len());
        assert!(named.iter().all(|p| EVENT_PATHS.contains(p)), "{named:?}");
        let raw: Vec<Format> = every_format().into_iter().filter(Format::takes_raw_events).collect();
        assert_eq!(raw, [Format::Summary, Format::Capture, Format::Turn]);
    }

    #[test]
    fn recognition_keeps_its_order() {
        let of = |v: Value| Format::of("x.json", &v, || true);
        // A one-line capture entry is a one-line stream before anything else.
        assert_eq!(of(serde_json::json!({"turn": {"events": []}, "sessions": []})), Format::LineStream);
        assert_eq!(Format::of("x.json", &serde_json::json!({"turn": {}, "sessions": []}), || false), Format::Capture);
        // A show page with results is a show page; a summary with `format` a summary.
        assert_eq!(of(serde_json::json!({"format": "niceeval.show", "results": []})), Format::Show);
        assert_eq!(of(serde_json::json!({"format": "niceeval.record", "results": []})), Format::Summary);
        assert_eq!(of(serde_json::json!({"format": "niceeval.record", "events": []})), Format::RecordRoot);
        assert_eq!(of(serde_json::json!({"resourceSpans": [], "events": []})), Format::Info(info::Kind::Otlp));
        assert_eq!(of(serde_json::json!({"sessions": [{"turns": []}], "events": []})), Format::Capture);
        assert_eq!(of(serde_json::json!({"events": []})), Format::Turn);
        assert_eq!(of(serde_json::json!([{"events": []}])), Format::TurnList);
        assert_eq!(of(serde_json::json!([{"type": "x"}])), Format::EventArray);
        assert_eq!(of(serde_json::json!([])), Format::Unknown);
    }
}
