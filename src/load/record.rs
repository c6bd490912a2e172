//! Record directories (`.niceeval/record`, `record.json` with `format: niceeval.record`).

use super::LoadError;
use crate::model::document::Document;
use std::path::Path;

/// The Record root inside `dir`, if any (`dir` itself, or `dir/.niceeval/record`).
pub fn find(_dir: &Path) -> Option<std::path::PathBuf> {
    None
}

pub fn load_dir(dir: &Path) -> Result<Document, LoadError> {
    Err(LoadError::new(dir.display().to_string(), "Record directories are not supported yet"))
}
