//! Widgets that only read state. One file per panel, one theme module.

pub mod blocks;
pub mod diff;
pub mod header;
pub mod highlight;
pub mod inspector;
pub mod lists;
pub mod nav;
pub mod theme;
pub mod timeline;

use crate::app::{App, Focus, Mode, keymap};
use crate::model::text::{Lines, sanitize, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};
use std::collections::HashMap;
pub use theme::{Theme, ThemeName};

/// Per-frame caches that outlive a frame: the inspector's styled lines.
pub struct RenderCache {
    pub theme: Theme,
    inspector: HashMap<u64, std::rc::Rc<inspector::Built>>,
    /// The [`App::generation`] the cached text was built from.
    generation: u64,
}

impl RenderCache {
    pub fn new(theme: ThemeName) -> RenderCache {
        RenderCache { theme: Theme::new(theme), inspector: HashMap::new(), generation: 0 }
    }

    /// Cached lines for a key; older entries are dropped when the cache grows.
    pub fn inspector_lines(
        &mut self,
        key: u64,
        build: impl FnOnce() -> inspector::Built,
    ) -> std::rc::Rc<inspector::Built> {
        if self.inspector.len() > 48 {
            self.inspector.clear();
        }
        self.inspector.entry(key).or_insert_with(|| std::rc::Rc::new(build())).clone()
    }

    pub fn clear(&mut self) {
        self.inspector.clear();
    }
}

pub fn render(frame: &mut Frame, app: &App, cache: &mut RenderCache) {
    // A reloaded document (watch, follow, background load) makes cached text stale.
    if cache.generation != app.generation {
        cache.clear();
        cache.generation = app.generation;
    }
    let area = frame.area();
    let areas = crate::app::layout::areas(area.width, area.height, app);
    header::render(frame, areas.header, app, &cache.theme);
    render_tabs(frame, areas.tabs, app, &cache.theme);
    if let Some(nav_area) = areas.nav {
        nav::render(frame, nav_area, app, &cache.theme);
    }
    match app.tab {
        crate::app::Tab::Timeline => timeline::render(frame, areas.list, app, &cache.theme),
        _ => lists::render(frame, areas.list, app, &cache.theme),
    }
    if let Some(inspector_area) = areas.inspector {
        inspector::render(frame, inspector_area, app, cache);
    }
    render_footer(frame, areas.footer, app, &cache.theme);
    if app.mode == Mode::Help {
        render_help(frame, area, app, &cache.theme);
    }
}

/// A bordered block whose border shows focus.
pub fn panel<'a>(title: Line<'a>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(if focused { theme.border_focus } else { theme.border })
        .title(title)
}

/// Sanitize, then cut to `width` columns.
pub fn cell(s: &str, width: usize) -> String {
    truncate(&sanitize(s, Lines::Single), width)
}

fn render_tabs(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let mut spans = Vec::new();
    for (i, tab) in crate::app::Tab::ALL.iter().enumerate() {
        let label = crate::app::layout::tab_label(i, *tab);
        let style = if *tab == app.tab { theme.tab_active } else { theme.dim };
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(format!("  {}", scope_label(app)), theme.dim));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The scope the other panels show, in the view's words.
pub fn scope_label(app: &App) -> String {
    let s = app.scope;
    let Some(attempt) = app.attempt() else { return "scope: empty".into() };
    let session = s.session.and_then(|si| attempt.sessions.get(si)).map(|x| x.scope_name());
    let turn = match (s.session, s.turn, app.view()) {
        (Some(session), Some(turn), Some(v)) => {
            Some(crate::view::address::turn_title(attempt, &v.derived, crate::model::TurnAddr { session, turn }))
        }
        _ => None,
    };
    crate::view::chrome::scope_text(session, turn)
}

fn hint(key: &str, what: &str, theme: &Theme) -> Vec<Span<'static>> {
    vec![Span::styled(key.to_string(), theme.key), Span::styled(format!(" {what}  "), theme.dim)]
}

fn render_footer(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let line = if app.mode == Mode::Search {
        Line::from(vec![
            Span::styled("/", theme.key),
            Span::raw(sanitize(&app.search.input, Lines::Single).into_owned()),
            Span::styled("▏", theme.accent),
            Span::styled(crate::view::chrome::SEARCH_PROMPT_HINT, theme.dim),
        ])
    } else if let Some(flash) = &app.flash {
        let style = if flash.error { theme.err } else { theme.accent };
        Line::from(Span::styled(cell(&flash.text, area.width as usize), style))
    } else {
        let mut spans = Vec::new();
        if let Some(q) = &app.search.query {
            let status = crate::view::chrome::search_status(&cell(q, 20), app.search.matches.len());
            spans.push(Span::styled(format!("{status} "), theme.matched));
            spans.push(Span::raw(" "));
        }
        if app.follow {
            spans.push(Span::styled("FOLLOW ", theme.hitl));
        }
        use crate::app::Tab;
        use crate::view::chrome::HintsFor;
        let at = match (app.focus, app.tab) {
            (Focus::Nav, _) => HintsFor::Navigator,
            (Focus::Inspector, _) => HintsFor::Inspector,
            (Focus::List, Tab::Timeline) => HintsFor::Timeline,
            (Focus::List, Tab::Tools) => HintsFor::Tools,
            (Focus::List, Tab::Hitl) => HintsFor::Hitl,
            (Focus::List, Tab::Usage) => HintsFor::Usage,
            (Focus::List, Tab::Assertions) => HintsFor::Assertions,
            (Focus::List, Tab::Diagnostics) => HintsFor::Diagnostics,
            (Focus::List, Tab::Changes) => HintsFor::Changes,
            (Focus::List, Tab::Timing) => HintsFor::Timing,
        };
        let hints = crate::view::chrome::hints(at);
        for (k, w) in hints {
            spans.extend(hint(k, w, theme));
        }
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn render_help(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let w = area.width.saturating_sub(4).min(76);
    let h = area.height.saturating_sub(2);
    let popup = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    frame.render_widget(Clear, popup);
    let mut lines = vec![Line::styled("Keys (generated from the key table)", theme.title), Line::raw("")];
    for (keys, what) in keymap::help_rows(Mode::Normal) {
        lines.push(Line::from(vec![Span::styled(format!("{keys:>18}  "), theme.key), Span::raw(what)]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("In the search prompt", theme.title));
    for (keys, what) in keymap::help_rows(Mode::Search) {
        lines.push(Line::from(vec![Span::styled(format!("{keys:>18}  "), theme.key), Span::raw(what)]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Marks", theme.title));
    for (mark, what) in crate::view::chrome::MARKS {
        lines.push(Line::from(vec![Span::styled(format!("{mark:>18}  "), theme.key), Span::raw(what)]));
    }
    let scroll = app.help_scroll.min(lines.len().saturating_sub(1)) as u16;
    let block = panel(Line::styled(" Help · Esc to close ", theme.title), true, theme);
    frame.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), popup);
}

/// Styled "label  value" line.
pub fn kv(label: &str, value: impl Into<String>, theme: &Theme, value_style: Style) -> Line<'static> {
    Line::from(vec![Span::styled(format!("{label:<10} "), theme.dim), Span::styled(value.into(), value_style)])
}
