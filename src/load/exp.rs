//! `niceeval exp --json` NDJSON streams (`format: niceeval.exp`).

use super::LoadError;
use crate::model::document::Document;
use serde_json::Value;

/// First line of an exp stream.
pub fn looks_like_first_line(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some("niceeval.exp") || v.get("event").is_some()
}

pub fn load(path: &str, _bytes: &[u8]) -> Result<Document, LoadError> {
    Err(LoadError::new(path, "niceeval exp --json streams are not supported yet"))
}
