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
    let scope = scope_label(app);
    spans.push(Span::styled(format!("  scope: {scope}"), theme.dim));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// "attempt", "session-2", "session-1 · turn 3" for the current scope.
pub fn scope_label(app: &App) -> String {
    let s = app.scope;
    let Some(attempt) = app.attempt() else { return "empty".into() };
    match (s.session, s.turn) {
        (None, _) => "whole attempt".into(),
        (Some(si), None) => attempt.sessions.get(si).map(|x| x.scope_name()).unwrap_or_default(),
        (Some(si), Some(ti)) => {
            let label = attempt.sessions.get(si).and_then(|x| x.turns.get(ti)).and_then(|t| t.label.clone());
            let name = attempt.sessions.get(si).map(|x| x.scope_name()).unwrap_or_default();
            match label {
                Some(l) => cell(&l, 40),
                None => format!("{name} · turn-{}", ti + 1),
            }
        }
    }
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
            Span::styled("   Enter search · Esc cancel · ignores case · searches rows and payloads", theme.dim),
        ])
    } else if let Some(flash) = &app.flash {
        let style = if flash.error { theme.err } else { theme.accent };
        Line::from(Span::styled(cell(&flash.text, area.width as usize), style))
    } else {
        let mut spans = Vec::new();
        if let Some(q) = &app.search.query {
            spans
                .push(Span::styled(format!("/{} ({} matches) ", cell(q, 20), app.search.matches.len()), theme.matched));
            spans.push(Span::raw(" "));
        }
        if app.follow {
            spans.push(Span::styled("FOLLOW ", theme.hitl));
        }
        let hints: &[(&str, &str)] = match app.focus {
            Focus::Nav => &[("j/k", "move"), ("Enter", "expand"), ("Tab", "panel"), ("?", "help"), ("q", "quit")],
            Focus::Inspector => &[("j/k", "scroll"), ("r", "raw"), ("y", "copy"), ("o", "pager"), ("Esc", "back")],
            Focus::List => match app.tab {
                crate::app::Tab::Timeline => &[
                    ("j/k", "move"),
                    ("Enter", "inspect"),
                    ("/", "search"),
                    ("e", "next failure"),
                    ("w", "waiting"),
                    ("[ ]", "turn"),
                    ("m", "merge"),
                    ("?", "help"),
                ],
                crate::app::Tab::Tools => {
                    &[("Enter", "jump to row"), ("f", "filter"), ("s", "sort"), ("r", "raw"), ("?", "help")]
                }
                crate::app::Tab::Assertions => {
                    &[("Enter", "jump to evidence"), ("r", "raw"), ("y", "copy"), ("?", "help")]
                }
                crate::app::Tab::Diagnostics => {
                    &[("Enter", "jump to row"), ("d/D", "next/prev finding"), ("?", "help")]
                }
                _ => &[("Enter", "jump to row"), ("Tab", "panel"), ("?", "help"), ("q", "quit")],
            },
        };
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
    for (mark, what) in [
        ("✓", "completed / answered"),
        ("✗", "failed"),
        ("⊘", "rejected (a human or policy said no)"),
        ("…", "pending: started, never finished"),
        ("?", "ambiguous id (reused while open) or orphan finish (no start)"),
        ("⏸", "waiting for human input"),
        ("—", "not reported (missing is not zero)"),
        ("⚑", "a diagnostic finding points here"),
        ("◆N", "N assertions point at this row"),
    ] {
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
