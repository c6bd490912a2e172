//! Where each panel goes, as a pure function of the terminal size and the
//! state. The renderer draws into these areas and `update` maps mouse
//! clicks to panels with the same function, so the two never disagree.

use super::{App, Focus, Panel};

/// A rectangle of terminal cells: the app's own, so the layout needs no
/// terminal library (`ui` hands it to ratatui).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
}

impl Rect {
    pub const fn new(x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect { x, y, width, height }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub header: Rect,
    pub tabs: Rect,
    pub nav: Option<Rect>,
    pub list: Rect,
    pub inspector: Option<Rect>,
    pub footer: Rect,
    /// x ranges of the tab titles, in Panel::ALL order.
    pub tab_spans: [(u16, u16); Panel::ALL.len()],
}

/// The header's lines: the files, the attempt's facts, its time and evidence.
pub const HEADER_LINES: u16 = 3;

/// The smallest terminal the panels fit in.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// Width at which the navigator, list and inspector sit side by side.
pub const WIDE: u16 = 110;

/// The navigator's width side by side: a fifth of the terminal, or what
/// `<` / `>` chose, always leaving the list and inspector room.
pub fn nav_width(width: u16, chosen: Option<u16>) -> u16 {
    let most = (width / 2).max(NAV_MIN);
    chosen.unwrap_or((width / 5).clamp(24, 36)).clamp(NAV_MIN, most)
}

/// The narrowest navigator `<` makes.
pub const NAV_MIN: u16 = 12;
/// Columns one `<` or `>` moves.
pub const NAV_STEP: u16 = 4;

/// The tab bar's labels at `width` columns (one column between them): " 1
/// Timeline " when they fit, then "1 Timeline", then the open tab's name and
/// the others' keys only, so every tab stays reachable and visible.
pub fn tab_labels(width: u16, open: Panel, tabs: &[Panel]) -> Vec<String> {
    let fits = |labels: &[String]| labels.iter().map(|l| l.chars().count() + 1).sum::<usize>() <= width as usize;
    // A tab keeps its key's number when others are not shown.
    let key = |t: &Panel| super::keymap::panel_key(*t);
    let named =
        |pad: &str| -> Vec<String> { tabs.iter().map(|t| format!("{pad}{} {}{pad}", key(t), t.title())).collect() };
    let full = named(" ");
    if fits(&full) {
        return full;
    }
    let compact = named("");
    if fits(&compact) {
        return compact;
    }
    tabs.iter().map(|t| if *t == open { format!("{} {}", key(t), t.title()) } else { key(t).to_string() }).collect()
}

pub fn areas(width: u16, height: u16, app: &App) -> Areas {
    let full = Rect::new(0, 0, width, height);
    let header_h = HEADER_LINES.min(full.height);
    let header = Rect::new(0, 0, width, header_h);
    let tabs = Rect::new(0, header_h.min(height), width, 1.min(height.saturating_sub(header_h)));
    let footer_y = height.saturating_sub(1);
    let footer = Rect::new(0, footer_y, width, 1.min(height));
    let body_y = tabs.y + tabs.height;
    let body = Rect::new(0, body_y, width, footer_y.saturating_sub(body_y));
    let mut tab_spans = [(0, 0); Panel::ALL.len()];
    let mut x = 0u16;
    let shown = app.shown_tabs();
    for (tab, label) in shown.iter().zip(tab_labels(width, app.tab, &shown)) {
        let w = label.chars().count() as u16;
        if let Some(i) = Panel::ALL.iter().position(|t| t == tab) {
            tab_spans[i] = (x, x + w);
        }
        x += w + 1;
    }
    let (nav, list, inspector) = if width >= WIDE {
        let nav_w = nav_width(width, app.nav_width);
        let rest = width - nav_w;
        let list_w = rest * 11 / 20;
        (
            Some(Rect::new(0, body.y, nav_w, body.height)),
            Rect::new(nav_w, body.y, list_w, body.height),
            Some(Rect::new(nav_w + list_w, body.y, rest - list_w, body.height)),
        )
    } else if app.focus == Focus::Nav {
        let nav_h = body.height * 2 / 5;
        let list_h = body.height - nav_h;
        (Some(Rect::new(0, body.y, width, nav_h)), Rect::new(0, body.y + nav_h, width, list_h), None)
    } else {
        let list_h = (body.height * 11 / 20).max(3.min(body.height));
        (None, Rect::new(0, body.y, width, list_h), Some(Rect::new(0, body.y + list_h, width, body.height - list_h)))
    };
    Areas { header, tabs, nav, list, inspector, footer, tab_spans }
}

fn inside(r: Rect, column: u16, row: u16) -> bool {
    column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height
}

impl Areas {
    pub fn focus_at(&self, column: u16, row: u16) -> Option<Focus> {
        if self.nav.is_some_and(|r| inside(r, column, row)) {
            Some(Focus::Nav)
        } else if inside(self.list, column, row) {
            Some(Focus::List)
        } else if self.inspector.is_some_and(|r| inside(r, column, row)) {
            Some(Focus::Inspector)
        } else {
            None
        }
    }

    pub fn tab_at(&self, column: u16, row: u16) -> Option<Panel> {
        if row != self.tabs.y {
            return None;
        }
        self.tab_spans.iter().position(|(a, b)| column >= *a && column < *b).map(|i| Panel::ALL[i])
    }

    /// Index of the content row under `row` (inside the border) of a panel.
    pub fn row_at(&self, focus: Focus, row: u16) -> Option<usize> {
        let r = match focus {
            Focus::Nav => self.nav?,
            Focus::List => self.list,
            Focus::Inspector => self.inspector?,
        };
        // One border line, plus a column-header line for table tabs.
        let top = r.y + 1;
        (row >= top && row < r.y + r.height.saturating_sub(1)).then(|| (row - top) as usize)
    }

    /// Content rows of each panel (inside borders), for the viewport.
    pub fn content_rows(&self) -> (usize, usize, usize) {
        let inner = |r: Rect| r.height.saturating_sub(2) as usize;
        (
            inner(self.list),
            self.inspector.map(inner).unwrap_or(0),
            self.nav.map(inner).unwrap_or_else(|| inner(self.list)),
        )
    }
}

/// Rows per panel for a terminal size: what `update` pages by.
pub fn viewport(width: u16, height: u16, app: &App) -> super::Viewport {
    let (list, inspector, nav) = areas(width, height, app).content_rows();
    super::Viewport { width, height, list_rows: list.max(1), inspector_rows: inspector.max(1), nav_rows: nav.max(1) }
}

impl App {
    /// `<` / `>`: the navigator narrower or wider (side by side only).
    pub fn resize_nav(&mut self, wider: bool) {
        let width = self.viewport.width;
        if width < WIDE {
            self.say(crate::view::note::Note::NavigatorNeedsWidth(WIDE));
            return;
        }
        let now = nav_width(width, self.nav_width);
        let to = if wider { now.saturating_add(NAV_STEP) } else { now.saturating_sub(NAV_STEP) };
        let to = nav_width(width, Some(to));
        self.nav_width = Some(to);
        self.say(crate::view::note::Note::NavigatorWidth(to));
    }
}
