//! What a key can ask the viewer to do: its intents, each with the words
//! that describe it (for the help overlay, the README's key table and the
//! footer's hints). The app's key table maps keys to them.

use super::panel::Panel;

/// A key-bound intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Intent {
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
    /// To where the selection came from: a native log row's line, a
    /// Record turn's send or an assertion's line in the eval source.
    ToSource,
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
    SearchBackspace,
    SearchCommit,
    SearchCancel,
    SearchToggleRegex,
}

impl Intent {
    /// What the intent does, for the help overlay and the README key table;
    /// the keys it names are named by `key_for` (the key table's).
    pub fn describe(self, key_for: impl Fn(Intent) -> String) -> String {
        match self {
            Intent::NextFinding => format!(
                "next diagnostic finding ({}{} / {}{}: next / previous from where the bracket left)",
                key_for(Intent::NextTurn),
                key_for(Intent::NextFinding),
                key_for(Intent::PrevTurn),
                key_for(Intent::NextFinding)
            ),
            Intent::Mark => {
                format!("compare: mark a cell ({} on another opens the two side by side)", key_for(Intent::Enter))
            }
            Intent::JumpForward => format!(
                "forward again in the jump list (where the terminal tells it from {})",
                key_for(Intent::FocusNext)
            ),
            other => other.words().to_string(),
        }
    }

    /// What an intent does where that names no key.
    fn words(self) -> &'static str {
        match self {
            Intent::Quit => "quit",
            Intent::Up => "move up",
            Intent::Down => "move down",
            Intent::PageUp => "page up",
            Intent::PageDown => "page down",
            Intent::HalfPageUp => "half page up",
            Intent::HalfPageDown => "half page down",
            Intent::Top => "go to top",
            Intent::Bottom => "go to bottom",
            Intent::PrevTurn => "previous turn",
            Intent::NextTurn => "next turn",
            Intent::FocusNext => "next panel (split view: the other side)",
            Intent::FocusPrev => "previous panel",
            Intent::ShowTab(Panel::Timeline) => "Timeline tab",
            Intent::ShowTab(Panel::Tools) => "Tools tab",
            Intent::ShowTab(Panel::Hitl) => "HITL tab",
            Intent::ShowTab(Panel::Usage) => "Usage tab",
            Intent::ShowTab(Panel::Assertions) => "Assertions tab",
            Intent::ShowTab(Panel::Diagnostics) => "Diagnostics tab",
            Intent::ShowTab(Panel::Changes) => "Changes tab (file changes)",
            Intent::ShowTab(Panel::Timing) => "Timing tab (execution waterfall)",
            Intent::ShowTab(Panel::Translation) => "Translation tab (native lines and the events they became)",
            Intent::ShowTab(Panel::Source) => "Source tab (the eval files, assertion and send lines marked)",
            Intent::ShowTab(Panel::Commands) => "Commands tab (the sandbox's setup, test and teardown commands)",
            Intent::Enter => "open / expand / jump to the row (compare: the split view of a changed row or two cells)",
            Intent::Back => "back out (close, clear search, collapse)",
            Intent::SearchStart => "search the timeline or inspector, filter a list",
            Intent::SearchNext => "next search match",
            Intent::SearchPrev => "previous search match",
            Intent::NextFailure => {
                "next failure or error, then why an errored attempt errored (elsewhere: the first one)"
            }
            Intent::PrevFailure => "previous failure or error",
            Intent::NextWaiting => "next waiting input request",
            Intent::PrevFinding => "previous diagnostic finding",
            Intent::ToggleRaw => "inspector: Preview / Raw JSON",
            Intent::ToggleMerge => "timeline: merged lifecycle rows / raw events",
            Intent::CycleFilter => "filter: tools by status, attempts by verdict",
            Intent::CycleSort => "tools: sort by position / name",
            Intent::Copy => "copy selected value or the fix prompt (OSC 52)",
            Intent::OpenPager => "open selected value in $PAGER",
            Intent::Help => "help",
            Intent::FollowBottom => "follow: stick to the bottom",
            Intent::Redraw => "redraw the screen",
            Intent::JumpBack => "back to where the last jump came from",
            Intent::ToSource => {
                "where it came from: a native log row's line (or converter call); a turn's send or an assertion's line in the Source tab"
            }
            Intent::ToggleFold => "timeline: fold / unfold the turn",
            Intent::FoldAll => "timeline: fold every turn",
            Intent::UnfoldAll => "timeline: unfold every turn",
            Intent::NavNarrower => "navigator narrower",
            Intent::NavWider => "navigator wider",
            Intent::CellLeft => "compare: the cell to the left",
            Intent::CellRight => "compare: the cell to the right",
            Intent::ViewAttempt => "compare: open the cell's attempt (split: this side's) in the viewer",
            Intent::SearchBackspace => "delete a character",
            Intent::SearchCommit => "keep the results",
            Intent::SearchCancel => "cancel: put back what was there",
            Intent::SearchToggleRegex => "text (ignores case) or regex (as show --grep)",
            // Described above, with the keys they name.
            Intent::NextFinding | Intent::Mark | Intent::JumpForward => "",
        }
    }
}
