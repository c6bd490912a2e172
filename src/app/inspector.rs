//! The inspector's content as lines at its width, made once per selection
//! and kept: the screen draws it, and `update` measures it (how far it
//! scrolls, which of its lines a search matches), so no size or match has
//! to come back from a drawn frame.

use super::search::{Seek, seek};
use super::{App, Focus, Panel};
use crate::styled::{Chrome, Line, ThemeName};
use crate::view::report::Selection;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::rc::Rc;

/// What the inspector shows: its title and its lines at one width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    pub title: String,
    pub lines: Vec<Line>,
}

/// Contents made so far, by what they were made from; dropped when a new
/// document is installed or when many have piled up.
#[derive(Default)]
pub struct Memo {
    made: RefCell<HashMap<u64, Rc<Content>>>,
}

impl Memo {
    pub fn get_or_make(&self, key: u64, make: impl FnOnce() -> Content) -> Rc<Content> {
        let mut made = self.made.borrow_mut();
        if made.len() > 48 {
            made.clear();
        }
        made.entry(key).or_insert_with(|| Rc::new(make())).clone()
    }
}

/// Where a search finds itself in the inspector's lines.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Found {
    /// Lines that match, each with the byte ranges that match.
    pub lines: Vec<(usize, Vec<Range<usize>>)>,
    /// The match shown (an index into `lines`).
    pub current: Option<usize>,
}

impl App {
    /// The inspector's rectangle at the current terminal size (none when
    /// the layout hides it).
    pub fn inspector_area(&self) -> Option<super::layout::Rect> {
        super::layout::areas(self.viewport.width, self.viewport.height, self).inspector
    }

    /// The inspector's lines at `width` columns (inside its border).
    pub fn inspector_content(&self, width: usize) -> Rc<Content> {
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (self.generation, self.tab_index(), self.scope, self.list().selected, self.raw, width).hash(&mut h);
            (self.focus == Focus::Nav, self.selected(), self.theme as u8).hash(&mut h);
            h.finish()
        };
        self.inspector_memo.get_or_make(key, || self.make_inspector_content(width))
    }

    fn make_inspector_content(&self, width: usize) -> Content {
        use crate::view::inspect::{preview, raw};
        let full = Selection { full: true, ..Selection::default() };
        let (Some(sel), Some(ctx)) = (self.selected(), self.context(&full)) else {
            return Content {
                title: crate::view::chrome::INSPECTOR_TITLE.into(),
                lines: vec![Line::chrome(crate::view::chrome::NOTHING_SELECTED, Chrome::Dim)],
            };
        };
        let inspected = if self.raw { raw(&ctx, sel) } else { preview(&ctx, &self.findings, sel) };
        let mut lines = crate::styled::blocks::lines(&inspected.blocks, width, self.theme);
        if self.tab != Panel::Timeline && self.focus != Focus::Nav && lines.is_empty() {
            lines.push(Line::chrome(crate::view::chrome::NOTHING_TO_SHOW, Chrome::Dim));
        }
        Content { title: inspected.title, lines }
    }

    /// The split view's inspector: the focused side's selection at `width`.
    pub fn split_inspector_content(&self, width: usize) -> Option<Rc<Content>> {
        let s = self.compare.as_ref()?.split.as_ref()?;
        let cv = self.cv()?;
        let line = s.list().selected;
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            // The leading tag keeps these keys apart from the viewer's own inspector keys.
            (0x5e_u8, self.generation, s.split.attempts, s.tab, line, s.side, self.raw, width).hash(&mut h);
            (self.theme as u8).hash(&mut h);
            h.finish()
        };
        Some(self.inspector_memo.get_or_make(key, || {
            let inspected = crate::view::compare::split::inspect(&cv, &s.split, s.tab, line, s.side, self.raw);
            Content {
                title: inspected.title,
                lines: crate::styled::blocks::lines(&inspected.blocks, width, self.theme),
            }
        }))
    }

    /// The lines the inspector shows now, at the width it is drawn.
    fn shown_inspector(&self) -> Option<(Rc<Content>, usize)> {
        if self.compare_screen() == Some(super::compare::Screen::Split) {
            let open = self.compare.as_ref().and_then(|c| c.split.as_ref()).is_some_and(|s| s.inspector);
            let area = super::compare_layout::split(self.viewport.width, self.viewport.height, open).inspector?;
            let content = self.split_inspector_content(area.width.saturating_sub(2) as usize)?;
            return Some((content, area.height.saturating_sub(2) as usize));
        }
        let area = self.inspector_area()?;
        Some((self.inspector_content(area.width.saturating_sub(2) as usize), area.height.saturating_sub(2) as usize))
    }

    /// How far the inspector scrolls: its lines beyond its height.
    pub fn inspector_extent(&self) -> usize {
        self.shown_inspector().map_or(0, |(c, height)| c.lines.len().saturating_sub(height))
    }

    /// The inspector search in the lines `content` holds.
    pub fn inspector_found(&self, content: &Content) -> Option<Found> {
        let search = self.inspector_search.as_ref()?;
        let lines: Vec<(usize, Vec<Range<usize>>)> = content
            .lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let r = search.query.matcher.ranges(&l.plain());
                (!r.is_empty()).then_some((i, r))
            })
            .collect();
        let current = search.current.filter(|&c| c < lines.len());
        Some(Found { lines, current })
    }

    /// Show the match `to` asks for: which one, and the scroll that shows it.
    pub fn inspector_seek(&mut self, to: Seek) {
        let Some((content, height)) = self.shown_inspector() else { return };
        let Some(found) = self.inspector_found(&content) else { return };
        let at: Vec<usize> = found.lines.iter().map(|(l, _)| *l).collect();
        let max = content.lines.len().saturating_sub(height);
        let scroll = self.inspector_scroll.min(max);
        let (current, scroll) =
            seek(&at, found.current, to, scroll, height).map_or((None, scroll), |(c, s)| (Some(c), s));
        if let Some(s) = self.inspector_search.as_mut() {
            s.current = current;
        }
        self.inspector_scroll = scroll.min(max);
    }

    /// How many lines the inspector search matches now.
    pub fn inspector_match_count(&self) -> Option<usize> {
        let (content, _) = self.shown_inspector()?;
        self.inspector_found(&content).map(|f| f.lines.len())
    }
}

/// The theme the lines are made for, kept with the app so that a measure
/// and a drawing agree.
impl App {
    pub fn theme(&self) -> ThemeName {
        self.theme
    }
}
