//! The split view: both attempts side by side (timelines aligned by turn,
//! tool calls diffed, assertions paired), the usage deltas across the
//! width, and the focused side's inspector. Rows are laid out as the
//! viewer lays them out; every word is the view's (`view::compare::split`).

use super::{Screen, cut_to, inner, selection};
use crate::app::App;
use crate::app::compare::SplitState;
use crate::app::layout::Rect;
use crate::styled::{Chrome, Line, Span, spans};
use crate::view::blocks::Block;
use crate::view::chrome::HintsFor;
use crate::view::compare::Cv;
use crate::view::compare::split::{
    Panel, Slot, USAGE_TITLE, assertion_cell, deltas, empty_text, mode_text, more_below, no_turn_text, side_figures,
    side_title, tab_meta, title, tool_cell, usage_table,
};

pub fn screen(out: &mut Screen, area: Rect, app: &App, cv: &Cv) {
    let Some(s) = app.compare().and_then(|c| c.split.as_ref()) else { return };
    let areas = crate::app::compare_layout::split(area.width, area.height, s.inspector);
    let w = area.width as usize;
    let head = title(cv, &s.split);
    out.lines(areas.header, vec![Line::of(&head.truncate(w)), Line::of(&deltas(cv, &s.split).truncate(w))]);
    out.lines(areas.tabs, vec![tabs_line(s)]);
    if s.tab == Panel::Usage {
        let width = inner(areas.body).width as usize;
        let lines = crate::styled::blocks::lines(&[Block::Table(usage_table(cv, &s.split))], width, app.theme());
        out.panel(areas.body, Line::chrome(USAGE_TITLE, Chrome::Title), true, lines);
    } else {
        for side in 0..2 {
            side_panel(out, if side == 0 { areas.left } else { areas.right }, cv, s, side);
        }
    }
    if let Some(r) = areas.inspector {
        inspector(out, r, app);
    }
    let at = if s.inspector { HintsFor::SplitInspector } else { HintsFor::Split };
    out.lines(areas.footer, vec![super::footer::compare_line(app, at, areas.footer.width as usize)]);
}

fn tabs_line(s: &SplitState) -> Line {
    let mut line = Vec::new();
    for t in Panel::SPLIT {
        let look = if t == s.tab { Chrome::TabActive } else { Chrome::Dim };
        line.push(Span::chrome(format!(" {} {} ", crate::app::keymap::panel_key(t), t.split_title()), look));
        line.push(Span::bare(" "));
    }
    line.push(Span::bare(" "));
    line.extend(spans(&tab_meta(&s.split, s.tab)));
    Line::new(line)
}

/// One side: its attempt's name in the border, its figures, then its lines
/// (the same window of aligned lines on both sides).
fn side_panel(out: &mut Screen, area: Rect, cv: &Cv, s: &SplitState, side: usize) {
    let focused = s.side == side;
    let attempt = s.split.attempts[side];
    let inner_w = area.width.saturating_sub(2) as usize;
    let name = side_title(cv, &s.split, side);
    let mut title = vec![Span::bare(" ")];
    title.extend(spans(&name.truncate(inner_w.saturating_sub(2))));
    title.push(Span::bare(" "));
    let mut lines = vec![Line::of(&side_figures(cv, attempt).truncate(inner_w)), Line::default()];
    let list = s.list();
    let height = (inner(area).height as usize).saturating_sub(2);
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
            Panel::Timeline => match s.split.timeline[i].sides[side] {
                Slot::Row(r) => {
                    super::timeline::row_line(doc_attempt, view, r, inner_w, false, None, look).unwrap_or_default()
                }
                Slot::NoTurn(n) => Line::of(&no_turn_text(n).truncate(inner_w)),
                Slot::Blank => Line::default(),
            },
            Panel::Tools => Line::of(&tool_cell(cv, &s.split, i, side).truncate(inner_w)),
            Panel::Assertions => Line::of(&assertion_cell(cv, &s.split, i, side).truncate(inner_w)),
            // Usage is drawn across both sides; the split view has no other panel.
            _ => Line::default(),
        };
        if i == list.selected {
            line = line.with_over(selection(focused));
        }
        lines.push(line);
    }
    if len == 0 {
        lines.push(Line::of(&empty_text(s.tab).truncate(inner_w)));
    }
    out.panel(area, Line::new(title), focused, lines);
}

/// The focused side's inspector: the viewer's inspector content for its selection.
fn inspector(out: &mut Screen, area: Rect, app: &App) {
    let width = area.width.saturating_sub(2) as usize;
    let Some(content) = app.split_inspector_content(width) else { return };
    let mut title =
        vec![Span::chrome(format!(" {} ", cut_to(&content.title, width.saturating_sub(24))), Chrome::Title)];
    title.extend(spans(&mode_text(app.raw())));
    let height = inner(area).height as usize;
    let max = content.lines.len().saturating_sub(height);
    let scroll = app.inspector_scroll().min(max);
    let mut lines: Vec<Line> = content.lines.iter().skip(scroll).take(height).cloned().collect();
    let below = max - scroll;
    if below > 0 && !lines.is_empty() {
        let last = lines.len() - 1;
        lines[last] = Line::of(&more_below(below));
    }
    out.panel(area, Line::new(title), true, lines);
}
