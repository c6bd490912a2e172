//! `niceeval show … --json` documents (`format: niceeval.show`).

use super::LoadError;
use crate::model::document::Document;
use serde_json::Value;

pub fn looks_like(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some("niceeval.show")
}

pub fn load(path: &str, _value: Value) -> Result<Document, LoadError> {
    Err(LoadError::new(path, "niceeval show --json documents are not supported yet"))
}
