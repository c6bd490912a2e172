//! The footer's key hints: for each place the keyboard can be, which
//! intents to name and in what words. The keys are not written here: the
//! key table names them ([`hint_keys`]), so a hint cannot name a
//! key that does something else.

use super::intent::Intent;
use super::keys::key_for;
use super::panel::Panel;

/// Where the keyboard is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintsFor {
    Navigator,
    Inspector,
    /// A panel's list.
    Panel(Panel),
    /// `view --compare`'s matrix.
    Matrix,
    /// The split view of two attempts.
    Split,
    /// The split view with the side's inspector open.
    SplitInspector,
}

/// One hint: the keys of `intents` (joined by `sep`) and what they do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    pub intents: &'static [Intent],
    pub sep: &'static str,
    pub word: &'static str,
}

impl Hint {
    /// The hint that stays when a narrow footer drops the others.
    pub fn is_help(&self) -> bool {
        self.intents == [Intent::Help]
    }
}

const fn h(intents: &'static [Intent], word: &'static str) -> Hint {
    Hint { intents, sep: "/", word }
}

/// A hint's keys, joined as it joins them ("j/k", "[ ]").
pub fn hint_keys(hint: &Hint) -> String {
    hint.intents.iter().map(|i| key_for(*i)).collect::<Vec<_>>().join(hint.sep)
}

/// Keys named one after the other (`[ ]`, `1 2 4 5`).
const fn spaced(intents: &'static [Intent], word: &'static str) -> Hint {
    Hint { intents, sep: " ", word }
}

const MOVE: &[Intent] = &[Intent::Down, Intent::Up];
const HELP: Hint = h(&[Intent::Help], "help");
const QUIT: Hint = h(&[Intent::Quit], "quit");
const RAW: Hint = h(&[Intent::ToggleRaw], "raw");
const COPY: Hint = h(&[Intent::Copy], "copy");
const PAGER: Hint = h(&[Intent::OpenPager], "pager");
const JUMP_TO_ROW: Hint = h(&[Intent::Enter], "jump to row");

/// A list of hints made at compile time (a `const`, so it lives for good).
macro_rules! list {
    ($($hint:expr),* $(,)?) => {{
        const LIST: &[Hint] = &[$($hint),*];
        LIST
    }};
}

/// The footer's key hints for where the keyboard is.
pub fn hints(at: HintsFor) -> &'static [Hint] {
    match at {
        HintsFor::Navigator => list![
            h(MOVE, "move"),
            h(&[Intent::Enter], "open"),
            h(&[Intent::CycleFilter], "filter"),
            h(&[Intent::SearchStart], "find"),
            HELP,
            QUIT,
        ],
        HintsFor::Inspector => list![h(MOVE, "scroll"), RAW, COPY, PAGER, h(&[Intent::Back], "back")],
        HintsFor::Panel(Panel::Timeline) => list![
            h(MOVE, "move"),
            h(&[Intent::SearchStart], "search"),
            h(&[Intent::NextFailure], "next failure"),
            h(&[Intent::NextWaiting], "waiting"),
            spaced(&[Intent::PrevTurn, Intent::NextTurn], "turn"),
            h(&[Intent::ToggleMerge], "merge"),
            HELP,
        ],
        HintsFor::Panel(Panel::Tools) => {
            list![JUMP_TO_ROW, h(&[Intent::CycleFilter], "filter"), h(&[Intent::CycleSort], "sort"), RAW, HELP]
        }
        HintsFor::Panel(Panel::Hitl) => list![JUMP_TO_ROW, RAW, COPY, HELP],
        // No j/k: the table shows no selection, and scrolls only when it is taller than the panel.
        HintsFor::Panel(Panel::Usage) => list![h(&[Intent::FocusNext], "panel"), HELP, QUIT],
        HintsFor::Panel(Panel::Assertions) => {
            list![
                h(&[Intent::Enter], "jump to evidence"),
                h(&[Intent::ToSource], "source"),
                RAW,
                h(&[Intent::Copy], "copy (fix prompt on its row)"),
                HELP
            ]
        }
        HintsFor::Panel(Panel::Diagnostics) => {
            list![JUMP_TO_ROW, h(&[Intent::NextFinding, Intent::PrevFinding], "next/prev finding"), HELP]
        }
        HintsFor::Panel(Panel::Changes) => list![h(MOVE, "move"), COPY, PAGER, HELP],
        HintsFor::Panel(Panel::Timing) => list![h(MOVE, "move"), h(&[Intent::Enter], "open/close"), RAW, COPY, HELP],
        HintsFor::Panel(Panel::Translation) => list![
            h(MOVE, "move"),
            h(&[Intent::Enter], "to its events"),
            h(&[Intent::JumpBack], "back"),
            RAW,
            COPY,
            HELP,
        ],
        HintsFor::Panel(Panel::Source) => list![
            h(MOVE, "move"),
            h(&[Intent::Enter], "to its turn or assertion"),
            h(&[Intent::JumpBack], "back"),
            COPY,
            HELP,
        ],
        HintsFor::Panel(Panel::Commands) => {
            list![h(MOVE, "move"), h(&[Intent::Enter], "to its timing"), RAW, COPY, PAGER, HELP,]
        }
        HintsFor::Matrix => list![
            h(MOVE, "row"),
            h(&[Intent::CellLeft, Intent::CellRight], "cell"),
            h(&[Intent::Enter], "split view"),
            h(&[Intent::Mark], "mark"),
            h(&[Intent::ViewAttempt], "viewer"),
            h(&[Intent::NextFailure], "next change"),
            HELP,
            QUIT,
        ],
        HintsFor::Split => list![
            h(&[Intent::FocusNext], "side"),
            h(MOVE, "move"),
            h(&[Intent::Enter], "inspect"),
            spaced(&SPLIT_TABS, "tab"),
            h(&[Intent::NextFailure], "next change"),
            h(&[Intent::ViewAttempt], "viewer"),
            h(&[Intent::Back], "matrix"),
            HELP,
        ],
        HintsFor::SplitInspector => list![
            h(&[Intent::FocusNext], "side"),
            h(MOVE, "move"),
            h(&[Intent::PageDown, Intent::PageUp], "scroll"),
            RAW,
            COPY,
            h(&[Intent::ViewAttempt], "viewer"),
            h(&[Intent::Back], "close"),
            HELP,
        ],
    }
}

/// The split view's tabs, as intents that open them.
const SPLIT_TABS: [Intent; 4] = [
    Intent::ShowTab(Panel::SPLIT[0]),
    Intent::ShowTab(Panel::SPLIT[1]),
    Intent::ShowTab(Panel::SPLIT[2]),
    Intent::ShowTab(Panel::SPLIT[3]),
];

/// Every place the keyboard can be, for the tests that check the hints.
pub fn every_place() -> Vec<HintsFor> {
    let mut out = vec![HintsFor::Navigator, HintsFor::Inspector];
    out.extend(Panel::ALL.map(HintsFor::Panel));
    out.extend([HintsFor::Matrix, HintsFor::Split, HintsFor::SplitInspector]);
    out
}
