//! Raw events: the events of a large file are kept as their text in the
//! mapped file (`model::event::EventJson::Raw`), read where they are by the
//! derivations and parsed whole only when shown. No `Value` of an event is
//! made: a `Value` of a small event costs ten times its text, and a file of
//! a million small events would need gigabytes.
//!
//! Where events are: the parse follows the paths it is given to the arrays
//! of StreamEvents ([`Place`]; `load::format` says which formats hold
//! events where); everything else is parsed as before. Each event
//! is checked (see [`raw_event_ok`]) and classified on a worker thread; the
//! document holds a placeholder for it until [`attach`] puts it in its turn.
//! Anything unexpected in an event (a duplicate or escaped key, serde_json's
//! private marker keys, the old `action.*` vocabulary) parses that event
//! whole instead; a load whose placeholders do not all end up in turns is
//! done again without raw events.

use crate::model::event::{Event, EventKind, Role, Source};
use crate::model::json_scan::{container_end, valid_string_end};
use serde_json::Value;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// One step of a path to StreamEvents: an object's member `Key`, or `Each`
/// element of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Key(&'static str),
    Each,
}

/// The steps from a document's root to an array of StreamEvents. Which
/// formats hold events at which paths is `load::format`'s to say; a raw
/// load follows the paths it is given.
pub type EventPath = &'static [Step];

/// Where a value sits among the event paths a raw load follows.
#[derive(Debug, Clone, Copy)]
pub enum Place {
    /// Nowhere events are.
    Plain,
    /// `depth` steps along the `paths` whose bit is set in `live`: a
    /// container on the way to events (the root is one, with every path live).
    Along { paths: &'static [EventPath], live: u32, depth: usize },
    /// An array of StreamEvents: where a path ends.
    Events,
    /// An element of an `events` array: a StreamEvent.
    Event,
}

impl Place {
    /// The root of a document whose events are at `paths` (at most 32).
    pub fn root(paths: &'static [EventPath]) -> Place {
        if paths.iter().any(|p| p.is_empty()) {
            return Place::Events;
        }
        debug_assert!(paths.len() <= 32, "a path is a bit of `live`");
        let live = u32::MAX.checked_shr(32 - paths.len() as u32).unwrap_or(0);
        if live == 0 { Place::Plain } else { Place::Along { paths, live, depth: 0 } }
    }

    /// The place of a child: an object's value under `key`, or (`None`) an
    /// array's element.
    pub fn child(self, key: Option<&str>) -> Place {
        match self {
            Place::Plain | Place::Event => Place::Plain,
            Place::Events => {
                if key.is_none() {
                    Place::Event
                } else {
                    Place::Plain
                }
            }
            Place::Along { paths, live, depth } => {
                let (mut next, mut ends) = (0, false);
                for (i, path) in paths.iter().enumerate().filter(|(i, _)| live & (1 << i) != 0) {
                    let fits = match (path[depth], key) {
                        (Step::Key(k), Some(key)) => k == key,
                        (Step::Each, None) => true,
                        _ => false,
                    };
                    if fits && depth + 1 == path.len() {
                        ends = true;
                    } else if fits {
                        next |= 1 << i;
                    }
                }
                match (ends, next) {
                    (true, _) => Place::Events,
                    (false, 0) => Place::Plain,
                    (false, live) => Place::Along { paths, live, depth: depth + 1 },
                }
            }
        }
    }

    pub fn is_plain(self) -> bool {
        matches!(self, Place::Plain)
    }

    pub fn is_events(self) -> bool {
        matches!(self, Place::Events)
    }

    /// On the way to events or at them: a container there is split whatever
    /// its size (its children are followed).
    pub fn on_path(self) -> bool {
        matches!(self, Place::Along { .. } | Place::Events)
    }
}

/// One load of raw events: the source, and the runs of events made so far.
/// A run is a stretch of an `events` array (or of JSONL lines) whose events
/// are all kept raw; the document holds one placeholder per run, so a
/// million events cost no million values on the way to their turns.
pub struct LazyLoad {
    source: Source,
    /// The paths of a document's `events` arrays (none for a JSONL stream,
    /// whose lines are the events).
    events_at: &'static [EventPath],
    /// Address of the source's first byte: pieces of it are located by address.
    base: usize,
    len: usize,
    /// `\0niceeval-events-<random>:`, then the run's number.
    prefix: String,
    /// Tells this load's interned strings from an earlier load's (see [`intern_with`]).
    id: u64,
    next: AtomicUsize,
    events: AtomicUsize,
    runs: Mutex<Vec<(usize, Vec<Event>)>>,
}

static LOADS: AtomicU64 = AtomicU64::new(1);

/// A run is closed at this many events, so that parsing threads hand over
/// their events in pieces of a bounded size.
const RUN_AT_MOST: usize = 1 << 16;

impl LazyLoad {
    pub fn new(source: Source, events_at: &'static [EventPath]) -> LazyLoad {
        let bytes = source.bytes();
        let (base, len) = (bytes.as_ptr() as usize, bytes.len());
        LazyLoad {
            source,
            events_at,
            base,
            len,
            prefix: format!("\u{0}niceeval-events-{:016x}:", random_tag()),
            id: LOADS.fetch_add(1, Ordering::Relaxed),
            next: AtomicUsize::new(0),
            events: AtomicUsize::new(0),
            runs: Mutex::new(Vec::new()),
        }
    }

    /// The raw event `text` (a part of the source, exactly one event) is, or
    /// `None` when it is to be parsed as a value: not a part of the source,
    /// not checked to be raw (see [`raw_event_ok`]), a user message (loaders
    /// read those: a turn's input, the runner's turn boundaries) or the old
    /// `action.*` vocabulary (rewritten before typing).
    pub fn raw(&self, text: &[u8]) -> Option<Event> {
        if !raw_event_ok(text) {
            return None;
        }
        self.checked(text)
    }

    /// [`LazyLoad::raw`] for text [`raw_event_end`] has checked.
    fn checked(&self, text: &[u8]) -> Option<Event> {
        let start = (text.as_ptr() as usize).checked_sub(self.base)?;
        let len = u32::try_from(text.len()).ok()?;
        if start + text.len() > self.len {
            return None;
        }
        let event = intern_with(self.id, |intern| Event::from_raw(self.source.clone(), start, len, intern));
        let old = matches!(&event.kind, EventKind::Unrecognized { .. })
            && matches!(event.type_name().as_deref(), Some("action.called" | "action.result"));
        let user = event.kind == (EventKind::Message { role: Role::User });
        (!old && !user).then_some(event)
    }

    /// The placeholder for a run of raw events, which [`attach`] replaces
    /// with them.
    pub fn run(&self, events: Vec<Event>) -> Value {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        self.events.fetch_add(events.len(), Ordering::Relaxed);
        self.runs.lock().unwrap_or_else(|e| e.into_inner()).push((number, events));
        Value::String(format!("{}{number}", self.prefix))
    }

    /// The elements of a stretch of an `events` array (`text`: elements and
    /// the commas between them), raw events gathered into runs. `None` when
    /// an element does not parse (the caller parses the whole text, which
    /// reports where).
    pub fn elements(&self, text: &[u8]) -> Option<Value> {
        let mut out = Vec::new();
        let mut run = Vec::new();
        let mut i = skip_ws(text, 0);
        while i < text.len() {
            // The check of a raw event finds its end; anything else is found by its extent.
            let raw_end = raw_event_end(&text[i..]).map(|n| i + n);
            let end = match raw_end {
                Some(end) => end,
                None => element_end(text, i)?,
            };
            let element = &text[i..end];
            match raw_end.and_then(|_| self.checked(element)) {
                Some(event) => {
                    run.push(event);
                    if run.len() == RUN_AT_MOST {
                        out.push(self.run(std::mem::take(&mut run)));
                    }
                }
                None => {
                    if !run.is_empty() {
                        out.push(self.run(std::mem::take(&mut run)));
                    }
                    out.push(super::compact::from_slice(element).ok()?);
                }
            }
            i = skip_ws(text, end);
            match text.get(i) {
                Some(b',') => i = skip_ws(text, i + 1),
                None => break,
                Some(_) => return None,
            }
        }
        if !run.is_empty() {
            out.push(self.run(run));
        }
        Some(Value::Array(out))
    }

    /// Where a document's raw load starts following its event paths.
    pub fn root(&self) -> Place {
        Place::root(self.events_at)
    }

    /// How many raw events the document holds placeholders for.
    pub fn lazy_events(&self) -> usize {
        self.events.load(Ordering::Relaxed)
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

/// End of the value at `i` (its extent only; it is checked when parsed).
fn element_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'{' | b'[' => container_end(b, i),
        b'"' => crate::model::json_scan::string_end(b, i),
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !is_ws(b[j]) {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// Strings each worker thread shares among the events it makes (tool
/// names, statuses, an operation id between its start and its finish): a
/// small table that keeps the last string of each slot, so it stays small
/// whatever the file holds.
struct Interned {
    load: u64,
    slots: Vec<Option<Arc<str>>>,
}

const SLOTS: usize = 4096;
/// Longer strings are not worth looking up.
const INTERN_AT_MOST: usize = 96;

thread_local! {
    static INTERNED: RefCell<Interned> = const { RefCell::new(Interned { load: 0, slots: Vec::new() }) };
}

fn slot_of(s: &str) -> usize {
    // FNV-1a: a few bytes, no need for a keyed hash (a collision costs one allocation).
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h as usize % SLOTS
}

fn intern_with<T>(load: u64, f: impl FnOnce(&mut dyn FnMut(&str) -> Arc<str>) -> T) -> T {
    INTERNED.with(|cell| {
        let mut table = cell.borrow_mut();
        if table.load != load {
            table.load = load;
            table.slots.clear();
            table.slots.resize(SLOTS, None);
        }
        let mut intern = |s: &str| -> Arc<str> {
            if s.len() > INTERN_AT_MOST {
                return Arc::from(s);
            }
            let slot = &mut table.slots[slot_of(s)];
            match slot {
                Some(a) if **a == *s => a.clone(),
                _ => {
                    let a: Arc<str> = Arc::from(s);
                    *slot = Some(a.clone());
                    a
                }
            }
        };
        f(&mut intern)
    })
}

/// A per-load random tag, so a file cannot write a placeholder.
fn random_tag() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the system's randomness once per process
    // and varied per instance.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_usize(&h as *const _ as usize);
    h.finish()
}

/// Put every run of raw events in the place its placeholder took in the
/// document. False when some run was not placed (its placeholder went
/// somewhere else): the caller loads again without raw events.
pub fn attach(doc: &mut crate::model::document::Document, load: LazyLoad) -> bool {
    let made = load.runs.into_inner().unwrap_or_else(|e| e.into_inner());
    if made.is_empty() {
        return true;
    }
    let mut table: Vec<Option<Vec<Event>>> = Vec::new();
    table.resize_with(load.next.load(Ordering::Relaxed), || None);
    for (number, events) in made {
        if let Some(slot) = table.get_mut(number) {
            *slot = Some(events);
        }
    }
    let mut placed = 0;
    for attempt in &mut doc.attempts {
        for session in &mut attempt.sessions {
            for record in &mut session.turns {
                let events = &mut record.turn.events;
                if !events.iter().any(|e| placeholder_number(e, &load.prefix).is_some()) {
                    continue;
                }
                let mut whole = Vec::new();
                for event in std::mem::take(events) {
                    match placeholder_number(&event, &load.prefix) {
                        Some(number) => {
                            let Some(run) = table.get_mut(number).and_then(Option::take) else { return false };
                            whole.reserve(run.len());
                            whole.extend(run);
                            placed += 1;
                        }
                        None => whole.push(event),
                    }
                }
                whole.shrink_to_fit();
                *events = whole;
            }
        }
    }
    placed == table.len()
}

/// The number of the run a placeholder (a string where an event should be)
/// stands for.
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

/// Nesting deeper than this is parsed whole (serde_json's own limit is 128).
const MAX_DEPTH: usize = 100;

/// Whether `text` is one JSON object a raw event can be kept as: what
/// `serde_json::from_slice` accepts (UTF-8, escapes, surrogates in pairs,
/// numbers, nesting), with distinct keys in every object, none escaped and
/// none of serde_json's marker keys (so reading it in place gives what its
/// `Value` would hold).
pub fn raw_event_ok(text: &[u8]) -> bool {
    raw_event_end(text) == Some(text.len())
}

/// The end of the object `text` starts with, when it is one a raw event can
/// be kept as (see [`raw_event_ok`]); what follows it is not looked at.
pub fn raw_event_end(text: &[u8]) -> Option<usize> {
    if text.first() != Some(&b'{') {
        return None;
    }
    // The list of keys is kept from one event to the next: a new one per event cost a tenth of the check.
    thread_local! {
        static KEYS: std::cell::RefCell<Vec<(usize, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let end = KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        keys.clear();
        Check { b: text, keys: &mut keys }.value(0, 0)
    })?;
    simdutf8::basic::from_utf8(&text[..end]).ok()?;
    Some(end)
}

struct Check<'a, 'k> {
    b: &'a [u8],
    /// The keys of the objects being checked (a stack: each object's above its parent's).
    keys: &'k mut Vec<(usize, usize)>,
}

impl<'a> Check<'a, '_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.b.len() && is_ws(self.b[i]) {
            i += 1;
        }
        i
    }

    /// End of the value at `i`, when it is valid.
    fn value(&mut self, i: usize, depth: usize) -> Option<usize> {
        match *self.b.get(i)? {
            b'"' => valid_string_end(self.b, i),
            b'{' if depth < MAX_DEPTH => self.object(i, depth + 1),
            b'[' if depth < MAX_DEPTH => self.array(i, depth + 1),
            b't' => self.literal(i, b"true"),
            b'f' => self.literal(i, b"false"),
            b'n' => self.literal(i, b"null"),
            b'-' | b'0'..=b'9' => self.number(i),
            _ => None,
        }
    }

    fn literal(&self, i: usize, word: &[u8]) -> Option<usize> {
        (self.b.get(i..i + word.len())? == word).then_some(i + word.len())
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&self, mut i: usize) -> Option<usize> {
        let b = self.b;
        let digits = |mut j: usize| {
            let from = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            (j > from).then_some(j)
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        i = match b.get(i)? {
            b'0' => i + 1,
            b'1'..=b'9' => digits(i)?,
            _ => return None,
        };
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1)?;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = digits(i)?;
        }
        Some(i)
    }

    fn array(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mut j = self.ws(i + 1);
        if self.b.get(j) == Some(&b']') {
            return Some(j + 1);
        }
        loop {
            let end = self.value(j, depth)?;
            j = self.ws(end);
            match *self.b.get(j)? {
                b',' => j = self.ws(j + 1),
                b']' => return Some(j + 1),
                _ => return None,
            }
        }
    }

    fn object(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mark = self.keys.len();
        let end = self.members(i, depth);
        self.keys.truncate(mark);
        end
    }

    fn members(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mark = self.keys.len();
        let mut j = self.ws(i + 1);
        if self.b.get(j) == Some(&b'}') {
            return Some(j + 1);
        }
        loop {
            if self.b.get(j) != Some(&b'"') {
                return None;
            }
            let ke = valid_string_end(self.b, j)?;
            let key = &self.b[j + 1..ke - 1];
            let escaped = key.contains(&b'\\');
            let seen = self.keys[mark..].iter().any(|&(s, e)| &self.b[s..e] == key);
            if escaped || key.starts_with(b"$serde_json::private::") || seen {
                return None;
            }
            self.keys.push((j + 1, ke - 1));
            let colon = self.ws(ke);
            if self.b.get(colon) != Some(&b':') {
                return None;
            }
            let start = self.ws(colon + 1);
            let end = self.value(start, depth)?;
            j = self.ws(end);
            match *self.b.get(j)? {
                b',' => j = self.ws(j + 1),
                b'}' => return Some(j + 1),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::raw_event_ok;

    #[test]
    fn raw_events_are_what_serde_json_reads_the_same_way() {
        let ok = [
            r#"{"type":"message","role":"assistant","text":"a \" } ] \\ \u00e9 \ud83d\ude00"}"#,
            r#"{ "a" : [ 1 , -0.5e+3 , true , false , null , { } , [ ] ] , "b" : { "c" : { "a" : 1 } } }"#,
            r#"{"n":0,"m":-0,"x":1E5,"y":12345678901234567890123}"#,
        ];
        for t in ok {
            assert!(raw_event_ok(t.as_bytes()), "{t}");
            assert!(serde_json::from_str::<serde_json::Value>(t).is_ok());
        }
        let not = [
            r#"{"a":1,"a":2}"#,
            r#"{"k\u0065y":1}"#,
            r#"{"$serde_json::private::Number":"1"}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"x" "b":1}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} "#,
            r#"["not an object"]"#,
            "{\"a\":\"\u{1}\"}",
        ];
        for t in not {
            assert!(!raw_event_ok(t.as_bytes()), "{t}");
        }
        assert!(!raw_event_ok(b"{\"a\":\"\xff\"}"), "not UTF-8");
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(120), "]".repeat(120));
        assert!(!raw_event_ok(deep.as_bytes()), "deeper than the raw limit");
        // Keys repeat across objects without harm; only within one they are a duplicate.
        assert!(raw_event_ok(br#"{"a":{"a":1,"b":{"a":2}},"b":[{"a":1},{"a":2}]}"#));
    }

    #[test]
    fn raw_checks_agree_with_serde_json_on_random_documents() {
        let mut random = crate::model::json_node::tests_support::Random(7);
        let mut corrupt = crate::model::json_node::tests_support::Random(11);
        let (mut accepted, mut rejected) = (0, 0);
        for _ in 0..3000 {
            let text = format!("{{\"x\":{}}}", random.value(0));
            assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
            assert!(raw_event_ok(text.as_bytes()), "valid, distinct unescaped keys: {text}");
            // Cut, doubled or dropped bytes: what the check accepts must parse.
            for _ in 0..4 {
                let mut bytes = text.clone().into_bytes();
                let at = corrupt.below(bytes.len() as u64) as usize;
                match corrupt.below(3) {
                    0 => bytes.truncate(at),
                    1 => bytes.insert(at, bytes[at]),
                    _ => drop(bytes.remove(at)),
                }
                if raw_event_ok(&bytes) {
                    accepted += 1;
                    assert!(
                        serde_json::from_slice::<serde_json::Value>(&bytes).is_ok(),
                        "{}",
                        String::from_utf8_lossy(&bytes)
                    );
                } else {
                    rejected += 1;
                }
            }
        }
        assert!(accepted > 100 && rejected > 100, "{accepted} accepted, {rejected} rejected");
    }
}
