//! Legacy `niceeval.results` trees (npm ≤ 0.12): `run.json` + `<eval>/aN/`.

use super::LoadError;
use crate::model::document::Document;
use std::path::Path;

/// A directory that is (or contains) a legacy results run.
pub fn find(_dir: &Path) -> Option<std::path::PathBuf> {
    None
}

pub fn load_dir(dir: &Path) -> Result<Document, LoadError> {
    Err(LoadError::new(dir.display().to_string(), "legacy results trees are not supported yet"))
}
