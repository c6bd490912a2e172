//! How much of a value a one-line preview shows, decided once: the command,
//! path or URL of a tool input, compact JSON otherwise, cut at a bound so a
//! 200 MB value costs no more than a short one on every frame.

use crate::model::event::Event;
use crate::model::facts::shell_command_text;
use serde_json::Value;

/// One-line previews and summaries keep at most this many characters (then `…`):
/// far wider than any screen, and a 200 MB value costs no more than a short one
/// on every frame. Search also reads the raw event, so it still finds the rest.
pub const PREVIEW_MAX_CHARS: usize = 4096;

/// How much of a lazy event's long strings a preview reads: a string cut
/// here still serializes past what [`value_preview`] keeps, so the preview
/// is the one of the whole string.
const PREVIEW_READS_CHARS: usize = PREVIEW_MAX_CHARS * 4 + 1;

/// The first [`PREVIEW_MAX_CHARS`] characters of `s`, with `…` when cut.
pub fn preview_head(s: &str) -> String {
    match s.char_indices().nth(PREVIEW_MAX_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// A writer that keeps the first `limit` bytes and then stops the serializer.
struct Bounded {
    buf: Vec<u8>,
    limit: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.buf.len());
        if room == 0 {
            return Err(std::io::Error::other("preview is long enough"));
        }
        let n = data.len().min(room);
        self.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compact one-line JSON of a payload (strings without quotes), cut at
/// [`PREVIEW_MAX_CHARS`] without serializing the rest of a huge value.
pub fn value_preview(v: &Value) -> String {
    match v {
        Value::String(s) => preview_head(s),
        other => {
            let mut w = Bounded { buf: Vec::new(), limit: PREVIEW_MAX_CHARS * 4 };
            let complete = serde_json::to_writer(&mut w, other).is_ok();
            let text = String::from_utf8_lossy(&w.buf);
            let mut out = preview_head(&text);
            if !complete && !out.ends_with('…') {
                out.push('…');
            }
            out
        }
    }
}

/// What a tool input says in a few words: the command, the path, the URL, or compact JSON.
pub fn tool_input_preview(event: &Event) -> String {
    let input = tool_input_read(event);
    let input = input.as_deref();
    match shell_command_text(input.map(crate::model::event::Node::from)) {
        Some(cmd) => cmd,
        None => input_preview(input),
    }
}

/// As much of a tool start's input as a preview reads (see [`PREVIEW_READS_CHARS`]).
pub fn tool_input_read(event: &Event) -> Option<std::borrow::Cow<'_, Value>> {
    event.tool_input_prefix(PREVIEW_READS_CHARS)
}

/// [`tool_input_preview`] of an input that is not a shell command: its path,
/// URL, pattern or query, else its compact JSON.
pub fn input_preview(input: Option<&Value>) -> String {
    if let Some(obj) = input.and_then(Value::as_object) {
        for key in ["file_path", "path", "file", "filename", "url", "uri", "pattern", "query"] {
            if let Some(s) = obj.get(key).and_then(Value::as_str) {
                return s.to_string();
            }
        }
    }
    match input {
        Some(v) => value_preview(v),
        None => "(no input)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_of_huge_values_are_cut_cheaply() {
        let big = "é".repeat(PREVIEW_MAX_CHARS * 3);
        let p = value_preview(&Value::String(big));
        assert_eq!(p.chars().count(), PREVIEW_MAX_CHARS + 1);
        assert!(p.ends_with('…'));
        let items: Vec<Value> = (0..200_000).map(Value::from).collect();
        let p = value_preview(&Value::Array(items));
        assert!(p.starts_with("[0,1,2,") && p.ends_with('…'));
        assert!(p.chars().count() <= PREVIEW_MAX_CHARS + 1);
        assert_eq!(value_preview(&serde_json::json!({"a": [1, 2]})), r#"{"a":[1,2]}"#);
        assert_eq!(value_preview(&Value::String("short".into())), "short");
    }
}
