//! What the viewer says on its footer after a key, a jump, a reload or a
//! source's news: one typed note per fact, worded here only. A note that
//! names a key takes its name from the key table (`view::keys`).

use super::chrome::PagerFailure;
use super::filters::{ToolFilter, VerdictFilter};
use super::format::count;
use super::intent::Intent;
use super::keys::key_for;
use super::panel::Panel;
use crate::model::diagnostics::InputLoss;

pub use crate::model::notice::FollowChange;

/// Why a followed file is read again, in words.
fn change_words(change: FollowChange) -> &'static str {
    match change {
        FollowChange::Replaced => "the file was replaced",
        FollowChange::Truncated => "the file was truncated",
        FollowChange::Back => "the file is back",
        FollowChange::Appeared => "the file appeared",
    }
}

/// What a jump looked for and did not find in scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sought {
    Failures,
    Waiting,
    Findings,
}

/// Which filter or search Esc cleared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cleared {
    Attempts,
    Inspector,
    Tools,
    Search,
}

/// A note on the footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    // The selection: copy, pager, Enter.
    NothingSelected,
    NothingToCopy,
    NothingToOpen,
    NothingOnThisSide,
    Copied {
        chars: usize,
        replaced: usize,
    },
    CopiedPart {
        copied: usize,
        of: usize,
        at_most_kb: usize,
        replaced: usize,
    },
    Paged {
        replaced: usize,
    },
    PagerFailed {
        program: String,
        why: PagerFailure,
    },
    // The lists' modes.
    Merged(bool),
    AttemptsFilter {
        filter: VerdictFilter,
        shown: usize,
    },
    ToolsFilter(ToolFilter),
    ToolsSorted {
        by_name: bool,
    },
    TurnFolded(bool),
    TurnsFolded {
        turns: usize,
        folded: bool,
    },
    NavigatorWidth(u16),
    NavigatorNeedsWidth(u16),
    Follow {
        live: bool,
    },
    SuspendRefused,
    // Jumps.
    FirstTurn,
    LastTurn,
    NoneInScope(Sought),
    NoFindings,
    NoEarlierJump,
    NoLaterJump,
    PositionNotInTimeline,
    AssertionPointsAtNoRow,
    EvidenceApproximate,
    /// An evidence link outside the transcript, in the view's words.
    EvidenceElsewhere(String),
    EvidenceNotInTranscript(String),
    /// Why an errored attempt errored, and where that is (the view's `jump_note`).
    Errored(String),
    RecordedDiagnosticHasNoRow,
    // Search.
    Cleared(Cleared),
    AttemptsMatching {
        label: String,
        shown: usize,
    },
    ToolsMatching {
        label: String,
        shown: usize,
    },
    Searching {
        found: usize,
        percent: usize,
    },
    NoMatchFor(String),
    Matches(usize),
    MatchPosition {
        at: usize,
        of: usize,
    },
    NoMatches,
    NoSearch,
    // Native lines and the Translation tab.
    NoNativeLines,
    EventNotInTimeline,
    /// A native line that became no event, and why (the view's words).
    LineDropped(String),
    RowHasNoLine,
    // The Source and Commands tabs.
    NoSource,
    NoCommands,
    /// The turn's send is on no recorded source line.
    TurnHasNoSendLine,
    /// A source line with no assertion or send on it.
    NothingOnLine,
    /// A send whose label names no turn of the attempt.
    SendTurnUnknown,
    /// A command not linked to a timing interval.
    CommandNotTimed,
    /// A step of where a failure began that nothing recorded names.
    StepNamesNothing,
    // A folder of native logs.
    SessionRead {
        name: String,
        events: usize,
    },
    SessionUnreadable(String),
    // Loads and reloads.
    /// The whole file loaded: its bytes, its events, how long it took.
    Loaded {
        bytes: u64,
        events: usize,
        elapsed_ms: u64,
    },
    PreviewOnly(String),
    Reloaded,
    NewEvents(usize),
    FollowSkipped {
        added: usize,
        skipped: Vec<InputLoss>,
    },
    /// A followed file changed and was read again.
    ReadAgain(FollowChange),
    /// A followed file has no complete line (`empty`: no bytes at all).
    WaitingForLines {
        name: String,
        change: Option<FollowChange>,
        empty: bool,
    },
    ReloadFailed(String),
    KeepingLastGood(String),
    Unreadable {
        name: String,
        why: String,
    },
    Disappeared(String),
    StreamEnded(String),
    StreamEndedEmpty(String),
    StreamFailed {
        name: String,
        why: String,
    },
    StreamTooLarge {
        name: String,
        limit: u64,
    },
    StreamBinary(String),
    // The compare screens.
    BackToComparison,
    EscBackToComparison {
        side: Option<(String, String)>,
    },
    NoAttemptInCell,
    SplitPanels,
    SearchInViewer,
    NoFurtherOnSide {
        forward: bool,
        turn: bool,
    },
    NoRowChanges,
    MarkCleared,
    Marked,
    MatrixKeys,
    NoOtherCell,
    OneAttemptHere,
    NoAttemptToMark,
    MarkedIsSelected,
    NoRow,
    /// Search on the matrix: it is the viewer's.
    SearchInViewerMatrix,
}

impl Note {
    /// Said in the error look (something went wrong, or was not done).
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Note::CopiedPart { .. }
                | Note::PagerFailed { .. }
                | Note::SuspendRefused
                | Note::PositionNotInTimeline
                | Note::EvidenceElsewhere(_)
                | Note::EvidenceNotInTranscript(_)
                | Note::NoMatchFor(_)
                | Note::EventNotInTimeline
                | Note::SessionUnreadable(_)
                | Note::PreviewOnly(_)
                | Note::FollowSkipped { .. }
                | Note::ReloadFailed(_)
                | Note::KeepingLastGood(_)
                | Note::Unreadable { .. }
                | Note::Disappeared(_)
                | Note::StreamFailed { .. }
                | Note::StreamTooLarge { .. }
                | Note::StreamBinary(_)
        )
    }

    /// The note's words.
    pub fn words(&self) -> String {
        let key = key_for;
        match self {
            Note::NothingSelected => super::chrome::NOTHING_SELECTED.into(),
            Note::NothingToCopy => "nothing selected to copy".into(),
            Note::NothingToOpen => "nothing selected to open".into(),
            Note::NothingOnThisSide => "nothing selected on this side".into(),
            Note::Copied { chars, replaced } => {
                format!("copied {chars} characters (OSC 52){}", replaced_note(*replaced))
            }
            Note::CopiedPart { copied, of, at_most_kb, replaced } => {
                copied_part(*copied, *of, *at_most_kb, *replaced, &key(Intent::OpenPager))
            }
            Note::Paged { replaced } => format!("opened in $PAGER{}", replaced_note(*replaced)),
            Note::PagerFailed { program, why } => super::chrome::pager_failed(program, why),
            Note::SuspendRefused => "cannot suspend: SIGTSTP is ignored here".into(),
            Note::Follow { live } => super::chrome::follow_flash(*live).into(),
            Note::Merged(true) => "timeline: lifecycle rows merged".into(),
            Note::Merged(false) => "timeline: every raw event on its own row".into(),
            Note::AttemptsFilter { filter, shown } => format!("attempts: {} ({shown} shown)", filter.word()),
            Note::ToolsFilter(filter) => format!("tools filter: {}", filter.word()),
            Note::ToolsSorted { by_name: true } => "tools sorted by name".into(),
            Note::ToolsSorted { by_name: false } => "tools sorted by position".into(),
            Note::TurnFolded(true) => format!("turn folded ({} unfolds it)", key(Intent::ToggleFold)),
            Note::TurnFolded(false) => "turn unfolded".into(),
            Note::TurnsFolded { turns, folded } => turns_folded(*turns, *folded, &key(Intent::UnfoldAll)),
            Note::NavigatorWidth(columns) => format!("navigator {columns} columns"),
            Note::NavigatorNeedsWidth(w) => {
                format!("the navigator's width changes when the terminal is {w} columns or wider")
            }
            Note::FirstTurn => "first turn".into(),
            Note::LastTurn => "last turn".into(),
            Note::NoneInScope(sought) => format!("no {} in this scope", sought_words(*sought)),
            Note::NoFindings => "no diagnostic findings".into(),
            Note::NoEarlierJump => "no earlier place in the jump list".into(),
            Note::NoLaterJump => "no later place in the jump list".into(),
            Note::PositionNotInTimeline => "that position is not in the timeline".into(),
            Note::AssertionPointsAtNoRow => "this assertion points at no transcript row".into(),
            Note::EvidenceApproximate => APPROXIMATE.into(),
            Note::EvidenceElsewhere(words) => format!("evidence {words}"),
            Note::EvidenceNotInTranscript(source) => format!("evidence {source} is not in this transcript"),
            Note::Errored(note) => note.clone(),
            Note::RecordedDiagnosticHasNoRow => super::chrome::RECORDED_DIAGNOSTIC_HAS_NO_ROW.into(),
            Note::Cleared(what) => format!("{} cleared", cleared_words(*what)),
            Note::AttemptsMatching { label, shown } => format!("attempts matching {label}: {shown}"),
            Note::ToolsMatching { label, shown } => format!("tool calls matching {label}: {shown}"),
            Note::Searching { found: 0, percent } => format!("searching… ({percent}%)"),
            Note::Searching { found, percent } => {
                format!("searching… {} so far ({percent}%)", count(*found, "match", "matches"))
            }
            Note::NoMatchFor(label) => format!("no match for {label} in this scope"),
            Note::Matches(n) => count(*n, "match", "matches"),
            Note::MatchPosition { at, of } => super::search::match_position(*at, *of),
            Note::NoMatches => "no matches".into(),
            Note::NoSearch => format!("no search: press {} to search", key(Intent::SearchStart)),
            Note::NoNativeLines => super::chrome::NO_NATIVE_LINES.into(),
            Note::EventNotInTimeline => super::chrome::NOT_IN_TIMELINE.into(),
            Note::LineDropped(why) => super::chrome::dropped_line(why),
            Note::RowHasNoLine => super::chrome::ROW_HAS_NO_LINE.into(),
            Note::NoSource => super::source_rows::empty_text().into(),
            Note::NoCommands => "sandbox commands are not recorded in this input".into(),
            Note::TurnHasNoSendLine => "this turn's send is on no recorded source line".into(),
            Note::NothingOnLine => "no assertion or send on this line".into(),
            Note::SendTurnUnknown => "this send's turn is not among the attempt's turns".into(),
            Note::CommandNotTimed => "this command is not linked to a timing interval".into(),
            Note::StepNamesNothing => "nothing recorded names this step: it is no jump".into(),
            Note::SessionRead { name, events } => super::sessions::opened_text(name, *events),
            Note::SessionUnreadable(why) => super::sessions::open_failed_text(why),
            Note::Loaded { bytes, events, elapsed_ms } => {
                super::chrome::loaded_text(*bytes, *events, *elapsed_ms as f64 / 1000.0)
            }
            Note::PreviewOnly(why) => format!("{why}; showing the preview only"),
            Note::Reloaded => "reloaded".into(),
            Note::NewEvents(n) => format!("+{}", count(*n, "event", "events")),
            Note::FollowSkipped { added, skipped } => {
                super::chrome::follow_skipped(*added, &skipped.iter().collect::<Vec<_>>())
            }
            Note::ReadAgain(change) => format!("{}; reloaded", change_words(*change)),
            Note::WaitingForLines { name, change, empty } => format!("{name} {}", waiting_for_lines(*change, *empty)),
            Note::ReloadFailed(e) => format!("reload failed, keeping the last good view: {e}"),
            Note::KeepingLastGood(e) => format!("keeping the last good view: {e}"),
            Note::Unreadable { name, why } => format!("{name}: {why}; keeping the last good view"),
            Note::Disappeared(name) => format!("{name} disappeared; keeping the last good view"),
            Note::StreamEnded(name) => format!("{name}: the stream ended"),
            Note::StreamEndedEmpty(name) => format!("{name}: the stream ended empty"),
            Note::StreamFailed { name, why } => format!("{name}: {why}; the stream ended"),
            Note::StreamTooLarge { name, limit } => stream_too_large(name, *limit),
            Note::StreamBinary(name) => format!("{name}: this stream is binary, not UTF-8 text; stopped reading"),
            Note::BackToComparison => "back to the comparison".into(),
            Note::EscBackToComparison { side } => esc_back(side.as_ref(), &key(Intent::Back)),
            Note::NoAttemptInCell => "no attempt in this cell".into(),
            Note::SplitPanels => split_panels(),
            Note::SearchInViewer => {
                format!("search is in the viewer: {} opens this side there", key(Intent::ViewAttempt))
            }
            Note::NoFurtherOnSide { forward, turn } => no_further(*forward, *turn),
            Note::NoRowChanges => "no row changes across the columns".into(),
            Note::MarkCleared => "mark cleared".into(),
            Note::Marked => format!("marked: {} on another cell opens the two side by side", key(Intent::Enter)),
            Note::MatrixKeys => matrix_keys(&key(Intent::Enter), &key(Intent::ViewAttempt)),
            Note::NoOtherCell => "no other cell in this row".into(),
            Note::OneAttemptHere => one_attempt_here(&key(Intent::ViewAttempt), &key(Intent::Mark)),
            Note::NoAttemptToMark => "no attempt in this cell to mark".into(),
            Note::MarkedIsSelected => "the marked cell is the selected one: move to another cell".into(),
            Note::NoRow => "no row".into(),
            Note::SearchInViewerMatrix => {
                format!("search is in the viewer: {} opens the selected attempt", key(Intent::ViewAttempt))
            }
        }
    }
}

const APPROXIMATE: &str = "approximate: the evidence's turn or event was not found exactly; this is the best match";

fn copied_part(copied: usize, of: usize, at_most_kb: usize, replaced: usize, pager: &str) -> String {
    format!(
        "copied the first {copied} of {of} characters (OSC 52 takes at most {at_most_kb} KB){}; {pager} opens the whole value in $PAGER",
        replaced_note(replaced)
    )
}

fn turns_folded(turns: usize, folded: bool, unfold: &str) -> String {
    let turns = count(turns, "turn", "turns");
    if folded { format!("{turns} folded ({unfold} unfolds)") } else { format!("{turns} unfolded") }
}

fn sought_words(sought: Sought) -> &'static str {
    match sought {
        Sought::Failures => "failures or errors",
        Sought::Waiting => "waiting input requests",
        Sought::Findings => "findings",
    }
}

fn cleared_words(what: Cleared) -> &'static str {
    match what {
        Cleared::Attempts => "attempt filter",
        Cleared::Inspector => "inspector search",
        Cleared::Tools => "tool filter",
        Cleared::Search => "search",
    }
}

fn stream_too_large(name: &str, limit: u64) -> String {
    format!("{name}: more than {limit} bytes came; stopped reading, showing what came before")
}

fn esc_back(side: Option<&(String, String)>, back: &str) -> String {
    let side = side.map(|(word, source)| format!(" · {word}: {source}")).unwrap_or_default();
    format!("{back} (at the top) goes back to the comparison{side}")
}

fn split_panels() -> String {
    let tabs: Vec<String> =
        Panel::SPLIT.iter().map(|p| format!("{} {}", key_for(Intent::ShowTab(*p)), p.title())).collect();
    format!("the split view has {}; {} opens this side in the viewer", tabs.join(", "), key_for(Intent::ViewAttempt))
}

fn no_further(forward: bool, turn: bool) -> String {
    format!("no {} {} on this side", if forward { "later" } else { "earlier" }, if turn { "turn" } else { "change" })
}

fn matrix_keys(enter: &str, view: &str) -> String {
    format!("the matrix: {enter} opens a changed row or two cells side by side, {view} one attempt in the viewer")
}

fn one_attempt_here(view: &str, mark: &str) -> String {
    format!("this eval has one attempt here: {view} opens it in the viewer, {mark} marks it to compare")
}

/// A followed file with no complete line: what happened to it, and that
/// the viewer waits ("was truncated to 0 bytes; waiting for lines").
pub fn waiting_for_lines(change: Option<FollowChange>, empty: bool) -> String {
    let now = if empty { "is empty" } else { "has no complete line yet" };
    let what = match change {
        Some(FollowChange::Truncated) if empty => "was truncated to 0 bytes".to_string(),
        Some(c) => format!("{}; it {now}", change_words(c)),
        None => now.to_string(),
    };
    format!("{what}; waiting for lines")
}

/// " · 3 control characters replaced" after a copy or a page, or nothing.
pub fn replaced_note(replaced: usize) -> String {
    if replaced == 0 {
        String::new()
    } else {
        format!(" · {} replaced", count(replaced, "control character", "control characters"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_their_keys_from_the_table() {
        let pager = key_for(Intent::OpenPager);
        let cases = [
            (
                Note::CopiedPart { copied: 1, of: 2, at_most_kb: 100, replaced: 0 },
                format!("; {pager} opens the whole value"),
            ),
            (Note::TurnFolded(true), format!("({} unfolds it)", key_for(Intent::ToggleFold))),
            (
                Note::TurnsFolded { turns: 8, folded: true },
                format!("8 turns folded ({} unfolds)", key_for(Intent::UnfoldAll)),
            ),
            (Note::NoSearch, format!("press {} to search", key_for(Intent::SearchStart))),
            (Note::EscBackToComparison { side: None }, format!("{} (at the top)", key_for(Intent::Back))),
            (
                Note::SplitPanels,
                format!(
                    "{} Timeline, {} Tools",
                    key_for(Intent::ShowTab(Panel::Timeline)),
                    key_for(Intent::ShowTab(Panel::Tools))
                ),
            ),
        ];
        for (note, says) in cases {
            let words = note.words();
            assert!(words.contains(&says), "{note:?}: {words}");
        }
        // As the table has them today.
        assert_eq!(Note::NoSearch.words(), "no search: press / to search");
        assert!(
            Note::SplitPanels.words().starts_with("the split view has 1 Timeline, 2 Tools, 4 Usage, 5 Assertions; v ")
        );
    }

    #[test]
    fn what_went_wrong_is_said_as_an_error_and_what_was_done_is_not() {
        assert!(Note::SuspendRefused.is_error());
        assert!(Note::Disappeared("f.jsonl".into()).is_error());
        assert!(!Note::Reloaded.is_error());
        assert!(!Note::Copied { chars: 3, replaced: 0 }.is_error());
        assert_eq!(Note::Paged { replaced: 1 }.words(), "opened in $PAGER · 1 control character replaced");
    }
}
