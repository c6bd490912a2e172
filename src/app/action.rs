//! Everything a key, a mouse event, the terminal or a source can ask the app to do.

pub use crate::view::intent::Intent;
pub use crate::view::panel::Panel;

/// A message to [`super::update`]: a key's intent, a typed character, a
/// click, or something from the terminal or a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// What a key (or a click on a tab) asks for.
    Intent(Intent),
    /// A character typed into the search prompt.
    SearchChar(char),
    /// Show this attempt, session or turn in the other panels (as the
    /// navigator does).
    Scope(super::Scope),
    /// Select a timeline row, by its index in the attempt's rows (a jump
    /// from another surface to an event).
    ShowRow(usize),
    /// Focus a panel (as a click on it does).
    Focus(super::Focus),
    /// Select the open list's `n`-th row (as a click on it does, or a jump
    /// from another surface).
    SelectRow(usize),
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
    /// The whole load failed: the preview stays, and its notice says why.
    LoadFailed {
        why: String,
    },
    /// More of a folder of native logs read: its sessions join the list.
    SessionsListed(super::sources::Handoff<super::folder::Listed>),
    /// `--watch` / `--follow`: a new document.
    Reloaded {
        doc: super::sources::Handoff<crate::model::document::Document>,
        note: super::sources::ReloadNote,
    },
    /// What a source says on the footer (a failed reload, a stream that ended).
    SourceSays(crate::view::note::Note),
    #[doc(hidden)]
    DebugPanic,
}

impl From<Intent> for Action {
    fn from(intent: Intent) -> Action {
        Action::Intent(intent)
    }
}
