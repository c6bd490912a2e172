//! Widgets that only read state. One file per panel, one theme module.

pub mod blocks;
pub mod compare;
mod compare_split;
mod footer;
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
    /// The inspector's and the help's largest scroll in the last frame (lines beyond their height).
    pub inspector_extent: usize,
    pub help_extent: usize,
    /// The inspector search as drawn, when the app's idea of it is out of date.
    pub inspector_found: Option<(Option<usize>, usize, usize)>,
}

impl RenderCache {
    pub fn new(theme: ThemeName) -> RenderCache {
        RenderCache {
            theme: Theme::new(theme),
            inspector: HashMap::new(),
            generation: 0,
            inspector_extent: 0,
            help_extent: 0,
            inspector_found: None,
        }
    }

    /// What the last frame learnt that the app needs (how far panels scroll,
    /// where the inspector's matches are), as actions to send it. Sizes
    /// only a frame knows; the app stays the one place state changes.
    pub fn feedback(&mut self, app: &App) -> Vec<crate::app::Action> {
        use crate::app::Action;
        let mut out = Vec::new();
        if (app.inspector_max, app.help_max) != (Some(self.inspector_extent), Some(self.help_extent)) {
            out.push(Action::ScrollExtent { inspector: self.inspector_extent, help: self.help_extent });
        }
        if let Some((current, count, scroll)) = self.inspector_found.take() {
            out.push(Action::InspectorFound { current, count, scroll });
        }
        out
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
    if area.width < crate::app::layout::MIN_WIDTH || area.height < crate::app::layout::MIN_HEIGHT {
        let text = crate::view::Text::plain(crate::view::chrome::too_small(area.width, area.height));
        let lines: Vec<Line> = crate::view::chrome::too_small_lines(&text, area.width as usize)
            .iter()
            .map(|t| Line::styled(t.as_plain(), cache.theme.warn))
            .collect();
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    if app.compare_screen().is_some() {
        compare::render(frame, area, app, cache);
        if app.mode == Mode::Help {
            cache.help_extent = render_help(frame, area, app, &cache.theme);
        }
        return;
    }
    let areas = crate::app::layout::areas(area.width, area.height, app);
    header::render(frame, areas.header.into(), app, &cache.theme);
    render_tabs(frame, areas.tabs.into(), app, &cache.theme);
    if let Some(nav_area) = areas.nav {
        nav::render(frame, nav_area.into(), app, &cache.theme);
    }
    match app.tab {
        crate::app::Tab::Timeline => timeline::render(frame, areas.list.into(), app, &cache.theme),
        _ => lists::render(frame, areas.list.into(), app, &cache.theme),
    }
    if let Some(inspector_area) = areas.inspector {
        inspector::render(frame, inspector_area.into(), app, cache);
    }
    render_footer(frame, areas.footer.into(), app, &cache.theme);
    if app.mode == Mode::Help {
        cache.help_extent = render_help(frame, area, app, &cache.theme);
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
    let tabs = app.shown_tabs();
    let labels = crate::app::layout::tab_labels(area.width, app.tab, &tabs);
    for (tab, label) in tabs.iter().zip(labels) {
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

fn hint(key: &str, what: &str, theme: &Theme) -> Vec<Span<'static>> {
    vec![Span::styled(key.to_string(), theme.key), Span::styled(format!(" {what}  "), theme.dim)]
}

fn render_footer(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    use crate::view::search;
    let line = if app.mode == Mode::Search {
        let status = search::prompt_status(&app.search.input, app.prompt_matches(), app.search.error.as_deref());
        let status_style = if app.search.error.is_some() { theme.err } else { theme.matched };
        Line::from(vec![
            Span::styled(crate::view::chrome::search_lead(app.search.regex), theme.key),
            Span::raw(sanitize(&app.search.input, Lines::Single).into_owned()),
            Span::styled("▏", theme.accent),
            Span::styled(status, status_style),
            Span::styled(search::prompt_hint(app.search.target, app.search.regex), theme.dim),
        ])
    } else if let Some(flash) = &app.flash {
        let style = if flash.error { theme.err } else { theme.accent };
        Line::from(Span::styled(cell(&flash.text, area.width as usize), style))
    } else {
        let mut spans = Vec::new();
        let inspector = app.inspector_search.as_ref().filter(|_| app.focus == Focus::Inspector);
        let status = match (inspector, &app.search.query) {
            (Some(s), _) => Some(search::inspector_status(&s.query, s.count.map(|n| (s.current.unwrap_or(0), n)))),
            (None, Some(q)) => Some(search::search_status(q, app.search.matches.len())),
            (None, None) => None,
        };
        if let Some(status) = status {
            spans.push(Span::styled(format!("{status} "), theme.matched));
            spans.push(Span::raw(" "));
        }
        if app.follow {
            spans.push(Span::styled(crate::view::chrome::FOLLOWING, theme.hitl));
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
            (Focus::List, Tab::Translation) => HintsFor::Translation,
        };
        let used: usize = spans.iter().map(|s| s.width()).sum();
        spans.extend(hint_spans(at, used, area.width as usize, theme));
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The footer's hints for `at` in the room left after `used` columns: on
/// a narrow terminal the last hints give way, but `? help` stays.
pub fn hint_spans(at: crate::view::chrome::HintsFor, used: usize, room: usize, theme: &Theme) -> Vec<Span<'static>> {
    let mut hints: Vec<(&str, &str)> = crate::view::chrome::hints(at).to_vec();
    let width = |h: &[(&str, &str)]| h.iter().map(|(k, w)| k.chars().count() + w.chars().count() + 3).sum::<usize>();
    while used + width(&hints) > room && hints.len() > 1 {
        let drop = hints.iter().rposition(|(k, _)| *k != "?").unwrap_or(hints.len() - 1);
        hints.remove(drop);
    }
    hints.into_iter().flat_map(|(k, w)| hint(k, w, theme)).collect()
}

/// The help overlay; returns how far it can scroll.
pub(crate) fn render_help(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) -> usize {
    let w = area.width.saturating_sub(4).min(76);
    let h = area.height.saturating_sub(2);
    let popup = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    frame.render_widget(Clear, popup);
    // Descriptions wrap under themselves, beside an 18-column key column.
    let text_w = (w as usize).saturating_sub(2 + 20).max(10);
    let row = |lines: &mut Vec<Line<'static>>, keys: &str, what: &str| {
        for (i, piece) in crate::view::Text::plain(what).wrap(text_w).into_iter().enumerate() {
            let lead = if i == 0 { format!("{keys:>18}  ") } else { " ".repeat(20) };
            lines.push(Line::from(vec![Span::styled(lead, theme.key), Span::raw(piece.as_plain())]));
        }
    };
    let mut lines = vec![Line::styled(crate::view::chrome::HELP_KEYS, theme.title), Line::raw("")];
    for (keys, what) in keymap::help_rows(Mode::Normal) {
        row(&mut lines, &keys, what);
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(crate::view::chrome::HELP_SEARCH, theme.title));
    for (keys, what) in keymap::help_rows(Mode::Search) {
        row(&mut lines, &keys, what);
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(crate::view::chrome::HELP_MARKS, theme.title));
    for (mark, what) in crate::view::chrome::MARKS {
        row(&mut lines, mark, what);
    }
    let height = popup.height.saturating_sub(2) as usize;
    let max = lines.len().saturating_sub(height);
    let scroll = app.help_scroll.min(max);
    let mut shown: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
    let below = max - scroll;
    if below > 0 && !shown.is_empty() {
        let last = shown.len() - 1;
        shown[last] = Line::styled(crate::view::chrome::more_help(below), theme.dim);
    }
    let block = panel(Line::styled(crate::view::chrome::HELP_TITLE, theme.title), true, theme);
    frame.render_widget(Paragraph::new(shown).block(block), popup);
    max
}

impl From<crate::app::layout::Rect> for Rect {
    fn from(r: crate::app::layout::Rect) -> Rect {
        Rect::new(r.x, r.y, r.width, r.height)
    }
}
