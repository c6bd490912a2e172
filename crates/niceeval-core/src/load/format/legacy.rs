//! Legacy `niceeval.results` trees (npm ≤ 0.12; formats.md §8):
//!
//! ```text
//! .niceeval/<experimentId>/<ISO-ts>-<suffix>/
//!   run.json            {format: "niceeval.results", runId, experimentId, agent, model?, startedAt, …}
//!   sources/<sha256>.json   {content}
//!   <eval id path>/a<N>/
//!     result.json  events.json  trace.json  commands.json  o11y.json  diff.json  sources.json
//! ```
//!
//! `result.json` is an `EvalResult` without events and trace, so each attempt
//! is read with [`super::summary::attempt_from_result`] after its side files
//! are merged in. Old event vocabulary (`action.called` / `action.result`
//! with `callId`) is mapped to `operation.started` / `operation.finished`
//! with `operationId` before events are typed. Nothing is ever written.

use crate::load::error::LoadError;
use crate::model::document::{Attempt, Completeness, Document, Notice, NoticeLevel, SourceFile};
use crate::model::notice::{LegacyNotice, NoticeKind, ResultNotice};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub const FORMAT_NAME: &str = "legacy niceeval.results";

/// A legacy run's file is read as a Record's is: only a regular file (a FIFO
/// would block the load), of a sane size, JSON from its first byte.
/// `None`: it is not there.
fn read_json(path: &Path) -> Option<Result<Value, LoadError>> {
    use super::record::regular_file::{NotRead, RecordFile, read};
    match read(path, RecordFile::Payload) {
        Ok(bytes) => Some(crate::load::parse::parse_json(&path.display().to_string(), &bytes)),
        Err(NotRead::Missing(_)) => None,
        Err(refused) => Some(Err(LoadError::new(path.display().to_string(), refused.message(path)))),
    }
}

/// True when `dir/run.json` is a legacy results run document.
pub fn is_run_dir(dir: &Path) -> bool {
    matches!(read_json(&dir.join("run.json")), Some(Ok(v)) if v.get("format").and_then(Value::as_str) == Some("niceeval.results"))
}

fn run_started_at(dir: &Path) -> String {
    match read_json(&dir.join("run.json")) {
        Some(Ok(v)) => v.get("startedAt").and_then(Value::as_str).unwrap_or("").to_string(),
        _ => String::new(),
    }
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

/// Every legacy run under `dir`: `dir` itself, `dir/.niceeval/<exp>/<run>`,
/// `dir/<exp>/<run>` (when `dir` is `.niceeval`) or `dir/<run>` (when `dir`
/// is an experiment folder). Oldest first.
pub fn find_all(dir: &Path) -> Vec<PathBuf> {
    runs_and_refusals(dir).0
}

/// [`find_all`]'s runs, and why each folder with a `run.json` that could not
/// be read (a FIFO, too large, not JSON) is not among them.
fn runs_and_refusals(dir: &Path) -> (Vec<PathBuf>, Vec<LoadError>) {
    if is_run_dir(dir) {
        return (vec![dir.to_path_buf()], Vec::new());
    }
    let (mut runs, mut refused) = (Vec::new(), Vec::new());
    let mut consider = |d: PathBuf| match read_json(&d.join("run.json")) {
        Some(Ok(v)) if v.get("format").and_then(Value::as_str) == Some("niceeval.results") => {
            runs.push(d);
            true
        }
        Some(Err(e)) => {
            refused.push(e);
            true
        }
        _ => false,
    };
    let dot = dir.join(".niceeval");
    let base = if dot.is_dir() { dot } else { dir.to_path_buf() };
    for a in subdirs(&base) {
        if consider(a.clone()) {
            continue;
        }
        for b in subdirs(&a) {
            consider(b);
        }
    }
    runs.sort_by_key(|r| (run_started_at(r), r.file_name().map(|n| n.to_os_string())));
    (runs, refused)
}

/// A directory that is (or contains) a legacy results run: the newest run.
/// An attempt directory (`<eval>/aN/` inside a run) is returned as is.
pub fn find(dir: &Path) -> Option<PathBuf> {
    if run_of_attempt_dir(dir).is_some() {
        return Some(dir.to_path_buf());
    }
    find_all(dir).pop()
}

fn is_attempt_dir_name(p: &Path) -> Option<u64> {
    let name = p.file_name()?.to_str()?;
    name.strip_prefix('a')?.parse().ok()
}

/// An attempt directory holds a `result.json` or an `events.json` (a file
/// that is there but not a regular one is found, then refused by name).
fn has_attempt_file(dir: &Path) -> bool {
    ["result.json", "events.json"].iter().any(|f| std::fs::symlink_metadata(dir.join(f)).is_ok())
}

/// For `<run>/<eval…>/aN/`, the run dir.
fn run_of_attempt_dir(dir: &Path) -> Option<PathBuf> {
    is_attempt_dir_name(dir)?;
    if !has_attempt_file(dir) {
        return None;
    }
    dir.ancestors().skip(1).take(12).find(|a| is_run_dir(a)).map(Path::to_path_buf)
}

/// A `result.json` or `events.json` handed over as a file: its attempt dir,
/// when it sits in a legacy run (so sessions, turns and side files load too).
pub fn attempt_dir_of_file(path: &str, value: &Value) -> Option<PathBuf> {
    let p = Path::new(path);
    let fits = match p.file_name()?.to_str()? {
        "result.json" => value.get("verdict").is_some() || value.get("phases").is_some(),
        "events.json" => value.is_array(),
        _ => false,
    };
    if !fits {
        return None;
    }
    let dir = p.parent()?;
    run_of_attempt_dir(dir).map(|_| dir.to_path_buf())
}

/// `action.called` / `action.result` events.
pub fn is_old_vocabulary(v: &Value) -> bool {
    matches!(v.get("type").and_then(Value::as_str), Some("action.called" | "action.result"))
}

/// Map the old vocabulary to the current one. Returns the event and whether
/// it was rewritten. Unknown fields are kept.
pub fn map_old_vocabulary(v: Value) -> (Value, bool) {
    let ty = v.get("type").and_then(Value::as_str);
    let (new_type, started) = match ty {
        Some("action.called") => ("operation.started", true),
        Some("action.result") => ("operation.finished", false),
        _ => return (v, false),
    };
    let Value::Object(mut m) = v else { return (v, false) };
    m.insert("type".into(), Value::String(new_type.into()));
    if !m.contains_key("operationId")
        && let Some(id) = m.remove("callId")
    {
        m.insert("operationId".into(), id);
    }
    if started {
        if !m.contains_key("operation") {
            let op = match m.remove("action") {
                Some(Value::Object(a)) => Some(a),
                Some(other) => {
                    m.insert("action".into(), other);
                    None
                }
                None => None,
            };
            let mut op = op.unwrap_or_else(|| {
                let mut op = Map::new();
                for key in ["name", "input", "tool", "command", "remoteUrl"] {
                    if let Some(x) = m.remove(key) {
                        op.insert(key.into(), x);
                    }
                }
                if let Some(k) = m.remove("kind") {
                    op.insert("kind".into(), k);
                }
                op
            });
            if !op.contains_key("kind") {
                op.insert("kind".into(), Value::String("tool".into()));
            }
            m.insert("operation".into(), Value::Object(op));
        }
    } else {
        if !m.contains_key("kind") {
            m.insert("kind".into(), Value::String("tool".into()));
        }
        if !m.contains_key("status") {
            let flag = |k: &str| m.get(k).and_then(Value::as_bool);
            let status = match (flag("isError"), flag("success")) {
                (Some(true), _) | (_, Some(false)) => Some("failed"),
                (Some(false), _) | (_, Some(true)) => Some("completed"),
                _ => None,
            };
            if let Some(s) = status {
                m.insert("status".into(), Value::String(s.into()));
            }
        }
        if !m.contains_key("output")
            && let Some(r) = m.remove("result")
        {
            m.insert("output".into(), r);
        }
    }
    (Value::Object(m), true)
}

/// `sK/tN` → `sessionK/turnN`; `tN` → `turnN`.
pub fn normalize_label(label: &str) -> String {
    let parse = |s: &str, p: &str| {
        s.strip_prefix(p).filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())).map(str::to_string)
    };
    if let Some((a, b)) = label.split_once('/')
        && let (Some(k), Some(n)) = (parse(a, "s"), parse(b, "t"))
    {
        return if k == "1" { format!("turn{n}") } else { format!("session{k}/turn{n}") };
    }
    if let Some(n) = parse(label, "t") {
        return format!("turn{n}");
    }
    label.to_string()
}

/// Load a run directory (all attempts), or one attempt directory.
pub fn load_dir(dir: &Path) -> Result<Document, LoadError> {
    let shown = dir.display().to_string();
    if let Some(run) = run_of_attempt_dir(dir) {
        let run_doc = read_run(&run)?;
        let attempt = load_attempt(&run, dir, &run_doc);
        let mut doc = super::document::document_from_attempts(&shown, FORMAT_NAME.to_string(), vec![attempt]);
        doc.sources = vec![shown];
        return Ok(doc);
    }
    let run = if is_run_dir(dir) {
        dir.to_path_buf()
    } else {
        find(dir).ok_or_else(|| {
            LoadError::new(
                &shown,
                "is not a legacy niceeval.results run (no run.json with format \"niceeval.results\")",
            )
        })?
    };
    let run_doc = read_run(&run)?;
    let mut attempt_dirs = Vec::new();
    collect_attempt_dirs(&run, 0, &mut attempt_dirs);
    let attempts: Vec<Attempt> = attempt_dirs.iter().map(|a| load_attempt(&run, a, &run_doc)).collect();
    let mut doc =
        super::document::document_from_attempts(&run.display().to_string(), FORMAT_NAME.to_string(), attempts);
    if doc.attempts.is_empty() {
        doc.notices.push(Notice::new(NoticeLevel::Warning, LegacyNotice::NoAttemptDirs));
    }
    let (all, refused) = runs_and_refusals(dir);
    for e in refused {
        doc.notices.insert(0, Notice::new(NoticeLevel::Error, LegacyNotice::RunSkipped((&e).into())));
    }
    let others = all.len().saturating_sub(1);
    if !is_run_dir(dir) && others > 0 {
        let newest = LegacyNotice::NewestOfSeveral { run: run.clone(), older: others };
        doc.notices.insert(0, Notice::new(NoticeLevel::Info, newest));
    }
    Ok(doc)
}

/// Every legacy run under `dir` (oldest first) as one document.
pub fn load_all(dir: &Path) -> Result<Document, LoadError> {
    let runs = find_all(dir);
    if runs.is_empty() {
        return Err(LoadError::new(dir.display().to_string(), "contains no legacy niceeval.results run"));
    }
    let docs = runs.iter().map(|r| load_dir(r)).collect::<Result<Vec<_>, _>>()?;
    Ok(super::document::merge(docs))
}

fn read_run(run: &Path) -> Result<Value, LoadError> {
    match read_json(&run.join("run.json")) {
        Some(r) => r,
        None => Err(LoadError::new(run.join("run.json").display().to_string(), "cannot read run.json")),
    }
}

fn collect_attempt_dirs(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > 10 {
        return;
    }
    let mut found: Vec<(PathBuf, u64)> = Vec::new();
    for d in subdirs(dir) {
        if depth == 0 && d.file_name().is_some_and(|n| n == "sources") {
            continue;
        }
        match is_attempt_dir_name(&d) {
            Some(n) if has_attempt_file(&d) => found.push((d, n)),
            _ => collect_attempt_dirs(&d, depth + 1, out),
        }
    }
    found.sort_by_key(|(_, n)| *n);
    out.extend(found.into_iter().map(|(d, _)| d));
}

fn load_attempt(run: &Path, dir: &Path, run_doc: &Value) -> Attempt {
    let mut notices: Vec<Notice> = Vec::new();
    let read = |name: &'static str, notices: &mut Vec<Notice>| -> Option<Value> {
        match read_json(&dir.join(name)) {
            None => None,
            Some(Ok(v)) => Some(v),
            Some(Err(e)) => {
                let skipped = LegacyNotice::FileSkipped { file: name, failure: (&e).into() };
                notices.push(Notice::new(NoticeLevel::Error, skipped));
                None
            }
        }
    };
    let mut result = match read("result.json", &mut notices) {
        Some(Value::Object(m)) => m,
        Some(_) => {
            notices.push(Notice::new(NoticeLevel::Error, LegacyNotice::ResultNotAnObject));
            Map::new()
        }
        None => {
            if std::fs::symlink_metadata(dir.join("result.json")).is_err() {
                notices.push(Notice::new(NoticeLevel::Warning, LegacyNotice::NoResultJson { dir: dir.to_path_buf() }));
            }
            Map::new()
        }
    };
    // Identity falls back to the run and the directory names.
    let eval_path = dir
        .parent()
        .and_then(|p| p.strip_prefix(run).ok())
        .map(|p| p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"));
    if !result.contains_key("id")
        && !result.contains_key("evalId")
        && let Some(p) = eval_path
    {
        result.insert("id".into(), Value::String(p));
    }
    for (key, run_key) in [("experimentId", "experimentId"), ("agent", "agent"), ("model", "model")] {
        if !result.contains_key(key)
            && let Some(v) = run_doc.get(run_key).filter(|v| !v.is_null())
        {
            result.insert(key.into(), v.clone());
        }
    }
    let dir_number = is_attempt_dir_name(dir);
    if !result.contains_key("attempt")
        && let Some(n) = dir_number
    {
        // `aN` counts from 0 like EvalResult.attempt when an `a0` exists.
        let zero_based = dir.parent().is_some_and(|p| p.join("a0").is_dir());
        let n = if zero_based { n } else { n.saturating_sub(1) };
        result.insert("attempt".into(), Value::from(n));
    }
    let had_events = std::fs::symlink_metadata(dir.join("events.json")).is_ok();
    match read("events.json", &mut notices) {
        Some(Value::Array(events)) => {
            result.insert("events".into(), Value::Array(events));
        }
        Some(other) => {
            let found = crate::model::event::json_type(&other);
            notices.push(Notice::new(NoticeLevel::Error, LegacyNotice::EventsNotAnArray { found }))
        }
        None if !had_events => notices.push(Notice::new(NoticeLevel::Warning, LegacyNotice::NoEventsJson)),
        None => {}
    }
    for (file, key) in [("trace.json", "trace"), ("commands.json", "commands"), ("diff.json", "diff")] {
        if let Some(v) = read(file, &mut notices) {
            result.insert(key.into(), v);
        }
    }
    let sources = read("sources.json", &mut notices);
    let assertions = result.remove("assertions");
    let mut mapped = 0usize;
    let mut attempt = super::summary::attempt_from_result(Value::Object(result), &mut |e| {
        if !is_old_vocabulary(e) {
            return None;
        }
        mapped += 1;
        Some(map_old_vocabulary(e.clone()).0)
    });
    // Missing events were already reported above; drop the summary's duplicate.
    if !had_events {
        attempt.notices.retain(|n| n.kind != NoticeKind::Result(ResultNotice::NoEvents));
        attempt.events = Some(Completeness::NotRecorded);
    }
    for s in &mut attempt.sessions {
        for t in &mut s.turns {
            if let Some(l) = &t.label {
                t.label = Some(normalize_label(l));
            }
        }
    }
    if let Some(src) = sources {
        attempt.review.sources = resolve_sources(run, dir, &src, &mut notices);
    }
    if let Some(assertions) = assertions.as_ref().and_then(Value::as_array) {
        attempt.review.assertions = Some(assertions.iter().map(super::legacy::assertion).collect());
        attempt.review.assertions_state = Some(Completeness::Complete);
    }
    if mapped > 0 {
        notices.push(Notice::new(NoticeLevel::Info, NoticeKind::OldVocabulary { events: mapped }));
    }
    notices.append(&mut attempt.notices);
    attempt.notices = notices;
    attempt
}

fn resolve_sources(run: &Path, dir: &Path, list: &Value, notices: &mut Vec<Notice>) -> Vec<SourceFile> {
    let mut out = Vec::new();
    for entry in list.as_array().into_iter().flatten() {
        let Some(path) = entry.get("path").and_then(Value::as_str) else { continue };
        let sha = entry.get("sha256").and_then(Value::as_str);
        let mut content = entry.get("content").and_then(Value::as_str).map(str::to_string);
        if content.is_none()
            && let Some(sha) = sha.filter(|s| s.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            let candidates = [
                run.join("sources").join(format!("{sha}.json")),
                dir.join("../../sources").join(format!("{sha}.json")),
            ];
            content = candidates.iter().find_map(|c| match read_json(c) {
                Some(Ok(v)) => v.get("content").and_then(Value::as_str).map(str::to_string),
                _ => None,
            });
            if content.is_none() {
                let missing = LegacyNotice::SourceContentMissing { path: path.to_string(), sha256: sha.to_string() };
                notices.push(Notice::new(NoticeLevel::Warning, missing));
            }
        }
        out.push(SourceFile {
            id: sha.map(str::to_string),
            sha256: sha.map(str::to_string),
            path: path.to_string(),
            content,
        });
    }
    out
}

/// One `result.json` `assertions[]` entry (older shapes), read tolerantly.
pub fn assertion(a: &Value) -> crate::model::document::Assertion {
    let s = |k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
    let result = s("result").or_else(|| s("status")).or_else(|| {
        a.get("passed")
            .and_then(Value::as_bool)
            .map(|p| if p { "matched".to_string() } else { "mismatched".to_string() })
    });
    crate::model::document::Assertion {
        entry_id: s("entryId").or_else(|| s("id")),
        label: s("label")
            .or_else(|| s("name"))
            .or_else(|| s("description"))
            .or_else(|| s("display"))
            .unwrap_or_default(),
        criterion: s("criterion").or_else(|| s("kind")),
        result,
        reason: s("reason").or_else(|| s("message")),
        gate: s("gate"),
        requirement: s("requirement").or_else(|| {
            a.get("optional").and_then(Value::as_bool).map(|o| if o { "optional".into() } else { "required".into() })
        }),
        expected: a.get("expected").cloned().map(crate::model::document::Fact::Value),
        observed: a.get("received").or_else(|| a.get("actual")).cloned().map(crate::model::document::Fact::Value),
        raw: a.clone(),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_old_vocabulary() {
        let (v, m) = map_old_vocabulary(
            json!({"type":"action.called","callId":"c1","name":"Bash","input":{"command":"ls"},"extra":1}),
        );
        assert!(m);
        assert_eq!(
            v,
            json!({"type":"operation.started","operationId":"c1","operation":{"name":"Bash","input":{"command":"ls"},"kind":"tool"},"extra":1})
        );
        let (v, _) = map_old_vocabulary(json!({"type":"action.result","callId":"c1","result":"ok","isError":false}));
        assert_eq!(v["type"], "operation.finished");
        assert_eq!(v["operationId"], "c1");
        assert_eq!(v["status"], "completed");
        assert_eq!(v["output"], "ok");
        assert_eq!(v["kind"], "tool");
        let (v, _) = map_old_vocabulary(json!({"type":"action.result","callId":"c2"}));
        assert!(v.get("status").is_none(), "status is never invented");
        let (v, m) = map_old_vocabulary(json!({"type":"message","role":"assistant","text":"x"}));
        assert!(!m);
        assert_eq!(v["type"], "message");
    }

    #[test]
    fn normalizes_labels() {
        assert_eq!(normalize_label("s2/t1"), "session2/turn1");
        assert_eq!(normalize_label("s1/t3"), "turn3");
        assert_eq!(normalize_label("t2"), "turn2");
        assert_eq!(normalize_label("session2/turn1"), "session2/turn1");
    }
}
