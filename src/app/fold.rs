//! Folded turns: `z` folds or unfolds the selected row's turn, `-` folds
//! every turn in scope and `+` unfolds them. A folded turn shows its header
//! (which counts its events); search and jumps still look inside and unfold
//! the turn they land in.

use super::App;
use super::rows::RowNumbers;
use crate::model::timeline::RowKind;

impl App {
    /// `z`: fold or unfold the turn of the selected row.
    pub fn toggle_fold(&mut self) {
        let Some(addr) = self.selected_row().and_then(|r| self.view()?.timeline.rows.get(r)).map(|r| r.addr()) else {
            return;
        };
        let key = (self.scope.attempt, addr);
        let folding = !self.folded.remove(&key);
        if folding {
            self.folded.insert(key);
        }
        self.refold();
        self.say(crate::view::note::Note::TurnFolded(folding));
    }

    /// `-` / `+`: fold or unfold every turn in scope.
    pub fn fold_all(&mut self, fold: bool) {
        let attempt = self.scope.attempt;
        let Some(view) = self.view() else { return };
        let rows = &view.timeline.rows;
        let turns: Vec<_> = self
            .scope_rows()
            .iter()
            .map(|&r| &rows[r as usize])
            .filter(|r| r.kind == RowKind::TurnHeader)
            .map(|r| r.addr())
            .collect();
        let n = turns.len();
        for addr in turns {
            if fold {
                self.folded.insert((attempt, addr));
            } else {
                self.folded.remove(&(attempt, addr));
            }
        }
        self.refold();
        self.say(crate::view::note::Note::TurnsFolded { turns: n, folded: fold });
    }

    /// Show the folds, keeping the selection on its row, or on the header
    /// of the turn it folded into.
    fn refold(&mut self) {
        let keep = self.selected_row();
        self.set_scope_rows();
        let at = keep.map(|row| self.visible().before(row + 1).saturating_sub(1)).unwrap_or(0);
        self.lists.timeline.selected = at;
        let rows = self.viewport.list_rows;
        self.lists.timeline.clamp(self.visible().len(), rows);
    }

    /// Is this turn folded?
    pub fn is_folded(&self, addr: crate::model::TurnAddr) -> bool {
        self.folded.contains(&(self.scope.attempt, addr))
    }
}
