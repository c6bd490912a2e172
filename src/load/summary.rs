//! InvocationSummary JSON (what a NiceEval Reporter receives).

use super::LoadError;
use crate::model::document::Document;
use serde_json::Value;

pub fn looks_like(v: &Value) -> bool {
    v.get("results")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().all(|x| x.get("verdict").is_some() || x.get("events").is_some()))
}

pub fn load(path: &str, _value: Value) -> Result<Document, LoadError> {
    Err(LoadError::new(path, "InvocationSummary files are not supported yet"))
}
