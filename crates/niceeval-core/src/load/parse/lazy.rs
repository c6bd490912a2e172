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

use super::raw_check::{RawCheck, with_raw_check};
use crate::model::event::Name;
use crate::model::event::{Event, EventKind, Role, Source};
use crate::model::json_node::{Node, Object};
use crate::model::json_scan::{skip_ws, value_end};
use serde_json::Value;
use std::cell::RefCell;
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
        with_raw_check(|check| {
            if check.event_end(text) != Some(text.len()) {
                return None;
            }
            self.checked(text, check)
        })
    }

    /// [`LazyLoad::raw`] for text `check` has just accepted.
    fn checked(&self, text: &[u8], check: &RawCheck) -> Option<Event> {
        let start = (text.as_ptr() as usize).checked_sub(self.base)?;
        let len = u32::try_from(text.len()).ok()?;
        if start + text.len() > self.len {
            return None;
        }
        let object = Object::of_raw(Node::Raw(text), check.members(text));
        let event =
            intern_with(self.id, |intern| Event::from_raw_members(self.source.clone(), start, len, &object, intern));
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
        // One check for the stretch's events (its lists are kept from one to the next).
        let mut check = RawCheck::default();
        let mut i = skip_ws(text, 0);
        while i < text.len() {
            // The check of a raw event finds its end; anything else is found by its extent.
            let raw_end = check.event_end(&text[i..]).map(|n| i + n);
            let end = match raw_end {
                Some(end) => end,
                None => value_end(text, i)?,
            };
            let element = &text[i..end];
            match raw_end.and_then(|_| self.checked(element, &check)) {
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

/// Strings each worker thread shares among the events it makes (tool
/// names, statuses, an operation id between its start and its finish): a
/// small table that keeps the last string of each slot, so it stays small
/// whatever the file holds.
struct Interned {
    load: u64,
    slots: Vec<Option<Name>>,
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

fn intern_with<T>(load: u64, f: impl FnOnce(&mut dyn FnMut(&str) -> Name) -> T) -> T {
    INTERNED.with(|cell| {
        let mut table = cell.borrow_mut();
        if table.load != load {
            table.load = load;
            table.slots.clear();
            table.slots.resize(SLOTS, None);
        }
        let mut intern = |s: &str| -> Name {
            if s.len() > INTERN_AT_MOST {
                return Name::from(s);
            }
            let slot = &mut table.slots[slot_of(s)];
            match slot {
                Some(a) if **a == *s => a.clone(),
                _ => {
                    let a = Name::from(s);
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
