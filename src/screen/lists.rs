//! The list panel of the Tools, HITL, Usage, Assertions, Diagnostics,
//! Changes, Timing and Translation tabs. The rows are the view's
//! (`view::{tools, hitl, usage, assertions, findings, changes, timing,
//! translation}`); here only the rows on screen are made, in fixed columns.

use super::{Screen, inner, selection};
use crate::app::layout::Rect;
use crate::app::{App, AssertionRow, Focus, Panel};
use crate::styled::{Chrome, Line, Span, spans};
use crate::view::chrome::FIX_PROMPT_ROW;
use crate::view::report::Selection;
use crate::view::{Text, Tone};

pub fn panel(out: &mut Screen, area: Rect, app: &App) {
    let focused = app.focus() == Focus::List;
    let list = app.list();
    // Only the rows on screen are made: lists can hold hundreds of thousands of calls.
    let win = Window { start: list.offset, len: area.height.saturating_sub(2) as usize };
    let w = area.width.saturating_sub(2) as usize;
    let full = Selection { full: true, ..Selection::default() };
    let Some(ctx) = app.context(&full) else { return };
    let (title, total, rows) = match app.tab() {
        Panel::Tools => tools(app, &ctx, w, win),
        Panel::Hitl => hitl(app, &ctx, w, win),
        Panel::Usage => usage(app, &ctx, w, win),
        Panel::Assertions => assertions(app, &ctx, w, win),
        Panel::Diagnostics => diagnostics(app, &ctx, w, win),
        Panel::Changes => changes(&ctx, w, win),
        Panel::Timing => timing(app, &ctx, w, win),
        Panel::Translation => translation(&ctx, w, win),
        Panel::Source => source(app, &ctx, w, win),
        Panel::Commands => commands(&ctx, w, win),
        Panel::Timeline => (String::new(), 0, Vec::new()),
    };
    let mut lines = Vec::new();
    if total == 0 {
        // Wrapped at words, never cut: the reason is the whole message.
        let empty = crate::view::Text::plain(empty_text(app));
        lines.extend(empty.wrap(inner(area).width as usize).iter().map(|t| Line::chrome(t.as_plain(), Chrome::Dim)));
    }
    for (k, line) in rows.into_iter().enumerate() {
        let i = win.start + k;
        let over = selection(focused);
        let line = match (i == list.selected, app.tab()) {
            (false, _) | (true, Panel::Usage) => line,
            // Reversed, a bar's full blocks would turn into the background:
            // the selection marks the label, the bars keep their colour.
            (true, Panel::Timing) => Line::new(
                line.spans
                    .into_iter()
                    .map(|s| if s.text.contains('█') { s } else { Span { over: Some(over), ..s } })
                    .collect(),
            ),
            (true, _) => line.with_over(over),
        };
        lines.push(line);
    }
    out.panel(area, Line::chrome(title, Chrome::Title), focused, lines);
}

/// The rows of a list that are on screen.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: usize,
    len: usize,
}

impl Window {
    fn range(self, total: usize) -> std::ops::Range<usize> {
        self.start.min(total)..total.min(self.start.saturating_add(self.len))
    }
}

type Rows = (String, usize, Vec<Line>);

fn empty_text(app: &App) -> String {
    use crate::view::chrome;
    match app.tab() {
        Panel::Tools => {
            let status = (app.tool_filter() != crate::app::ToolFilter::All).then(|| app.tool_filter().word());
            chrome::no_tools(status, app.tool_query().map(|q| q.label(30)))
        }
        Panel::Hitl => chrome::NO_REQUESTS.into(),
        Panel::Assertions => chrome::no_assertions(app.attempt().is_some_and(|a| a.review.assertions.is_some())).into(),
        Panel::Diagnostics => chrome::no_findings(app.attempt().and_then(crate::view::findings::unchecked_reason)),
        Panel::Changes => app.attempt().map(crate::view::changes::empty_text).unwrap_or_default(),
        Panel::Translation => crate::view::chrome::NO_NATIVE_LINES.into(),
        Panel::Source => crate::view::source_rows::empty_text().into(),
        Panel::Commands => {
            let sel = Selection::default();
            app.context(&sel).map(|ctx| crate::view::commands::empty_text(&ctx)).unwrap_or_default()
        }
        Panel::Timing => match (app.attempt(), app.view()) {
            (Some(a), Some(v)) => {
                crate::view::timing::notes(&a.review.timing, &v.timing).first().map(Text::as_plain).unwrap_or_default()
            }
            _ => String::new(),
        },
        _ => String::new(),
    }
}

fn tools(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let rows = app.tool_rows();
    let orphans = app.tool_orphans();
    let text = app.tool_query().map(|q| q.label(20));
    let (filter, by_name) = (app.tool_filter().word(), app.tool_sort_by_name());
    let carried = app.tool_carried();
    let counts = crate::view::tools::ToolCounts { started: rows.len() - orphans - carried, carried, orphans };
    let title = crate::view::chrome::tools_title(counts, filter, by_name, text);
    let d = ctx.derived;
    let widths = list_widths(&[14, (w / 4).clamp(10, 28), 14], w);
    let lines = rows[win.range(rows.len())]
        .iter()
        .map(|r| {
            let cells = match r.get() {
                Ok(i) => crate::view::tools::occurrence_row(ctx, &d.occurrences.occurrences[i]),
                Err(i) => crate::view::tools::orphan_row(&d.occurrences.orphan_finishes[i]),
            };
            list_line(&cells, &widths)
        })
        .collect();
    (title, rows.len(), lines)
}

fn hitl(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let rows = app.hitl_rows();
    let title = crate::view::chrome::hitl_title(rows.len(), app.hitl_waiting());
    let widths = list_widths(&[16, 8, 18], w);
    let lines = rows[win.range(rows.len())]
        .iter()
        .map(|&i| list_line(&crate::view::hitl::request_row(ctx, &ctx.view.requests[i]), &widths))
        .collect();
    (title, rows.len(), lines)
}

fn usage(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    use crate::view::usage::{COST_COLUMNS, TOKEN_COLUMNS, cost_cells, rows, token_cells};
    let rows = rows(ctx, app.usage_turns(), true);
    let mut header = vec![Text::toned(crate::view::usage::SCOPE_COLUMN, Tone::Soft)];
    header.extend(TOKEN_COLUMNS.iter().chain(COST_COLUMNS.iter().take(2)).map(|h| Text::toned(*h, Tone::Soft)));
    let labels: Vec<&Text> = rows.iter().map(|r| &r.label).collect();
    let (label_w, shown, hidden) = crate::view::usage::list_layout(&labels, w);
    let fixed: Vec<usize> =
        std::iter::once(label_w).chain(crate::view::usage::LIST_WIDTHS.iter().copied().take(shown)).collect();
    let right = |t: Text, width: usize| Text::plain(" ".repeat(width.saturating_sub(t.width()))).with_text(t);
    let line = |cells: Vec<Text>, bar: Option<f64>| {
        let mut out: Vec<Span> = Vec::new();
        for (i, (c, width)) in cells.into_iter().zip(&fixed).enumerate() {
            let c = if i == 0 {
                c.truncate(*width).with(" ".repeat(width.saturating_sub(c.width().min(*width)) + 1), Tone::Plain)
            } else {
                right(c.truncate(*width), *width).with(" ", Tone::Plain)
            };
            out.extend(spans(&c));
        }
        // A bar only beside every column: not where hidden columns would be.
        if let Some(t) = bar.filter(|_| hidden.is_none() && w > fixed.iter().sum::<usize>() + 14) {
            out.extend(spans(&crate::view::usage::token_bar(t, app.max_turn_tokens())));
        }
        Line::new(out)
    };
    let mut header_line = line(header, None);
    if let Some(note) = &hidden {
        header_line.spans.push(Span::chrome(note.clone(), Chrome::Dim));
    }
    let mut lines = vec![header_line];
    let total = rows.len() + 1;
    for r in rows.iter().skip(win.start).take(win.len.saturating_sub(1)) {
        let u = r.usage.as_ref();
        let mut cells = vec![r.label.clone()];
        cells.extend(token_cells(u));
        cells.extend(cost_cells(u).into_iter().take(2));
        let bar = match r.scope {
            crate::view::usage::RowScope::Turn(_) => u.and_then(|u| u.billable_tokens()),
            _ => None,
        };
        lines.push(line(cells, bar));
    }
    (crate::view::chrome::USAGE_TITLE.into(), total, lines)
}

fn assertions(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let Some(list) = ctx.attempt.review.assertions.as_ref() else {
        let title = crate::view::chrome::assertions_title(None);
        return match app.began() {
            Some(f) => {
                let rows = app.began_rows();
                let lines = rows[win.range(rows.len())].iter().map(|r| began_line(f, *r)).collect();
                (title, rows.len(), lines)
            }
            None => (title, 0, Vec::new()),
        };
    };
    let title = crate::view::chrome::assertions_title(Some((list.len(), app.failing_gates())));
    // One layout for every assertion, so the columns line up while scrolling.
    let cells: Vec<Vec<Text>> =
        app.assertion_rows().iter().map(|&i| crate::view::assertions::row(ctx.attempt, &list[i])).collect();
    let widths = crate::view::blocks::fitted_widths(&cells, &crate::view::assertions::LIST_CAPS, w);
    let total = app.assertion_offset() + app.assertion_rows().len();
    let offset = app.assertion_offset();
    let lines = win
        .range(total)
        .filter_map(|at| match app.assertion_at(at)? {
            AssertionRow::Began(row) => app.began().map(|f| began_line(f, row)),
            AssertionRow::FixPrompt => Some(Line::of(&Text::toned(FIX_PROMPT_ROW, Tone::Accent))),
            AssertionRow::Assertion(_) => Some(list_line(cells.get(at - offset)?, &widths)),
        })
        .collect();
    (title, total, lines)
}

fn began_line(f: &crate::view::first_failure::FirstFailure, row: crate::view::first_failure::BeganRow) -> Line {
    Line::of(&crate::view::first_failure::row_text(f, row))
}

fn source(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    use crate::view::source_rows::{SourceRow, row_text, title};
    let rows = app.source_rows();
    let mut colours = std::collections::HashMap::new();
    let lines = rows[win.range(rows.len())]
        .iter()
        .map(|row| {
            let made = match row {
                SourceRow::Line { file, .. } => {
                    Some(colours.entry(*file).or_insert_with(|| app.source_colours(*file)).clone())
                }
                _ => None,
            };
            let spans = made.as_ref().and_then(|m| m.as_ref().as_deref());
            Line::of(&row_text(ctx, row, spans).truncate(w))
        })
        .collect();
    (title(ctx, rows), rows.len(), lines)
}

fn commands(ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    use crate::view::commands::{LIST_CAPS, list_title, placed, row};
    let placed = placed(ctx);
    let cells: Vec<Vec<Text>> = placed.iter().map(row).collect();
    let widths = crate::view::blocks::fitted_widths(&cells, &LIST_CAPS, w);
    let lines = cells[win.range(cells.len())].iter().map(|c| list_line(c, &widths)).collect();
    (list_title(ctx, &placed), placed.len(), lines)
}

fn timing(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let tree = &ctx.view.timing;
    let title = crate::view::chrome::timing_title(&crate::view::timing::meta(tree).as_plain());
    let rows = app.timing_rows();
    // One layout for every row, so the columns line up while scrolling.
    let layout = crate::view::waterfall::Layout::new(rows.iter().map(|r| &r.line), w);
    let lines = rows[win.range(rows.len())].iter().map(|r| Line::of(&layout.line(&r.line))).collect();
    (title, rows.len(), lines)
}

fn diagnostics(app: &App, ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let findings = app.finding_rows();
    let recorded = &ctx.attempt.review.diagnostics;
    let errors = app.scoped_errors();
    let checked = crate::view::findings::unchecked_reason(ctx.attempt).is_none();
    let title =
        crate::view::chrome::diagnostics_title(errors, app.scoped_finding_count() - errors, recorded.len(), checked);
    let total = findings.len() + recorded.len();
    let cells: Vec<Vec<Text>> = win
        .range(total)
        .map(|i| match findings.get(i) {
            Some(&(f, n)) => crate::view::findings::finding_group_row(ctx, &app.findings()[f], n),
            None => crate::view::findings::diagnostic_row(&recorded[i - findings.len()]),
        })
        .collect();
    let widths = crate::view::blocks::fitted_widths(&cells, &[10, 24, 26], w);
    let lines = cells.iter().map(|c| list_line(c, &widths)).collect();
    (title, total, lines)
}

fn changes(ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    let Some(fc) = ctx.attempt.review.file_changes.as_ref() else {
        return (crate::view::chrome::changes_title(None), 0, Vec::new());
    };
    let title = crate::view::chrome::changes_title(Some((
        fc.changes.len(),
        crate::view::changes::state_text(ctx.attempt).as_plain(),
    )));
    let widths = list_widths(&[12, 16], w);
    let lines = fc.changes[win.range(fc.changes.len())]
        .iter()
        .map(|c| list_line(&crate::view::changes::row(c), &widths))
        .collect();
    (title, fc.changes.len(), lines)
}

fn translation(ctx: &crate::view::context::Ctx, w: usize, win: Window) -> Rows {
    use crate::view::translation::{counts_brief, line_row};
    let Some(p) = ctx.attempt.provenance.as_deref() else {
        return (crate::view::chrome::translation_title(None), 0, Vec::new());
    };
    let title = crate::view::chrome::translation_title(Some(&counts_brief(p)));
    let rows: Vec<_> = win.range(p.lines.len()).map(|i| line_row(ctx.derived, p, i)).collect();
    // What each line became is the point of the tab: its column is as wide as the rows on screen need (up to half).
    let became = rows.iter().map(|r| r.became().width()).max().unwrap_or(0).clamp(8, (w / 2).max(8));
    let widths = list_widths(&[6, became], w);
    let lines = rows.iter().map(|row| list_line(&row.list_cells(), &widths)).collect();
    (title, p.lines.len(), lines)
}

/// One list row of cells laid out in fixed columns (only rows on screen are made).
pub fn list_line(cells: &[Text], widths: &[usize]) -> Line {
    let mut out = Vec::new();
    for (i, w) in widths.iter().enumerate() {
        let cell = cells.get(i).cloned().unwrap_or_default();
        let last = i + 1 == widths.len();
        let cell = cell.truncate(*w);
        let pad = if last { String::new() } else { " ".repeat(w.saturating_sub(cell.width()) + 1) };
        out.extend(spans(&cell));
        if !pad.is_empty() {
            out.push(Span::bare(pad));
        }
    }
    Line::new(out)
}

/// Column widths for a list: each fixed column at `fixed[i]`, the last one
/// gets the rest.
pub fn list_widths(fixed: &[usize], width: usize) -> Vec<usize> {
    let used: usize = fixed.iter().map(|w| w + 1).sum();
    let mut w = fixed.to_vec();
    w.push(width.saturating_sub(used).max(4));
    w
}
