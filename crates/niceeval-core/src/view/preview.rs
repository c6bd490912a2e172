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
    // A string of no more bytes than the limit has no more characters.
    if s.len() <= PREVIEW_MAX_CHARS {
        return s.to_string();
    }
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

/// What a tool start's input says: its shell command, or else its path,
/// URL, pattern or query, or its compact JSON ([`input_preview`]).
pub enum InputWords {
    Command(String),
    Other(String),
}

/// [`InputWords`] of a tool start, read as far as a preview reads (see [`PREVIEW_READS_CHARS`]).
pub fn read_tool_input(event: &Event) -> InputWords {
    if let Some(path) = path_as_written(event) {
        return InputWords::Other(path);
    }
    let input = event.tool_input_prefix(PREVIEW_READS_CHARS);
    let input = input.as_deref();
    match shell_command_text(input.map(crate::model::event::Node::from)) {
        Some(cmd) => InputWords::Command(cmd),
        None => InputWords::Other(input_preview(input)),
    }
}

/// The keys whose string value says what a tool input is about, in the order they are looked for.
const INPUT_WORD_KEYS: [&str; 8] = ["file_path", "path", "file", "filename", "url", "uri", "pattern", "query"];

/// [`read_tool_input`] in the common case, read from the input as written
/// instead of building it as a `Value`: an object that is no shell command and
/// has one of [`INPUT_WORD_KEYS`] as a string too short for the read to cut.
/// `None` when the input is anything else.
fn path_as_written(event: &Event) -> Option<String> {
    let input = event.tool_input_head().filter(|i| i.is_object())?;
    if shell_command_text(Some(input)).is_some() {
        return None;
    }
    let members = input.object();
    let value = INPUT_WORD_KEYS.iter().find_map(|key| members.get(key).filter(|v| v.is_string()))?;
    // No more bytes than the read keeps characters: the read would not cut it.
    value.as_str().filter(|s| s.len() <= PREVIEW_READS_CHARS).map(std::borrow::Cow::into_owned)
}

/// [`InputWords::Other`] of an input that is not a shell command: its path,
/// URL, pattern or query, else its compact JSON.
pub fn input_preview(input: Option<&Value>) -> String {
    if let Some(obj) = input.and_then(Value::as_object) {
        for key in INPUT_WORD_KEYS {
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

    /// The path read from the input as written is the one the `Value` gives.
    #[test]
    fn the_path_read_as_written_is_the_path_of_the_value() {
        let long = "p".repeat(PREVIEW_READS_CHARS + 10);
        let inputs = [
            r#"{"path":"src/a.rs"}"#.to_string(),
            r#"{"path":"src/\u00e9\n.rs","query":"q"}"#.to_string(),
            r#"{"path":3,"url":"https://x"}"#.to_string(),
            r#"{"command":"ls","path":"a"}"#.to_string(),
            r#"{"command":null,"cmd":["ls"],"path":"a"}"#.to_string(),
            r#"{"command":"","path":"a"}"#.to_string(),
            r#"{"program":"ls","args":[],"path":"a"}"#.to_string(),
            r#"{"other":1}"#.to_string(),
            r#"["path"]"#.to_string(),
            format!(r#"{{"path":"{long}"}}"#),
        ];
        for input in inputs {
            let text = format!(
                r#"{{"type":"operation.started","operationId":"a","operation":{{"kind":"tool","name":"R","input":{input}}}}}"#
            );
            let source = crate::model::event::Source::shared(std::sync::Arc::new(text.clone().into_bytes()));
            let raw = Event::from_raw(source, 0, text.len() as u32, &mut |s: &str| s.into());
            let parsed = Event::from_value(serde_json::from_str(&text).unwrap());
            let by_value = |ev: &Event| {
                let input = ev.tool_input_prefix(PREVIEW_READS_CHARS);
                let input = input.as_deref();
                match shell_command_text(input.map(crate::model::event::Node::from)) {
                    Some(cmd) => format!("command {cmd}"),
                    None => format!("other {}", input_preview(input)),
                }
            };
            let words = |ev: &Event| match read_tool_input(ev) {
                InputWords::Command(cmd) => format!("command {cmd}"),
                InputWords::Other(s) => format!("other {s}"),
            };
            for ev in [&raw, &parsed] {
                if let Some(path) = path_as_written(ev) {
                    assert!(format!("other {path}") == by_value(ev), "{}", &input[..input.len().min(80)]);
                }
                assert!(words(ev) == by_value(ev), "{}", &input[..input.len().min(80)]);
            }
        }
        let path_of = |input: &str| {
            let v = serde_json::json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"R","input":serde_json::from_str::<Value>(input).unwrap()}});
            path_as_written(&Event::from_value(v))
        };
        assert_eq!(path_of(r#"{"path":"a"}"#).as_deref(), Some("a"));
        assert_eq!(path_of(r#"{"command":"ls","path":"a"}"#), None);
    }

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
