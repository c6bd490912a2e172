//! Findings about an event stream: what is wrong, where, and how to fix it.
//! Produced by the lint rules (`niceeval check`) and shown by every surface.
//! Also what a load lost of its input ([`InputLoss`]), which the rules report.

use std::borrow::Cow;

/// Error findings break NiceEval's derivations; warnings are likely mistakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a finding points: attempt, session and turn indices into the
/// document, and the adapter event index inside the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Location {
    pub attempt: usize,
    pub session: usize,
    pub turn: Option<usize>,
    /// Index into `turn.events` (the timeline shows it as event ordinal `event + 1`).
    pub event: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Stable kebab-case code, e.g. `orphan-finish`.
    pub code: &'static str,
    pub severity: Severity,
    pub location: Location,
    /// One line: what is wrong.
    pub message: String,
    /// One line: how to fix it. Almost always the rule's own hint, borrowed
    /// from the catalog: a long stream has hundreds of thousands of findings.
    pub hint: Cow<'static, str>,
    /// The spec rule it enforces, e.g. `derivation §2.2`.
    pub rule: &'static str,
    /// For a finding about the input file itself (a skipped line, replaced
    /// text) rather than a turn: where in the file.
    pub input: Option<InputAt>,
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
