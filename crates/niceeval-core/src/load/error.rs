//! Load errors name the file and, for JSON, the line and column.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub path: String,
    /// 1-based line and column, when the problem has a position.
    pub position: Option<(usize, usize)>,
    /// What went wrong, for code that acts on it (the words are `message`).
    pub kind: LoadErrorKind,
    pub message: String,
}

/// The kinds of load error something acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadErrorKind {
    Other,
    /// The JSON parser's syntax error: not valid JSON at `position`.
    InvalidJson,
    /// The JSON ends before it is complete.
    TruncatedJson,
}

impl LoadError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError { path: path.into(), position: None, kind: LoadErrorKind::Other, message: message.into() }
    }

    pub fn at(path: impl Into<String>, line: usize, column: usize, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.into(),
            position: Some((line, column)),
            kind: LoadErrorKind::Other,
            message: message.into(),
        }
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
        let message = if detail.starts_with("recursion limit exceeded") {
            "the JSON nests too deeply (more than 128 levels of arrays/objects); the viewer does not open files nested this deep".to_string()
        } else if detail.starts_with("control character") {
            format!("{what}: {detail} (raw control characters must be escaped inside JSON strings)")
        } else {
            format!("{what}: {detail}")
        };
        // serde_json reports column 0 for a position before a line's first character.
        let mut error = LoadError::at(path, err.line() + line_offset, err.column().max(1), message);
        error.kind = match err.classify() {
            Category::Syntax => LoadErrorKind::InvalidJson,
            Category::Eof => LoadErrorKind::TruncatedJson,
            Category::Data | Category::Io => LoadErrorKind::Other,
        };
        error
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

impl From<&LoadError> for crate::model::notice::LoadFailure {
    fn from(e: &LoadError) -> Self {
        crate::model::notice::LoadFailure { path: e.path.clone(), position: e.position, why: e.message.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> LoadError {
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        LoadError::json("deep.json", &e, 0)
    }

    #[test]
    fn recursion_limit_is_explained() {
        let text = "[".repeat(200);
        let e = err(&text);
        assert_eq!(e.position.map(|p| p.0), Some(1));
        let shown = e.to_string();
        assert!(shown.starts_with("deep.json:1:"), "{shown}");
        assert!(shown.contains("nests too deeply"), "{shown}");
    }

    #[test]
    fn display_sanitizes_path_and_message() {
        let e = LoadError::at("a\u{1b}[2J.json", 3, 4, "bad \u{9b} thing");
        let shown = e.to_string();
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{9b}'), "{shown}");
        let e = LoadError::new("x\u{1b}]52;c;AAAA\u{7}.json", "oops\u{202e}");
        assert!(!e.to_string().chars().any(|c| c.is_control() || c == '\u{202e}'));
    }

    #[test]
    fn raw_control_characters_are_explained() {
        let e = err("{\"a\":\"x\u{1}\"}");
        assert!(e.message.contains("must be escaped"), "{}", e.message);
    }
}
