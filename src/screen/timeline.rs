//! Timeline: one row per event for the selected scope. Only visible rows are
//! made; what each says is the view's (`view::timeline::row_view`).

use super::{Screen, inner, selection};
use crate::app::layout::Rect;
use crate::app::{App, Focus};
use crate::model::text::{fit, truncate, width};
use crate::model::timeline::RowKind;
use crate::styled::{Chrome, Line, Look, Span, spans};
use crate::view::timeline::{kind_cell, row_view_as, status_mark, summary_tone};

pub fn panel(out: &mut Screen, area: Rect, app: &App) {
    let focused = app.focus() == Focus::List;
    let title = crate::view::chrome::timeline_title(
        app.visible().len().saturating_sub(app.timeline_turns()),
        app.timeline_turns(),
        app.merge(),
    );
    let title = Line::chrome(title, Chrome::Title);
    let inside = inner(area);
    let (Some(view), Some(attempt)) = (app.view(), app.attempt()) else {
        // No attempt at all: what the input is, or what is awaited.
        let lines = crate::view::chrome::no_attempts(app.doc())
            .iter()
            .flat_map(|t| t.wrap(inside.width as usize))
            .map(|t| Line::of(&t))
            .collect();
        return out.panel(area, title, focused, lines);
    };
    if app.visible().is_empty() {
        let empty = crate::view::chrome::timeline_empty(attempt);
        return out.panel(area, title, focused, vec![Line::chrome(empty, Chrome::Dim)]);
    }
    let w = inside.width as usize;
    let list = app.lists().timeline;
    let query = app.search().query.as_ref().map(|q| &q.matcher);
    let pos_w =
        crate::view::timeline::position_width(attempt, view, app.merge(), crate::view::timeline::POSITION_COLUMNS);
    let mut lines = Vec::with_capacity(inside.height as usize);
    for (pos, ri) in
        app.visible().iter().map(|&r| r as usize).enumerate().skip(list.offset).take(inside.height as usize)
    {
        let folded = app.is_folded(view.timeline.rows[ri].addr());
        let look = RowLook { pos_w, merged: app.merge(), compact: false };
        let Some(mut line) = row_line(attempt, view, ri, w, folded, query, look) else { continue };
        if pos == list.selected {
            line = line.with_over(selection(focused));
        } else if app.search().matches.binary_search(&ri).is_ok() {
            line = line.with_over(Chrome::Emphasis);
        }
        lines.push(line);
    }
    out.panel(area, title, focused, lines);
}

/// How a timeline row is laid out: its position column's width (the
/// view's, from the attempt's largest address), merged lifecycle rows or
/// raw events (`m`), and `compact` (the kind's mark without its word, for
/// the split view's half-width panel).
#[derive(Debug, Clone, Copy)]
pub struct RowLook {
    pub pos_w: usize,
    pub merged: bool,
    pub compact: bool,
}

/// Timeline row `ri` of an attempt as the viewer draws it at `w` columns
/// (the split view draws each side's rows with it too).
pub fn row_line(
    attempt: &crate::model::document::Attempt,
    view: &crate::view::AttemptView,
    ri: usize,
    w: usize,
    folded: bool,
    query: Option<&crate::view::search::Matcher>,
    look: RowLook,
) -> Option<Line> {
    let row = row_view_as(attempt, view, ri, look.merged)?;
    let mut line: Vec<Span> = Vec::new();
    if row.kind == RowKind::TurnHeader {
        line.push(Span::chrome(crate::view::chrome::turn_lead(folded), Chrome::Title));
        line.extend(spans(&row.summary.truncate(w.saturating_sub(2))));
        return Some(Line::new(line));
    }
    let (narrow, pos_w) = (look.compact, look.pos_w);
    line.push(Span::chrome(fit(&truncate(&row.pos, pos_w), pos_w), Chrome::Dim));
    // The status mark only: the word is in the inspector and in `show`.
    let status = status_mark(row.status.as_ref());
    match row.status {
        Some(_) => line.extend(spans(&status)),
        None => line.push(Span::bare(status.as_plain())),
    }
    let kind = kind_cell(row.kind, narrow);
    let kind_w = kind.width();
    line.extend(spans(&kind));
    let badges = row.badges();
    let used = pos_w + 2 + kind_w + if badges.is_empty() { 0 } else { width(&badges) + 1 };
    let budget = w.saturating_sub(used);
    let summary = truncate(&row.summary.as_plain(), budget);
    line.extend(highlight_matches(&summary, query, Look::Tone(summary_tone(row.kind))));
    if !badges.is_empty() {
        let pad = budget.saturating_sub(width(&summary));
        line.push(Span::bare(" ".repeat(pad + 1)));
        line.push(Span::chrome(badges, Chrome::Warn));
    }
    Some(Line::new(line))
}

/// `text` in spans of `base`, with every match of `matcher` as a match.
pub fn highlight_matches(text: &str, matcher: Option<&crate::view::search::Matcher>, base: Look) -> Vec<Span> {
    let Some(m) = matcher else { return vec![Span::new(text, base)] };
    let mut out = Vec::new();
    let mut at = 0;
    for r in m.ranges(text) {
        if r.start > at {
            out.push(Span::new(&text[at..r.start], base));
        }
        out.push(Span::chrome(&text[r.clone()], Chrome::Matched));
        at = r.end;
    }
    out.push(Span::new(&text[at..], base));
    out
}
