//! Files a user may hand the viewer that hold no conversation: what each
//! is, with the figures that say so.

/// Which `niceeval show --json` page of comparison rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverviewPage {
    /// The project's (`groups`).
    Project,
    /// One experiment's.
    Experiment,
}

/// A JSON document that is not a conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum NotAConversation {
    /// A `niceeval show --json` page of comparison rows: which page, its
    /// `kind` as written (`groups`, `experiment-group`) and the experiments
    /// it selects.
    ShowOverview { page: OverviewPage, kind: String, experiments: Vec<String> },
    /// An OTel `TraceSpan[]`.
    TraceSpans { spans: usize, traces: usize },
    /// sdk-converter raw frames.
    RawFrames { frames: usize },
    /// An OTLP/JSON ExportTraceServiceRequest.
    Otlp { spans: usize },
    /// An invocation status index: its `format` and how many sessions it lists.
    StatusIndex { format: String, sessions: usize },
    /// `niceeval exp list --json`: the experiment ids.
    ExperimentList { ids: Vec<String> },
    /// An `exp --dry --json` plan: its `format`, and `(total, reused)` when written.
    Plan { format: String, counts: Option<(u64, u64)> },
    /// `.niceeval/sessions/s_<uuid>.json`: its status (if written) and runs.
    InvocationSession { status: Option<String>, runs: Vec<String> },
}
