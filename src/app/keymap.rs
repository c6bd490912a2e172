//! The key table: the one place keys become actions. The help overlay and
//! the README key table are generated from it (a test keeps the README
//! equal); the footer hints and the keys named in other texts are still
//! written by hand in `view::chrome`.

use super::action::{Action, Panel};
use super::key::{KeyCode, KeyPress, Mods};

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

/// (mode, key, action). Order is the order of the help overlay.
pub const BINDINGS: &[(Mode, Key, Action)] = &[
    (Mode::Normal, k('q'), Action::Quit),
    (Mode::Normal, ctrl('c'), Action::Quit),
    (Mode::Normal, k('j'), Action::Down),
    (Mode::Normal, code(KeyCode::Down), Action::Down),
    (Mode::Normal, k('k'), Action::Up),
    (Mode::Normal, code(KeyCode::Up), Action::Up),
    (Mode::Normal, k('g'), Action::Top),
    (Mode::Normal, code(KeyCode::Home), Action::Top),
    (Mode::Normal, k('G'), Action::Bottom),
    (Mode::Normal, code(KeyCode::End), Action::Bottom),
    (Mode::Normal, code(KeyCode::PageDown), Action::PageDown),
    (Mode::Normal, code(KeyCode::PageUp), Action::PageUp),
    (Mode::Normal, ctrl('d'), Action::HalfPageDown),
    (Mode::Normal, ctrl('u'), Action::HalfPageUp),
    (Mode::Normal, k('['), Action::PrevTurn),
    (Mode::Normal, k(']'), Action::NextTurn),
    (Mode::Normal, code(KeyCode::Tab), Action::FocusNext),
    (Mode::Normal, Key { code: KeyCode::BackTab, mods: Mods::SHIFT }, Action::FocusPrev),
    (Mode::Normal, k('1'), Action::ShowTab(Panel::Timeline)),
    (Mode::Normal, k('2'), Action::ShowTab(Panel::Tools)),
    (Mode::Normal, k('3'), Action::ShowTab(Panel::Hitl)),
    (Mode::Normal, k('4'), Action::ShowTab(Panel::Usage)),
    (Mode::Normal, k('5'), Action::ShowTab(Panel::Assertions)),
    (Mode::Normal, k('6'), Action::ShowTab(Panel::Diagnostics)),
    (Mode::Normal, k('7'), Action::ShowTab(Panel::Changes)),
    (Mode::Normal, k('8'), Action::ShowTab(Panel::Timing)),
    (Mode::Normal, k('9'), Action::ShowTab(Panel::Translation)),
    (Mode::Normal, k('t'), Action::ToNativeLine),
    (Mode::Normal, code(KeyCode::Enter), Action::Enter),
    (Mode::Normal, code(KeyCode::Esc), Action::Back),
    (Mode::Normal, k('/'), Action::SearchStart),
    (Mode::Normal, k('n'), Action::SearchNext),
    (Mode::Normal, k('N'), Action::SearchPrev),
    (Mode::Normal, k('e'), Action::NextFailure),
    (Mode::Normal, k('E'), Action::PrevFailure),
    (Mode::Normal, k('w'), Action::NextWaiting),
    (Mode::Normal, k('d'), Action::NextFinding),
    (Mode::Normal, k('D'), Action::PrevFinding),
    (Mode::Normal, k('r'), Action::ToggleRaw),
    (Mode::Normal, k('m'), Action::ToggleMerge),
    (Mode::Normal, k('z'), Action::ToggleFold),
    (Mode::Normal, k('-'), Action::FoldAll),
    (Mode::Normal, k('+'), Action::UnfoldAll),
    (Mode::Normal, k('='), Action::UnfoldAll),
    (Mode::Normal, k('<'), Action::NavNarrower),
    (Mode::Normal, k('>'), Action::NavWider),
    (Mode::Normal, k('h'), Action::CellLeft),
    (Mode::Normal, code(KeyCode::Left), Action::CellLeft),
    (Mode::Normal, k('l'), Action::CellRight),
    (Mode::Normal, code(KeyCode::Right), Action::CellRight),
    (Mode::Normal, k(' '), Action::Mark),
    (Mode::Normal, k('v'), Action::ViewAttempt),
    (Mode::Normal, k('f'), Action::CycleFilter),
    (Mode::Normal, k('s'), Action::CycleSort),
    (Mode::Normal, k('y'), Action::Copy),
    (Mode::Normal, k('o'), Action::OpenPager),
    (Mode::Normal, k('F'), Action::FollowBottom),
    (Mode::Normal, ctrl('l'), Action::Redraw),
    (Mode::Normal, ctrl('o'), Action::JumpBack),
    (Mode::Normal, code(KeyCode::Backspace), Action::JumpBack),
    (Mode::Normal, ctrl('i'), Action::JumpForward),
    (Mode::Normal, k('?'), Action::Help),
    (Mode::Search, code(KeyCode::Enter), Action::SearchCommit),
    (Mode::Search, code(KeyCode::Esc), Action::SearchCancel),
    (Mode::Search, ctrl('c'), Action::SearchCancel),
    (Mode::Search, code(KeyCode::Backspace), Action::SearchBackspace),
    (Mode::Search, ctrl('r'), Action::SearchToggleRegex),
    (Mode::Help, code(KeyCode::Esc), Action::Back),
    (Mode::Help, k('?'), Action::Back),
    (Mode::Help, k('q'), Action::Back),
    (Mode::Help, ctrl('c'), Action::Quit),
    (Mode::Help, k('j'), Action::Down),
    (Mode::Help, code(KeyCode::Down), Action::Down),
    (Mode::Help, k('k'), Action::Up),
    (Mode::Help, code(KeyCode::Up), Action::Up),
    (Mode::Help, code(KeyCode::PageDown), Action::PageDown),
    (Mode::Help, code(KeyCode::PageUp), Action::PageUp),
    (Mode::Help, k(' '), Action::PageDown),
    (Mode::Help, ctrl('d'), Action::HalfPageDown),
    (Mode::Help, ctrl('u'), Action::HalfPageUp),
    (Mode::Help, k('g'), Action::Top),
    (Mode::Help, code(KeyCode::Home), Action::Top),
    (Mode::Help, k('G'), Action::Bottom),
    (Mode::Help, code(KeyCode::End), Action::Bottom),
];

/// Actions every build must be able to reach from a key.
pub const REACHABLE: &[Action] = &[
    Action::Quit,
    Action::Up,
    Action::Down,
    Action::PageUp,
    Action::PageDown,
    Action::HalfPageUp,
    Action::HalfPageDown,
    Action::Top,
    Action::Bottom,
    Action::PrevTurn,
    Action::NextTurn,
    Action::FocusNext,
    Action::FocusPrev,
    Action::ShowTab(Panel::Timeline),
    Action::ShowTab(Panel::Tools),
    Action::ShowTab(Panel::Hitl),
    Action::ShowTab(Panel::Usage),
    Action::ShowTab(Panel::Assertions),
    Action::ShowTab(Panel::Diagnostics),
    Action::ShowTab(Panel::Changes),
    Action::ShowTab(Panel::Timing),
    Action::ShowTab(Panel::Translation),
    Action::ToNativeLine,
    Action::Enter,
    Action::Back,
    Action::SearchStart,
    Action::SearchNext,
    Action::SearchPrev,
    Action::NextFailure,
    Action::PrevFailure,
    Action::NextWaiting,
    Action::NextFinding,
    Action::PrevFinding,
    Action::ToggleRaw,
    Action::ToggleMerge,
    Action::CycleFilter,
    Action::CycleSort,
    Action::Copy,
    Action::OpenPager,
    Action::Help,
    Action::FollowBottom,
    Action::Redraw,
    Action::JumpBack,
    Action::JumpForward,
    Action::ToggleFold,
    Action::FoldAll,
    Action::UnfoldAll,
    Action::NavNarrower,
    Action::NavWider,
    Action::CellLeft,
    Action::CellRight,
    Action::Mark,
    Action::ViewAttempt,
    Action::SearchCommit,
    Action::SearchCancel,
    Action::SearchBackspace,
    Action::SearchToggleRegex,
];

fn normalize(key: KeyPress) -> Key {
    // Terminals report Shift with upper-case letters inconsistently; the
    // character itself carries the case.
    let mods = match key.code {
        KeyCode::Char(_) => key.modifiers & Mods::CONTROL,
        KeyCode::BackTab => Mods::SHIFT,
        _ => key.modifiers & (Mods::CONTROL | Mods::ALT),
    };
    Key { code: key.code, mods }
}

/// The action for a key in a mode. In Search mode, plain characters type.
pub fn lookup(mode: Mode, key: KeyPress) -> Option<Action> {
    let key = normalize(key);
    if let Some((_, _, action)) = BINDINGS.iter().find(|(m, k, _)| *m == mode && *k == key) {
        return Some(action.clone());
    }
    if mode == Mode::Search
        && let KeyCode::Char(c) = key.code
        && key.mods.is_empty()
    {
        return Some(Action::SearchChar(c));
    }
    None
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

/// The name of the key that opens `panel` (its number).
pub fn panel_key(panel: Panel) -> String {
    BINDINGS
        .iter()
        .find(|(m, _, a)| *m == Mode::Normal && *a == Action::ShowTab(panel))
        .map(|(_, key, _)| key_name(*key))
        .unwrap_or_default()
}

/// (keys, description) rows for a mode, keys of the same action joined.
pub fn help_rows(mode: Mode) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, Action)> = Vec::new();
    for (m, key, action) in BINDINGS {
        if *m != mode {
            continue;
        }
        match rows.iter_mut().find(|(_, a)| a == action) {
            Some((keys, _)) => {
                keys.push_str(" / ");
                keys.push_str(&key_name(*key));
            }
            None => rows.push((key_name(*key), action.clone())),
        }
    }
    rows.into_iter().map(|(k, a)| (k, a.describe())).collect()
}

/// The README key table (Markdown), generated from [`BINDINGS`].
pub fn markdown_key_table() -> String {
    let mut out = String::from("| keys | action |\n|---|---|\n");
    for (keys, what) in help_rows(Mode::Normal) {
        out.push_str(&format!("| `{}` | {} |\n", keys.replace(" / ", "` `"), what));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn no_key_is_bound_twice_in_one_mode() {
        let mut seen = HashSet::new();
        for (mode, key, action) in BINDINGS {
            assert!(seen.insert((*mode, *key)), "{:?} {} bound twice (again to {action:?})", mode, key_name(*key));
        }
    }

    #[test]
    fn every_action_has_a_key() {
        for action in REACHABLE {
            assert!(BINDINGS.iter().any(|(_, _, a)| a == action), "{action:?} has no key");
        }
    }

    #[test]
    fn search_mode_types_characters() {
        let ev = KeyPress::new(KeyCode::Char('q'), Mods::NONE);
        assert_eq!(lookup(Mode::Search, ev), Some(Action::SearchChar('q')));
        assert_eq!(lookup(Mode::Normal, ev), Some(Action::Quit));
        let shifted = KeyPress::new(KeyCode::Char('G'), Mods::SHIFT);
        assert_eq!(lookup(Mode::Normal, shifted), Some(Action::Bottom));
    }
}
