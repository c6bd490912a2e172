//! Notices of native agent logs (a Claude Code session log, `codex exec
//! --json` output) and of a folder of them.

use crate::model::provenance::{Agent, SkipReason};

/// A native agent log, or a file of a folder of them.
#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptNotice {
    /// How the log was read: by which agent's parser, into how many events,
    /// from how many lines, and how many lines gave nothing.
    Read { path: String, agent: Agent, events: usize, lines: usize, gave_nothing: usize },
    /// Invalid UTF-8 read as U+FFFD, as Node reads the file: how many sequences.
    InvalidUtf8 { path: String, sequences: usize },
    /// A line lost: NiceEval's parser skips it and counts it against
    /// `parseSuccess` (also in the document's `losses`).
    LineLost { path: String, line: usize, reason: SkipReason },
    /// Lines that give nothing by design, one notice per reason: which lines.
    LinesIgnored { path: String, lines: Vec<usize>, reason: SkipReason },
    /// A `*.jsonl` file of a folder that is not listed as a session: its name, and why.
    NotListed { name: String, why: NotListed },
    /// A session of a folder listed from a quick read of its log (its name).
    ListedFromQuickRead { name: String },
}

/// Why a `*.jsonl` file of a folder of logs is not listed as a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotListed {
    /// It could not be read (the I/O error's words).
    Unreadable { io: String },
    /// No line says which agent wrote it.
    NotALog,
}
