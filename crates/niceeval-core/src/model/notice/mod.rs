//! Notices about an input: what a loader could not take as written, what it
//! skipped, what the file does not record. Each is a fact with its data; the
//! view words it (`view::notice`), and every decision reads the fact.

mod other_files;
mod record;
mod results;
mod streams;
mod transcript;
mod viewer;

pub use other_files::{NotAConversation, OverviewPage};
pub use record::{Collection, ConversationTurn, LeftOut, ObservabilityNotice, RecordNotice, Unread};
pub use results::{ChannelShortfall, LegacyNotice, ResultNotice};
pub use streams::{CaptureNotice, ExpNotice, JsonlNotice, ShowNotice};
pub use transcript::{NotListed, TranscriptNotice};
pub use viewer::{FollowChange, PreviewPart, ViewerNotice, Waiting};

/// A notice about the input: partial data, skipped parts, soft errors.
/// How much it matters is its `level`; what it says is its `kind`, a fact
/// with its data, which every decision reads and only the view words.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub level: NoticeLevel,
    pub kind: NoticeKind,
}

impl Notice {
    pub fn new(level: NoticeLevel, kind: impl Into<NoticeKind>) -> Notice {
        Notice { level, kind: kind.into() }
    }
}

/// What a notice states: one variant per fact (a family of facts for each
/// input format), each with the data it is about. A decision matches the
/// kind, never the words.
#[derive(Debug, Clone, PartialEq)]
pub enum NoticeKind {
    /// A Turn's JSON breaks the contract. `check` reports these as findings
    /// (`turn-shape`, `turn-status-missing`), so surfaces do not print them
    /// twice.
    Turn(TurnFault),
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
    /// document's `losses`, which `check` reports as `input-*` findings).
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
    Transcript(TranscriptNotice),
    Viewer(ViewerNotice),
}

/// Lets a loader write `Notice::new(level, SomeFamily::Fact { … })`.
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
    ObservabilityNotice => Observability,
    TranscriptNotice => Transcript,
    ViewerNotice => Viewer
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
        matches!(self, NoticeKind::LineSkipped { .. } | NoticeKind::Transcript(TranscriptNotice::LineLost { .. }))
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
mod tests {
    /// A notice is a folder scan's error value (`Result<SessionRow, Notice>`)
    /// and every attempt holds a list of them: its large facts are boxed.
    #[test]
    fn a_notice_stays_small() {
        assert!(std::mem::size_of::<super::Notice>() <= 96, "{} bytes", std::mem::size_of::<super::Notice>());
    }
}
