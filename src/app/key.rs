//! The keys the app knows, in its own terms: the terminal loop turns what
//! the terminal reports into a [`KeyPress`], so `app` depends on no
//! terminal library.

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
