//! The terminal's keys in the app's terms (`app::key`): the app depends on
//! no terminal library.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The terminal's key in the app's terms; `None` for a key the app binds nothing to.
pub fn key_press(key: KeyEvent) -> Option<crate::app::key::KeyPress> {
    use crate::app::key::{KeyCode as K, KeyPress, Mods};
    let code = match key.code {
        KeyCode::Char(c) => K::Char(c),
        KeyCode::Enter => K::Enter,
        KeyCode::Esc => K::Esc,
        KeyCode::Tab => K::Tab,
        KeyCode::BackTab => K::BackTab,
        KeyCode::Backspace => K::Backspace,
        KeyCode::Up => K::Up,
        KeyCode::Down => K::Down,
        KeyCode::Left => K::Left,
        KeyCode::Right => K::Right,
        KeyCode::PageUp => K::PageUp,
        KeyCode::PageDown => K::PageDown,
        KeyCode::Home => K::Home,
        KeyCode::End => K::End,
        KeyCode::F(n) => K::F(n),
        _ => return None,
    };
    let held =
        [(KeyModifiers::SHIFT, Mods::SHIFT), (KeyModifiers::CONTROL, Mods::CONTROL), (KeyModifiers::ALT, Mods::ALT)];
    let mods = held.iter().filter(|(t, _)| key.modifiers.contains(*t)).fold(Mods::NONE, |m, (_, a)| m | *a);
    Some(KeyPress::new(code, mods))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::key::{KeyCode as K, KeyPress, Mods};

    #[test]
    fn terminal_keys_become_the_apps_and_keys_it_does_not_bind_are_dropped() {
        let press = |code, mods| key_press(KeyEvent::new(code, mods));
        assert_eq!(press(KeyCode::Char('c'), KeyModifiers::CONTROL), Some(KeyPress::new(K::Char('c'), Mods::CONTROL)));
        assert_eq!(press(KeyCode::BackTab, KeyModifiers::SHIFT), Some(KeyPress::new(K::BackTab, Mods::SHIFT)));
        let both = KeyModifiers::CONTROL | KeyModifiers::ALT;
        assert_eq!(press(KeyCode::F(12), both), Some(KeyPress::new(K::F(12), Mods::CONTROL | Mods::ALT)));
        assert_eq!(press(KeyCode::Insert, KeyModifiers::NONE), None);
    }
}
