//! `niceeval compare` as text: the experiments with their totals, the
//! matrix, and with two sources the pairs, as neutral blocks (`plain` lays
//! them out at the width asked for).

use super::{
    Cv, column_labels, column_stats, legend, matrix_rows, meta, pair_text, pair_word, paired_by_text, side_text,
    side_word,
};
use crate::model::compare::PairClass;
use crate::view::blocks::{Block, Column, Section, Table};
use crate::view::format::{count, number};
use crate::view::text::{Text, Tone, clean};

/// Every block `compare` prints, for a width (the matrix names its
/// columns in full when they fit, else by letter), with `inner` columns
/// inside a section (the pairs stack each pair on two lines when their
/// table would not fit).
pub fn blocks(c: &Cv, width: usize, inner: usize) -> Vec<Block> {
    let mut body = sources_lines(c);
    if c.comparison.rows.is_empty() {
        body.push(Block::Line(Text::toned(super::NO_ROWS, Tone::Soft)));
        return vec![Block::Section(Section::new("Compare", meta(c), body))];
    }
    for n in c.doc.notices.iter().filter(|n| matches!(n.kind, crate::model::notice::NoticeKind::SlotsNotRecorded(_))) {
        body.push(Block::Line(Text::toned(format!("! {}", clean(&crate::view::notice::words(n))), Tone::Warn)));
    }
    body.push(Block::Table(experiments_table(c)));
    let stats = column_stats(c);
    for note in [super::slots_note(&stats), super::partial_note(&stats)].into_iter().flatten() {
        body.push(Block::Line(note));
    }
    body.extend([Block::Blank, Block::Table(matrix_table(c, width))]);
    body.push(Block::Line(legend(c)));
    let mut out = vec![Block::Section(Section::new("Compare", meta(c), body))];
    if c.is_pairwise() {
        out.push(Block::Blank);
        out.push(Block::Section(pairs_section(c, inner)));
    }
    out
}

/// With two sources, where each side comes from: "before  PATH · FORMAT".
fn sources_lines(c: &Cv) -> Vec<Block> {
    if !c.is_pairwise() {
        return Vec::new();
    }
    let mut rows = Vec::new();
    for s in &c.sources {
        let value = Text::plain(clean(&s.paths.join(", "))).with(format!(" · {}", clean(&s.format)), Tone::Soft);
        rows.push((side_word(s.side).unwrap_or_default(), value));
    }
    let mut out = crate::view::blocks::kv_lines(rows);
    out.push(Block::Blank);
    out
}

/// One row per column: its letter, experiment, NiceEval's pass rate (over
/// run slots: its "of" is NiceEval's attempts), this viewer's evals passed
/// when that reads otherwise, tokens, NiceEval's total cost, and this
/// viewer's observed and estimated costs.
pub fn experiments_table(c: &Cv) -> Table {
    let stats = column_stats(c);
    let evals = stats.iter().any(|s| s.evals_differ());
    let mut columns = vec![Column::fixed("col"), Column::left("experiment"), Column::right("pass rate")];
    if evals {
        columns.push(Column::right("evals passed"));
    }
    columns.extend([
        Column::right("tokens"),
        Column::right("total cost"),
        Column::right("observed"),
        Column::right("estimated"),
    ]);
    let rows = stats
        .iter()
        .zip(&c.comparison.columns)
        .map(|(s, key)| {
            let mut row = vec![
                Text::toned(s.letter.clone(), Tone::Accent),
                Text::plain(super::column_id(key)),
                s.pass_rate_text(),
            ];
            if evals {
                row.push(s.passed_text());
            }
            row.extend([
                s.tokens.text(number),
                s.total_cost.text(super::money),
                s.observed.text(super::money),
                s.estimated.text(super::money),
            ]);
            row
        })
        .collect();
    Table { columns, rows, floor: vec![] }
}

/// Evals as rows, columns as columns; changed rows first.
pub fn matrix_table(c: &Cv, width: usize) -> Table {
    let rows = matrix_rows(c);
    let change_w = rows.iter().map(|r| r.change.width()).max().unwrap_or(0).max("change".len());
    let eval_w = rows.iter().map(|r| r.eval.width()).max().unwrap_or(0).clamp(4, 32);
    // What is left for the cells once the change and eval columns and the gaps are drawn.
    let budget = width.saturating_sub(change_w + eval_w + 4 + 4);
    let labels = column_labels(c, budget);
    let mut columns = vec![Column::fixed("change"), Column::cut("eval")];
    columns.extend(labels.iter().map(|l| Column::fixed(l)));
    let rows = rows
        .into_iter()
        .map(|r| {
            let mut row = vec![r.change, r.eval];
            row.extend(r.cells);
            row
        })
        .collect();
    Table { columns, rows, floor: vec![] }
}

/// The pairs of two sources, broken first, with each side's verdict and
/// locator: a table when it fits in `body` columns, else each pair on two
/// lines (its eval whole, then before → after), so no name is cut and no
/// side dropped.
fn pairs_section(c: &Cv, body: usize) -> Section {
    let Some((by, pairs)) = &c.comparison.pairs else { return Section::new("Pairs", Text::new(), vec![]) };
    let mut meta =
        Text::toned(format!("{} · {}", count(pairs.len(), "pair", "pairs"), paired_by_text(*by)), Tone::Soft);
    for class in [
        PairClass::Broken,
        PairClass::Fixed,
        PairClass::Flaky,
        PairClass::Changed,
        PairClass::OnlyBefore,
        PairClass::OnlyAfter,
        PairClass::StillFailing,
        PairClass::StillPassing,
        PairClass::Unchanged,
    ] {
        let n = pairs.iter().filter(|p| p.class == class).count();
        if n > 0 {
            meta.push(format!(" · {n} {}", pair_word(class)), Tone::Soft);
        }
    }
    let experiments: Vec<Option<&String>> = {
        let mut v: Vec<Option<&String>> = pairs.iter().map(|p| p.experiment.as_ref()).collect();
        v.dedup();
        v
    };
    let with_experiment = experiments.iter().flatten().count() > 1;
    let mut columns = vec![Column::fixed("change"), Column::cut("eval")];
    if with_experiment {
        columns.push(Column::cut("experiment"));
    }
    columns.extend([Column::fixed("before"), Column::fixed("after")]);
    let side = |at: Option<(usize, usize)>| match at.and_then(|at| c.comparison.cell(at)) {
        Some(cell) => side_text(c, cell),
        None => Text::toned(super::NOT_RUN, Tone::Soft),
    };
    let rows: Vec<Vec<Text>> = pairs
        .iter()
        .map(|p| {
            let rows = [p.before, p.after].map(|at| at.map(|(r, _)| super::row_label(c, r)));
            let eval = match rows {
                [Some(b), Some(a)] if b != a => format!("{b} → {a}"),
                [Some(x), _] | [None, Some(x)] => x,
                [None, None] => String::new(),
            };
            let mut cells = vec![pair_text(p.class), Text::plain(eval)];
            if with_experiment {
                cells.push(Text::plain(p.experiment.as_deref().map(clean).unwrap_or_default()));
            }
            cells.extend([side(p.before), side(p.after)]);
            cells
        })
        .collect();
    let table = Table { columns, rows, floor: vec![] };
    let blocks = if table.rows.is_empty() {
        vec![Block::Line(Text::toned("no attempts to pair", Tone::Soft))]
    } else if natural_width(&table) <= body {
        vec![Block::Table(table)]
    } else {
        vec![Block::Table(stacked(table, with_experiment))]
    };
    Section::new("Pairs", meta, blocks)
}

/// A table's width with every column at its natural width (3-column gaps).
fn natural_width(t: &Table) -> usize {
    let widths = (0..t.columns.len()).map(|i| {
        let cells = t.rows.iter().filter_map(|r| r.get(i)).map(Text::width);
        cells.chain([crate::model::text::width(&t.columns[i].header)]).max().unwrap_or(0)
    });
    widths.map(|w| w + 3).sum::<usize>().saturating_sub(3)
}

/// The pairs table with each pair on two lines: the change and the eval
/// (and experiment), then "before → after" under the eval.
fn stacked(t: Table, with_experiment: bool) -> Table {
    let header =
        if with_experiment { "eval · experiment, then before → after" } else { "eval, then before → after" };
    let mut rows = Vec::new();
    for row in t.rows {
        let mut cells = row.into_iter();
        let change = cells.next().unwrap_or_default();
        let mut eval = cells.next().unwrap_or_default();
        if with_experiment {
            let x = cells.next().unwrap_or_default();
            if !x.is_empty() {
                eval.push(" · ", Tone::Soft);
                eval.append(x);
            }
        }
        let mut sides = cells.next().unwrap_or_default();
        sides.push(" → ", Tone::Soft);
        sides.append(cells.next().unwrap_or_default());
        rows.push(vec![change, eval]);
        rows.push(vec![Text::new(), sides]);
    }
    Table { columns: vec![Column::fixed("change"), Column::left(header)], rows, floor: vec![] }
}
