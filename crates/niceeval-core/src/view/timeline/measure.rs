//! How many rows each part of a turn's timeline shows, and how wide its
//! columns are: measured before anything is drawn, so sibling turn tables
//! share their column widths.

use super::{
    SUMMARY, cells, kind_word, position, release_rows, row_and_record, row_status, row_view, rows_table, table,
};
use crate::model::text::width;
use crate::view::blocks::{natural_widths, settled_past, wide_enough};
use crate::view::context::Ctx;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many rows each part shows, and the column widths the turn tables
/// share (so rows line up across turns). The parts are measured over the
/// selection's spread (every core, for `show`), each independent of the others. Summaries are measured only until
/// a row is as wide as anything drawn ([`Selection::widest`](crate::view::context::Selection),
/// [`wide_enough`]): past that the layout is the same whatever the rest
/// measure, when the other columns cannot give up width ([`settled_past`]);
/// else every summary is measured.
pub(super) fn measure(ctx: &Ctx, parts: &[std::ops::Range<usize>]) -> (Vec<usize>, Vec<usize>) {
    measure_until(ctx, parts, ctx.sel.widest.filter(|_| ctx.sel.grep.is_none()))
}

/// [`measure`], summaries measured until a row is `widest` wide (`None`: all of them).
fn measure_until(ctx: &Ctx, parts: &[std::ops::Range<usize>], widest: Option<usize>) -> (Vec<usize>, Vec<usize>) {
    let columns = table(Vec::new(), ctx.sel.full).columns;
    let past = AtomicBool::new(false);
    let measured = ctx.sel.spread.map(parts, |range| measure_part(ctx, range.clone(), widest.map(|w| (w, &past))));
    let mut floor = vec![0usize; columns.len()];
    for (_, widths) in &measured {
        for (f, w) in floor.iter_mut().zip(widths) {
            *f = (*f).max(*w);
        }
    }
    match widest {
        // Any width from `widest` up draws the same; this one does not
        // depend on which rows were measured before the wide one was seen.
        Some(widest) if past.load(Ordering::Relaxed) && settled_past(&columns, &floor, SUMMARY) => {
            floor[SUMMARY] = widest;
        }
        Some(_) if past.load(Ordering::Relaxed) => return measure_until(ctx, parts, None),
        _ => {}
    }
    (measured.into_iter().map(|(rows, _)| rows).collect(), floor)
}

/// How many of timeline rows `range` are shown, and how wide their cells
/// are in each column. With `summaries_past` (a width, and whether a row
/// that wide was seen in any part), a row after such a row is measured
/// without its summary being made.
fn measure_part(
    ctx: &Ctx,
    range: std::ops::Range<usize>,
    summaries_past: Option<(usize, &AtomicBool)>,
) -> (usize, Vec<usize>) {
    let Some((widest, past)) = summaries_past else {
        let part = rows_table(ctx, range);
        return (part.rows.len(), natural_widths(&part));
    };
    let (attempt, view) = (ctx.attempt, ctx.view);
    let columns = table(Vec::new(), ctx.sel.full).columns;
    let mut widths: Vec<usize> = columns.iter().map(|c| width(&c.header)).collect();
    let mut rows = 0;
    for ri in range.clone().filter(|&i| !view.timeline.rows[i].merged_away()) {
        if !past.load(Ordering::Relaxed) {
            let Some(r) = row_view(attempt, view, ri) else { continue };
            for (w, cell) in widths.iter_mut().zip(cells(r)) {
                *w = (*w).max(cell.width());
            }
            if wide_enough(&columns, &widths, SUMMARY, widest) {
                past.store(true, Ordering::Relaxed);
            }
        } else {
            let Some((row, record)) = row_and_record(attempt, view, ri) else { continue };
            let measured = [width(&position(row)), width(kind_word(row.kind))];
            for (w, m) in widths.iter_mut().zip(measured) {
                *w = (*w).max(m);
            }
            let status = row_status(view, row, record).map_or(0, |t| t.width());
            widths[SUMMARY + 1] = widths[SUMMARY + 1].max(status);
        }
        rows += 1;
    }
    release_rows(attempt, view, range);
    (rows, widths)
}
