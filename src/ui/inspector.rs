//! Inspector for the selected item: Preview (readable) and Raw (exact JSON).
//! The content is the view's (`view::inspect`); here it is drawn at the
//! panel's width, cached per selection, mode and width, and scrolled.

use super::{RenderCache, panel};
use crate::app::{App, Focus, Tab};
use crate::view::inspect::{preview, raw};
use crate::view::report::Selection;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::hash::{Hash, Hasher};

pub struct Built {
    pub title: String,
    pub lines: Vec<Line<'static>>,
}

pub fn render(frame: &mut Frame, area: Rect, app: &App, cache: &mut RenderCache) {
    let width = area.width.saturating_sub(2) as usize;
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (app.tab_index(), app.scope, app.list().selected, app.raw, width, app.focus == Focus::Nav).hash(&mut h);
        app.selected().hash(&mut h);
        (cache.theme.name as u8).hash(&mut h);
        h.finish()
    };
    let theme = cache.theme.clone();
    let built = cache.inspector_lines(key, || build(app, &theme, width));
    let focused = app.focus == Focus::Inspector;
    let mode = if app.raw { "Preview │ [Raw]" } else { "[Preview] │ Raw" };
    let title = Line::from(vec![
        Span::styled(format!(" {} ", super::blocks::cut_to(&built.title, width.saturating_sub(24))), theme.title),
        Span::styled(format!(" {mode} (r) "), theme.dim),
    ]);
    let block = panel(title, focused, &theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    let max_scroll = built.lines.len().saturating_sub(height);
    cache.inspector_extent = max_scroll;
    let scroll = app.inspector_scroll.min(max_scroll);
    let mut lines: Vec<Line> = built.lines.iter().skip(scroll).take(height).cloned().collect();
    if built.lines.len() > height && !lines.is_empty() {
        let last = lines.len() - 1;
        let more = built.lines.len() - scroll - height.min(built.lines.len() - scroll);
        if more > 0 {
            let more = crate::view::format::count(more, "more line", "more lines");
            lines[last] = Line::styled(format!("↓ {more} (Tab to focus, j/k to scroll)"), theme.dim);
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn build(app: &App, theme: &super::Theme, width: usize) -> Built {
    let full = Selection { full: true, ..Selection::default() };
    let (Some(sel), Some(ctx)) = (app.selected(), app.context(&full)) else {
        return Built { title: "Inspector".into(), lines: vec![Line::styled("nothing selected", theme.dim)] };
    };
    let inspected = if app.raw { raw(&ctx, sel) } else { preview(&ctx, &app.findings, sel) };
    let mut lines = super::blocks::lines(&inspected.blocks, width, theme);
    if app.tab != Tab::Timeline && app.focus != Focus::Nav && lines.is_empty() {
        lines.push(Line::styled("nothing to show", theme.dim));
    }
    Built { title: inspected.title, lines }
}
