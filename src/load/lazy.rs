//! Lazy events: a large file's events are parsed into a *head* — every field
//! the derivations read, exactly as written — while their long payload
//! strings stay in the file, read again only when shown (see
//! `model::event::LazyJson`). No `Value` of a long payload string is made,
//! so the file and a tree of it are never both held, and the parse does less
//! than a `Value` parse of the same bytes (the structure scan finds each
//! event by its brackets, then the event is parsed once, on a worker thread).
//!
//! Where events are: the parse follows the paths of the formats that hold
//! StreamEvents ([`Place`]); everything else is parsed as before. Anything
//! unexpected in an event (a duplicate key, serde_json's private marker keys,
//! the old `action.*` vocabulary, an unpaired surrogate escape in a long
//! string) parses that event whole instead; a load whose placeholders do not
//! all end up in turns is done again without lazy events (see [`attach`]).

use crate::model::document::Document;
use crate::model::event::{DeferredString, Event, INPUT_KEYS_READ, LazyJson, Source};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Strings at least this long (as written, with their quotes) are deferred.
pub const DEFER_AT_LEAST: usize = 512;

/// Where a value sits among the paths that hold StreamEvents: a session
/// capture (`sessions[].turns[].turn.events`, `sessions[].turns[].events`),
/// a bare Turn (`events`), a JSONL Turn or capture line (`turn.events`), an
/// InvocationSummary (`results[].events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Nowhere events are.
    Plain,
    Root,
    Sessions,
    Session,
    Turns,
    TurnEntry,
    Turn,
    Results,
    Result,
    Events,
    /// An element of an `events` array: a StreamEvent.
    Event,
}

impl Place {
    /// The place of a child: an object's value under `key`, or (`None`) an
    /// array's element.
    pub fn child(self, key: Option<&str>) -> Place {
        use Place::*;
        match (self, key) {
            (Root, Some("sessions")) => Sessions,
            (Root, Some("events")) => Events,
            (Root, Some("results")) => Results,
            (Root, Some("turn")) => Turn,
            (Sessions, None) => Session,
            (Session, Some("turns")) => Turns,
            (Turns, None) => TurnEntry,
            (TurnEntry, Some("turn")) => Turn,
            (TurnEntry, Some("events")) => Events,
            (Turn, Some("events")) => Events,
            (Results, None) => Result,
            (Result, Some("events")) => Events,
            (Events, None) => Event,
            _ => Plain,
        }
    }
}

/// One lazy load: the source, and the events made lazy so far (by number;
/// each event's markers carry its number).
pub struct LazyLoad {
    source: Source,
    /// Address of the source's first byte: pieces of it are located by address.
    base: usize,
    len: usize,
    /// `\0niceeval-deferred-<random>:`; an event's markers add `<number>:<index>`.
    prefix: String,
    defer_at: usize,
    next: AtomicUsize,
    table: Mutex<HashMap<usize, Event>>,
}

impl LazyLoad {
    pub fn new(source: Source, defer_at: usize) -> LazyLoad {
        let bytes = (*source).as_ref();
        let (base, len) = (bytes.as_ptr() as usize, bytes.len());
        LazyLoad {
            source,
            base,
            len,
            prefix: format!("\u{0}niceeval-deferred-{:016x}:", random_tag()),
            defer_at,
            next: AtomicUsize::new(0),
            table: Mutex::new(HashMap::new()),
        }
    }

    /// The element of an `events` array that `text` (a part of the source)
    /// starts with, and the length of its JSON: for a user message its head,
    /// for any other event a placeholder string, the event itself (lazy when
    /// it defers a string) kept for [`attach`]. `None` when `text` is not a
    /// part of the source or the event is to be parsed whole.
    pub fn event(&self, text: &[u8]) -> Option<(Value, usize)> {
        self.event_then(text, |_| true)
    }

    /// [`LazyLoad::event`] for a whole line of a JSONL stream: only JSON
    /// whitespace may follow the event (else nothing is recorded, and the
    /// line is parsed as it is, with its error).
    pub fn event_line(&self, line: &[u8]) -> Option<Value> {
        let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        let start = line.iter().position(|b| !ws(b))?;
        let text = &line[start..];
        self.event_then(text, |len| text[len..].iter().all(ws)).map(|(v, _)| v)
    }

    fn event_then(&self, text: &[u8], accept: impl Fn(usize) -> bool) -> Option<(Value, usize)> {
        let start = (text.as_ptr() as usize).checked_sub(self.base)?;
        if start + text.len() > self.len {
            return None;
        }
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let event_prefix = format!("{}{number}:", self.prefix);
        let mut deferred = Vec::new();
        let (head, len) = Head { load: self, text, start, prefix: &event_prefix, deferred: &mut deferred }.event()?;
        if !accept(len) {
            return None;
        }
        // User messages stay in the document as they are: loaders read them
        // (a turn's input, the runner's turn boundaries).
        if is_user_message(&head) {
            return Some((head, len));
        }
        // Any other event is made here, on the parsing thread, and the
        // document holds a placeholder for it until `attach` puts it in its
        // turn.
        let event = if deferred.is_empty() {
            Event::from_value(head)
        } else {
            Event::lazy(head, LazyJson::new(self.source.clone(), start..start + len, Arc::from(event_prefix), deferred))
        };
        self.table.lock().unwrap_or_else(|e| e.into_inner()).insert(number, event);
        Some((Value::String(format!("{}{number}", self.prefix)), len))
    }

    /// How many events the document holds placeholders for.
    pub fn lazy_events(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

fn is_user_message(head: &Value) -> bool {
    head.get("type").and_then(Value::as_str) == Some("message")
        && head.get("role").and_then(Value::as_str) == Some("user")
}

/// A per-load random tag, so a file cannot write a marker.
fn random_tag() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the system's randomness once per process
    // and varied per instance.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_usize(&h as *const _ as usize);
    h.finish()
}

/// Put every lazy event in the place its placeholder took in the document.
/// False when some lazy event was not placed (its placeholder went
/// somewhere else): the caller loads again without lazy events.
pub fn attach(doc: &mut Document, load: LazyLoad) -> bool {
    let mut table = load.table.into_inner().unwrap_or_else(|e| e.into_inner());
    if table.is_empty() {
        return true;
    }
    for attempt in &mut doc.attempts {
        for session in &mut attempt.sessions {
            for record in &mut session.turns {
                for event in &mut record.turn.events {
                    let Some(number) = placeholder_number(event, &load.prefix) else { continue };
                    let Some(lazy) = table.remove(&number) else { return false };
                    *event = lazy;
                }
            }
        }
    }
    table.is_empty()
}

/// The number of the lazy event a placeholder (a string where an event
/// should be) stands for.
fn placeholder_number(event: &Event, prefix: &str) -> Option<usize> {
    if !event.is_unrecognized() {
        return None;
    }
    event.head().as_str()?.strip_prefix(prefix)?.parse().ok()
}

/// JSON whitespace.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Builds one event's head.
struct Head<'a> {
    load: &'a LazyLoad,
    /// The event's JSON.
    text: &'a [u8],
    /// Where `text` starts in the source.
    start: usize,
    prefix: &'a str,
    deferred: &'a mut Vec<DeferredString>,
}

/// Which strings of an object may be deferred.
#[derive(Clone, Copy, PartialEq)]
enum Defer {
    /// Strings under any key (an `output` object).
    Any,
    /// Strings under keys the derivations do not read (an `operation.input` object).
    Unread,
}

impl Head<'_> {
    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.text.len() && is_ws(self.text[i]) {
            i += 1;
        }
        i
    }

    /// End (exclusive) of the string starting at `i` (a `"`), when the
    /// parse would accept its text (UTF-8 aside).
    fn string_end(&self, i: usize) -> Option<usize> {
        super::bytes::valid_string_end(self.text, i)
    }

    /// End (exclusive) of the value starting at `i`. The text is valid JSON
    /// (serde_json read it as one value), so only its extent is found.
    fn value_end(&self, i: usize) -> Option<usize> {
        match *self.text.get(i)? {
            b'"' => self.string_end(i),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = i;
                loop {
                    match *self.text.get(j)? {
                        b'"' => {
                            j = self.string_end(j)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(j + 1);
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => {
                let mut j = i;
                while j < self.text.len() && !matches!(self.text[j], b',' | b'}' | b']') && !is_ws(self.text[j]) {
                    j += 1;
                }
                (j > i).then_some(j)
            }
        }
    }

    /// The object at `i`, each member's value made by `member(self, key,
    /// value start)`, which returns the value and where it ends. Returns the
    /// object and its end. `None` for anything but an object with distinct,
    /// ordinary keys (or when `member` gives up).
    fn object_at(
        &mut self,
        i: usize,
        mut member: impl FnMut(&mut Self, &str, usize) -> Option<(Value, usize)>,
    ) -> Option<(Map<String, Value>, usize)> {
        if self.text.get(i) != Some(&b'{') {
            return None;
        }
        let mut map = Map::new();
        let mut j = self.skip_ws(i + 1);
        if self.text.get(j) == Some(&b'}') {
            return Some((map, j + 1));
        }
        loop {
            if self.text.get(j) != Some(&b'"') {
                return None;
            }
            let ke = self.string_end(j)?;
            let key: String = if self.text[j + 1..ke - 1].contains(&b'\\') {
                serde_json::from_slice(&self.text[j..ke]).ok()?
            } else {
                simdutf8::basic::from_utf8(&self.text[j + 1..ke - 1]).ok()?.to_string()
            };
            // serde_json reads objects keyed by its private markers specially,
            // and a repeated key keeps the last value: parse those whole.
            if key.starts_with("$serde_json::private::") || map.contains_key(&key) {
                return None;
            }
            let colon = self.skip_ws(ke);
            if self.text.get(colon) != Some(&b':') {
                return None;
            }
            let vs = self.skip_ws(colon + 1);
            let (value, ve) = member(self, &key, vs)?;
            map.insert(key, value);
            j = self.skip_ws(ve);
            match self.text.get(j) {
                Some(b',') => j = self.skip_ws(j + 1),
                Some(b'}') => return Some((map, j + 1)),
                _ => return None,
            }
        }
    }

    /// The value at `vs`, parsed as it is, and its end.
    fn plain(&self, vs: usize) -> Option<(Value, usize)> {
        // Most small values are strings without escapes (types, ids,
        // names, statuses): those are taken as they are.
        if *self.text.get(vs)? == b'"' {
            let ve = self.string_end(vs)?;
            let inner = &self.text[vs + 1..ve - 1];
            if !inner.contains(&b'\\') {
                return Some((Value::String(simdutf8::basic::from_utf8(inner).ok()?.to_owned()), ve));
            }
            return Some((super::compact::from_slice(&self.text[vs..ve]).ok()?, ve));
        }
        let ve = self.value_end(vs)?;
        Some((super::compact::from_slice(&self.text[vs..ve]).ok()?, ve))
    }

    /// The string at `vs`, deferred when it is long enough (see `defer`),
    /// else parsed; and its end.
    fn string_or_marker(&mut self, vs: usize) -> Option<(Value, usize)> {
        let ve = self.string_end(vs)?;
        match self.defer(vs, ve) {
            Some(marker) => Some((marker, ve)),
            None => Some((super::compact::from_slice(&self.text[vs..ve]).ok()?, ve)),
        }
    }

    /// The marker for the string at `s..e`, when it is long enough to defer
    /// and has no surrogate escape (those are left to the whole parse, which
    /// pairs or rejects them).
    fn defer(&mut self, s: usize, e: usize) -> Option<Value> {
        let text = &self.text[s..e];
        if text.len() < self.load.defer_at.max(2) || text.first() != Some(&b'"') {
            return None;
        }
        // Nothing reads this string now, so it is checked as the parse would
        // check it (`string_end` checked its escapes and control characters).
        simdutf8::basic::from_utf8(&text[1..text.len() - 1]).ok()?;
        let index = self.deferred.len();
        self.deferred.push(DeferredString::new(self.start + s..self.start + e));
        Some(Value::String(format!("{}{index}", self.prefix)))
    }

    /// An object whose string members may be deferred, and its end.
    fn payload_object(&mut self, vs: usize, which: Defer) -> Option<(Value, usize)> {
        let (map, end) = self.object_at(vs, |head, key, vs| {
            let may = which == Defer::Any || !INPUT_KEYS_READ.contains(&key);
            match *head.text.get(vs)? {
                b'"' if may => head.string_or_marker(vs),
                _ => head.plain(vs),
            }
        })?;
        Some((Value::Object(map), end))
    }

    /// `operation`, with the unread strings of its `input` object deferred.
    fn operation(&mut self, vs: usize) -> Option<(Value, usize)> {
        let (map, end) = self.object_at(vs, |head, key, vs| match (key, *head.text.get(vs)?) {
            ("input", b'{') => head.payload_object(vs, Defer::Unread),
            _ => head.plain(vs),
        })?;
        Some((Value::Object(map), end))
    }

    /// The head of the event `text` starts with and the length of its
    /// JSON, or `None` to parse it whole.
    fn event(mut self) -> Option<(Value, usize)> {
        let mut text_at = None;
        let (mut map, end) = self.object_at(0, |head, key, vs| match (key, *head.text.get(vs)?) {
            ("text", b'"') => {
                // Decided once `type` and `role` are known.
                let ve = head.string_end(vs)?;
                text_at = Some((vs, ve));
                Some((Value::Null, ve))
            }
            ("output", b'"') => head.string_or_marker(vs),
            ("output", b'{') => head.payload_object(vs, Defer::Any),
            ("operation", b'{') => head.operation(vs),
            _ => head.plain(vs),
        })?;
        let ty = map.get("type").and_then(Value::as_str);
        // The old vocabulary is rewritten before typing: parse it whole.
        if matches!(ty, Some("action.called" | "action.result")) {
            return None;
        }
        // A user message's text is a turn's input, and the runner's user
        // messages mark turns: loaders read them, so they stay as written.
        let user = ty == Some("message") && map.get("role").and_then(Value::as_str) == Some("user");
        if let Some((vs, ve)) = text_at {
            let value = match (!user).then(|| self.defer(vs, ve)).flatten() {
                Some(marker) => marker,
                None => super::compact::from_slice(&self.text[vs..ve]).ok()?,
            };
            map.insert("text".into(), value);
        }
        if user && !self.deferred.is_empty() {
            return None;
        }
        Some((Value::Object(map), end))
    }
}
