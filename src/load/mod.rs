//! Files → the document model. Formats are recognised from content, never
//! from the file name alone. The viewer never writes to its inputs.

pub mod assertions;
pub mod capture;
pub mod error;
pub mod exp;
pub mod info;
pub mod input;
pub mod jsonl;
pub mod legacy;
pub mod locator;
pub mod parse;
pub mod phases;
pub mod preview;
pub mod progress;
pub mod record;
pub mod show;
pub mod summary;

pub use error::LoadError;
pub(crate) use input::looks_binary;
use input::{Input, Mapped};
pub use input::{display_name, io_message, mapped_inputs, read_input};
// One JSON document of a side file (a price table, a Record member).
pub use parse::parse_json;
use parse::{compact, lazy, repair, split, strip_bom};

use crate::model::diagnostics::{InputLoss, LossKind};
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use serde_json::Value;
use std::path::Path;

/// What one JSON document is.
fn classify(path: &str, value: Value) -> Result<Classified, LoadError> {
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

enum Classified {
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

/// `dir` or `dir/.niceeval/record` when it holds a `record.json` (a fallback
/// for dispatch; `record::find` decides what a valid Record is).
fn record_root(dir: &Path) -> Option<std::path::PathBuf> {
    [dir.to_path_buf(), dir.join(".niceeval").join("record")].into_iter().find(|d| d.join("record.json").is_file())
}

/// Load one path (a file, a directory, a stream, or `-`) into a document.
pub fn load_path(path: impl AsRef<Path>) -> Result<Document, LoadError> {
    let path = path.as_ref();
    let name = display_name(path);
    let map = match input::open(path)? {
        Input::Dir => return load_dir(path, &name),
        Input::Bytes(bytes) => return load_bytes(&name, &bytes),
        Input::Mapped(map) => std::sync::Arc::new(map),
    };
    // Mapping costs nothing until pages are read: the format is decided
    // from the first lines without copying the file. A first line longer
    // than a megabyte is tried as one document straight away (a JSONL
    // stream with such a line fails that parse at its second line, and
    // is then looked at as below).
    let head = &map[..map.len().min(LONG_FIRST_LINE)];
    if map.len() > LONG_FIRST_LINE
        && memchr::memchr(b'\n', head).is_none()
        && let Some(doc) = load_mapped_document(&name, &map)
    {
        return doc;
    }
    load_mapped(&name, map)
}

/// A directory: a Record, or a legacy results run.
fn load_dir(path: &Path, name: &str) -> Result<Document, LoadError> {
    if let Err(e) = std::fs::read_dir(path) {
        return Err(LoadError::new(name, format!("cannot list the directory: {}", io_message(&e))));
    }
    if let Some(root) = record::find(path).or_else(|| record_root(path)) {
        return record::load_dir(&root);
    }
    if let Some((root, scope)) = record::scope::scope_of(path) {
        return record::scope::open(&root, &scope, name);
    }
    if legacy::find(path).is_some() {
        // load_dir picks the run itself and says when older runs sit beside it.
        return legacy::load_dir(path);
    }
    Err(LoadError::new(name, "is a directory without a NiceEval Record (record.json) or legacy results run (run.json)"))
}

/// A first line at least this long is not looked at for JSONL first.
const LONG_FIRST_LINE: usize = 1 << 20;

/// Load a mapped file: a JSONL stream (lazy when it holds StreamEvents, else
/// in blocks), or one JSON document (see [`load_mapped_document`]); anything
/// else, or any doubt, goes through [`load_bytes`].
fn load_mapped(path: &str, map: std::sync::Arc<Mapped>) -> Result<Document, LoadError> {
    // A one-line document is searched to its end for a second line, and
    // dropped from memory as it goes.
    let drop_read = |start: usize, end: usize| map.drop_pages(start, end);
    let single_line = jsonl::single_line_by_parts(&map, &drop_read);
    if !single_line && jsonl::looks_like_jsonl(&map) {
        let source = crate::model::event::Source::shared(map.clone());
        if let Some(doc) = jsonl::load_lazy(path, source, &drop_read) {
            return doc;
        }
        return match map.file.try_clone().ok().and_then(|file| jsonl::load_file(path, file)) {
            Some(doc) => doc,
            None => load_bytes(path, &map),
        };
    }
    load_mapped_document(path, &map).unwrap_or_else(|| load_bytes(path, &map))
}

/// Load a mapped file as one JSON document with lazy events (see [`lazy`]):
/// their long payload strings stay in the mapping, which the document keeps.
/// The document is parsed piece by piece (see [`split`]) and the mapped
/// pages behind the parse are released, so the file and its parsed tree are
/// not both resident. `None` when it is not one document (or the lazy load
/// gave up): the caller loads it otherwise.
fn load_mapped_document(path: &str, map: &std::sync::Arc<Mapped>) -> Option<Result<Document, LoadError>> {
    let body = strip_bom(map);
    let skipped = map.len() - body.len();
    if looks_binary(body) {
        return None;
    }
    // Deciding the format may have read every page (a one-line file is
    // searched for its newline): drop them, then drop what the structure
    // scan has read as it goes, so the pieces read each page once more and
    // release it behind themselves instead of finding the file resident.
    map.drop_pages(0, map.len());
    let scanned = |start: usize, end: usize| map.drop_pages(skipped + start, skipped + end);
    let release = |start: usize, end: usize| {
        progress::add((end - start) as u64, 0);
        // A released page that is read again (a key, a page shared with a
        // piece on the other thread, or a lazy event shown later) is read
        // again from the file.
        map.drop_pages(skipped + start, skipped + end);
    };
    let load = lazy::LazyLoad::new(crate::model::event::Source::shared(map.clone()));
    let value = split::parse(body, split::SPLIT_AT_LEAST, &scanned, &release, Some(&load));
    lazy_document(path, map, value?, load)
}

/// Load `bytes` the way a mapped file is loaded, its events raw and
/// containers of at least `split_at_least` bytes split: for tests that
/// compare raw loads with plain ones on small inputs.
#[doc(hidden)]
pub fn load_bytes_lazy(path: &str, bytes: Vec<u8>, split_at_least: usize) -> Result<Document, LoadError> {
    let source = crate::model::event::Source::shared(std::sync::Arc::new(bytes));
    let all = source.bytes();
    let single_line = jsonl::single_line(all);
    if looks_binary(strip_bom(all)) || (!single_line && jsonl::looks_like_jsonl(all)) {
        return load_bytes(path, all);
    }
    let body = strip_bom(all);
    let load = lazy::LazyLoad::new(source.clone());
    let value = split::parse(body, split_at_least, &|_, _| {}, &|_, _| {}, Some(&load));
    match value.and_then(|v| lazy_document(path, all, v, load)) {
        Some(doc) => doc,
        None => load_bytes(path, all),
    }
}

/// [`load_bytes_lazy`] for a JSONL stream of StreamEvents; `None` for any
/// other input (tests).
#[doc(hidden)]
pub fn load_jsonl_bytes_lazy(path: &str, bytes: Vec<u8>) -> Option<Result<Document, LoadError>> {
    let source = crate::model::event::Source::shared(std::sync::Arc::new(bytes));
    let all = source.bytes();
    if looks_binary(strip_bom(all)) || jsonl::single_line(all) || !jsonl::looks_like_jsonl(all) {
        return None;
    }
    jsonl::load_lazy(path, source.clone(), &|_, _| {})
}

/// The document of a value parsed by a lazy load, its lazy events attached;
/// `None` when the load must be done again without lazy events (a format
/// whose loader does not take the events as they are, or markers that did
/// not end up in events).
fn lazy_document(path: &str, bytes: &[u8], value: Value, load: lazy::LazyLoad) -> Option<Result<Document, LoadError>> {
    if load.lazy_events() > 0 && !takes_lazy_events(path, &value) {
        return None;
    }
    // Whether the file is one line matters only for a value a one-line
    // stream could hold (read as that stream then).
    let single_line = jsonl::is_one_line_stream(&value) && jsonl::single_line(bytes);
    let mut doc = match document_from_value(path, bytes, single_line, value) {
        Ok(doc) => doc,
        Err(e) => return Some(Err(e)),
    };
    lazy::attach(&mut doc, load).then_some(Ok(doc))
}

/// The formats whose loaders put the events of `value` into turns as they
/// are (the branches of [`classify`] that reach a capture, a Turn or an
/// InvocationSummary).
fn takes_lazy_events(path: &str, value: &Value) -> bool {
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

/// Load a buffer that came from `path`.
///
/// Invalid UTF-8 and unpaired surrogate escapes are repaired (see
/// [`repair`]) and reported as a warning notice, so such files still open.
pub fn load_bytes(path: &str, bytes: &[u8]) -> Result<Document, LoadError> {
    if looks_binary(strip_bom(bytes)) {
        return Err(input::binary(path));
    }
    // A JSONL stream reports an invalid UTF-8 line with its line number and
    // loads the rest. A single line is left to `load_repaired`, which parses
    // it once (asking here would parse a one-line document twice).
    if !jsonl::single_line(bytes) && jsonl::looks_like_jsonl(bytes) {
        return jsonl::load(path, bytes);
    }
    // The parser rejects invalid UTF-8 and unpaired surrogates itself, so a
    // file that loads needs no repair pass; only a failed one is repaired.
    let unrepaired = match load_repaired(path, bytes) {
        Ok(doc) => return Ok(doc),
        Err(e) => e,
    };
    let (repaired, repairs) = repair::repair(bytes);
    if !repairs.any() {
        return Err(unrepaired);
    }
    let mut doc = load_repaired(path, &repaired).map_err(|mut e| {
        if repairs.invalid_utf8 > 0 && e.message.contains("not valid JSON") {
            e.message.push_str(" (the file is not UTF-8 text)");
        }
        e
    })?;
    if let Some(message) = repairs.message() {
        doc.notices.insert(0, Notice { level: NoticeLevel::Warning, message: format!("{path}: {message}") });
    }
    let total = repairs.invalid_utf8 + repairs.lone_surrogates;
    let listed = repairs.places.len();
    let losses = repairs.places.into_iter().enumerate().map(|(i, (line, column, what))| {
        let mut message = what.describe();
        if i + 1 == listed && total > listed {
            message.push_str(&format!(" ({} more replacements after this one are not listed)", total - listed));
        }
        InputLoss { kind: LossKind::TextReplaced, path: path.to_string(), line, column: Some(column), message }
    });
    doc.losses.splice(0..0, losses);
    Ok(doc)
}

fn load_repaired(path: &str, bytes: &[u8]) -> Result<Document, LoadError> {
    let body = strip_bom(bytes);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(LoadError::new(path, "the file is empty (expected JSON or JSONL)"));
    }
    // One non-blank line: parse it once, as the whole document (it is a
    // one-line JSONL stream only when it holds a StreamEvent or capture entry).
    let single_line = jsonl::single_line(bytes);
    if !single_line && jsonl::looks_like_jsonl(bytes) {
        return jsonl::load(path, bytes);
    }
    let value = match compact::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            if single_line && jsonl::looks_like_jsonl(bytes) {
                return jsonl::load(path, bytes);
            }
            if jsonl::mostly_object_lines(bytes) {
                return jsonl::load(path, bytes);
            }
            return Err(not_json(path, body, &e));
        }
    };
    document_from_value(path, bytes, single_line, value)
}

/// The document of a parsed JSON file (`bytes`, its text, is read again only
/// for a one-line JSONL stream).
fn document_from_value(path: &str, bytes: &[u8], single_line: bool, value: Value) -> Result<Document, LoadError> {
    if single_line && jsonl::is_one_line_stream(&value) {
        return jsonl::load(path, bytes);
    }
    let (format, attempts) = match classify(path, value)? {
        Classified::Attempts(f, a) => (f, a),
        Classified::Document(mut d) => {
            if d.sources.is_empty() {
                d.sources.push(path.to_string());
            }
            return Ok(d);
        }
    };
    Ok(document_from_attempts(path, format, attempts))
}

/// The error for a buffer that is not one JSON document (nor JSONL).
fn not_json(path: &str, body: &[u8], err: &serde_json::Error) -> LoadError {
    if let Err(u) = std::str::from_utf8(body) {
        let valid = &body[..u.valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let column = valid.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        return LoadError::at(
            path,
            line,
            column,
            "this is neither JSON nor JSONL: the file is not UTF-8 text (binary file?)",
        );
    }
    let first = body.iter().find(|b| !b.is_ascii_whitespace()).copied().unwrap_or(b' ');
    let json_start = matches!(first, b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n');
    if !json_start {
        let text = String::from_utf8_lossy(body);
        let head: String = text.trim_start().chars().take(40).collect();
        return LoadError::at(
            path,
            err.line(),
            err.column(),
            format!(
                "this is neither JSON nor JSONL (it starts with {head:?}); expected a NiceEval Turn, session, summary or results file"
            ),
        );
    }
    LoadError::json(path, err, 0)
}

/// Load several paths as one document (attempts side by side).
pub fn load_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Document, LoadError> {
    let mut docs = Vec::new();
    for p in paths {
        docs.push(load_path(p)?);
    }
    Ok(merge(docs))
}

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

/// Severity helper for callers that only want errors.
pub fn has_errors(doc: &Document) -> bool {
    doc.all_notices().any(|n| n.level == NoticeLevel::Error)
}
