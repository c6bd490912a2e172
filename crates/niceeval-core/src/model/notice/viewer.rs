//! Notices the viewer adds to what it shows: a preview while a large file
//! loads, a followed file with nothing to show yet, a folder's listing
//! that stopped.

/// What the viewer says of the document it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewerNotice {
    /// A preview of a large file is shown while the rest loads.
    PreviewLoading(PreviewPart),
    /// The whole load failed: only the preview is shown (which part, when
    /// known), and why (the runtime's words, with the load error's).
    PreviewOnly { preview: Option<PreviewPart>, why: String },
    /// A followed file or stream with nothing to show yet: its name, and
    /// what the viewer waits for.
    Waiting { name: String, why: Waiting },
    /// A folder's listing stopped on a bug: after how many of its files.
    ListingCrashed { listed: usize, files: usize },
}

/// The start of a file a preview was made from: the file, and how many of
/// its bytes, of how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewPart {
    pub path: String,
    pub shown: u64,
    pub total: u64,
}

/// What a followed input waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waiting {
    /// A stream (a FIFO, a pipe) before its first lines.
    StreamStart,
    /// A file that does not exist yet.
    ToBeWritten,
    /// A file with no complete line (what happened to it, if it changed,
    /// and whether it is empty).
    ForLines { change: Option<FollowChange>, empty: bool },
}

/// Why a followed file is read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FollowChange {
    Replaced,
    Truncated,
    Back,
    Appeared,
}
