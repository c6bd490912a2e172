//! Notices about an input: what a loader could not take as written, what it
//! skipped, what the file does not record. Each is a fact with its data; the
//! view words it (`view::notice`), and every decision reads the fact.

/// A notice about the input: partial data, skipped parts, soft errors.
/// What it is about is its `kind`, which every decision reads; `message` is
/// only its words.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub level: NoticeLevel,
    pub kind: NoticeKind,
    pub message: String,
}

impl Notice {
    /// A notice whose words are all there is to it.
    pub fn new(level: NoticeLevel, message: impl Into<String>) -> Notice {
        Notice { level, kind: NoticeKind::Other, message: message.into() }
    }

    /// A notice of a fact something else decides on.
    pub fn of(level: NoticeLevel, kind: NoticeKind, message: impl Into<String>) -> Notice {
        Notice { level, kind, message: message.into() }
    }
}

/// The facts a notice states that other code acts on. A decision matches
/// the kind, never the words.
#[derive(Debug, Clone, PartialEq)]
pub enum NoticeKind {
    /// Nothing acts on it; its words say it.
    Other,
    /// A Turn's JSON breaks the contract: which problem, and where (the
    /// session and turn index in the attempt). `check` reports these as
    /// findings (`turn-shape`, `turn-status-missing`), so surfaces do not
    /// print them twice.
    Turn { place: TurnPlace, problem: TurnProblem },
    /// An attempt of a legacy results run records no `events`.
    NoEventsRecorded,
    /// A preview is shown while the whole file loads.
    PreviewLoading,
    /// Input that could not be read and was skipped (also in the document's
    /// `losses`, which `check` reports as `input-*` findings).
    InputLost,
    /// Slots a Record's runs expected hold no attempt (the document's
    /// `slots_not_recorded`); `compare` prints it too.
    SlotsNotRecorded,
}

/// Where a Turn with a problem is: its session and turn index in the
/// attempt, or only the line of a JSONL stream it is on (or the file, for
/// a native log's one turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnPlace {
    At { session: usize, turn: usize },
    Line(usize),
    File,
}

/// What is wrong with a Turn's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnProblem {
    /// Not a JSON object (the type found).
    NotAnObject(&'static str),
    /// `events` is not an array (the type found).
    EventsNotAnArray(&'static str),
    NoEvents,
    /// `status` is not a string (the type found).
    StatusNotAString(&'static str),
    NoStatus,
}

impl NoticeKind {
    /// A Turn whose `status` is missing or not a string.
    pub fn is_turn_status_problem(&self) -> bool {
        matches!(self, NoticeKind::Turn { problem, .. } if problem.is_status())
    }
}

impl TurnProblem {
    /// About the Turn's `status` (the lint's status rules, not its shape rule).
    pub fn is_status(self) -> bool {
        matches!(self, TurnProblem::StatusNotAString(_) | TurnProblem::NoStatus)
    }
}

impl std::fmt::Display for TurnProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TurnProblem::NotAnObject(found) => write!(f, "a Turn must be a JSON object, found {found}"),
            TurnProblem::EventsNotAnArray(found) => write!(f, "Turn `events` must be an array, found {found}"),
            TurnProblem::NoEvents => f.write_str("Turn has no `events` array"),
            TurnProblem::StatusNotAString(found) => write!(f, "Turn `status` must be a string, found {found}"),
            TurnProblem::NoStatus => f.write_str("Turn has no `status`"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoticeLevel {
    Info,
    Warning,
    Error,
}
