//! Notices of eval results: an InvocationSummary's `results[]` (and a
//! legacy run's `result.json`, read the same way) and legacy
//! `niceeval.results` run folders.

use super::LoadFailure;
use std::path::PathBuf;

/// An InvocationSummary, or one of its `EvalResult`s.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultNotice {
    /// `results` is empty: no eval ran in the invocation.
    NoResults,
    /// A result is not a JSON object (the type found).
    NotAnObject { found: &'static str },
    /// The result was skipped, and why (as written).
    Skipped { reason: String },
    /// How many retried sends `retryAttempts` records (not shown as turns).
    RetriedSends { count: usize },
    /// No events and no `agent.turn` nodes: nothing was sent to the agent.
    NoTurns,
    /// `events` is not an array (the type found).
    EventsNotAnArray { found: &'static str },
    /// No `events` key: the conversation was not recorded.
    NoEvents,
    /// The attempt's evidence coverage (worst across its turns) is not
    /// complete: each channel that is not.
    CoverageNotComplete { channels: Vec<ChannelShortfall> },
    /// The score was skipped, and why (as written, if it is).
    ScoreSkipped { reason: Option<String> },
    /// No `agent.turn` nodes: every turn is placed in session 1 (how many).
    NoTurnNodes { turns: usize },
    /// The runner's user messages and the `agent.turn` nodes differ in number.
    TurnNodesMiscounted { messages: usize, nodes: usize },
    /// Events before the first runner user message (how many): a turn with no input.
    EventsBeforeFirstMessage { events: usize },
    /// The runner user message of a turn (1-based) has no text.
    MessageWithoutText { turn: usize },
    /// The runner marked a send as failed: the turn's label, else its number (1-based).
    SendFailed { label: Option<String>, turn: usize },
    /// An `agent.turn` node's `turnIndex` is not the turn's place in its session.
    TurnIndexDiffers { turn: usize, written: u64, position: u64, session: u64 },
    /// A `sources[]` entry without a `path`.
    SourceWithoutPath,
    /// `diff` is not an array of windows (the type found).
    DiffNotAnArray { found: &'static str },
}

/// One evidence-coverage channel that is not complete: its name, its
/// status and the reason given, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelShortfall {
    pub channel: String,
    pub status: String,
    pub reason: Option<String>,
}

/// A legacy `niceeval.results` run folder.
#[derive(Debug, Clone, PartialEq)]
pub enum LegacyNotice {
    /// The run holds no attempt directory.
    NoAttemptDirs,
    /// A folder's `run.json` could not be read: that run is skipped.
    RunSkipped(LoadFailure),
    /// Several runs in one folder: the newest is shown (its folder), and how many older.
    NewestOfSeveral { run: PathBuf, older: usize },
    /// A file of an attempt could not be read (its name): it is skipped.
    FileSkipped { file: &'static str, failure: LoadFailure },
    /// `result.json` is not a JSON object.
    ResultNotAnObject,
    /// The attempt directory has no `result.json`.
    NoResultJson { dir: PathBuf },
    /// `events.json` is not an array (the type found).
    EventsNotAnArray { found: &'static str },
    /// No `events.json`: the conversation was not recorded.
    NoEventsJson,
    /// A source's content (`sources/<sha>.json`) is not there.
    SourceContentMissing { path: String, sha256: String },
}
