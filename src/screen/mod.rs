//! The screen model: everything the viewer shows, decided from the app's
//! state and the terminal's size by one pure function, [`screen`]. Every
//! panel's place, title, lines, looks, selection and scroll, the tab bar,
//! the footer's hints and the help overlay are decided here; `ui` only
//! draws the parts in order. The words are the view's.

mod compare;
mod compare_split;
mod footer;
mod header;
mod help;
mod inspector;
mod lists;
mod nav;
pub mod timeline;

pub use crate::app::layout::Rect;
use crate::app::{App, Mode};
use crate::styled::{Chrome, Line, Span};

/// One thing to draw, in order: later parts are drawn over earlier ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Lines from the area's top-left corner, each cut at its width.
    Lines { area: Rect, lines: Vec<Line> },
    /// A bordered panel: its title in the top border, focus in the border's
    /// look, its lines inside.
    Panel { area: Rect, title: Line, focused: bool, lines: Vec<Line> },
    /// The area emptied first (under an overlay).
    Clear(Rect),
}

/// What the terminal shows, part by part.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Screen {
    pub parts: Vec<Part>,
}

impl Screen {
    fn lines(&mut self, area: Rect, lines: Vec<Line>) {
        self.parts.push(Part::Lines { area, lines });
    }

    fn panel(&mut self, area: Rect, title: Line, focused: bool, lines: Vec<Line>) {
        self.parts.push(Part::Panel { area, title, focused, lines });
    }
}

/// Inside a panel's border.
pub fn inner(area: Rect) -> Rect {
    Rect::new(
        area.x.saturating_add(1),
        area.y.saturating_add(1),
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    )
}

/// The screen for `app` on a terminal of `width`×`height`.
pub fn screen(app: &App, width: u16, height: u16) -> Screen {
    let mut out = Screen::default();
    let whole = Rect::new(0, 0, width, height);
    if width < crate::app::layout::MIN_WIDTH || height < crate::app::layout::MIN_HEIGHT {
        let text = crate::view::Text::plain(crate::view::chrome::too_small(width, height));
        let lines = crate::view::chrome::too_small_lines(&text, width as usize)
            .iter()
            .map(|t| Line::chrome(t.as_plain(), Chrome::Warn))
            .collect();
        out.lines(whole, lines);
        return out;
    }
    if app.compare_screen().is_some() {
        compare::screen(&mut out, whole, app);
    } else {
        viewer(&mut out, width, height, app);
    }
    if app.mode() == Mode::Help {
        help::overlay(&mut out, whole, app);
    }
    out
}

fn viewer(out: &mut Screen, width: u16, height: u16, app: &App) {
    let areas = crate::app::layout::areas(width, height, app);
    out.lines(areas.header, header::lines(app, width as usize));
    out.lines(areas.tabs, vec![tabs_line(app, areas.tabs.width)]);
    if let Some(nav_area) = areas.nav {
        nav::panel(out, nav_area, app);
    }
    match app.tab() {
        crate::app::Panel::Timeline => timeline::panel(out, areas.list, app),
        _ => lists::panel(out, areas.list, app),
    }
    if let Some(inspector_area) = areas.inspector {
        inspector::panel(out, inspector_area, app);
    }
    out.lines(areas.footer, vec![footer::viewer_line(app, areas.footer.width as usize)]);
}

fn tabs_line(app: &App, width: u16) -> Line {
    let mut spans = Vec::new();
    let tabs = app.shown_tabs();
    let labels = crate::app::layout::tab_labels(width, app.tab(), &tabs);
    for (tab, label) in tabs.iter().zip(labels) {
        spans.push(Span::chrome(label, if *tab == app.tab() { Chrome::TabActive } else { Chrome::Dim }));
        spans.push(Span::bare(" "));
    }
    spans.push(Span::chrome(format!("  {}", scope_label(app)), Chrome::Dim));
    Line::new(spans)
}

/// The scope the other panels show, in the view's words.
pub fn scope_label(app: &App) -> String {
    let s = app.scope();
    let Some(attempt) = app.attempt() else { return crate::view::chrome::SCOPE_EMPTY.into() };
    let session = s.session.and_then(|si| attempt.sessions.get(si)).map(|x| x.scope_name());
    let turn = match (s.session, s.turn, app.view()) {
        (Some(session), Some(turn), Some(v)) => {
            Some(crate::view::address::turn_title(attempt, &v.derived, crate::model::TurnAddr { session, turn }))
        }
        _ => None,
    };
    crate::view::chrome::scope_text(session, turn)
}

/// The look of a list's selected row: the focused panel's, or the quieter one.
fn selection(focused: bool) -> Chrome {
    if focused { Chrome::Selected } else { Chrome::SelectedUnfocused }
}

/// `text` cut to `width` columns (titles in a border).
fn cut_to(text: &str, width: usize) -> String {
    crate::model::text::truncate(text, width)
}
