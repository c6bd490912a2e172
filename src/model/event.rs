//! Typed view of the StreamEvent contract (spec §1.2).
//!
//! Every event keeps its exact JSON: payloads such as tool input and output
//! are read from there on demand, so they keep key order and numbers as
//! written, and are not stored twice. The typed `kind` carries only the small
//! fields the derivations need. An event that does not fit the contract is
//! kept as [`EventKind::Unrecognized`] with the reason, never dropped.
//!
//! A large file's events may be *lazy* (see [`LazyJson`]): their long payload
//! strings stay in the file and the event's JSON is parsed whole only when it
//! is shown. The derivations read only the event's head, which holds every
//! field they use.

mod classify;

use classify::classify;
use serde_json::Value;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// One StreamEvent with its exact JSON. The JSON is shared (`Arc`) so the
/// derived views can point at its payloads instead of copying them.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: EventKind,
    /// Which of the optional fields the derivations read are present (see
    /// [`Event::has`]): noted once here, so deriving every scope does not
    /// look them up in the JSON again and again.
    fields: u8,
    json: EventJson,
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        self.kind == other.kind && self.raw() == other.raw()
    }
}

/// The bytes lazy events are read from again (a mapped file or a buffer).
pub type Source = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// An event's JSON: its head, and for a lazy event where the rest is.
#[derive(Clone)]
pub struct EventJson {
    /// The whole event, or for a lazy event the event with its long payload
    /// strings replaced by markers (see [`LazyJson`]).
    head: Arc<Value>,
    lazy: Option<Arc<LazyJson>>,
}

impl std::fmt::Debug for EventJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.raw().fmt(f)
    }
}

/// Where a lazy event's text is. Its head holds, in place of each long string
/// that no derivation reads as content, a marker: `prefix` (which carries a
/// per-load random part, so a file cannot forge one) and the string's index
/// in `deferred`. The places that may hold markers are fixed (the loader
/// decides them, see `load::lazy`): top-level `text` and `output` strings,
/// and string values directly under an `output` object or an
/// `operation.input` object, except the input keys the derivations read.
pub struct LazyJson {
    pub source: Source,
    /// The event's JSON text in `source`.
    pub range: Range<usize>,
    pub prefix: Arc<str>,
    pub deferred: Vec<DeferredString>,
    whole: OnceLock<Value>,
}

/// One string left in the file.
pub struct DeferredString {
    /// The string's JSON text (with its quotes) in the source.
    pub range: Range<usize>,
    /// What the checks comparing texts need, made when first asked.
    digest: OnceLock<TextDigest>,
}

impl DeferredString {
    pub fn new(range: Range<usize>) -> DeferredString {
        DeferredString { range, digest: OnceLock::new() }
    }
}

/// What the text checks need of a string without holding it: the length of
/// its trimmed text, a hash of that length and its ends (see [`text_hash`]),
/// whether it is blank, and whether it has at least eight characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextDigest {
    pub hash: u64,
    pub blank: bool,
    pub at_least_8_chars: bool,
}

impl TextDigest {
    pub fn of(text: &str) -> TextDigest {
        let t = text.trim();
        TextDigest { hash: text_hash(t), blank: t.is_empty(), at_least_8_chars: t.chars().nth(7).is_some() }
    }
}

/// A hash of a text by its length and at most 256 bytes of its ends (a tool
/// output can be megabytes); equal texts hash equal.
pub fn text_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let b = text.as_bytes();
    const END: usize = 128;
    let mut h = std::hash::DefaultHasher::new();
    h.write_usize(b.len());
    if b.len() <= 2 * END {
        h.write(b);
    } else {
        h.write(&b[..END]);
        h.write(&b[b.len() - END..]);
    }
    h.finish()
}

impl LazyJson {
    pub fn new(source: Source, range: Range<usize>, prefix: Arc<str>, deferred: Vec<DeferredString>) -> LazyJson {
        LazyJson { source, range, prefix, deferred, whole: OnceLock::new() }
    }

    fn bytes(&self, range: &Range<usize>) -> &[u8] {
        let all = (*self.source).as_ref();
        all.get(range.clone()).unwrap_or_default()
    }

    /// The deferred string a head string stands for, if it is a marker.
    fn deferred_for(&self, s: &str) -> Option<&DeferredString> {
        let index: usize = s.strip_prefix(&*self.prefix)?.parse().ok()?;
        self.deferred.get(index)
    }

    /// The text of a deferred string, read again from the source.
    fn text_of(&self, d: &DeferredString) -> String {
        serde_json::from_slice::<String>(self.bytes(&d.range)).unwrap_or_else(|e| changed_under_us(&e))
    }

    fn parse_whole(&self) -> Value {
        serde_json::from_slice(self.bytes(&self.range)).unwrap_or_else(|e| Value::String(changed_under_us(&e)))
    }
}

/// What a lazy event shows when its file no longer holds what was loaded.
fn changed_under_us(e: &serde_json::Error) -> String {
    format!("(this part could not be read again from the file, which changed after it was loaded: {e})")
}

impl EventJson {
    /// The event's JSON, whole. A lazy event is parsed the first time
    /// (and kept: this is what the views show).
    pub fn raw(&self) -> &Value {
        match &self.lazy {
            Some(lazy) => lazy.whole.get_or_init(|| lazy.parse_whole()),
            None => &self.head,
        }
    }

    /// The whole JSON without keeping a lazy event's parse (for a scan over
    /// every event, such as a search, which must not make the document whole).
    pub fn raw_once(&self) -> Cow<'_, Value> {
        match &self.lazy {
            Some(lazy) => match lazy.whole.get() {
                Some(v) => Cow::Borrowed(v),
                None => Cow::Owned(lazy.parse_whole()),
            },
            None => Cow::Borrowed(&self.head),
        }
    }

    /// The head: every field the derivations read, exactly as written.
    pub fn head(&self) -> &Value {
        &self.head
    }

    /// `v` (a part of the head) with its markers replaced by their strings.
    pub fn resolve<'a>(&'a self, v: &'a Value) -> Cow<'a, Value> {
        let Some(lazy) = &self.lazy else { return Cow::Borrowed(v) };
        if !has_marker(lazy, v) {
            return Cow::Borrowed(v);
        }
        let mut owned = v.clone();
        replace_markers(lazy, &mut owned);
        Cow::Owned(owned)
    }

    /// A head string, with a marker replaced by its string.
    pub fn string<'a>(&'a self, s: &'a str) -> Cow<'a, str> {
        match self.lazy.as_ref().and_then(|l| l.deferred_for(s).map(|d| (l, d))) {
            Some((lazy, d)) => Cow::Owned(lazy.text_of(d)),
            None => Cow::Borrowed(s),
        }
    }

    /// A head string's first `max_chars` characters (all of a short one),
    /// with a marker read from the source only that far (for previews).
    pub fn string_prefix<'a>(&'a self, s: &'a str, max_chars: usize) -> Cow<'a, str> {
        match self.lazy.as_ref().and_then(|l| l.deferred_for(s).map(|d| (l, d))) {
            Some((lazy, d)) => {
                let text = lazy.bytes(&d.range);
                let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or_default();
                Cow::Owned(super::json_text::decode_prefix(inner, max_chars).unwrap_or_else(|| lazy.text_of(d)))
            }
            None => Cow::Borrowed(s),
        }
    }

    /// [`EventJson::resolve`] with each marker replaced by the first
    /// `max_chars` characters of its string (for previews that show less).
    pub fn resolve_prefix<'a>(&'a self, v: &'a Value, max_chars: usize) -> Cow<'a, Value> {
        let Some(lazy) = &self.lazy else { return Cow::Borrowed(v) };
        if !has_marker(lazy, v) {
            return Cow::Borrowed(v);
        }
        let mut owned = v.clone();
        fn walk(json: &EventJson, v: &mut Value, max_chars: usize) {
            match v {
                Value::String(s) => {
                    if let Cow::Owned(text) = json.string_prefix(s, max_chars) {
                        *s = text;
                    }
                }
                Value::Array(items) => items.iter_mut().for_each(|x| walk(json, x, max_chars)),
                Value::Object(o) => o.values_mut().for_each(|x| walk(json, x, max_chars)),
                _ => {}
            }
        }
        walk(self, &mut owned, max_chars);
        Cow::Owned(owned)
    }

    /// The digest of a head string: a deferred one's is read from its
    /// ends in the source, without decoding it whole (see `json_text`).
    pub fn digest(&self, s: &str) -> TextDigest {
        match self.lazy.as_ref().and_then(|l| l.deferred_for(s).map(|d| (l, d))) {
            Some((lazy, d)) => *d.digest.get_or_init(|| {
                let text = lazy.bytes(&d.range);
                let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or_default();
                super::json_text::escaped_digest(inner).unwrap_or_else(|| TextDigest::of(&lazy.text_of(d)))
            }),
            None => TextDigest::of(s),
        }
    }

    /// True when this event's JSON has been parsed whole (for tests: the
    /// derivations must not need it).
    pub fn parsed_whole(&self) -> bool {
        self.lazy.as_ref().is_some_and(|l| l.whole.get().is_some())
    }

    pub fn is_lazy(&self) -> bool {
        self.lazy.is_some()
    }
}

fn has_marker(lazy: &LazyJson, v: &Value) -> bool {
    match v {
        Value::String(s) => s.starts_with(&*lazy.prefix),
        Value::Array(items) => items.iter().any(|x| has_marker(lazy, x)),
        Value::Object(o) => o.values().any(|x| has_marker(lazy, x)),
        _ => false,
    }
}

fn replace_markers(lazy: &LazyJson, v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Some(d) = lazy.deferred_for(s) {
                *s = lazy.text_of(d);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| replace_markers(lazy, x)),
        Value::Object(o) => o.values_mut().for_each(|x| replace_markers(lazy, x)),
        _ => {}
    }
}

/// The ten variants of the contract, plus a catch-all for what does not fit.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// `message`; `role` is `user`, `assistant`, or (a misfit) anything else.
    Message {
        role: Role,
    },
    /// The strings are shared (`Arc`) with the occurrences and facts made
    /// from the event, which every scope keeps.
    ToolStarted {
        operation_id: Arc<str>,
        name: Arc<str>,
        tool: Option<Arc<str>>,
    },
    SubagentStarted {
        operation_id: Arc<str>,
        name: Arc<str>,
    },
    /// `status` is kept as written so derivations see what the adapter sent.
    ToolFinished {
        operation_id: Arc<str>,
        status: Arc<str>,
    },
    SubagentFinished {
        operation_id: Arc<str>,
        status: Arc<str>,
    },
    SkillLoaded {
        skill: String,
        operation_id: Option<String>,
    },
    InputRequested,
    Thinking,
    ContextInjected,
    Compaction,
    Error,
    Unrecognized {
        reason: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    /// A role outside the contract (`system`, absent, not a string): NiceEval
    /// still counts the message, but never as the user's or the assistant's.
    Other,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Other => "other",
        }
    }
}

/// `Truncation` entry of the `truncated` field.
#[derive(Debug, Clone, PartialEq)]
pub struct Truncation {
    pub path: String,
    pub original_bytes: Option<f64>,
}

pub const TOOL_FINISH_STATUSES: [&str; 3] = ["completed", "failed", "rejected"];
pub const SUBAGENT_FINISH_STATUSES: [&str; 2] = ["completed", "failed"];

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.field(key).and_then(Value::as_str)
}

/// JSON type name, for messages.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Event {
    /// Classify one JSON value as a StreamEvent. Never fails: what does not
    /// fit becomes `Unrecognized` with the reason.
    pub fn from_value(raw: Value) -> Event {
        let (kind, fields) = kind_and_fields(&raw);
        Event { kind, fields, json: EventJson { head: Arc::new(raw), lazy: None } }
    }

    /// A lazy event: `head` is the event with the strings `lazy` defers
    /// replaced by its markers (the classification reads only the head).
    pub fn lazy(head: Value, lazy: LazyJson) -> Event {
        let (kind, fields) = kind_and_fields(&head);
        Event { kind, fields, json: EventJson { head: Arc::new(head), lazy: Some(Arc::new(lazy)) } }
    }

    /// Whether the event has the field `field` (one of the `FIELD_` bits).
    pub fn has(&self, field: u8) -> bool {
        self.fields & field != 0
    }

    /// The event's JSON, whole (a lazy event is parsed the first time).
    pub fn raw(&self) -> &Value {
        self.json.raw()
    }

    /// The JSON whole, without keeping a lazy event's parse.
    pub fn raw_once(&self) -> Cow<'_, Value> {
        self.json.raw_once()
    }

    /// Every field the derivations read, as written; a lazy event's long
    /// payload strings are markers here (see [`LazyJson`]).
    pub fn head(&self) -> &Value {
        self.json.head()
    }

    pub fn json(&self) -> &EventJson {
        &self.json
    }

    /// The `type` string as written, if any.
    pub fn type_name(&self) -> Option<&str> {
        str_field(self.head(), "type")
    }

    pub fn is_unrecognized(&self) -> bool {
        matches!(self.kind, EventKind::Unrecognized { .. })
    }

    /// Why an event that NiceEval still folds breaks the StreamEvent
    /// contract (a `system` message, an operation kind `mcp`, …), if it does.
    /// Worked out again when asked: only `check` asks, and few events are misfits.
    pub fn misfit(&self) -> Option<String> {
        if self.has(FIELD_MISFIT) { classify(self.head()).misfit } else { None }
    }

    /// The head string of `text` (`message` for `error`), maybe a marker.
    fn text_head(&self) -> Option<&str> {
        match self.kind {
            EventKind::Message { .. } | EventKind::Thinking | EventKind::ContextInjected => {
                str_field(self.head(), "text")
            }
            EventKind::Error => str_field(self.head(), "message"),
            _ => None,
        }
    }

    /// Text of `message`, `thinking`, `context.injected`; message of `error`.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        self.text_head().map(|t| self.json.string(t))
    }

    /// The first `max_chars` characters of [`Event::text`] (for previews).
    pub fn text_prefix(&self, max_chars: usize) -> Option<Cow<'_, str>> {
        self.text_head().map(|t| self.json.string_prefix(t, max_chars))
    }

    /// [`Event::output`] with long strings cut to `max_chars` characters.
    pub fn output_prefix(&self, max_chars: usize) -> Option<Cow<'_, Value>> {
        self.output_head().map(|v| self.json.resolve_prefix(v, max_chars))
    }

    /// [`Event::tool_input`] with long strings cut to `max_chars` characters.
    pub fn tool_input_prefix(&self, max_chars: usize) -> Option<Cow<'_, Value>> {
        self.tool_input_head().map(|v| self.json.resolve_prefix(v, max_chars))
    }

    /// What the text checks need of [`Event::text`], without reading a
    /// lazy event's text again.
    pub fn text_digest(&self) -> Option<TextDigest> {
        self.text_head().map(|t| self.json.digest(t))
    }

    pub fn operation(&self) -> Option<&Value> {
        self.head().field("operation")
    }

    /// The head of a tool start's `operation.input` (absent stays `None`):
    /// the keys and types as written; long strings under keys the
    /// derivations do not read may be markers.
    pub fn tool_input_head(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolStarted { .. } if self.has(FIELD_INPUT) => self.operation().and_then(|o| o.field("input")),
            _ => None,
        }
    }

    /// Tool start `operation.input` (absent stays `None`).
    pub fn tool_input(&self) -> Option<Cow<'_, Value>> {
        self.tool_input_head().map(|v| self.json.resolve(v))
    }

    /// Tool start `operation.command` when present.
    pub fn command(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolStarted { .. } if self.has(FIELD_COMMAND) => {
                self.operation().and_then(|o| o.field("command"))
            }
            _ => None,
        }
    }

    pub fn remote_url(&self) -> Option<&str> {
        match self.kind {
            EventKind::SubagentStarted { .. } => self.operation().and_then(|o| str_field(o, "remoteUrl")),
            _ => None,
        }
    }

    /// The head of a finish's `output`: `None` when the key is absent,
    /// `Some(Null)` for `output: null`; long strings may be markers.
    pub fn output_head(&self) -> Option<&Value> {
        match self.kind {
            EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } if self.has(FIELD_OUTPUT) => {
                self.head().field("output")
            }
            _ => None,
        }
    }

    /// Finish `output`: `None` when the key is absent, `Some(Null)` for `output: null`.
    pub fn output(&self) -> Option<Cow<'_, Value>> {
        self.output_head().map(|v| self.json.resolve(v))
    }

    /// What the text checks need of a string `output`.
    pub fn output_digest(&self) -> Option<TextDigest> {
        self.output_head().and_then(Value::as_str).map(|t| self.json.digest(t))
    }

    /// The string `output` itself, read again for a lazy event.
    pub fn output_text(&self) -> Option<Cow<'_, str>> {
        self.output_head().and_then(Value::as_str).map(|t| self.json.string(t))
    }

    pub fn request(&self) -> Option<&Value> {
        match self.kind {
            EventKind::InputRequested => self.head().field("request"),
            _ => None,
        }
    }

    pub fn source(&self) -> Option<&str> {
        match self.kind {
            EventKind::ContextInjected => str_field(self.head(), "source"),
            _ => None,
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self.kind {
            EventKind::Compaction => str_field(self.head(), "reason"),
            _ => None,
        }
    }

    /// `operationId` of operation events and of `skill.loaded`.
    pub fn operation_id(&self) -> Option<&str> {
        match &self.kind {
            EventKind::ToolStarted { operation_id, .. }
            | EventKind::SubagentStarted { operation_id, .. }
            | EventKind::ToolFinished { operation_id, .. }
            | EventKind::SubagentFinished { operation_id, .. } => Some(operation_id),
            EventKind::SkillLoaded { operation_id, .. } => operation_id.as_deref(),
            _ => None,
        }
    }

    /// The `redacted` paths that are strings, in order.
    pub fn redacted(&self) -> impl Iterator<Item = &str> {
        let list = self.has(FIELD_REDACTED).then(|| self.head().field("redacted")).flatten();
        list.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
    }

    /// The `truncated` entries that carry a string `path`, in order.
    pub fn truncated(&self) -> impl Iterator<Item = Truncation> + '_ {
        let list = self.has(FIELD_TRUNCATED).then(|| self.head().field("truncated")).flatten();
        list.and_then(Value::as_array).into_iter().flatten().filter_map(|t| {
            Some(Truncation {
                path: str_field(t, "path")?.to_string(),
                original_bytes: t.field("originalBytes").and_then(Value::as_f64),
            })
        })
    }

    /// True when the producer withheld or cut anything in this event.
    pub fn has_evidence_limits(&self) -> bool {
        self.redacted().next().is_some() || self.truncated().next().is_some()
    }
}

/// A field of a JSON object by its key. The objects the derivations read
/// (events, operations, payloads) have a handful of keys, and comparing them
/// in order is faster than hashing the key, which `Map::get` does.
pub trait Field {
    fn field(&self, key: &str) -> Option<&Value>;
}

impl Field for serde_json::Map<String, Value> {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= 12 { self.iter().find_map(|(k, v)| (k == key).then_some(v)) } else { self.get(key) }
    }
}

impl Field for Value {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object()?.field(key)
    }
}

/// Bits of [`Event::has`]: `operation.input`, `operation.command`,
/// `output`, `redacted`, `truncated` present (any value), and a misfit.
pub const FIELD_INPUT: u8 = 1;
pub const FIELD_COMMAND: u8 = 2;
pub const FIELD_OUTPUT: u8 = 4;
pub const FIELD_REDACTED: u8 = 8;
pub const FIELD_TRUNCATED: u8 = 16;
/// Not a field: the event is folded but breaks the contract ([`Event::misfit`]).
pub const FIELD_MISFIT: u8 = 32;

fn kind_and_fields(head: &Value) -> (EventKind, u8) {
    let classified = classify(head);
    let misfit = if classified.misfit.is_some() { FIELD_MISFIT } else { 0 };
    (classified.kind, fields_of(head) | misfit)
}

fn fields_of(head: &Value) -> u8 {
    let Some(o) = head.as_object() else { return 0 };
    let mut fields = 0;
    let mut note = |present: bool, bit: u8| {
        if present {
            fields |= bit;
        }
    };
    if let Some(op) = o.field("operation").and_then(Value::as_object) {
        note(op.contains_key("input"), FIELD_INPUT);
        note(op.contains_key("command"), FIELD_COMMAND);
    }
    note(o.contains_key("output"), FIELD_OUTPUT);
    note(o.contains_key("redacted"), FIELD_REDACTED);
    note(o.contains_key("truncated"), FIELD_TRUNCATED);
    fields
}

/// The input keys the derivations read (paths, URLs, shell commands): a lazy
/// event keeps their strings in its head whatever their length.
pub const INPUT_KEYS_READ: [&str; 12] =
    ["path", "file", "file_path", "filename", "url", "uri", "endpoint", "href", "command", "cmd", "program", "args"];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn classifies_every_variant() {
        let cases = [
            (json!({"type":"message","role":"assistant","text":"hi"}), "Message"),
            (
                json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Read","input":{}}}),
                "ToolStarted",
            ),
            (
                json!({"type":"operation.started","operationId":"a","operation":{"kind":"subagent","name":"r"}}),
                "SubagentStarted",
            ),
            (json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed"}), "ToolFinished"),
            (
                json!({"type":"operation.finished","operationId":"a","kind":"subagent","status":"failed"}),
                "SubagentFinished",
            ),
            (json!({"type":"skill.loaded","skill":"pdf"}), "SkillLoaded"),
            (json!({"type":"input.requested","request":{}}), "InputRequested"),
            (json!({"type":"thinking","text":"t"}), "Thinking"),
            (json!({"type":"context.injected","text":"t","source":"memory"}), "ContextInjected"),
            (json!({"type":"compaction"}), "Compaction"),
            (json!({"type":"error","message":"boom"}), "Error"),
        ];
        for (raw, want) in cases {
            let ev = Event::from_value(raw);
            let got = format!("{:?}", ev.kind);
            assert!(got.starts_with(want), "{got} should be {want}");
        }
    }

    #[test]
    fn misfits_are_kept_with_a_reason() {
        let ev = Event::from_value(json!({"type":"tool.progress","pct":3}));
        assert_eq!(ev.kind, EventKind::Unrecognized { reason: "unknown event type \"tool.progress\"".into() });
        assert_eq!(ev.raw()["pct"], 3);
        let ev = Event::from_value(json!({"type":"message","role":"assistant"}));
        assert_eq!(ev.kind, EventKind::Message { role: Role::Assistant });
        assert_eq!(ev.misfit().as_deref(), Some("message: missing required field `text`"));
        let ev =
            Event::from_value(json!({"type":"operation.finished","operationId":7,"kind":"tool","status":"completed"}));
        assert!(matches!(ev.kind, EventKind::Unrecognized { ref reason } if reason.contains("operationId")));
        let ev = Event::from_value(json!([1, 2]));
        assert!(ev.is_unrecognized());
    }

    /// NiceEval's folds switch on `type` and test `kind === "tool"`: what
    /// is outside the contract is still folded, and says why it is a misfit.
    #[test]
    fn misfits_are_folded_as_niceeval_folds_them() {
        let system = Event::from_value(json!({"type":"message","role":"system","text":"s"}));
        assert_eq!(system.kind, EventKind::Message { role: Role::Other });
        assert!(system.misfit().is_some_and(|m| m.contains("\"system\"")));
        let mcp = Event::from_value(
            json!({"type":"operation.started","operationId":"o","operation":{"kind":"mcp","name":"m"}}),
        );
        assert_eq!(mcp.kind, EventKind::SubagentStarted { operation_id: "o".into(), name: "m".into() });
        assert!(mcp.misfit().is_some_and(|m| m.contains("subagent call")));
        let no_kind = Event::from_value(json!({"type":"operation.finished","operationId":"o","status":"completed"}));
        assert_eq!(no_kind.kind, EventKind::SubagentFinished { operation_id: "o".into(), status: "completed".into() });
        let null_tool = Event::from_value(
            json!({"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"t","tool":null}}),
        );
        assert_eq!(null_tool.kind, EventKind::ToolStarted { operation_id: "a".into(), name: "t".into(), tool: None });
        assert!(null_tool.misfit().is_some());
        let bare_request = Event::from_value(json!({"type":"input.requested"}));
        assert_eq!(bare_request.kind, EventKind::InputRequested);
        assert!(bare_request.misfit().is_some());
        // Inside the contract: no misfit.
        let fine = Event::from_value(json!({"type":"message","role":"user","text":"hi"}));
        assert_eq!(fine.misfit(), None);
    }

    #[test]
    fn absent_output_differs_from_null_output() {
        let absent = Event::from_value(
            json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed"}),
        );
        let null = Event::from_value(
            json!({"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":null}),
        );
        assert_eq!(absent.output(), None);
        assert_eq!(null.output().as_deref(), Some(&Value::Null));
    }
}
