//! Files → the document model. Formats are recognised from content, never
//! from the file name alone. The viewer never writes to its inputs.
//!
//! Three layers, each using only the ones below it: [`input`] reads a path
//! once (a file read or mapped, a directory, stdin or another stream);
//! [`parse`] turns bytes into values and raw events with no format known;
//! [`format`](mod@format) says which formats exist, recognises one, and reads it into
//! attempts. This module picks the way each input is loaded (mapped and
//! raw, in blocks, or whole) and hands the parsed value to [`format`](mod@format).

pub mod error;
pub mod format;
pub mod input;
pub mod parse;
pub mod preview;
pub mod progress;
pub mod select;

pub use error::LoadError;
use format::document::merge;
use format::{Format, jsonl, legacy, record};
pub use input::looks_binary;
use input::{Input, Mapped, strip_bom};
pub use input::{display_name, io_message, mapped_inputs, read_input};
// One JSON document of a side file (a price table, a Record member).
pub use parse::parse_json;
use parse::{compact, lazy, lines, repair, split};

use crate::model::diagnostics::{InputLoss, LossKind};
use crate::model::document::{Document, Notice, NoticeLevel};
use serde_json::Value;
use std::path::Path;

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
    let doc = load_mapped_path(&name, map);
    crate::analysis::parallel::return_freed_heap();
    doc
}

/// A mapped file, by its first line: a long one is tried as one document.
fn load_mapped_path(name: &str, map: std::sync::Arc<Mapped>) -> Result<Document, LoadError> {
    // Mapping costs nothing until pages are read: the format is decided
    // from the first lines without copying the file. A first line longer
    // than a megabyte is tried as one document straight away (a JSONL
    // stream with such a line fails that parse at its second line, and
    // is then looked at as below).
    let head = &map[..map.len().min(LONG_FIRST_LINE)];
    if map.len() > LONG_FIRST_LINE
        && memchr::memchr(b'\n', head).is_none()
        && let Some(doc) = load_mapped_document(name, &map)
    {
        return doc;
    }
    load_mapped(name, map)
}

/// A directory: a Record, a legacy results run, or a folder of native agent logs.
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
    if format::transcript::folder::is_native_folder(path) {
        return format::transcript::folder::load_dir(path);
    }
    Err(LoadError::new(
        name,
        "is a directory without a NiceEval Record (record.json), legacy results run (run.json) or native agent logs (*.jsonl)",
    ))
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
    let single_line = lines::single_line_by_parts(&map, &drop_read);
    if !single_line && jsonl::looks_like_jsonl(&map) {
        let source = crate::model::event::Source::new(input::MappedBytes(map.clone()));
        // A native log's provenance points into the mapping it keeps.
        if let Some(agent) = jsonl::native_log_in_head(&map) {
            let doc = format::transcript::load::document_of(path, agent, source);
            // The parse read every page: let them go back to the file.
            map.drop_pages(0, map.len());
            return Ok(doc);
        }
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
    let load =
        lazy::LazyLoad::new(crate::model::event::Source::new(input::MappedBytes(map.clone())), &format::EVENT_PATHS);
    let value = split::parse(body, split::SPLIT_AT_LEAST, &scanned, &release, Some(&load));
    if value.is_none() {
        // The file is read again another way: its bytes count from the start.
        progress::restart_bytes();
    }
    lazy_document(path, map, value?, load)
}

/// Load `bytes` the way a mapped file is loaded, its events raw and
/// containers of at least `split_at_least` bytes split: the viewer's
/// preview, and tests that compare raw loads with plain ones on small inputs.
pub fn load_bytes_lazy(path: &str, bytes: Vec<u8>, split_at_least: usize) -> Result<Document, LoadError> {
    let source = crate::model::event::Source::shared(std::sync::Arc::new(bytes));
    let all = source.bytes();
    let single_line = lines::single_line(all);
    if looks_binary(strip_bom(all)) || (!single_line && jsonl::looks_like_jsonl(all)) {
        return load_bytes(path, all);
    }
    let body = strip_bom(all);
    let load = lazy::LazyLoad::new(source.clone(), &format::EVENT_PATHS);
    let value = split::parse(body, split_at_least, &|_, _| {}, &|_, _| {}, Some(&load));
    match value.and_then(|v| lazy_document(path, all, v, load)) {
        Some(doc) => doc,
        None => load_bytes(path, all),
    }
}

/// [`load_bytes_lazy`] for a JSONL stream of StreamEvents; `None` for any
/// other input.
pub fn load_jsonl_bytes_lazy(path: &str, bytes: Vec<u8>) -> Option<Result<Document, LoadError>> {
    let source = crate::model::event::Source::shared(std::sync::Arc::new(bytes));
    let all = source.bytes();
    if looks_binary(strip_bom(all)) || lines::single_line(all) || !jsonl::looks_like_jsonl(all) {
        return None;
    }
    jsonl::load_lazy(path, source.clone(), &|_, _| {})
}

/// The document of a value parsed by a raw load, its raw events attached;
/// `None` when the load must be done again without raw events (a format
/// whose reader does not take the events as they are, or placeholders that
/// did not end up in events).
fn lazy_document(path: &str, bytes: &[u8], value: Value, load: lazy::LazyLoad) -> Option<Result<Document, LoadError>> {
    let format = Format::of(path, &value, || lines::single_line(bytes));
    if load.lazy_events() > 0 && !format.takes_raw_events() {
        return None;
    }
    let mut doc = match format::read(path, bytes, format, value) {
        Ok(doc) => doc,
        Err(e) => return Some(Err(e)),
    };
    lazy::attach(&mut doc, load).then_some(Ok(doc))
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
    if !lines::single_line(bytes) && jsonl::looks_like_jsonl(bytes) {
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
        if repairs.invalid_utf8 > 0 && e.kind == error::LoadErrorKind::InvalidJson {
            e.message.push_str(" (the file is not UTF-8 text)");
        }
        e
    })?;
    if repairs.any() {
        let repaired = crate::model::notice::Repaired {
            path: path.to_string(),
            invalid_utf8: repairs.invalid_utf8,
            lone_surrogates: repairs.lone_surrogates,
            first: repairs.first,
        };
        doc.notices
            .insert(0, Notice::new(NoticeLevel::Warning, crate::model::notice::NoticeKind::TextRepaired(repaired)));
    }
    let total = repairs.invalid_utf8 + repairs.lone_surrogates;
    let listed = repairs.places.len();
    let losses = repairs.places.into_iter().enumerate().map(|(i, (line, column, what))| {
        let why = what.describe();
        let mut message = why.clone();
        if i + 1 == listed && total > listed {
            message.push_str(&format!(" ({} more replacements after this one are not listed)", total - listed));
        }
        InputLoss { kind: LossKind::TextReplaced, path: path.to_string(), line, column: Some(column), message, why }
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
    let single_line = lines::single_line(bytes);
    if !single_line && jsonl::looks_like_jsonl(bytes) {
        return jsonl::load(path, bytes);
    }
    let value = match compact::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            if single_line && jsonl::looks_like_jsonl(bytes) {
                return jsonl::load(path, bytes);
            }
            if lines::mostly_object_lines(bytes) {
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
    format::read(path, bytes, Format::of(path, &value, || single_line), value)
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

/// Load several paths; with `agent` (`--agent`), each as a native log that
/// agent wrote, whatever its content looks like.
pub fn load_paths_as<P: AsRef<Path>>(
    paths: &[P],
    agent: Option<format::transcript::Agent>,
) -> Result<Document, LoadError> {
    let Some(agent) = agent else { return load_paths(paths) };
    let mut docs = Vec::new();
    for p in paths {
        let bytes = read_input(p)?;
        docs.push(format::transcript::load::document(&display_name(p.as_ref()), agent, &bytes));
    }
    Ok(merge(docs))
}

/// Severity helper for callers that only want errors.
pub fn has_errors(doc: &Document) -> bool {
    doc.all_notices().any(|n| n.level == NoticeLevel::Error)
}

#[cfg(test)]
mod tests {
    /// The code of the files under `src/load/<place>` (a folder or one
    /// file), without comments and unit tests.
    fn code_of(place: &str) -> Vec<(String, String)> {
        fn files_under(path: std::path::PathBuf, out: &mut Vec<std::path::PathBuf>) {
            match std::fs::read_dir(&path) {
                Ok(dir) => dir.flatten().for_each(|e| files_under(e.path(), out)),
                Err(_) => out.push(path),
            }
        }
        let mut files = Vec::new();
        files_under(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/load").join(place), &mut files);
        files
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                let text = text.split("#[cfg(test)]").next().unwrap_or_default();
                let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
                (p.display().to_string(), code.join("\n"))
            })
            .collect()
    }

    #[test]
    fn the_layers_of_load_point_down() {
        // input ← parse ← format ← this module (and preview).
        let above = |names: &[&str]| -> Vec<String> {
            names.iter().flat_map(|n| [format!("load::{n}"), format!("super::{n}")]).collect()
        };
        let rules = [
            ("input.rs", above(&["parse", "format", "preview", "load_"])),
            ("error.rs", above(&["input", "parse", "format", "preview"])),
            ("progress.rs", above(&["input", "parse", "format", "preview"])),
            ("parse", above(&["format", "preview", "load_"])),
        ];
        for (place, never) in rules {
            for (file, code) in code_of(place) {
                for name in &never {
                    assert!(!code.contains(name.as_str()), "{file} names {name}");
                }
            }
        }
    }
}
