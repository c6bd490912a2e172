//! Notices of a NiceEval Record (`.niceeval/record`): its runs, attempts,
//! attachments and blobs, and what its observability collection keeps.

use super::LoadFailure;
use crate::model::review::Diagnostic;
use serde_json::Value;
use std::path::PathBuf;

/// A Record's runs, attempts, attachments and blobs.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordNotice {
    /// A file or directory of the Record that was not read.
    Unread(Unread),
    /// An attachment directory without a readable `attachment.json`: skipped.
    AttachmentUnreadable { dir: PathBuf },
    /// An attachment of a family this viewer does not read (and those it reads): skipped.
    UnknownFamily { family: String, dir: PathBuf, known: Vec<&'static str> },
    /// An attachment directory whose `attachment.json` declares another family.
    FamilyDiffersFromDir { dir: PathBuf, family: String },
    /// An attachment without a `schemaVersion`: skipped.
    NoSchemaVersion { family: String, dir: PathBuf },
    /// An attachment newer than this viewer reads (the newest it reads): skipped.
    NewerSchema { family: String, version: u64, dir: PathBuf, newest: u64 },
    /// A diagnostic a run recorded (boxed: large, and rare).
    RunDiagnostic { run: String, diagnostic: Box<Diagnostic> },
    /// No run publishes an attempt.
    NoPublishedAttempts,
    /// Draft runs (no `complete` marker), ignored.
    DraftsIgnored { runs: Vec<String> },
    /// A run whose `complete` is not a zero-byte regular file: skipped.
    CompleteNotAMarker { run: String },
    /// A run without a readable `run.json`: skipped.
    RunJsonUnreadable { run: String },
    /// A member of a run whose attempt ref lacks its attempt or origin run: skipped.
    IncompleteAttemptRef { run: String },
    /// A member of a run whose attempt ref holds an id that is no valid one: skipped.
    InvalidAttemptRef { run: String, origin: String, attempt: String },
    /// The origin run of a carried or accepted attempt is not published
    /// (the member's action, if written).
    OriginUnpublished { origin: String, action: Option<String> },
    /// The attempt directory a member names is not there.
    AttemptDirMissing { dir: PathBuf },
    /// `attempt.json` names another attempt than its directory.
    AttemptIdDiffers { written: String, dir_id: String },
    /// No observability attachment: no conversation, usage or timing.
    ObservabilityNotRecorded,
    /// No assertions attachment.
    AssertionsNotRecorded,
    /// The `otel-trace.json` artifact is not JSON (the parser's words).
    TraceNotJson { why: String },
    /// A blob ref that is no valid blob key: skipped.
    BlobKeyInvalid { key: String, dir: PathBuf },
    /// A blob that is missing or unreadable (the I/O error's words).
    BlobUnreadable { path: PathBuf, io: String },
    /// A blob whose size is not the Record's `byteLength`: not shown.
    BlobLengthDiffers { path: PathBuf, bytes: usize, declared: u64 },
    /// A blob whose sha256 is not the Record's: not shown.
    BlobHashDiffers { path: PathBuf, declared: String, actual: String },
    /// A blob that is not UTF-8: its invalid bytes shown as U+FFFD.
    BlobNotUtf8 { path: PathBuf },
}

/// Why a file or directory of a Record was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// It leads outside the Record (the confinement's words, which name it).
    Outside { why: String },
    /// It is not there, or cannot be read (the I/O error's words).
    Missing { path: PathBuf, io: String },
    /// It is there but refused: not a regular file, too large, or not JSON
    /// from its first byte (the reader's words, which name it).
    Refused { why: String },
    /// It is not valid JSON.
    NotJson(LoadFailure),
}

/// What a Record's observability collection (or `show --json`'s
/// observability view) keeps and what it does not.
#[derive(Debug, Clone, PartialEq)]
pub enum ObservabilityNotice {
    /// A collection is partial: which, and its limitations (as the Record's
    /// completeness words them).
    CollectionPartial { collection: Collection, limitations: Vec<String> },
    /// A provider cost in another currency than USD, not added.
    CostInOtherCurrency { currency: String },
    /// A provider cost whose amount is not a number (as written), not added.
    CostAmountUnreadable { amount: Box<Value> },
    /// A provider cost without an amount, not added.
    CostWithoutAmount,
    /// Tokens in the `other` bucket, in no usage field.
    OtherTokens { tokens: f64 },
    /// Tool requests, not counted in `requests`.
    ToolRequestsNotCounted { requests: u64 },
    /// Usage is the attempt's total: a Record does not attribute it to turns.
    UsageIsAttemptTotal,
    /// The conversation drops what a Record cannot represent.
    ConversationDropsEvents,
    /// A conversation item without a `turnId`: skipped.
    ItemWithoutTurnId,
    /// An item recorded under a turn that arrived after a later turn began:
    /// its kind and call or item id (if written), and that turn.
    LateItem { kind: Option<String>, id: Option<String>, turn: ConversationTurn },
    /// Turns matched to their session/turn labels by order.
    LabelsMatchedByOrder,
    /// Turns without a session/turn label, shown in session 1: how many, of how many.
    TurnsWithoutLabel { unlabeled: usize, turns: usize },
    /// A conversation item made into no event.
    ItemLeftOut(LeftOut),
    /// A turn with an input request recorded as completed (its label, else its id).
    WaitingRecordedAsCompleted { turn: String },
}

/// A conversation turn as a notice names it: its sequence, else its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConversationTurn {
    Sequence(u64),
    Id(String),
}

/// The sub-collections of an observability collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    Timing,
    Usage,
    Diagnostics,
    Commands,
}

/// Why a conversation item became no event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeftOut {
    /// A subagent item in a state that is neither a start nor a finish (as written).
    SubagentState(String),
    /// A subagent item without a state.
    SubagentWithoutState,
    /// An item of a kind this viewer does not map (as written).
    UnknownKind(String),
}
