//! The app's side of the key table (`view::keys`): a key press looked up
//! in the mode the app is in.

pub use crate::view::keys::*;

use super::action::Action;

/// The action for a key in a mode. In Search mode, plain characters type.
pub fn lookup(mode: Mode, key: KeyPress) -> Option<Action> {
    let key = normalize(key);
    if let Some((_, _, intent)) = BINDINGS.iter().find(|(m, k, _)| *m == mode && *k == key) {
        return Some(Action::Intent(*intent));
    }
    if mode == Mode::Search
        && let KeyCode::Char(c) = key.code
        && key.mods.is_empty()
    {
        return Some(Action::SearchChar(c));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Intent;
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
        assert_eq!(lookup(Mode::Normal, ev), Some(Intent::Quit.into()));
        let shifted = KeyPress::new(KeyCode::Char('G'), Mods::SHIFT);
        assert_eq!(lookup(Mode::Normal, shifted), Some(Intent::Bottom.into()));
    }
}
