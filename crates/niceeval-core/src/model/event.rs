//! Typed view of the StreamEvent contract (spec §1.2).
//!
//! Every event keeps its exact JSON: payloads such as tool input and output
//! are read from there on demand, so they keep key order and numbers as
//! written, and are not stored twice. The typed `kind` carries only the small
//! fields the derivations need. An event that does not fit the contract is
//! kept as [`EventKind::Unrecognized`] with the reason, never dropped.
//!
//! An event's JSON is either a parsed `Value` or, for the events of a loaded
//! file, its text in the file ([`EventJson::Raw`]): a `Value` of a small
//! event costs ten times its text, and most events are never shown. Both are
//! read through [`Node`], the same way; the text is parsed into a `Value`
//! only to be shown whole.

mod classify;

pub use super::json_node::Node;
// The JSON engine's types the contract is read through.
use super::json_node::Object;
pub use classify::{COMMON_KEYS, operation_keys, variant_keys};
pub use classify::{Misfit, operation_of};
use classify::{classify, kind_and_fields};
pub use niceeval_json::{Bytes, Field, Source, TextDigest, text_hash};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One StreamEvent with its exact JSON. The JSON is shared (an `Arc`) so the
/// derived views can point at its payloads instead of copying them.
#[derive(Debug)]
pub struct Event {
    pub kind: EventKind,
    /// Which of the optional fields the derivations read are present (see
    /// [`Event::has`]): noted once here, so deriving every scope does not
    /// look them up in the JSON again and again.
    fields: u8,
    /// Whether a raw event has been parsed whole (for tests: deriving and
    /// linting must not need it).
    parsed: AtomicBool,
    /// Where a raw tool start's `operation.input`, a finish's `output`, or
    /// a text event's string (`text`, an error's `message`) is in its text
    /// (at 0: not known), found when it was classified: a payload is then
    /// read without walking the event to it.
    /// (Within the first 64 KB: kept in a u16 so the event stays 64 bytes.)
    payload_at: u16,
    payload_len: u32,
    json: EventJson,
}

impl Clone for Event {
    fn clone(&self) -> Event {
        Event {
            kind: self.kind.clone(),
            fields: self.fields,
            parsed: AtomicBool::new(self.parsed.load(Ordering::Relaxed)),
            payload_at: self.payload_at,
            payload_len: self.payload_len,
            json: self.json.clone(),
        }
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Event) -> bool {
        self.kind == other.kind && self.json.whole() == other.json.whole()
    }
}

/// An event's JSON: parsed, or its text in the loaded file.
#[derive(Clone)]
pub enum EventJson {
    Value(Arc<Value>),
    /// `source[start..start + len]` is the event's text: one JSON object
    /// with distinct keys, checked when it was loaded.
    Raw {
        source: Source,
        start: usize,
        len: u32,
    },
}

impl std::fmt::Debug for EventJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.whole().fmt(f)
    }
}

/// What a raw event reads when its file no longer holds what was loaded
/// (rewritten in place since).
const CHANGED_UNDER_US: &[u8] = b"null";

impl EventJson {
    /// The event's JSON, read where it is.
    pub fn node(&self) -> Node<'_> {
        match self {
            EventJson::Value(v) => Node::Value(v),
            EventJson::Raw { source, start, len } => {
                let all = source.bytes();
                Node::Raw(all.get(*start..*start + *len as usize).unwrap_or(CHANGED_UNDER_US))
            }
        }
    }

    /// The event's JSON, whole (a raw event is parsed for it).
    pub fn whole(&self) -> Cow<'_, Value> {
        match self {
            EventJson::Value(v) => Cow::Borrowed(v),
            EventJson::Raw { .. } => match serde_json::from_slice(self.node().raw_text().unwrap_or_default()) {
                Ok(v) => Cow::Owned(v),
                Err(e) => Cow::Owned(Value::String(format!(
                    "(this event could not be read again from the file, which changed after it was loaded: {e})"
                ))),
            },
        }
    }

    pub fn is_raw(&self) -> bool {
        matches!(self, EventJson::Raw { .. })
    }
}

/// Hand back to their file the pages of these raw events (see
/// [`Bytes::release`]): for a pass over many events that will not read
/// them again soon, so that a large file is not all resident at once.
pub fn release_pages(events: &[Event]) {
    Pages::of(events).release();
}

/// The stretches of their files that some raw events were read from: one
/// a file, from the first event read from it to the end of the last.
#[derive(Default)]
pub struct Pages(Vec<(Source, usize, usize)>);

impl Pages {
    pub fn of(events: &[Event]) -> Pages {
        Pages::of_all([events])
    }

    /// The pages of every list of `lists` (the turns of an attempt, say).
    pub fn of_all<'a>(lists: impl IntoIterator<Item = &'a [Event]>) -> Pages {
        let mut spans: Vec<(Source, usize, usize)> = Vec::new();
        for e in lists.into_iter().flatten() {
            let EventJson::Raw { source, start, len } = &e.json else { continue };
            let end = start + *len as usize;
            // Events of one file follow each other: the last span is almost always theirs.
            match spans.iter_mut().rev().find(|(s, ..)| s.same(source)) {
                Some((_, a, b)) => (*a, *b) = ((*a).min(*start), (*b).max(end)),
                None => spans.push((source.clone(), *start, end)),
            }
        }
        Pages(spans)
    }

    /// Hand them back to their files (see [`Bytes::release`]).
    pub fn release(&self) {
        for (source, start, end) in &self.0 {
            source.release(*start, *end);
        }
    }
}

/// How many events a pass over a long turn reads before it hands their
/// pages back ([`releasing`]): a turn of a million small events is the
/// whole file, and a pass that held its pages until the turn ended would
/// hold the file.
pub const RELEASE_EVERY: usize = 4096;

/// The events in order, the pages of each stretch of [`RELEASE_EVERY`]
/// handed back once the pass has read past it (see [`release_pages`]).
pub fn releasing(events: &[Event]) -> impl Iterator<Item = &Event> + Clone {
    events.chunks(RELEASE_EVERY).flat_map(|stretch| {
        let release = std::iter::once(()).filter_map(move |()| {
            release_pages(stretch);
            None
        });
        stretch.iter().chain(release)
    })
}

/// A name many events share (a tool, a status, an operation id): one
/// pointer wide, where `Arc<str>` is two. An event of a million holds three.
pub type Name = arcstr::ArcStr;

/// The ten variants of the contract, plus a catch-all for what does not fit.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// `message`; `role` is `user`, `assistant`, or (a misfit) anything else.
    Message {
        role: Role,
    },
    /// The names are shared ([`Name`]) with the occurrences and facts made
    /// from the event, which every scope keeps.
    ToolStarted {
        operation_id: Name,
        name: Name,
        tool: Option<Name>,
    },
    SubagentStarted {
        operation_id: Name,
        name: Name,
    },
    /// `status` is kept as written so derivations see what the adapter sent.
    ToolFinished {
        operation_id: Name,
        status: Name,
    },
    SubagentFinished {
        operation_id: Name,
        status: Name,
    },
    SkillLoaded {
        skill: Name,
        operation_id: Option<Name>,
    },
    InputRequested,
    Thinking,
    ContextInjected,
    Compaction,
    Error,
    Unrecognized {
        reason: String,
        fault: Fault,
    },
}

/// What makes an event unrecognised: its `type` is no variant, or a field
/// the variant needs is missing or wrong (the reason's words say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    UnknownType,
    MissingField,
    InvalidField,
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

/// JSON type name, for messages.
pub fn json_type(v: &Value) -> &'static str {
    Node::Value(v).type_name()
}

/// How a raw event's strings become the kind's shared strings: a loader
/// shares one [`Name`] among the many events that name the same tool or status.
pub type Intern<'a> = &'a mut dyn FnMut(&str) -> Name;

/// Payloads at least this long are passed over by [`Event::members`].
const KNOWN_AT_LEAST: u32 = 1024;

impl Event {
    /// Classify one JSON value as a StreamEvent. Never fails: what does not
    /// fit becomes `Unrecognized` with the reason.
    pub fn from_value(raw: Value) -> Event {
        let (kind, fields, _) = kind_and_fields(&Node::Value(&raw).object(), &mut |s: &str| Name::from(s));
        Event {
            kind,
            fields,
            parsed: AtomicBool::new(false),
            payload_at: 0,
            payload_len: 0,
            json: EventJson::Value(Arc::new(raw)),
        }
    }

    /// An event kept as its text, `source[start..start + len]`: one JSON
    /// object with distinct keys and no serde_json marker keys, which the
    /// caller has checked (anything else is parsed with [`Event::from_value`]).
    pub fn from_raw(source: Source, start: usize, len: u32, intern: Intern<'_>) -> Event {
        let json = EventJson::Raw { source, start, len };
        let (kind, fields, (payload_at, payload_len)) = kind_and_fields(&json.node().object(), intern);
        Event { kind, fields, parsed: AtomicBool::new(false), payload_at, payload_len, json }
    }

    /// [`Event::from_raw`] for an event whose members were found when its
    /// text was checked (`object`: the same text's).
    pub fn from_raw_members(source: Source, start: usize, len: u32, object: &Object<'_>, intern: Intern<'_>) -> Event {
        let (kind, fields, (payload_at, payload_len)) = kind_and_fields(object, intern);
        let json = EventJson::Raw { source, start, len };
        Event { kind, fields, parsed: AtomicBool::new(false), payload_at, payload_len, json }
    }

    /// Whether the event has the field `field` (one of the `FIELD_` bits).
    pub fn has(&self, field: u8) -> bool {
        self.fields & field != 0
    }

    /// The event's JSON, whole (a raw event is parsed for it).
    pub fn raw(&self) -> Cow<'_, Value> {
        if self.json.is_raw() {
            self.parsed.store(true, Ordering::Relaxed);
        }
        self.json.whole()
    }

    /// The event's JSON, read where it is: every field as written.
    pub fn head(&self) -> Node<'_> {
        self.json.node()
    }

    pub fn json(&self) -> &EventJson {
        &self.json
    }

    /// The text of a raw start's `operation.input` or a finish's `output`
    /// on its own, when where it begins was noted (see `payload_at`).
    pub fn payload_part(&self) -> Option<EventJson> {
        let (source, at) = self.payload_start()?;
        Some(EventJson::Raw { source: source.clone(), start: at, len: self.payload_len })
    }

    /// [`Event::payload_part`] as a node of this event's text: the payload
    /// found without walking the event.
    fn payload_node(&self) -> Option<Node<'_>> {
        let (source, at) = self.payload_start()?;
        source.bytes().get(at..at + self.payload_len as usize).map(Node::Raw)
    }

    /// The source of a raw event and where in it its payload begins, when that was noted.
    fn payload_start(&self) -> Option<(&Source, usize)> {
        let EventJson::Raw { source, start, .. } = &self.json else { return None };
        Some((source, start + (self.payload_at != 0).then_some(self.payload_at as usize)?))
    }

    /// The member `key` of the object that holds the payload, when it is the
    /// member right after the payload (see `json_node::member_after`).
    fn member_after_payload(&self, key: &str) -> Option<Node<'_>> {
        let EventJson::Raw { source, start, len } = &self.json else { return None };
        if self.payload_at == 0 {
            return None;
        }
        let event = source.bytes().get(*start..start + *len as usize)?;
        let payload_end = self.payload_at as usize + self.payload_len as usize;
        super::json_node::member_after(event, payload_end, key).map(Node::Raw)
    }

    /// True when this raw event's JSON has been parsed whole (for tests:
    /// the derivations must not need it).
    pub fn parsed_whole(&self) -> bool {
        self.parsed.load(Ordering::Relaxed)
    }

    /// The `type` string as written, if any.
    pub fn type_name(&self) -> Option<Cow<'_, str>> {
        self.head().get("type")?.as_str()
    }

    pub fn is_unrecognized(&self) -> bool {
        matches!(self.kind, EventKind::Unrecognized { .. })
    }

    /// Why an event that NiceEval still folds breaks the StreamEvent
    /// contract (a `system` message, an operation kind `mcp`, …), if it does.
    /// Worked out again when asked: only `check` asks, and few events are misfits.
    pub fn misfit(&self) -> Option<Misfit> {
        if !self.has(FIELD_MISFIT) {
            return None;
        }
        let object = self.head().object();
        let operation = operation_of(&object);
        classify(&object, operation.as_ref(), &mut |s: &str| Name::from(s)).misfit
    }

    /// The node of `text` (`message` for `error`), when it is a string.
    fn text_node(&self) -> Option<Node<'_>> {
        let noted = matches!(
            self.kind,
            EventKind::Message { .. } | EventKind::Thinking | EventKind::ContextInjected | EventKind::Error
        );
        if let Some(text) = self.payload_node().filter(|_| noted) {
            return Some(text);
        }
        let key = match self.kind {
            EventKind::Message { .. } | EventKind::Thinking | EventKind::ContextInjected => "text",
            EventKind::Error => "message",
            _ => return None,
        };
        self.head().get(key).filter(|n| n.is_string())
    }

    /// Text of `message`, `thinking`, `context.injected`; message of `error`.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        self.text_node()?.as_str()
    }

    /// The first `max_chars` characters of [`Event::text`] (for previews).
    pub fn text_prefix(&self, max_chars: usize) -> Option<Cow<'_, str>> {
        self.text_node()?.str_prefix(max_chars)
    }

    /// [`Event::output`] with long strings cut to `max_chars` characters.
    pub fn output_prefix(&self, max_chars: usize) -> Option<Cow<'_, Value>> {
        self.output_head().map(|v| v.to_value_prefix(max_chars))
    }

    /// [`Event::tool_input`] with long strings cut to `max_chars` characters.
    pub fn tool_input_prefix(&self, max_chars: usize) -> Option<Cow<'_, Value>> {
        self.tool_input_head().map(|v| v.to_value_prefix(max_chars))
    }

    /// What the text checks need of [`Event::text`], without decoding a
    /// long raw text whole.
    pub fn text_digest(&self) -> Option<TextDigest> {
        TextDigest::of_node(self.text_node()?)
    }

    pub fn operation(&self) -> Option<Node<'_>> {
        self.head().get("operation")
    }

    /// The event's members and its operation's, a noted payload passed
    /// over without reading it (the lint and the derivation read an event's
    /// small fields beside a tool output of megabytes).
    pub fn members(&self) -> (Object<'_>, Option<Object<'_>>) {
        let event = self.head().object_knowing(self.known_payload());
        let operation = operation_of(&event);
        (event, operation)
    }

    /// The payload, when it is long enough to be worth passing over: a
    /// short one is scanned faster than the members around it are walked
    /// (a million small events measured 1.09 x with every payload passed over).
    fn known_payload(&self) -> Option<Node<'_>> {
        self.payload_node().filter(|_| self.payload_len >= KNOWN_AT_LEAST)
    }

    /// A tool start's `operation.input` (absent stays `None`), as written.
    pub fn tool_input_head(&self) -> Option<Node<'_>> {
        match self.kind {
            EventKind::ToolStarted { .. } if self.has(FIELD_INPUT) => {
                self.payload_node().or_else(|| self.operation()?.get("input"))
            }
            _ => None,
        }
    }

    /// Tool start `operation.input` (absent stays `None`).
    pub fn tool_input(&self) -> Option<Cow<'_, Value>> {
        self.tool_input_head().map(Node::to_value)
    }

    /// Tool start `operation.command` when present.
    pub fn command(&self) -> Option<Node<'_>> {
        match self.kind {
            EventKind::ToolStarted { .. } if self.has(FIELD_COMMAND) => {
                // Adapters mostly write `command` right after `input`, whose
                // extent is known: read there without walking the event.
                if let Some(command) = self.member_after_payload("command") {
                    return Some(command);
                }
                // Found by walking only as far as the keys, the input passed over.
                let known = self.known_payload();
                self.head().get_knowing("operation", known)?.get_knowing("command", known)
            }
            _ => None,
        }
    }

    pub fn remote_url(&self) -> Option<Cow<'_, str>> {
        match self.kind {
            EventKind::SubagentStarted { .. } => self.operation()?.get("remoteUrl")?.as_str(),
            _ => None,
        }
    }

    /// A finish's `output` as written: `None` when the key is absent,
    /// a null node for `output: null`.
    pub fn output_head(&self) -> Option<Node<'_>> {
        match self.kind {
            EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. } if self.has(FIELD_OUTPUT) => {
                self.payload_node().or_else(|| self.head().get("output"))
            }
            _ => None,
        }
    }

    /// Finish `output`: `None` when the key is absent, `Some(Null)` for `output: null`.
    pub fn output(&self) -> Option<Cow<'_, Value>> {
        self.output_head().map(Node::to_value)
    }

    /// What the text checks need of a string `output`.
    pub fn output_digest(&self) -> Option<TextDigest> {
        self.output_head().filter(|o| o.is_string()).and_then(TextDigest::of_node)
    }

    /// The string `output` itself.
    pub fn output_text(&self) -> Option<Cow<'_, str>> {
        self.output_head()?.as_str()
    }

    pub fn request(&self) -> Option<Node<'_>> {
        match self.kind {
            EventKind::InputRequested => self.head().get("request"),
            _ => None,
        }
    }

    pub fn source(&self) -> Option<Cow<'_, str>> {
        match self.kind {
            EventKind::ContextInjected => self.head().get("source")?.as_str(),
            _ => None,
        }
    }

    pub fn reason(&self) -> Option<Cow<'_, str>> {
        match self.kind {
            EventKind::Compaction => self.head().get("reason")?.as_str(),
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
    pub fn redacted(&self) -> impl Iterator<Item = Cow<'_, str>> {
        let list = self.has(FIELD_REDACTED).then(|| self.head().get("redacted")).flatten();
        list.into_iter().flat_map(Node::elements).filter_map(Node::as_str)
    }

    /// The `truncated` entries that carry a string `path`, in order.
    pub fn truncated(&self) -> impl Iterator<Item = Truncation> + '_ {
        let list = self.has(FIELD_TRUNCATED).then(|| self.head().get("truncated")).flatten();
        list.into_iter().flat_map(Node::elements).filter_map(|t| {
            Some(Truncation {
                path: t.get("path")?.as_str()?.into_owned(),
                original_bytes: t.get("originalBytes").and_then(Node::as_f64),
            })
        })
    }

    /// True when the producer withheld or cut anything in this event.
    pub fn has_evidence_limits(&self) -> bool {
        self.redacted().next().is_some() || self.truncated().next().is_some()
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
/// A tool start's `operation.tool` is written as `null` (a misfit NiceEval
/// keeps as `canonical: null` on the occurrence).
pub const FIELD_TOOL_NULL: u8 = 64;
/// Not a field: the per-event lint has nothing to read beyond the kind and
/// the bits above (see `classify::lint_plain`).
pub const FIELD_LINT_PLAIN: u8 = 128;

#[cfg(test)]
mod tests;
