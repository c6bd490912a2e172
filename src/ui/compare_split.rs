//! The split view: both attempts side by side (timelines aligned by turn,
//! tool calls diffed, assertions paired), the usage deltas across the
//! width, and the focused side's inspector. Rows are drawn as the viewer
//! draws them; every word is the view's (`view::compare::split`).

use super::{RenderCache, Theme, panel};
use crate::app::App;
use crate::app::compare::SplitState;
use crate::view::blocks::Block;
use crate::view::chrome::HintsFor;
use crate::view::compare::Cv;
use crate::view::compare::split::{
    Slot, SplitTab, USAGE_TITLE, assertion_cell, deltas, empty_text, inspect, mode_text, more_below, no_turn_text,
    side_figures, side_title, tab_meta, title, tool_cell, usage_table,
};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::hash::{Hash, Hasher};

pub fn render(frame: &mut Frame, area: Rect, app: &App, cv: &Cv, cache: &mut RenderCache) {
    let Some(s) = app.compare.as_ref().and_then(|c| c.split.as_ref()) else { return };
    let theme = cache.theme.clone();
    let areas = crate::app::compare_layout::split(area.width, area.height, s.inspector);
    let w = area.width as usize;
    let head = title(cv, &s.split);
    let lines =
        vec![Line::from(theme.spans(&head.truncate(w))), Line::from(theme.spans(&deltas(cv, &s.split).truncate(w)))];
    frame.render_widget(Paragraph::new(lines), areas.header.into());
    tabs(frame, areas.tabs.into(), s, &theme);
    if s.tab == SplitTab::Usage {
        let block = panel(Line::styled(USAGE_TITLE, theme.title), true, &theme);
        let inner = block.inner(areas.body.into());
        frame.render_widget(block, areas.body.into());
        let lines = super::blocks::lines(&[Block::Table(usage_table(cv, &s.split))], inner.width as usize, &theme);
        frame.render_widget(Paragraph::new(lines), inner);
    } else {
        for side in 0..2 {
            side_panel(frame, if side == 0 { areas.left.into() } else { areas.right.into() }, cv, s, side, &theme);
        }
    }
    if let Some(r) = areas.inspector {
        inspector(frame, r.into(), app, cv, s, cache);
    }
    let at = if s.inspector { HintsFor::SplitInspector } else { HintsFor::Split };
    super::footer::render(frame, areas.footer.into(), app, at, &theme);
}

fn tabs(frame: &mut Frame, area: Rect, s: &SplitState, theme: &Theme) {
    let mut spans = Vec::new();
    for t in SplitTab::ALL {
        let style = if t == s.tab { theme.tab_active } else { theme.dim };
        spans.push(Span::styled(format!(" {} {} ", t.key(), t.title()), style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::raw(" "));
    spans.extend(theme.spans(&tab_meta(&s.split, s.tab)));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// One side: its attempt's name in the border, its figures, then its lines
/// (the same window of aligned lines on both sides).
fn side_panel(frame: &mut Frame, area: Rect, cv: &Cv, s: &SplitState, side: usize, theme: &Theme) {
    let focused = s.side == side;
    let attempt = s.split.attempts[side];
    let inner_w = area.width.saturating_sub(2) as usize;
    let name = side_title(cv, &s.split, side);
    let mut title = vec![Span::raw(" ")];
    title.extend(theme.spans(&name.truncate(inner_w.saturating_sub(2))));
    title.push(Span::raw(" "));
    let block = panel(Line::from(title), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = vec![Line::from(theme.spans(&side_figures(cv, attempt).truncate(inner_w))), Line::raw("")];
    let list = s.list();
    let height = (inner.height as usize).saturating_sub(2);
    let len = s.split.len(s.tab);
    let view = &cv.views[attempt];
    let doc_attempt = &cv.doc.attempts[attempt];
    let compact = inner_w < 70;
    let floor =
        if compact { crate::view::timeline::COMPACT_POSITION_COLUMNS } else { crate::view::timeline::POSITION_COLUMNS };
    let pos_w = crate::view::timeline::position_width(doc_attempt, view, true, floor);
    let look = super::timeline::RowLook { pos_w, merged: true, compact };
    for i in (list.offset..len).take(height) {
        let mut line = match s.tab {
            SplitTab::Timeline => match s.split.timeline[i].sides[side] {
                Slot::Row(r) => super::timeline::row_line(doc_attempt, view, r, inner_w, false, None, theme, look)
                    .unwrap_or_default(),
                Slot::NoTurn(n) => Line::from(theme.spans(&no_turn_text(n).truncate(inner_w))),
                Slot::Blank => Line::raw(""),
            },
            SplitTab::Tools => Line::from(theme.spans(&tool_cell(cv, &s.split, i, side).truncate(inner_w))),
            SplitTab::Assertions => Line::from(theme.spans(&assertion_cell(cv, &s.split, i, side).truncate(inner_w))),
            SplitTab::Usage => Line::raw(""),
        };
        if i == list.selected {
            line = line.style(if focused { theme.selected } else { theme.selected_unfocused });
        }
        lines.push(line);
    }
    if len == 0 {
        lines.push(Line::from(theme.spans(&empty_text(s.tab).truncate(inner_w))));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The focused side's inspector: the viewer's inspector content for its selection.
fn inspector(frame: &mut Frame, area: Rect, app: &App, cv: &Cv, s: &SplitState, cache: &mut RenderCache) {
    let width = area.width.saturating_sub(2) as usize;
    let line = s.list().selected;
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        // The leading tag keeps these keys apart from the viewer's own inspector keys.
        (0x5e_u8, s.split.attempts, s.tab, line, s.side, app.raw, width, cache.theme.name as u8).hash(&mut h);
        h.finish()
    };
    let theme = cache.theme.clone();
    let built = cache.inspector_lines(key, || {
        let inspected = inspect(cv, &s.split, s.tab, line, s.side, app.raw);
        super::inspector::Built {
            title: inspected.title,
            lines: super::blocks::lines(&inspected.blocks, width, &theme),
        }
    });
    let mut title =
        vec![Span::styled(format!(" {} ", super::blocks::cut_to(&built.title, width.saturating_sub(24))), theme.title)];
    title.extend(theme.spans(&mode_text(app.raw)));
    let title = Line::from(title);
    let block = panel(title, true, &theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    let max = built.lines.len().saturating_sub(height);
    cache.inspector_extent = max;
    let scroll = app.inspector_scroll.min(max);
    let mut lines: Vec<Line> = built.lines.iter().skip(scroll).take(height).cloned().collect();
    let below = max - scroll;
    if below > 0 && !lines.is_empty() {
        let last = lines.len() - 1;
        lines[last] = Line::from(theme.spans(&more_below(below)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
