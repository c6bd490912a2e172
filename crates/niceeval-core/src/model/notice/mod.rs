//! Notices about an input: what a loader could not take as written, what it
//! skipped, what the file does not record. Each is a fact with its data; the
//! view words it (`view::notice`), and every decision reads the fact.

mod other_files;
mod record;
mod results;
mod streams;

pub use other_files::NotAConversation;
pub use record::{Collection, ConversationTurn, LeftOut, ObservabilityNotice, RecordNotice, Unread};
pub use results::{ChannelShortfall, LegacyNotice, ResultNotice};
pub use streams::{CaptureNotice, ExpNotice, JsonlNotice, ShowNotice};

/// A notice about the input: partial data, skipped parts, soft errors.
/// What it is about is its `kind`, which every decision reads and the view
/// words. (`message`: the words of the notices not yet made facts.)
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

    /// A notice of a fact, worded by the view.
    pub fn of(level: NoticeLevel, kind: impl Into<NoticeKind>) -> Notice {
        Notice { level, kind: kind.into(), message: String::new() }
    }

    /// A notice of a fact something decides on, with its words (for the
    /// facts not yet worded by the view).
    pub fn of_words(level: NoticeLevel, kind: NoticeKind, message: impl Into<String>) -> Notice {
        Notice { level, kind, message: message.into() }
    }
}

/// What a notice states. A decision matches the kind, never the words.
#[derive(Debug, Clone, PartialEq)]
pub enum NoticeKind {
    /// Nothing acts on it; its words say it.
    Other,
    /// A Turn's JSON breaks the contract. `check` reports these as findings
    /// (`turn-shape`, `turn-status-missing`), so surfaces do not print them
    /// twice.
    Turn(TurnFault),
    /// A preview is shown while the whole file loads.
    PreviewLoading,
    /// Input that could not be read and was skipped (also in the document's
    /// `losses`, which `check` reports as `input-*` findings).
    InputLost,
    /// Slots a Record's runs expected hold no attempt (the document's
    /// `slots_not_recorded` when it was made); `compare` prints it too.
    SlotsNotRecorded(Vec<crate::model::recorded::SlotNotRecorded>),
    /// Events in the old `action.called`/`action.result` vocabulary, read
    /// as `operation.started`/`operation.finished`: how many.
    OldVocabulary {
        events: usize,
    },
    /// A `verdict` that is not one of NiceEval's words (as written): shown
    /// as not recorded.
    UnknownVerdict {
        word: String,
    },
    /// Text replaced so that the file opens.
    TextRepaired(Repaired),
    /// A JSONL line that could not be read and was skipped (also in the
    /// document's `losses`).
    LineSkipped {
        path: String,
        line: SkippedLine,
    },
    NotAConversation(NotAConversation),
    Jsonl(JsonlNotice),
    Capture(CaptureNotice),
    Exp(ExpNotice),
    Show(ShowNotice),
    Result(ResultNotice),
    Legacy(LegacyNotice),
    Record(RecordNotice),
    Observability(ObservabilityNotice),
}

/// Lets a loader write `Notice::of(level, SomeFamily::Fact { … })`.
macro_rules! kinds_from {
    ($($family:ident => $variant:ident),*) => {$(
        impl From<$family> for NoticeKind {
            fn from(fact: $family) -> NoticeKind {
                NoticeKind::$variant(fact)
            }
        }
    )*};
}
kinds_from!(
    NotAConversation => NotAConversation,
    JsonlNotice => Jsonl,
    CaptureNotice => Capture,
    ExpNotice => Exp,
    ShowNotice => Show,
    ResultNotice => Result,
    LegacyNotice => Legacy,
    RecordNotice => Record,
    ObservabilityNotice => Observability
);

/// A load error a notice carries (a bad line of a stream, a file of a run
/// that could not be read): the file as named, the 1-based line and column
/// when the problem has one, and why (the parser's or reader's words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadFailure {
    pub path: String,
    pub position: Option<(usize, usize)>,
    pub why: String,
}

/// A JSONL line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based.
    pub line: usize,
    /// 1-based, for JSON syntax errors.
    pub column: Option<usize>,
    /// Why (the parser's words).
    pub why: String,
    /// The file's last line, with no newline after it.
    pub last_line: bool,
}

/// Invalid UTF-8 and unpaired UTF-16 surrogate escapes replaced by U+FFFD
/// so that a file opens: how many of each, and where the first was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub path: String,
    pub invalid_utf8: usize,
    pub lone_surrogates: usize,
    /// 1-based line and column of the first.
    pub first: Option<(usize, usize)>,
}

/// A Turn whose JSON breaks the contract: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnFault {
    pub place: TurnPlace,
    pub problem: TurnProblem,
}

impl From<TurnFault> for NoticeKind {
    fn from(fault: TurnFault) -> NoticeKind {
        NoticeKind::Turn(fault)
    }
}

/// Where a Turn with a problem is in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnPlace {
    /// `sessions[session].turns[turn]` of a capture: the same indices in
    /// the attempt.
    Entry { session: usize, turn: usize },
    /// The `n`th (from 0) of a list of Turns that make one session.
    Listed(usize),
    /// The line of a JSONL stream it is on.
    Line(usize),
    /// A native log's one Turn: the file, as named.
    File(String),
}

impl TurnPlace {
    /// Its session and turn index in the attempt, where the file tells them.
    pub fn in_attempt(&self) -> Option<(usize, usize)> {
        match *self {
            TurnPlace::Entry { session, turn } => Some((session, turn)),
            TurnPlace::Listed(turn) => Some((0, turn)),
            TurnPlace::Line(_) | TurnPlace::File(_) => None,
        }
    }
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
        matches!(self, NoticeKind::Turn(fault) if fault.problem.is_status())
    }

    /// Input that could not be read and was skipped: also in the document's
    /// `losses`, which `check` reports as `input-*` findings.
    pub fn is_input_lost(&self) -> bool {
        matches!(self, NoticeKind::LineSkipped { .. } | NoticeKind::InputLost)
    }
}

impl TurnProblem {
    /// About the Turn's `status` (the lint's status rules, not its shape rule).
    pub fn is_status(self) -> bool {
        matches!(self, TurnProblem::StatusNotAString(_) | TurnProblem::NoStatus)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoticeLevel {
    Info,
    Warning,
    Error,
}
#[cfg(test)]
mod size_probe {
    #[test]
    fn probe() {
        use super::*;
        eprintln!(
            "Notice {} Kind {} Exp {} Show {} NAC {} Jsonl {} Capture {} Repaired {} Skipped {} Fault {} Value {}",
            std::mem::size_of::<Notice>(),
            std::mem::size_of::<NoticeKind>(),
            std::mem::size_of::<ExpNotice>(),
            std::mem::size_of::<ShowNotice>(),
            std::mem::size_of::<NotAConversation>(),
            std::mem::size_of::<JsonlNotice>(),
            std::mem::size_of::<CaptureNotice>(),
            std::mem::size_of::<Repaired>(),
            std::mem::size_of::<SkippedLine>(),
            std::mem::size_of::<TurnFault>(),
            std::mem::size_of::<serde_json::Value>()
        );
    }
}
