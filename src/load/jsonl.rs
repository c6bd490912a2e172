//! JSONL inputs: one StreamEvent per line (an adapter's raw stream for one
//! turn), one Turn per line, or a `niceeval exp --json` NDJSON stream.

use super::LoadError;
use crate::model::document::Document;

/// True when the buffer holds more than one top-level JSON value, one per line.
pub fn looks_like_jsonl(bytes: &[u8]) -> bool {
    let text = super::strip_bom(bytes);
    let mut lines = text.split(|b| *b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace));
    let first = lines.next();
    let second = lines.next();
    match (first, second) {
        (Some(a), Some(_)) => serde_json::from_slice::<serde_json::Value>(a).is_ok_and(|v| v.is_object()),
        _ => false,
    }
}

pub fn load(path: &str, _bytes: &[u8]) -> Result<Document, LoadError> {
    Err(LoadError::new(path, "JSONL streams are not supported yet"))
}
