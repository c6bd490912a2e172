//! The key table: which key does which intent in each mode, and the keys'
//! names. Every text that names a key (the footer's hints, the help, the
//! notes, the inspector's and the panels' own words, the README's key
//! table) takes the name from here, so no text can name a key that does
//! something else. The terminal loop turns what the terminal reports into a
//! [`KeyPress`]; the app looks it up here.

use super::intent::Intent;
use super::panel::Panel;

/// A key, without its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Char(char),
    Enter,
    Esc,
    Tab,
    /// Shift-Tab, as terminals report it.
    BackTab,
    Backspace,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    F(u8),
}

/// Modifier keys held with a key (a set of bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Mods(u8);

impl Mods {
    pub const NONE: Mods = Mods(0);
    pub const SHIFT: Mods = Mods(1);
    pub const CONTROL: Mods = Mods(2);
    pub const ALT: Mods = Mods(4);

    pub fn contains(self, other: Mods) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Mods {
    type Output = Mods;
    fn bitor(self, other: Mods) -> Mods {
        Mods(self.0 | other.0)
    }
}

impl std::ops::BitAnd for Mods {
    type Output = Mods;
    fn bitand(self, other: Mods) -> Mods {
        Mods(self.0 & other.0)
    }
}

/// A key pressed, as the terminal reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPress {
    pub code: KeyCode,
    pub modifiers: Mods,
}

impl KeyPress {
    pub const fn new(code: KeyCode, modifiers: Mods) -> KeyPress {
        KeyPress { code, modifiers }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Normal,
    Search,
    Help,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: Mods,
}

const fn k(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: Mods::NONE }
}
const fn code(code: KeyCode) -> Key {
    Key { code, mods: Mods::NONE }
}
const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), mods: Mods::CONTROL }
}

/// (mode, key, intent). Order is the order of the help overlay.
pub const BINDINGS: &[(Mode, Key, Intent)] = &[
    (Mode::Normal, k('q'), Intent::Quit),
    (Mode::Normal, ctrl('c'), Intent::Quit),
    (Mode::Normal, k('j'), Intent::Down),
    (Mode::Normal, code(KeyCode::Down), Intent::Down),
    (Mode::Normal, k('k'), Intent::Up),
    (Mode::Normal, code(KeyCode::Up), Intent::Up),
    (Mode::Normal, k('g'), Intent::Top),
    (Mode::Normal, code(KeyCode::Home), Intent::Top),
    (Mode::Normal, k('G'), Intent::Bottom),
    (Mode::Normal, code(KeyCode::End), Intent::Bottom),
    (Mode::Normal, code(KeyCode::PageDown), Intent::PageDown),
    (Mode::Normal, code(KeyCode::PageUp), Intent::PageUp),
    (Mode::Normal, ctrl('d'), Intent::HalfPageDown),
    (Mode::Normal, ctrl('u'), Intent::HalfPageUp),
    (Mode::Normal, k('['), Intent::PrevTurn),
    (Mode::Normal, k(']'), Intent::NextTurn),
    (Mode::Normal, code(KeyCode::Tab), Intent::FocusNext),
    (Mode::Normal, Key { code: KeyCode::BackTab, mods: Mods::SHIFT }, Intent::FocusPrev),
    (Mode::Normal, k('1'), Intent::ShowTab(Panel::Timeline)),
    (Mode::Normal, k('2'), Intent::ShowTab(Panel::Tools)),
    (Mode::Normal, k('3'), Intent::ShowTab(Panel::Hitl)),
    (Mode::Normal, k('4'), Intent::ShowTab(Panel::Usage)),
    (Mode::Normal, k('5'), Intent::ShowTab(Panel::Assertions)),
    (Mode::Normal, k('6'), Intent::ShowTab(Panel::Diagnostics)),
    (Mode::Normal, k('7'), Intent::ShowTab(Panel::Changes)),
    (Mode::Normal, k('8'), Intent::ShowTab(Panel::Timing)),
    (Mode::Normal, k('9'), Intent::ShowTab(Panel::Translation)),
    (Mode::Normal, k('0'), Intent::ShowTab(Panel::Source)),
    (Mode::Normal, k('c'), Intent::ShowTab(Panel::Commands)),
    (Mode::Normal, k('t'), Intent::ToSource),
    (Mode::Normal, code(KeyCode::Enter), Intent::Enter),
    (Mode::Normal, code(KeyCode::Esc), Intent::Back),
    (Mode::Normal, k('/'), Intent::SearchStart),
    (Mode::Normal, k('n'), Intent::SearchNext),
    (Mode::Normal, k('N'), Intent::SearchPrev),
    (Mode::Normal, k('e'), Intent::NextFailure),
    (Mode::Normal, k('E'), Intent::PrevFailure),
    (Mode::Normal, k('w'), Intent::NextWaiting),
    (Mode::Normal, k('d'), Intent::NextFinding),
    (Mode::Normal, k('D'), Intent::PrevFinding),
    (Mode::Normal, k('r'), Intent::ToggleRaw),
    (Mode::Normal, k('m'), Intent::ToggleMerge),
    (Mode::Normal, k('z'), Intent::ToggleFold),
    (Mode::Normal, k('-'), Intent::FoldAll),
    (Mode::Normal, k('+'), Intent::UnfoldAll),
    (Mode::Normal, k('='), Intent::UnfoldAll),
    (Mode::Normal, k('<'), Intent::NavNarrower),
    (Mode::Normal, k('>'), Intent::NavWider),
    (Mode::Normal, k('h'), Intent::CellLeft),
    (Mode::Normal, code(KeyCode::Left), Intent::CellLeft),
    (Mode::Normal, k('l'), Intent::CellRight),
    (Mode::Normal, code(KeyCode::Right), Intent::CellRight),
    (Mode::Normal, k(' '), Intent::Mark),
    (Mode::Normal, k('v'), Intent::ViewAttempt),
    (Mode::Normal, k('f'), Intent::CycleFilter),
    (Mode::Normal, k('s'), Intent::CycleSort),
    (Mode::Normal, k('y'), Intent::Copy),
    (Mode::Normal, k('o'), Intent::OpenPager),
    (Mode::Normal, k('F'), Intent::FollowBottom),
    (Mode::Normal, ctrl('l'), Intent::Redraw),
    (Mode::Normal, ctrl('o'), Intent::JumpBack),
    (Mode::Normal, code(KeyCode::Backspace), Intent::JumpBack),
    (Mode::Normal, ctrl('i'), Intent::JumpForward),
    (Mode::Normal, k('?'), Intent::Help),
    (Mode::Search, code(KeyCode::Enter), Intent::SearchCommit),
    (Mode::Search, code(KeyCode::Esc), Intent::SearchCancel),
    (Mode::Search, ctrl('c'), Intent::SearchCancel),
    (Mode::Search, code(KeyCode::Backspace), Intent::SearchBackspace),
    (Mode::Search, ctrl('r'), Intent::SearchToggleRegex),
    (Mode::Help, code(KeyCode::Esc), Intent::Back),
    (Mode::Help, k('?'), Intent::Back),
    (Mode::Help, k('q'), Intent::Back),
    (Mode::Help, ctrl('c'), Intent::Quit),
    (Mode::Help, k('j'), Intent::Down),
    (Mode::Help, code(KeyCode::Down), Intent::Down),
    (Mode::Help, k('k'), Intent::Up),
    (Mode::Help, code(KeyCode::Up), Intent::Up),
    (Mode::Help, code(KeyCode::PageDown), Intent::PageDown),
    (Mode::Help, code(KeyCode::PageUp), Intent::PageUp),
    (Mode::Help, k(' '), Intent::PageDown),
    (Mode::Help, ctrl('d'), Intent::HalfPageDown),
    (Mode::Help, ctrl('u'), Intent::HalfPageUp),
    (Mode::Help, k('g'), Intent::Top),
    (Mode::Help, code(KeyCode::Home), Intent::Top),
    (Mode::Help, k('G'), Intent::Bottom),
    (Mode::Help, code(KeyCode::End), Intent::Bottom),
];

/// Intents every build must be able to reach from a key.
pub const REACHABLE: &[Intent] = &[
    Intent::Quit,
    Intent::Up,
    Intent::Down,
    Intent::PageUp,
    Intent::PageDown,
    Intent::HalfPageUp,
    Intent::HalfPageDown,
    Intent::Top,
    Intent::Bottom,
    Intent::PrevTurn,
    Intent::NextTurn,
    Intent::FocusNext,
    Intent::FocusPrev,
    Intent::ShowTab(Panel::Timeline),
    Intent::ShowTab(Panel::Tools),
    Intent::ShowTab(Panel::Hitl),
    Intent::ShowTab(Panel::Usage),
    Intent::ShowTab(Panel::Assertions),
    Intent::ShowTab(Panel::Diagnostics),
    Intent::ShowTab(Panel::Changes),
    Intent::ShowTab(Panel::Timing),
    Intent::ShowTab(Panel::Translation),
    Intent::ShowTab(Panel::Source),
    Intent::ShowTab(Panel::Commands),
    Intent::ToSource,
    Intent::Enter,
    Intent::Back,
    Intent::SearchStart,
    Intent::SearchNext,
    Intent::SearchPrev,
    Intent::NextFailure,
    Intent::PrevFailure,
    Intent::NextWaiting,
    Intent::NextFinding,
    Intent::PrevFinding,
    Intent::ToggleRaw,
    Intent::ToggleMerge,
    Intent::CycleFilter,
    Intent::CycleSort,
    Intent::Copy,
    Intent::OpenPager,
    Intent::Help,
    Intent::FollowBottom,
    Intent::Redraw,
    Intent::JumpBack,
    Intent::JumpForward,
    Intent::ToggleFold,
    Intent::FoldAll,
    Intent::UnfoldAll,
    Intent::NavNarrower,
    Intent::NavWider,
    Intent::CellLeft,
    Intent::CellRight,
    Intent::Mark,
    Intent::ViewAttempt,
    Intent::SearchCommit,
    Intent::SearchCancel,
    Intent::SearchBackspace,
    Intent::SearchToggleRegex,
];

/// A key press as the table holds it: the case of a letter is in the
/// character, and Shift is kept only for Shift-Tab.
pub fn normalize(key: KeyPress) -> Key {
    // Terminals report Shift with upper-case letters inconsistently; the
    // character itself carries the case.
    let mods = match key.code {
        KeyCode::Char(_) => key.modifiers & Mods::CONTROL,
        KeyCode::BackTab => Mods::SHIFT,
        _ => key.modifiers & (Mods::CONTROL | Mods::ALT),
    };
    Key { code: key.code, mods }
}

/// Human name of a key, e.g. `Ctrl-d`, `PgDn`, `j`.
pub fn key_name(key: Key) -> String {
    let base = match key.code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::F(n) => format!("F{n}"),
    };
    if key.mods.contains(Mods::CONTROL) { format!("Ctrl-{base}") } else { base }
}

/// (keys, description) rows for a mode, keys of the same action joined.
pub fn help_rows(mode: Mode) -> Vec<(String, String)> {
    let mut rows: Vec<(String, Intent)> = Vec::new();
    for (m, key, action) in BINDINGS {
        if *m != mode {
            continue;
        }
        match rows.iter_mut().find(|(_, a)| a == action) {
            Some((keys, _)) => {
                keys.push_str(" / ");
                keys.push_str(&key_name(*key));
            }
            None => rows.push((key_name(*key), *action)),
        }
    }
    rows.into_iter().map(|(k, a)| (k, a.describe(key_for))).collect()
}

/// The README key table (Markdown), generated from [`BINDINGS`].
pub fn markdown_key_table() -> String {
    let mut out = String::from("| keys | action |\n|---|---|\n");
    for (keys, what) in help_rows(Mode::Normal) {
        out.push_str(&format!("| `{}` | {} |\n", keys.replace(" / ", "` `"), what));
    }
    out
}

/// The name of the key that opens `panel` (its number).
pub fn panel_key(panel: Panel) -> String {
    key_for(Intent::ShowTab(panel))
}

/// The name of the first key bound to `intent` (in the viewer's normal
/// mode, else in the search prompt); empty for an intent no key does.
pub fn key_for(intent: Intent) -> String {
    [Mode::Normal, Mode::Search]
        .iter()
        .find_map(|mode| BINDINGS.iter().find(|(m, _, i)| m == mode && *i == intent))
        .map(|(_, key, _)| key_name(*key))
        .unwrap_or_default()
}
