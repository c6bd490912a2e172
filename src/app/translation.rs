//! The Translation tab's moves: from a native line to the events it became
//! in the timeline, and from a timeline row back to its native line. Both
//! are jumps (Ctrl-o returns).

use super::{App, Focus, Panel};
use crate::model::provenance::Provenance;

impl App {
    /// The native lines of the attempt shown, when its input records them.
    pub fn provenance(&self) -> Option<&Provenance> {
        self.attempt().and_then(|a| a.provenance.as_deref())
    }

    /// The tabs the tab bar shows: Translation only for an input with
    /// native lines, Source and Commands only for one that records them.
    pub fn shown_tabs(&self) -> Vec<Panel> {
        let (native, source, commands) = (self.provenance().is_some(), self.has_source(), self.has_commands());
        Panel::ALL
            .iter()
            .copied()
            .filter(|t| match t {
                Panel::Translation => native,
                Panel::Source => source,
                Panel::Commands => commands,
                _ => true,
            })
            .collect()
    }

    /// Enter on a native line: its first event's timeline row.
    pub(super) fn native_line_to_events(&mut self) {
        let at = self.lists.translation.selected;
        let Some(p) = self.provenance() else { return };
        let addr = crate::view::translation::turn_addr(p, at);
        let first = p.events(at).first().map(|&e| e as usize);
        let dropped = p.dropped(at).map(crate::view::translation::drop_detail);
        match (first, self.view()) {
            (Some(e), Some(view)) => match view.timeline.row_of_event(addr, e) {
                Some(row) => {
                    self.tab = Panel::Timeline;
                    self.select_row(row);
                    self.focus = Focus::List;
                }
                None => self.say(crate::view::note::Note::EventNotInTimeline),
            },
            (None, _) => self.say(crate::view::note::Note::LineDropped(dropped.unwrap_or_default())),
            _ => {}
        }
    }

    /// From the selected timeline row to the native line its event came from.
    pub(super) fn row_to_native_line(&mut self) {
        let Some(row) = self.selected_row() else { return };
        let Some((addr, event)) = self.view().and_then(|v| v.timeline.rows.get(row)).map(|r| (r.addr(), r.event()))
        else {
            return;
        };
        let Some(p) = self.provenance() else {
            self.say(crate::view::note::Note::NoNativeLines);
            return;
        };
        let line = event.and_then(|e| p.line_of((addr.session, addr.turn), e));
        match line {
            Some(i) => {
                self.tab = Panel::Translation;
                self.lists.translation.selected = i;
                self.focus = Focus::List;
                self.inspector_scroll = 0;
                let (len, rows) = (self.list_len(), self.viewport.list_rows);
                self.list_mut().clamp(len, rows);
            }
            None => self.say(crate::view::note::Note::RowHasNoLine),
        }
    }
}
