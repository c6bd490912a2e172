//! Everything a key, a mouse event or a timer can ask the app to do.

pub use crate::view::panel::Panel;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Up,
    Down,
    PageUp,
    PageDown,
    HalfPageUp,
    HalfPageDown,
    Top,
    Bottom,
    PrevTurn,
    NextTurn,
    FocusNext,
    FocusPrev,
    ShowTab(Panel),
    Enter,
    Back,
    SearchStart,
    SearchNext,
    SearchPrev,
    NextFailure,
    PrevFailure,
    NextWaiting,
    NextFinding,
    PrevFinding,
    ToggleRaw,
    ToggleMerge,
    CycleFilter,
    CycleSort,
    Copy,
    OpenPager,
    Help,
    FollowBottom,
    Redraw,
    JumpBack,
    /// From a timeline row of a native log to the native line it came from.
    ToNativeLine,
    JumpForward,
    ToggleFold,
    FoldAll,
    UnfoldAll,
    NavNarrower,
    NavWider,
    // Compare screens.
    CellLeft,
    CellRight,
    Mark,
    ViewAttempt,
    // Search prompt.
    SearchChar(char),
    SearchBackspace,
    SearchCommit,
    SearchCancel,
    SearchToggleRegex,
    // Mouse.
    ScrollAt {
        column: u16,
        row: u16,
        down: bool,
    },
    ClickAt {
        column: u16,
        row: u16,
    },
    // From the terminal (not keys).
    /// The terminal's size: at the start, on a resize, after a suspend.
    Resize {
        width: u16,
        height: u16,
    },
    /// A running search scan's next step, taken between key presses.
    SearchStep,
    /// Ctrl-Z where SIGTSTP is ignored: the viewer cannot stop.
    SuspendRefused,
    /// The pager `o` opened did not show the value.
    PagerFailed {
        program: String,
        why: crate::view::chrome::PagerFailure,
    },
    // From sources (not keys): see `app::sources`.
    /// A background load (or a folder's listing) started: how far it has got.
    LoadStarted(crate::view::chrome::LoadProgress),
    /// A background load's progress.
    LoadProgress {
        bytes: u64,
        lines: u64,
        building: bool,
        elapsed_ms: u64,
    },
    /// The whole file, loaded and prepared off the UI thread.
    Loaded {
        prepared: super::sources::Handoff<super::Prepared>,
        elapsed_ms: u64,
    },
    /// The whole load failed: the preview stays, its notice ending in
    /// `still_loading` says why.
    LoadFailed {
        why: String,
        still_loading: &'static str,
    },
    /// More of a folder of native logs read: its sessions join the list.
    SessionsListed(super::sources::Handoff<super::folder::Listed>),
    /// `--watch` / `--follow`: a new document.
    Reloaded {
        doc: super::sources::Handoff<crate::model::document::Document>,
        note: super::sources::ReloadNote,
    },
    /// A source's words for the footer (a failed reload, a stream that ended).
    SourceSays {
        text: String,
        error: bool,
    },
    #[doc(hidden)]
    DebugPanic,
}

impl Action {
    /// What the action does, for the help overlay and the README key table.
    pub fn describe(&self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Up => "move up",
            Action::Down => "move down",
            Action::PageUp => "page up",
            Action::PageDown => "page down",
            Action::HalfPageUp => "half page up",
            Action::HalfPageDown => "half page down",
            Action::Top => "go to top",
            Action::Bottom => "go to bottom",
            Action::PrevTurn => "previous turn",
            Action::NextTurn => "next turn",
            Action::FocusNext => "next panel (split view: the other side)",
            Action::FocusPrev => "previous panel",
            Action::ShowTab(Panel::Timeline) => "Timeline tab",
            Action::ShowTab(Panel::Tools) => "Tools tab",
            Action::ShowTab(Panel::Hitl) => "HITL tab",
            Action::ShowTab(Panel::Usage) => "Usage tab",
            Action::ShowTab(Panel::Assertions) => "Assertions tab",
            Action::ShowTab(Panel::Diagnostics) => "Diagnostics tab",
            Action::ShowTab(Panel::Changes) => "Changes tab (file changes)",
            Action::ShowTab(Panel::Timing) => "Timing tab (execution waterfall)",
            Action::ShowTab(Panel::Translation) => "Translation tab (native lines and the events they became)",
            Action::Enter => "open / expand / jump to the row (compare: the split view of a changed row or two cells)",
            Action::Back => "back out (close, clear search, collapse)",
            Action::SearchStart => "search the timeline or inspector, filter a list",
            Action::SearchNext => "next search match",
            Action::SearchPrev => "previous search match",
            Action::NextFailure => {
                "next failure or error, then why an errored attempt errored (elsewhere: the first one)"
            }
            Action::PrevFailure => "previous failure or error",
            Action::NextWaiting => "next waiting input request",
            Action::NextFinding => "next diagnostic finding (]d / [d: next / previous from where the bracket left)",
            Action::PrevFinding => "previous diagnostic finding",
            Action::ToggleRaw => "inspector: Preview / Raw JSON",
            Action::ToggleMerge => "timeline: merged lifecycle rows / raw events",
            Action::CycleFilter => "filter: tools by status, attempts by verdict",
            Action::CycleSort => "tools: sort by position / name",
            Action::Copy => "copy selected value or the fix prompt (OSC 52)",
            Action::OpenPager => "open selected value in $PAGER",
            Action::Help => "help",
            Action::FollowBottom => "follow: stick to the bottom",
            Action::Redraw => "redraw the screen",
            Action::JumpBack => "back to where the last jump came from",
            Action::ToNativeLine => "timeline: the native log line (or converter call) the row came from",
            Action::ToggleFold => "timeline: fold / unfold the turn",
            Action::FoldAll => "timeline: fold every turn",
            Action::UnfoldAll => "timeline: unfold every turn",
            Action::NavNarrower => "navigator narrower",
            Action::NavWider => "navigator wider",
            Action::CellLeft => "compare: the cell to the left",
            Action::CellRight => "compare: the cell to the right",
            Action::Mark => "compare: mark a cell (Enter on another opens the two side by side)",
            Action::ViewAttempt => "compare: open the cell's attempt (split: this side's) in the viewer",
            Action::JumpForward => "forward again in the jump list (where the terminal tells it from Tab)",
            Action::SearchChar(_) => "type",
            Action::SearchBackspace => "delete a character",
            Action::SearchCommit => "keep the results",
            Action::SearchCancel => "cancel: put back what was there",
            Action::SearchToggleRegex => "text (ignores case) or regex (as show --grep)",
            Action::ScrollAt { .. } => "scroll",
            Action::ClickAt { .. } => "select",
            Action::Resize { .. } => "the terminal's size",
            Action::SearchStep => "a search step",
            Action::SuspendRefused => "suspend refused",
            Action::PagerFailed { .. } => "the pager failed",
            Action::LoadStarted(_) => "loading started",
            Action::LoadProgress { .. } => "loading progress",
            Action::Loaded { .. } => "the whole file loaded",
            Action::LoadFailed { .. } => "the whole load failed",
            Action::Reloaded { .. } => "reloaded",
            Action::SessionsListed(_) => "more sessions listed",
            Action::SourceSays { .. } => "a source's message",
            Action::DebugPanic => "debug: panic on purpose",
        }
    }
}
