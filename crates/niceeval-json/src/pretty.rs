//! A JSON document written as it is produced, byte for byte as
//! `serde_json::to_string_pretty` would write the whole tree: a surface
//! whose output is as large as its input (`show --json` of a million events)
//! writes each part and drops it, instead of building one tree first.

use std::borrow::Cow;
use std::io::{self, Write};

/// What every piece of text passes through before it is written (the
/// terminal-safe escaping of `show --json`, say). It must work on any piece:
/// a key, a punctuation mark or a whole value.
pub type Filter = fn(&str) -> Cow<'_, str>;

/// Writes a pretty JSON document piece by piece. Containers are opened and
/// closed by hand; a value is any `Serialize`, written as the tree would be.
pub struct PrettyWriter<W: Write> {
    out: W,
    filter: Filter,
    /// For each open container: whether it has an entry yet.
    open: Vec<bool>,
    /// A key was written and its value is next.
    after_key: bool,
    /// What a key or a value is written into before it passes the filter
    /// (kept from one to the next: `show --json` writes millions).
    scratch: Vec<u8>,
}

const INDENT: &str = "  ";

impl<W: Write> PrettyWriter<W> {
    pub fn new(out: W, filter: Filter) -> Self {
        PrettyWriter { out, filter, open: Vec::new(), after_key: false, scratch: Vec::new() }
    }

    /// The writer, once the document is done.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn put(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all((self.filter)(text).as_bytes())
    }

    /// `write` into the scratch buffer, then `then` with the text written.
    fn scratch(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
        then: impl FnOnce(&mut Self, &str) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let done = write(&mut scratch)
            .map_err(io::Error::other)
            .and_then(|()| std::str::from_utf8(&scratch).map_err(io::Error::other))
            .and_then(|text| then(self, text));
        self.scratch = scratch;
        done
    }

    /// Pretty text written at `depth`: each of its lines after the first
    /// starts on a new, indented line. (Strings are escaped, so every
    /// newline of the text is between tokens.)
    fn put_indented(&mut self, text: &str, depth: usize) -> io::Result<()> {
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.newline_indent(depth)?;
            }
            self.put(line)?;
        }
        Ok(())
    }

    fn newline_indent(&mut self, depth: usize) -> io::Result<()> {
        self.out.write_all(b"\n")?;
        for _ in 0..depth {
            self.out.write_all(INDENT.as_bytes())?;
        }
        Ok(())
    }

    /// Where a value goes: after its key, or as the next array entry.
    fn before_value(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.after_key) {
            return Ok(());
        }
        self.before_entry()
    }

    fn before_entry(&mut self) -> io::Result<()> {
        let depth = self.open.len();
        if let Some(has_entry) = self.open.last_mut() {
            let comma = std::mem::replace(has_entry, true);
            if comma {
                self.out.write_all(b",")?;
            }
            self.newline_indent(depth)?;
        }
        Ok(())
    }

    fn begin(&mut self, mark: &str) -> io::Result<()> {
        self.before_value()?;
        self.put(mark)?;
        self.open.push(false);
        Ok(())
    }

    fn end(&mut self, mark: &str) -> io::Result<()> {
        let had_entries = self.open.pop().unwrap_or(false);
        if had_entries {
            self.newline_indent(self.open.len())?;
        }
        self.put(mark)
    }

    pub fn begin_object(&mut self) -> io::Result<()> {
        self.begin("{")
    }

    pub fn end_object(&mut self) -> io::Result<()> {
        self.end("}")
    }

    pub fn begin_array(&mut self) -> io::Result<()> {
        self.begin("[")
    }

    pub fn end_array(&mut self) -> io::Result<()> {
        self.end("]")
    }

    /// The next key of the open object; its value comes next.
    pub fn key(&mut self, key: &str) -> io::Result<()> {
        self.before_entry()?;
        self.scratch(|b| serde_json::to_writer(b, key), |w, quoted| w.put(quoted))?;
        self.put(": ")?;
        self.after_key = true;
        Ok(())
    }

    /// A whole value, indented where it stands.
    pub fn value(&mut self, value: &impl serde::Serialize) -> io::Result<()> {
        self.before_value()?;
        let depth = self.open.len();
        self.scratch(
            |b| serde_json::to_writer_pretty(b, value),
            |w, text| {
                if depth == 0 || !text.contains('\n') {
                    return w.put(text);
                }
                w.put_indented(text, depth)
            },
        )
    }

    /// `key` and its whole value. A value on one line (a string, a number)
    /// is written with its key as one piece.
    pub fn field(&mut self, key: &str, value: &impl serde::Serialize) -> io::Result<()> {
        self.before_entry()?;
        let depth = self.open.len();
        self.scratch(
            |b| {
                serde_json::to_writer(&mut *b, key)?;
                b.extend_from_slice(b": ");
                serde_json::to_writer_pretty(b, value)
            },
            |w, text| w.put_indented(text, depth),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn unchanged(s: &str) -> Cow<'_, str> {
        Cow::Borrowed(s)
    }

    fn upper(s: &str) -> Cow<'_, str> {
        Cow::Owned(s.to_uppercase())
    }

    /// Writes `v` through the writer, streaming every container.
    fn stream(w: &mut PrettyWriter<Vec<u8>>, v: &Value) {
        match v {
            Value::Object(m) => {
                w.begin_object().unwrap();
                for (k, x) in m {
                    w.key(k).unwrap();
                    stream(w, x);
                }
                w.end_object().unwrap();
            }
            Value::Array(a) => {
                w.begin_array().unwrap();
                for x in a {
                    stream(w, x);
                }
                w.end_array().unwrap();
            }
            other => w.value(other).unwrap(),
        }
    }

    fn cases() -> Vec<Value> {
        vec![
            json!({}),
            json!([]),
            json!(1),
            json!("a\nb"),
            json!({"a": [], "b": {}, "c": [1, {"d": "x\n\"y"}, []], "e": null}),
            json!([[[]], [{}], {"k": [true, false]}]),
            json!({"nested": {"deeper": {"deepest": [1, 2, {"z": "é \u{7}"}]}}}),
        ]
    }

    #[test]
    fn a_streamed_document_is_the_tree_written_pretty() {
        for v in cases() {
            let mut w = PrettyWriter::new(Vec::new(), unchanged);
            stream(&mut w, &v);
            assert_eq!(String::from_utf8(w.into_inner()).unwrap(), serde_json::to_string_pretty(&v).unwrap(), "{v}");
        }
    }

    #[test]
    fn whole_values_inside_streamed_containers_are_indented_where_they_stand() {
        for v in cases() {
            let mut w = PrettyWriter::new(Vec::new(), unchanged);
            w.begin_object().unwrap();
            w.field("v", &v).unwrap();
            w.key("list").unwrap();
            w.begin_array().unwrap();
            w.value(&v).unwrap();
            w.end_array().unwrap();
            w.end_object().unwrap();
            let tree = json!({"v": v, "list": [v]});
            assert_eq!(String::from_utf8(w.into_inner()).unwrap(), serde_json::to_string_pretty(&tree).unwrap());
        }
    }

    #[test]
    fn every_piece_passes_the_filter() {
        let mut w = PrettyWriter::new(Vec::new(), upper);
        w.begin_object().unwrap();
        w.field("key", &json!({"inner": "text"})).unwrap();
        w.end_object().unwrap();
        let tree = json!({"key": {"inner": "text"}});
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            serde_json::to_string_pretty(&tree).unwrap().to_uppercase()
        );
    }
}
