//! `niceeval.file-changes` windows (Record payload or `show --json`
//! trajectory) → [`FileChanges`]. The state tells apart "no changes
//! (complete)", "not recorded" and "partial".

use super::blob::{Blobs, blob_key};
use super::observability::completeness;
use crate::model::document::{Completeness, FileChange, FileChanges, Notice};
use serde_json::Value;

/// Windows `[{windowId, sequence, changes[{changeId, path, kind, before, after}]}]`.
/// `blobs` resolves Record content refs; show documents carry the text inline.
pub fn from_windows(
    windows: &[Value],
    collection: Option<&Value>,
    blobs: Option<&Blobs>,
    notices: &mut Vec<Notice>,
) -> FileChanges {
    let mut out = FileChanges { state: Some(completeness(collection)), changes: Vec::new() };
    // An attachment without a collection block still recorded its windows.
    if collection.is_none() {
        out.state = Some(Completeness::Complete);
    }
    let mut windows: Vec<&Value> = windows.iter().collect();
    windows.sort_by_key(|w| w.get("sequence").and_then(Value::as_u64).unwrap_or(u64::MAX));
    for w in windows {
        let window = w.get("windowId").and_then(Value::as_str).map(str::to_string);
        for c in w.get("changes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            let kind = match c.get("kind").and_then(Value::as_str) {
                Some("created") => 'A',
                Some("modified") => 'M',
                Some("deleted") => 'D',
                _ => '?',
            };
            let mut notes = Vec::new();
            let before = endpoint(c.get("before"), blobs, notices, "before", &mut notes);
            let after = endpoint(c.get("after"), blobs, notices, "after", &mut notes);
            out.changes.push(FileChange {
                window: window.clone(),
                path: c.get("path").and_then(Value::as_str).unwrap_or("(unknown path)").to_string(),
                kind,
                before,
                after,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            });
        }
    }
    out
}

/// Not recorded at all (no attachment / `state: not-recorded`).
pub fn not_recorded() -> FileChanges {
    FileChanges { state: Some(Completeness::NotRecorded), changes: Vec::new() }
}

fn endpoint(
    e: Option<&Value>,
    blobs: Option<&Blobs>,
    notices: &mut Vec<Notice>,
    side: &str,
    notes: &mut Vec<String>,
) -> Option<String> {
    let e = e?;
    if e.get("state").and_then(Value::as_str) != Some("present") {
        return None;
    }
    let Some(rev) = e.get("revision") else {
        notes.push(format!("{side}: no revision recorded"));
        return None;
    };
    match rev.get("kind").and_then(Value::as_str) {
        Some("text") => {
            let content = rev.get("content");
            match content.and_then(|c| c.get("state")).and_then(Value::as_str) {
                Some("available") => {
                    let c = content?;
                    if let Some(r) = c.get("ref").filter(|r| blob_key(r).is_some()) {
                        let text = blobs.and_then(|b| b.text(r, Some(rev), notices));
                        if text.is_none() {
                            notes.push(format!("{side}: content unavailable (blob problem)"));
                        }
                        return text;
                    }
                    // show --json: {state, content:{state, text}} or {state, text}
                    let text = c
                        .get("content")
                        .and_then(|x| x.get("text"))
                        .or_else(|| c.get("text"))
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    if text.is_none() {
                        notes.push(format!("{side}: content unavailable"));
                    }
                    text
                }
                Some(other) => {
                    let reason = content.and_then(|c| c.get("reason")).and_then(Value::as_str).unwrap_or(other);
                    notes.push(format!("{side}: content {other} ({reason})"));
                    None
                }
                None => {
                    notes.push(format!("{side}: content not recorded"));
                    None
                }
            }
        }
        Some("elided") => {
            let reason = rev.get("reason").and_then(Value::as_str).unwrap_or("elided");
            let bytes =
                rev.get("byteLength").and_then(Value::as_u64).map(|b| format!(", {b} bytes")).unwrap_or_default();
            notes.push(format!("{side}: elided ({reason}{bytes})"));
            None
        }
        Some("unavailable") => {
            let reason = rev.get("reason").and_then(Value::as_str).unwrap_or("unavailable");
            notes.push(format!("{side}: unavailable ({reason})"));
            None
        }
        Some(other) => {
            notes.push(format!("{side}: revision kind \"{other}\" not understood"));
            None
        }
        None => {
            notes.push(format!("{side}: revision without a kind"));
            None
        }
    }
}
