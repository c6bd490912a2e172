//! Findings about an event stream: what is wrong, where, and how to fix it.
//! Produced by the lint rules (`niceeval check`) and shown by every surface.
//! Also what a load lost of its input ([`InputLoss`]), which the rules report.

use super::event::Name;
use std::borrow::Cow;

pub use super::rules::Severity;

/// Where a finding points: attempt, session and turn indices into the
/// document, and the adapter event index inside the turn. Kept as `u32`s
/// (24 bytes, not 48): a stream can have a finding for every tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Location {
    attempt: u32,
    session: u32,
    turn: Option<u32>,
    event: Option<u32>,
}

impl Location {
    /// A place; an index past `u32::MAX` (not reachable in memory) saturates.
    pub fn new(attempt: usize, session: usize, turn: Option<usize>, event: Option<usize>) -> Location {
        use super::occurrence::compact_index;
        Location {
            attempt: compact_index(attempt),
            session: compact_index(session),
            turn: turn.map(compact_index),
            event: event.map(compact_index),
        }
    }

    /// The same place in a document whose attempts come `offset` later
    /// (documents merged for a comparison).
    pub fn shifted(self, offset: usize) -> Location {
        Location { attempt: super::occurrence::compact_index(self.attempt() + offset), ..self }
    }

    /// The same turn's event `event`.
    pub fn with_event(self, event: usize) -> Location {
        Location { event: Some(super::occurrence::compact_index(event)), ..self }
    }

    pub fn attempt(&self) -> usize {
        self.attempt as usize
    }

    pub fn session(&self) -> usize {
        self.session as usize
    }

    pub fn turn(&self) -> Option<usize> {
        self.turn.map(|t| t as usize)
    }

    /// Index into `turn.events` (the timeline shows it as event ordinal `event + 1`).
    pub fn event(&self) -> Option<usize> {
        self.event.map(|e| e as usize)
    }
}

/// One finding. A long stream can have one for every event (an Adapter that
/// has not migrated to command projections gets one per tool start), so a
/// finding is kept small (64 bytes): its code, where it points, and what it
/// says in a form the view words only when it writes it
/// (`view::findings::message`); a hint of its
/// own or a place in the input file, both rare, are boxed apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Stable kebab-case code, e.g. `orphan-finish`.
    pub code: &'static str,
    pub severity: Severity,
    pub location: Location,
    said: Said,
}

/// What a finding says is wrong, as kept (one pointer and a tag). Most
/// findings are worded when they are made; the ones a long stream repeats
/// for every event keep only the ids they name (shared with the events),
/// and a Turn's shape keeps the loader's fact: the view words them when it
/// writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    Text(Name),
    /// `command-unclassified`: a tool start (its operation id) without
    /// `command`, and what claims actions coverage complete.
    NoCommand {
        operation_id: Name,
        claim: CompleteClaim,
    },
    /// `turn-shape`: the loader's fact about the Turn (rare: boxed).
    TurnShape(Box<super::notice::TurnFault>),
    /// With a hint of its own or a place in the input file (rare).
    More(Box<More>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct More {
    said: Said,
    hint: Option<String>,
    input: Option<InputAt>,
}

/// What claims a turn's actions coverage complete when a tool start has no `command`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompleteClaim {
    /// The attempt's recorded evidence coverage.
    Recorded,
    /// Nothing the file carries: the agent's own declaration is unknown.
    NotRecorded,
}

impl Said {
    fn more(&mut self) -> &mut More {
        if !matches!(self, Said::More(_)) {
            let said = std::mem::replace(self, Said::Text(Name::new()));
            *self = Said::More(Box::new(More { said, hint: None, input: None }));
        }
        match self {
            Said::More(more) => more,
            _ => unreachable!("made More above"),
        }
    }

    fn extra(&self) -> Option<&More> {
        match self {
            Said::More(more) => Some(more),
            _ => None,
        }
    }
}

impl More {
    /// What the finding says, beside its hint and place in the input.
    pub fn said(&self) -> &Said {
        &self.said
    }
}

impl From<String> for Said {
    fn from(text: String) -> Said {
        Said::Text(Name::from(text))
    }
}

impl From<&str> for Said {
    fn from(text: &str) -> Said {
        Said::Text(Name::from(text))
    }
}

/// Quote an input-derived string for a message: shortened to 60
/// characters, JSON-quoted. (Callers that print still sanitize.)
pub fn quote(s: &str) -> String {
    const MAX: usize = 60;
    let short: Cow<'_, str> = match s.char_indices().nth(MAX) {
        Some((at, _)) => Cow::Owned(format!("{}…", &s[..at])),
        None => Cow::Borrowed(s),
    };
    serde_json::to_string(&short).unwrap_or_default()
}

impl Finding {
    /// A finding of `code` with the catalog's severity (an error for a
    /// code the catalog does not have).
    pub fn new(code: &'static str, location: Location, said: impl Into<Said>) -> Finding {
        let severity = super::rules::rule_info(code).map_or(Severity::Error, |i| i.severity);
        Finding { code, severity, location, said: said.into() }
    }

    pub fn with_severity(self, severity: Severity) -> Finding {
        Finding { severity, ..self }
    }

    /// This finding with its own hint instead of the rule's.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Finding {
        self.said.more().hint = Some(hint.into());
        self
    }

    /// This finding about the input file itself, at `at`.
    pub fn with_input(mut self, at: InputAt) -> Finding {
        self.said.more().input = Some(at);
        self
    }

    /// What is wrong, as kept (`view::findings::message` words it).
    pub fn said(&self) -> &Said {
        &self.said
    }

    /// One line: how to fix it; almost always the rule's own hint.
    pub fn hint(&self) -> &str {
        match self.said.extra().and_then(|e| e.hint.as_deref()) {
            Some(h) => h,
            None => super::rules::rule_info(self.code).map_or("", |i| i.hint),
        }
    }

    /// The spec rule it enforces, e.g. `derivation §2.2`.
    pub fn rule(&self) -> &'static str {
        super::rules::rule_info(self.code).map_or("derivation", |i| i.rule)
    }

    /// For a finding about the input file itself (a skipped line, replaced
    /// text) rather than a turn: where in the file.
    pub fn input(&self) -> Option<&InputAt> {
        self.said.extra().and_then(|e| e.input.as_ref())
    }
}

/// A place in an input file: path, 1-based line and byte column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputAt {
    pub path: String,
    pub line: usize,
    pub column: Option<usize>,
}

/// Input that opened only because something was dropped or replaced: the
/// document does not hold what the file says there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputLoss {
    pub kind: LossKind,
    /// The file, as named.
    pub path: String,
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based byte column in the line, when known.
    pub column: Option<usize>,
    /// What was lost, without the position.
    pub message: String,
    /// Why, without the position and without what became of the input.
    pub why: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossKind {
    /// A JSONL line that could not be read and was skipped.
    LineSkipped,
    /// Invalid UTF-8 or an unpaired UTF-16 surrogate escape, replaced by U+FFFD.
    TextReplaced,
}

impl InputLoss {
    /// `path:line[:column]: message` (not yet sanitized for a terminal).
    pub fn describe(&self) -> String {
        match self.column {
            Some(c) => format!("{}:{}:{c}: {}", self.path, self.line, self.message),
            None => format!("{}:{}: {}", self.path, self.line, self.message),
        }
    }
}

/// Something a native agent log says that NiceEval's parser reads
/// otherwise: where (1-based line, and the event that line became, if
/// any) and what. NiceEval's reading is what the turn shows; these are
/// reported beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct LogFact {
    pub line: usize,
    /// Index into the turn's events of the first event of that line.
    pub event: Option<usize>,
    pub kind: LogFactKind,
}

/// Token and request counts of a usage reading.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UsageFigures {
    pub input: f64,
    pub output: f64,
    pub requests: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LogFactKind {
    /// API responses whose usage is written on several lines (one per
    /// content block) and added once per line: each `message.id` with its
    /// lines; the whole log's sums with each message counted once (its
    /// last line), and as NiceEval adds them.
    UsageRepeated { messages: Vec<(String, Vec<usize>)>, once: UsageFigures, niceeval: UsageFigures },
    /// An `isCompactSummary` line that continues the `compact_boundary` on
    /// `boundary_line`: one compaction counted twice.
    CompactionTwice { boundary_line: usize },
    /// A `type: "summary"` line (a session title) read as a compaction.
    SummaryTitle { title: Option<String> },
    /// A tool result whose id no earlier tool use has.
    ResultWithoutUse { id: String },
    /// `is_error` that is not a boolean (a string `"true"`, a number), and
    /// the status NiceEval's reading gives.
    ErrorFlagNotBoolean { value: String, read_as: &'static str },
    /// A timestamp earlier than one on an earlier line.
    TimeBackwards { previous_line: usize, previous: String, this: String },
}
