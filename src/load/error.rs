//! Load errors name the file and, for JSON, the line and column.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub path: String,
    /// 1-based line and column, when the problem has a position.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl LoadError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError { path: path.into(), position: None, message: message.into() }
    }

    pub fn at(path: impl Into<String>, line: usize, column: usize, message: impl Into<String>) -> LoadError {
        LoadError { path: path.into(), position: Some((line, column)), message: message.into() }
    }

    /// From a serde_json error, keeping its position. `line_offset` shifts
    /// lines for errors inside one line of a JSONL stream.
    pub fn json(path: &str, err: &serde_json::Error, line_offset: usize) -> LoadError {
        use serde_json::error::Category;
        let what = match err.classify() {
            Category::Eof => "the JSON ends early (truncated file?)",
            Category::Syntax => "this is not valid JSON",
            Category::Data => "unexpected JSON data",
            Category::Io => "could not read",
        };
        let detail = err.to_string();
        // serde_json appends " at line L column C"; we print the position ourselves.
        let detail = detail.split(" at line ").next().unwrap_or(&detail).to_string();
        // serde_json reports column 0 for a position before a line's first character.
        LoadError::at(path, err.line() + line_offset, err.column().max(1), format!("{what}: {detail}"))
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = crate::model::text::sanitize(&self.path, crate::model::text::Lines::Single);
        let message = crate::model::text::sanitize(&self.message, crate::model::text::Lines::Single);
        match self.position {
            Some((line, column)) => write!(f, "{path}:{line}:{column}: {message}"),
            None => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for LoadError {}
