//! Inspector for the selected item: Preview (readable) and Raw (exact JSON).
//! The content is the view's (`view::inspect`); here it is drawn at the
//! panel's width, cached per selection, mode and width, and scrolled.

use super::{RenderCache, panel};
use crate::app::search::seek;
use crate::app::{App, Focus, InspectorSearch, Tab};
use crate::view::inspect::{preview, raw};
use crate::view::report::Selection;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::hash::{Hash, Hasher};
use std::ops::Range;

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
    let title = Line::from(vec![
        Span::styled(format!(" {} ", super::blocks::cut_to(&built.title, width.saturating_sub(24))), theme.title),
        Span::styled(crate::view::chrome::inspector_modes(app.raw), theme.dim),
    ]);
    let block = panel(title, focused, &theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    let max_scroll = built.lines.len().saturating_sub(height);
    cache.inspector_extent = max_scroll;
    let mut scroll = app.inspector_scroll.min(max_scroll);
    let found = app.inspector_search.as_ref().map(|s| find(&built.lines, s, scroll, height));
    if let Some(f) = &found {
        scroll = f.scroll.min(max_scroll);
        cache.inspector_found = f.report.then_some((f.current, f.ranges.len(), scroll));
    }
    let mut lines: Vec<Line> = built.lines.iter().skip(scroll).take(height).cloned().collect();
    if let Some(f) = &found {
        let current = f.current.map(|c| f.ranges[c].0);
        let shown = scroll..scroll + lines.len();
        for (line_no, ranges) in f.ranges.iter().filter(|(l, _)| shown.contains(l)) {
            let style = if Some(*line_no) == current {
                theme.matched.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                theme.matched
            };
            let i = line_no - scroll;
            lines[i] = mark(std::mem::take(&mut lines[i]), ranges, style);
        }
    }
    if built.lines.len() > height && !lines.is_empty() {
        let last = lines.len() - 1;
        let more = built.lines.len() - scroll - height.min(built.lines.len() - scroll);
        if more > 0 {
            lines[last] = Line::styled(crate::view::chrome::more_below(more, focused), theme.dim);
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The inspector search in the lines drawn.
struct Found {
    /// Lines that match, each with the byte ranges to highlight.
    ranges: Vec<(usize, Vec<Range<usize>>)>,
    current: Option<usize>,
    scroll: usize,
    /// The app's idea of the search is out of date: report it.
    report: bool,
}

fn find(lines: &[Line], search: &InspectorSearch, scroll: usize, height: usize) -> Found {
    let ranges: Vec<(usize, Vec<Range<usize>>)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            let r = search.query.matcher.ranges(&text);
            (!r.is_empty()).then_some((i, r))
        })
        .collect();
    let count = ranges.len();
    let current = search.current.filter(|&c| c < count);
    let at: Vec<usize> = ranges.iter().map(|(l, _)| *l).collect();
    let (current, scroll) = match search.seek {
        Some(to) => seek(&at, current, to, scroll, height).map_or((None, scroll), |(c, s)| (Some(c), s)),
        None => (current, scroll),
    };
    let report = search.seek.is_some() || search.count != Some(count) || search.current != current;
    Found { ranges, current, scroll, report }
}

/// `line` with the bytes in `ranges` (of its text as a whole) in `style`.
fn mark(line: Line<'static>, ranges: &[Range<usize>], style: Style) -> Line<'static> {
    let mut out = Vec::new();
    let mut offset = 0;
    for span in line.spans {
        let text = span.content.as_ref();
        let end = offset + text.len();
        let mut at = 0;
        for r in ranges.iter().filter(|r| r.start < end && r.end > offset) {
            let (s, e) = (r.start.max(offset) - offset, r.end.min(end) - offset);
            if s > at {
                out.push(Span::styled(text[at..s].to_string(), span.style));
            }
            out.push(Span::styled(text[s..e].to_string(), span.style.patch(style)));
            at = e;
        }
        if at < text.len() {
            out.push(Span::styled(text[at..].to_string(), span.style));
        }
        offset = end;
    }
    Line { spans: out, ..line }
}

fn build(app: &App, theme: &super::Theme, width: usize) -> Built {
    let full = Selection { full: true, ..Selection::default() };
    let (Some(sel), Some(ctx)) = (app.selected(), app.context(&full)) else {
        return Built {
            title: crate::view::chrome::INSPECTOR_TITLE.into(),
            lines: vec![Line::styled(crate::view::chrome::NOTHING_SELECTED, theme.dim)],
        };
    };
    let inspected = if app.raw { raw(&ctx, sel) } else { preview(&ctx, &app.findings, sel) };
    let mut lines = super::blocks::lines(&inspected.blocks, width, theme);
    if app.tab != Tab::Timeline && app.focus != Focus::Nav && lines.is_empty() {
        lines.push(Line::styled(crate::view::chrome::NOTHING_TO_SHOW, theme.dim));
    }
    Built { title: inspected.title, lines }
}
