//! Notices of the stream and document formats: JSONL streams, captures,
//! `niceeval exp --json` and `niceeval show --json`.

use super::{LoadFailure, Notice};
use serde_json::Value;

/// A JSONL stream of StreamEvents, Turns or capture entries.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonlNotice {
    /// A stream of bare StreamEvents: no Turn status, usage or input.
    EventStreamRecordsNoTurn,
    /// A capture entry's `sessionIndex` is no index; it is ignored.
    SessionIndexIgnored { line: usize },
}

/// A capture (`niceeval-viewer.session/1`).
#[derive(Debug, Clone, PartialEq)]
pub enum CaptureNotice {
    /// `sessions[session]` is not an object (the type found): a session with no turns.
    SessionNotAnObject { session: usize, found: &'static str },
    /// `sessions[session]` has no `turns` array.
    NoTurnsArray { session: usize },
    /// `sessions[session].turns[turn]` holds no `turn`.
    EntryWithoutTurn { session: usize, turn: usize },
}

/// A `niceeval exp --json` NDJSON stream.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpNotice {
    /// A line that is not JSON, skipped.
    BadLine(LoadFailure),
    /// The stream carries no conversation.
    NoConversation,
    /// The `start` line's `schemaVersion` is newer than the one this viewer knows.
    NewerSchema { version: u64 },
    /// A `warning` or `notice` line: its code (or event) and message, as written.
    StreamSays { code: String, message: String },
    /// A lifecycle event (`kept`, `interrupted`, …) and its message or reason.
    Lifecycle { event: String, detail: String },
    /// A line of an event this viewer does not know (1-based line; the
    /// `event` or `type` it names, if any).
    UnknownEvent { line: usize, event: Option<String> },
    /// An `eval` line: how many of its attempts passed.
    EvalTally { passed: u64, attempts: u64 },
    /// An `eval` line's early exit: `planned` and `unstarted` as written
    /// (boxed: a JSON value is large, and an early exit rare).
    EarlyExit { planned: Option<Box<Value>>, unstarted: Option<Box<Value>> },
    /// The receipt: how the invocation completed, and its runs.
    Receipt { completion: Option<String>, runs: Vec<String> },
}

/// A `niceeval show --json` document.
#[derive(Debug, Clone, PartialEq)]
pub enum ShowNotice {
    /// The assessment evidence is not available (its state).
    AssessmentEvidence { state: String },
    /// The execution evidence is not available (its state).
    ExecutionEvidence { state: String },
    /// The file changes are not available (their state).
    FileChanges { state: String },
    /// The timing is not available (its state).
    Timing { state: String },
    /// A problem `show` reported (its code, if any, and summary).
    Problem { code: Option<String>, summary: Option<String> },
    /// A warning of one attempt, said for the whole document too.
    AboutAttempt { locator: Option<String>, notice: Box<Notice> },
    /// The document names no attempt.
    NoAttempts,
}
