//! A JSON value read where it is: either a parsed `Value`, or the text of
//! one value in a loaded file, read in place without building a tree.
//!
//! Events of a large file are kept as their text (see `event::EventJson`):
//! a `Value` of a small event costs ten times its text, and most events are
//! never shown. The derivations and the lint read them through [`Node`],
//! which answers the same questions of both forms the same way (a test
//! compares them on random documents).
//!
//! A raw node's text must be one valid JSON value with no duplicate keys
//! and no serde_json marker keys (the loader checks this before it keeps an
//! event as text; anything else is parsed into a `Value`).

use crate::scan::{self as json_scan, skip_ws, string_end};
use crate::string::{decode_into, decode_prefix};
use serde_json::{Map, Value};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy)]
pub enum Node<'a> {
    Value(&'a Value),
    /// The text of one valid JSON value, without surrounding whitespace.
    Raw(&'a [u8]),
}

/// The six JSON types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Bool => "boolean",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }
}

/// End (exclusive) of the value starting at `i` of valid text.
fn value_end(b: &[u8], i: usize) -> usize {
    json_scan::value_end(b, i).unwrap_or(b.len())
}

/// The text of a string value without its quotes, decoded.
fn raw_str(b: &[u8]) -> Option<Cow<'_, str>> {
    let inner = b.get(1..b.len().checked_sub(1)?)?;
    if memchr::memchr(b'\\', inner).is_none() {
        return std::str::from_utf8(inner).ok().map(Cow::Borrowed);
    }
    let mut out = String::with_capacity(inner.len());
    decode_into(inner, 0, inner.len(), &mut out)?;
    Some(Cow::Owned(out))
}

/// Whether a key's text (without quotes) reads `key`.
fn key_is(text: &[u8], key: &str) -> bool {
    // An escape makes the text longer than what it reads, so a text as long
    // as the key reads it only byte for byte, and a shorter one never does:
    // only a longer text with an escape is decoded.
    if text.len() <= key.len() {
        return text == key.as_bytes();
    }
    if memchr::memchr(b'\\', text).is_none() {
        return false;
    }
    let mut out = String::new();
    decode_into(text, 0, text.len(), &mut out).is_some() && out == key
}

/// The value of member `key` of an object's text `b` when it is the member
/// right after a value that ends at `from` (`None` when the next member is
/// another, or there is none). A member is found from one whose extent is
/// known without walking the members before it.
pub fn member_after<'a>(b: &'a [u8], from: usize, key: &str) -> Option<&'a [u8]> {
    let comma = skip_ws(b, from);
    if b.get(comma) != Some(&b',') {
        return None;
    }
    let mut next = RawMembers { b, i: comma + 1, known: &[], closed: 0 };
    next.next().filter(|(k, _)| key_is(k, key)).map(|(_, v)| v)
}

/// The members of a raw object: (key text without quotes, value text).
pub struct RawMembers<'a> {
    b: &'a [u8],
    i: usize,
    /// A value of this text whose extent was noted when it was loaded (a
    /// tool input or output, often most of the event): passed over without
    /// reading it (see [`value_end_knowing`]). Empty for none.
    known: &'a [u8],
    /// Where the object ends (past its closing brace), once the walk has
    /// reached it; 0 before.
    closed: usize,
}

impl<'a> Iterator for RawMembers<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        let j = skip_ws(b, self.i);
        if b.get(j) != Some(&b'"') {
            if b.get(j) == Some(&b'}') {
                self.closed = j + 1;
            }
            self.i = b.len();
            return None;
        }
        // The text was checked when loaded, but a file rewritten in place
        // since may hold anything: stop at what does not fit, never panic.
        let stop = |it: &mut Self| {
            it.i = b.len();
            None
        };
        let Some(ke) = string_end(b, j) else { return stop(self) };
        let colon = skip_ws(b, ke);
        if b.get(colon) != Some(&b':') {
            return stop(self);
        }
        let vs = skip_ws(b, colon + 1);
        if vs >= b.len() {
            return stop(self);
        }
        let ve = if self.known.is_empty() { value_end(b, vs) } else { value_end_knowing(b, vs, self.known) };
        let next = skip_ws(b, ve);
        // Past the comma (or at the closing brace, which ends the walk).
        self.i = if b.get(next) == Some(&b',') { next + 1 } else { b.len() };
        if b.get(next) == Some(&b'}') {
            self.closed = next + 1;
        }
        Some((&b[j + 1..ke - 1], &b[vs..ve]))
    }
}

/// The elements of a raw array.
pub struct RawElements<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Iterator for RawElements<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        let vs = skip_ws(b, self.i);
        if vs >= b.len() || b[vs] == b']' {
            self.i = b.len();
            return None;
        }
        let ve = value_end(b, vs);
        let next = skip_ws(b, ve);
        self.i = if b.get(next) == Some(&b',') { next + 1 } else { b.len() };
        Some(&b[vs..ve])
    }
}

fn raw_members(b: &[u8]) -> RawMembers<'_> {
    raw_members_knowing(b, &[])
}

fn raw_members_knowing<'a>(b: &'a [u8], known: &'a [u8]) -> RawMembers<'a> {
    match b.first() {
        Some(b'{') => RawMembers { b, i: 1, known, closed: 0 },
        _ => RawMembers { b, i: b.len(), known, closed: 0 },
    }
}

/// The text of a known value (none for a parsed one).
fn known_text(known: Option<Node<'_>>) -> &[u8] {
    match known {
        Some(Node::Raw(k)) => k,
        _ => &[],
    }
}

/// [`value_end`] of the value at `i`, passing over `known` (a value of the
/// same text whose extent was noted at load) without reading it: at it,
/// its length; in an object that holds it, that object's members are
/// walked (as [`RawMembers`] walks them) so that it is passed over there.
/// Anything unexpected falls back to the plain scan, so a wrong `known`
/// costs time, never a wrong end.
fn value_end_knowing(b: &[u8], i: usize, known: &[u8]) -> usize {
    let (here, at, end) = (b.as_ptr() as usize + i, known.as_ptr() as usize, b.as_ptr() as usize + b.len());
    if known.is_empty() || at < here || at + known.len() > end {
        return value_end(b, i);
    }
    if at == here {
        return i + known.len();
    }
    if b.get(i) != Some(&b'{') {
        return value_end(b, i);
    }
    let mut members = RawMembers { b, i: i + 1, known, closed: 0 };
    members.by_ref().for_each(drop);
    if members.closed > 0 { members.closed } else { value_end(b, i) }
}

fn raw_elements(b: &[u8]) -> RawElements<'_> {
    match b.first() {
        Some(b'[') => RawElements { b, i: 1 },
        _ => RawElements { b, i: b.len() },
    }
}

fn raw_number_text(b: &[u8]) -> Option<&str> {
    match b.first() {
        Some(b'-' | b'0'..=b'9') => std::str::from_utf8(b).ok(),
        _ => None,
    }
}

/// A number's text as serde_json keeps it (arbitrary precision): as
/// written, but for the exponent, which it writes `e` and signed (`1E5` is
/// `1e+5`).
fn normalized_number(text: &str) -> Cow<'_, str> {
    let Some(at) = text.find(['e', 'E']) else { return Cow::Borrowed(text) };
    let (mantissa, rest) = (&text[..at], &text[at + 1..]);
    if text.as_bytes()[at] == b'e' && rest.starts_with(['+', '-']) {
        return Cow::Borrowed(text);
    }
    let sign = if rest.starts_with(['+', '-']) { "" } else { "+" };
    Cow::Owned(format!("{mantissa}e{sign}{rest}"))
}

impl<'a> Node<'a> {
    pub fn json_type(self) -> JsonType {
        match self {
            Node::Value(v) => match v {
                Value::Null => JsonType::Null,
                Value::Bool(_) => JsonType::Bool,
                Value::Number(_) => JsonType::Number,
                Value::String(_) => JsonType::String,
                Value::Array(_) => JsonType::Array,
                Value::Object(_) => JsonType::Object,
            },
            Node::Raw(b) => match b.first() {
                Some(b'"') => JsonType::String,
                Some(b'{') => JsonType::Object,
                Some(b'[') => JsonType::Array,
                Some(b't' | b'f') => JsonType::Bool,
                Some(b'n') | None => JsonType::Null,
                Some(_) => JsonType::Number,
            },
        }
    }

    /// The type's name as messages say it (`object`, `string`, …).
    pub fn type_name(self) -> &'static str {
        self.json_type().name()
    }

    pub fn is_null(self) -> bool {
        self.json_type() == JsonType::Null
    }
    pub fn is_string(self) -> bool {
        self.json_type() == JsonType::String
    }
    pub fn is_number(self) -> bool {
        self.json_type() == JsonType::Number
    }
    pub fn is_object(self) -> bool {
        self.json_type() == JsonType::Object
    }
    pub fn is_array(self) -> bool {
        self.json_type() == JsonType::Array
    }
    pub fn is_bool(self) -> bool {
        self.json_type() == JsonType::Bool
    }

    /// An object's member `key` (`None` for a missing key or a non-object).
    pub fn get(self, key: &str) -> Option<Node<'a>> {
        match self {
            Node::Value(v) => crate::Field::field(v, key).map(Node::Value),
            Node::Raw(b) => raw_members(b).find(|(k, _)| key_is(k, key)).map(|(_, v)| Node::Raw(v)),
        }
    }

    /// The string, decoded (`None` for any other type).
    pub fn as_str(self) -> Option<Cow<'a, str>> {
        match self {
            Node::Value(v) => v.as_str().map(Cow::Borrowed),
            Node::Raw(b) if b.first() == Some(&b'"') => raw_str(b),
            Node::Raw(_) => None,
        }
    }

    /// The first `max_chars` characters of a string (all of a shorter one).
    pub fn str_prefix(self, max_chars: usize) -> Option<Cow<'a, str>> {
        match self {
            Node::Value(v) => v.as_str().map(|s| Cow::Borrowed(cut_chars(s, max_chars))),
            Node::Raw(b) if b.first() == Some(&b'"') => {
                let inner = &b[1..b.len() - 1];
                if inner.len() <= max_chars && memchr::memchr(b'\\', inner).is_none() {
                    return std::str::from_utf8(inner).ok().map(Cow::Borrowed);
                }
                decode_prefix(inner, max_chars).map(Cow::Owned)
            }
            Node::Raw(_) => None,
        }
    }

    /// A string's text inside its quotes, escapes as written (raw strings only).
    pub fn raw_string_text(self) -> Option<&'a [u8]> {
        match self {
            Node::Raw(b) if b.first() == Some(&b'"') => Some(&b[1..b.len() - 1]),
            _ => None,
        }
    }

    pub fn as_bool(self) -> Option<bool> {
        match self {
            Node::Value(v) => v.as_bool(),
            Node::Raw(b"true") => Some(true),
            Node::Raw(b"false") => Some(false),
            Node::Raw(_) => None,
        }
    }

    /// As serde_json's `as_f64` (arbitrary precision: the text parsed, finite only).
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Node::Value(v) => v.as_f64(),
            Node::Raw(b) => raw_number_text(b)?.parse::<f64>().ok().filter(|f| f.is_finite()),
        }
    }

    /// As serde_json's `as_u64` (arbitrary precision: the text parsed as an integer).
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Node::Value(v) => v.as_u64(),
            Node::Raw(b) => raw_number_text(b)?.parse().ok(),
        }
    }

    pub fn as_i64(self) -> Option<i64> {
        match self {
            Node::Value(v) => v.as_i64(),
            Node::Raw(b) => raw_number_text(b)?.parse().ok(),
        }
    }

    /// A number's text as written (`None` for other types).
    pub fn number_text(self) -> Option<Cow<'a, str>> {
        match self {
            Node::Value(Value::Number(n)) => Some(Cow::Owned(n.to_string())),
            Node::Value(_) => None,
            Node::Raw(b) => raw_number_text(b).map(normalized_number),
        }
    }

    /// An object's members in order (nothing for other types).
    pub fn members(self) -> impl Iterator<Item = (Cow<'a, str>, Node<'a>)> {
        let (value, raw) = match self {
            Node::Value(v) => (v.as_object().map(|o| o.iter()), None),
            Node::Raw(b) => (None, Some(raw_members(b))),
        };
        let from_value = value.into_iter().flatten().map(|(k, v)| (Cow::Borrowed(k.as_str()), Node::Value(v)));
        let from_raw = raw.into_iter().flatten().map(|(k, v)| (key_text(k), Node::Raw(v)));
        from_value.chain(from_raw)
    }

    /// An object's keys in order.
    pub fn keys(self) -> impl Iterator<Item = Cow<'a, str>> {
        self.members().map(|(k, _)| k)
    }

    /// An array's elements in order (nothing for other types).
    pub fn elements(self) -> impl Iterator<Item = Node<'a>> {
        let (value, raw) = match self {
            Node::Value(v) => (v.as_array().map(|a| a.iter()), None),
            Node::Raw(b) => (None, Some(raw_elements(b))),
        };
        value.into_iter().flatten().map(Node::Value).chain(raw.into_iter().flatten().map(Node::Raw))
    }

    /// Number of members or elements (0 for other types).
    pub fn len(self) -> usize {
        match self {
            Node::Value(Value::Array(a)) => a.len(),
            Node::Value(Value::Object(o)) => o.len(),
            Node::Value(_) => 0,
            Node::Raw(b) => match b.first() {
                Some(b'{') => raw_members(b).count(),
                Some(b'[') => raw_elements(b).count(),
                _ => 0,
            },
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The value, parsed (borrowed when it already is one).
    pub fn to_value(self) -> Cow<'a, Value> {
        match self {
            Node::Value(v) => Cow::Borrowed(v),
            Node::Raw(b) => Cow::Owned(serde_json::from_slice(b).unwrap_or(Value::Null)),
        }
    }

    /// [`Node::to_value`] with every string cut to its first `max_chars`
    /// characters, read no further (for previews of long payloads).
    pub fn to_value_prefix(self, max_chars: usize) -> Cow<'a, Value> {
        match self {
            Node::Value(v) if !has_longer_string(v, max_chars) => Cow::Borrowed(v),
            Node::Value(v) => Cow::Owned(cut_strings(v, max_chars)),
            Node::Raw(b) => Cow::Owned(prefix_value(b, max_chars)),
        }
    }

    /// Write the value as compact JSON onto `out`: the bytes
    /// `serde_json::to_writer` writes of its `Value`, without making one.
    pub fn write_compact(self, out: &mut Vec<u8>) {
        match self {
            Node::Value(v) => {
                let _ = serde_json::to_writer(&mut *out, v);
            }
            Node::Raw(b) => write_raw_compact(b, out),
        }
    }

    /// The raw text, for a raw node.
    pub fn raw_text(self) -> Option<&'a [u8]> {
        match self {
            Node::Raw(b) => Some(b),
            Node::Value(_) => None,
        }
    }
}

/// The first `max_chars` characters of `s`.
fn cut_chars(s: &str, max_chars: usize) -> &str {
    match s.char_indices().nth(max_chars) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

fn has_longer_string(v: &Value, max_chars: usize) -> bool {
    match v {
        Value::String(s) => s.len() > max_chars && s.chars().nth(max_chars).is_some(),
        Value::Array(a) => a.iter().any(|x| has_longer_string(x, max_chars)),
        Value::Object(o) => o.values().any(|x| has_longer_string(x, max_chars)),
        _ => false,
    }
}

fn cut_strings(v: &Value, max_chars: usize) -> Value {
    match v {
        Value::String(s) => Value::String(cut_chars(s, max_chars).to_string()),
        Value::Array(a) => Value::Array(a.iter().map(|x| cut_strings(x, max_chars)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), cut_strings(x, max_chars))).collect()),
        other => other.clone(),
    }
}

fn key_text(k: &[u8]) -> Cow<'_, str> {
    if memchr::memchr(b'\\', k).is_none() {
        return std::str::from_utf8(k).map(Cow::Borrowed).unwrap_or_default();
    }
    let mut out = String::new();
    decode_into(k, 0, k.len(), &mut out);
    Cow::Owned(out)
}

fn write_raw_compact(b: &[u8], out: &mut Vec<u8>) {
    match b.first() {
        Some(b'"') => {
            // serde_json escapes only quotes, backslashes and control
            // characters, none of which a string without escapes holds.
            if memchr::memchr(b'\\', b).is_none() {
                out.extend_from_slice(b);
            } else {
                let _ = serde_json::to_writer(&mut *out, &*raw_str(b).unwrap_or_default());
            }
        }
        Some(b'{') => {
            out.push(b'{');
            for (i, (k, v)) in raw_members(b).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = serde_json::to_writer(&mut *out, &*key_text(k));
                out.push(b':');
                write_raw_compact(v, out);
            }
            out.push(b'}');
        }
        Some(b'[') => {
            out.push(b'[');
            for (i, v) in raw_elements(b).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_raw_compact(v, out);
            }
            out.push(b']');
        }
        // Numbers as serde_json keeps their text (see `normalized_number`), literals.
        _ => match raw_number_text(b) {
            Some(n) => out.extend_from_slice(normalized_number(n).as_bytes()),
            None => out.extend_from_slice(b),
        },
    }
}

fn prefix_value(b: &[u8], max_chars: usize) -> Value {
    match b.first() {
        Some(b'"') => Value::String(Node::Raw(b).str_prefix(max_chars).unwrap_or_default().into_owned()),
        Some(b'{') => {
            let mut map = Map::new();
            for (k, v) in raw_members(b) {
                map.insert(key_text(k).into_owned(), prefix_value(v, max_chars));
            }
            Value::Object(map)
        }
        Some(b'[') => Value::Array(raw_elements(b).map(|v| prefix_value(v, max_chars)).collect()),
        _ => serde_json::from_slice(b).unwrap_or(Value::Null),
    }
}

impl<'a> From<&'a Value> for Node<'a> {
    fn from(v: &'a Value) -> Node<'a> {
        Node::Value(v)
    }
}

mod object;
pub use object::Object;

#[cfg(test)]
mod tests;
