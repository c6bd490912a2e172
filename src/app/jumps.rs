//! The jump list: where the view was before each jump (Enter to evidence or
//! to a row, a failure, a waiting request, a finding, a search match, the
//! next turn, the top or bottom), so `Ctrl-o` goes back and `Ctrl-i` forward,
//! as in vim and helix.

use super::{App, Focus, Lists, Panel, Scope};

/// Everything that says where the user is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    scope: Scope,
    tab: Panel,
    focus: Focus,
    lists: Lists,
    inspector_scroll: usize,
}

/// Places left behind by jumps, oldest first; `at` is where Ctrl-o / Ctrl-i stand.
#[derive(Debug, Clone, Default)]
pub struct JumpList {
    places: Vec<Place>,
    at: usize,
}

/// Jumps kept; older ones are forgotten.
const KEPT: usize = 100;

impl App {
    pub(super) fn place(&self) -> Place {
        Place {
            scope: self.scope,
            tab: self.tab,
            focus: self.focus,
            lists: self.lists,
            inspector_scroll: self.inspector_scroll,
        }
    }

    /// A jump left `from`: remember it (a new jump drops the places ahead).
    pub(super) fn record_jump(&mut self, from: Place) {
        if self.place() == from {
            return;
        }
        let j = &mut self.jumps;
        j.places.truncate(j.at);
        if j.places.last() != Some(&from) {
            j.places.push(from);
        }
        if j.places.len() > KEPT {
            j.places.remove(0);
        }
        j.at = j.places.len();
    }

    fn go(&mut self, p: Place) {
        if self.scope != p.scope {
            super::scope::set_scope(self, p.scope);
        }
        self.tab = p.tab;
        self.focus = p.focus;
        self.lists = p.lists;
        self.inspector_scroll = p.inspector_scroll;
        let (len, rows) = (self.list_len(), self.viewport.list_rows);
        self.list_mut().clamp(len, rows);
    }

    /// Back to where the last jump left from.
    pub(super) fn jump_back(&mut self) {
        if self.jumps.at == 0 {
            self.say(crate::view::note::Note::NoEarlierJump);
            return;
        }
        // Going back from the newest place keeps it, so Ctrl-i can return.
        if self.jumps.at == self.jumps.places.len() {
            let here = self.place();
            self.jumps.places.push(here);
        }
        self.jumps.at -= 1;
        let p = self.jumps.places[self.jumps.at];
        self.go(p);
    }

    /// Forward again, after Ctrl-o.
    pub(super) fn jump_forward(&mut self) {
        if self.jumps.at + 1 >= self.jumps.places.len() {
            self.say(crate::view::note::Note::NoLaterJump);
            return;
        }
        self.jumps.at += 1;
        let p = self.jumps.places[self.jumps.at];
        self.go(p);
    }
}
