//! The matrix screen of `view --compare`: the experiments with their totals,
//! then evals × experiments with the selected row and cell, the marked
//! cell, and the legend. Every word and mark is the view's
//! (`view::compare`); here they are laid out and scrolled.

use super::Screen;
use crate::app::App;
use crate::app::compare::Screen as CompareScreen;
use crate::app::layout::Rect;
use crate::model::text::width;
use crate::styled::{Chrome, Line, Span, spans};
use crate::view::Text;
use crate::view::blocks::Block;
use crate::view::chrome::HintsFor;
use crate::view::compare::{
    CHANGE_HEADER, Cv, EVAL_HEADER, NO_ROWS, column_labels, column_stats, legend, marked_text, matrix_rows, meta,
    more_columns, more_experiments, more_rows, partial_note, report, screen_title,
};

pub fn screen(out: &mut Screen, area: Rect, app: &App) {
    let Some(cv) = app.cv() else { return };
    match app.compare_screen() {
        Some(CompareScreen::Split) => super::compare_split::screen(out, area, app, &cv),
        _ => matrix(out, area, app, &cv),
    }
}

fn matrix(out: &mut Screen, area: Rect, app: &App, cv: &Cv) {
    let Some(state) = app.compare() else { return };
    let areas = crate::app::compare_layout::matrix(area.width, area.height, app);
    let w = area.width as usize;
    // Header: the sources, then what the comparison found.
    let top = Line::of(&screen_title(cv).truncate(w));
    let mut second = meta(cv);
    if let Some(at) = state.mark {
        second.append(marked_text(cv, at));
    }
    out.lines(areas.header, vec![top, Line::of(&second.truncate(w))]);

    let mut table = vec![Block::Table(report::experiments_table(cv))];
    if let Some(note) = partial_note(&column_stats(cv)) {
        table.push(Block::Line(note));
    }
    let mut lines = crate::styled::blocks::lines(&table, w, app.theme());
    let room = areas.experiments.height as usize;
    if lines.len() > room && room > 1 {
        // The last line says how many experiments are not listed.
        let hidden = lines.len() - room + 1;
        lines.truncate(room - 1);
        lines.push(Line::of(&more_experiments(hidden)));
    }
    out.lines(areas.experiments, lines);

    let rows = matrix_lines(areas.matrix, app, cv);
    let drawn = rows.len();
    out.lines(areas.matrix, rows);
    // The legend right under the rows (at the bottom when they fill the screen).
    let legend: Vec<Line> = legend(cv).wrap(w).iter().map(Line::of).collect();
    let y = (areas.matrix.y + drawn as u16 + 1).min(areas.legend.y);
    let at = Rect::new(areas.legend.x, y, areas.legend.width, areas.legend.y + areas.legend.height - y);
    out.lines(at, legend);
    out.lines(areas.footer, vec![super::footer::compare_line(app, HintsFor::Matrix, areas.footer.width as usize)]);
}

/// The matrix rows on screen. Columns that do not fit scroll sideways so
/// the selected one stays in view.
fn matrix_lines(area: Rect, app: &App, cv: &Cv) -> Vec<Line> {
    let Some(state) = app.compare() else { return Vec::new() };
    let rows = matrix_rows(cv);
    let w = area.width as usize;
    let change_w = rows.iter().map(|r| r.change.width()).chain([width(CHANGE_HEADER)]).max().unwrap_or(6);
    let eval_natural = rows.iter().map(|r| r.eval.width()).chain([4]).max().unwrap_or(4);
    let budget = w.saturating_sub(change_w + 2 + eval_natural.min(36) + 2);
    let labels = column_labels(cv, budget);
    let cell_w: Vec<usize> = (0..labels.len())
        .map(|i| rows.iter().map(|r| r.cells[i].width()).chain([width(&labels[i]), 1]).max().unwrap_or(1))
        .collect();
    let cells_total: usize = cell_w.iter().map(|x| x + 2).sum();
    let eval_w = eval_natural.min(w.saturating_sub(change_w + 2 + cells_total).max(12)).min(eval_natural);
    // The first column shown: far enough right that the selected one fits;
    // when some do not fit, room is kept for the note that says so.
    let all = w.saturating_sub(change_w + 2 + eval_w + 2);
    let window = |room: usize| {
        let mut first = 0;
        while first < state.column && cell_w[first..=state.column].iter().map(|x| x + 2).sum::<usize>() > room {
            first += 1;
        }
        let mut used = 0;
        let shown: Vec<usize> = (first..labels.len())
            .take_while(|&i| {
                used += cell_w[i] + 2;
                used <= room.max(cell_w[first] + 2)
            })
            .collect();
        (first, shown)
    };
    let (mut first, mut shown) = window(all);
    if shown.len() < labels.len() {
        (first, shown) = window(all.saturating_sub(more_columns(labels.len()).width()));
    }
    let pad = |t: Text, n: usize| t.truncate(n).pad_to(n);
    let line_of = |change: Text, eval: Text, cells: &[Text], overs: &[(usize, Chrome)]| {
        let mut line = spans(&pad(change, change_w));
        line.push(Span::bare("  "));
        line.extend(spans(&pad(eval, eval_w)));
        line.push(Span::bare("  "));
        for &i in &shown {
            let cell = spans(&pad(cells[i].clone(), cell_w[i]));
            match overs.iter().find(|(col, _)| *col == i) {
                Some((_, over)) => line.extend(cell.into_iter().map(|x| Span { over: Some(*over), ..x })),
                None => line.extend(cell),
            }
            line.push(Span::bare("  "));
        }
        if shown.last().is_some_and(|&l| l + 1 < labels.len()) || first > 0 {
            let more = labels.len() - shown.len();
            line.extend(spans(&more_columns(more)));
        }
        Line::new(line)
    };
    let header_cells: Vec<Text> = labels.iter().map(|l| Text::toned(l.clone(), crate::view::Tone::Soft)).collect();
    let mut lines = vec![line_of(
        Text::toned(CHANGE_HEADER, crate::view::Tone::Soft),
        Text::toned(EVAL_HEADER, crate::view::Tone::Soft),
        &header_cells,
        &[],
    )];
    let mut height = (area.height as usize).saturating_sub(1);
    let below = rows.len().saturating_sub(state.rows.offset + height);
    if below > 0 {
        // The last line says how many rows are below.
        height = height.saturating_sub(1);
    }
    for (i, r) in rows.iter().enumerate().skip(state.rows.offset).take(height) {
        let selected = i == state.rows.selected;
        let mut overs = Vec::new();
        if let Some((_, col)) = state.mark.filter(|(row, _)| *row == i) {
            overs.push((col, Chrome::Matched));
        }
        if selected {
            overs.insert(0, (state.column, Chrome::Selected));
        }
        let mut line = line_of(r.change.clone(), r.eval.clone(), &r.cells, &overs);
        if selected {
            line = line.with_over(Chrome::SelectedUnfocused);
        }
        lines.push(line);
    }
    if rows.is_empty() {
        lines.push(Line::chrome(NO_ROWS, Chrome::Dim));
    }
    let below = rows.len().saturating_sub(state.rows.offset + height);
    if below > 0 {
        lines.push(Line::of(&more_rows(below)));
    }
    lines
}
