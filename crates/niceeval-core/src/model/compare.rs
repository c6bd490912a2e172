//! Comparing attempts across experiments and across two sources: which
//! attempts make up an (experiment, eval) cell and which one stands for it,
//! how verdicts change along a row, and how two sources pair up. Facts
//! only; the words, marks and tones are `view::compare`'s.

use super::review::Verdict;
use super::verdict::ScopeStatus;
use std::collections::HashMap;

/// Which source an attempt came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The only source (`compare RECORD`).
    One,
    Before,
    After,
}

/// What comparing needs to know of one attempt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    pub side: Option<Side>,
    pub experiment: Option<String>,
    pub eval: Option<String>,
    /// Its number among its eval's attempts (1-based), when known.
    pub attempt_number: Option<u64>,
    pub verdict: Option<Verdict>,
    /// How the attempt went, for an attempt without a verdict (a capture).
    pub status: Option<ScopeStatus>,
    /// `(passed, attempts)` when the file states them for the whole eval
    /// (an `exp --json` eval line stands for attempts it does not list).
    pub tally: Option<(u64, u64)>,
}

impl Entry {
    fn side(&self) -> Side {
        self.side.unwrap_or(Side::One)
    }
}

/// How a verdict stands for comparing: passing, failing (failed, errored,
/// unavailable), or neither (skipped, or no verdict).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Passing,
    Failing,
    Neither,
}

pub fn standing(v: Option<Verdict>) -> Standing {
    match v {
        Some(Verdict::Passed) => Standing::Passing,
        Some(v) if v.needs_review() => Standing::Failing,
        _ => Standing::Neither,
    }
}

/// A column of the matrix: one experiment of one source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnKey {
    pub side: Side,
    pub experiment: Option<String>,
}

/// The attempts of one eval in one column.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Entry indices, by attempt number (file order for equal or no numbers).
    pub attempts: Vec<usize>,
    /// The attempt that stands for the cell, as NiceEval's `exp --json` eval
    /// line picks it: the one with the highest attempt number (the last run).
    pub representative: usize,
    pub passed: u64,
    pub total: u64,
}

impl Cell {
    /// Some attempts passed and some did not.
    pub fn mixed(&self) -> bool {
        self.passed > 0 && self.passed < self.total
    }

    pub fn verdict(&self, entries: &[Entry]) -> Option<Verdict> {
        entries.get(self.representative).and_then(|e| e.verdict)
    }

    /// What the cell reads as: its verdict, else (a capture) its status.
    pub fn reading(&self, entries: &[Entry]) -> Reading {
        entries.get(self.representative).map_or((None, None), reading)
    }
}

/// An attempt's verdict, or its status when it has no verdict: what tells
/// two attempts' outcomes apart.
pub type Reading = (Option<Verdict>, Option<ScopeStatus>);

fn reading(e: &Entry) -> Reading {
    match e.verdict {
        Some(v) => (Some(v), None),
        None => (None, e.status),
    }
}

/// How an eval's verdict changes along its row (one source: from column to
/// column; two sources: from before to after in each pair).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Change {
    /// Passing, then failing.
    Broken,
    /// Failing, then passing.
    Fixed,
    /// Both ways along the row, or attempts of one cell disagree.
    Flaky,
    /// The verdict changes without passing or failing changing (failed → errored, skipped → passed),
    /// or, without a verdict, the status does (a capture that failed, then completed).
    Changed,
    Unchanged,
}

/// What happened to one pair of a before/after comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PairClass {
    Broken,
    Fixed,
    /// A side's attempts disagree (some passed, some did not).
    Flaky,
    /// The verdict changed between non-passing, non-failing words (skipped → passed), or,
    /// without a verdict, the status did.
    Changed,
    OnlyBefore,
    OnlyAfter,
    StillFailing,
    StillPassing,
    /// Neither passing nor failing, and the same on both sides (skipped; no verdict and the same status).
    Unchanged,
}

/// How two sources' attempts were paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairedBy {
    /// The sources share experiments: (experiment, eval) pairs with (experiment, eval).
    ExperimentAndEval,
    /// No experiment in common: an eval pairs with the same eval in any experiment.
    Eval,
    /// Each source holds one attempt: the two pair whatever their names.
    OnlyAttempts,
}

/// One pair: a cell of the before side and a cell of the after side,
/// each as (row, column); `None` where the other side has no attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub before: Option<(usize, usize)>,
    pub after: Option<(usize, usize)>,
    /// The experiment both sides share, when paired by experiment and eval.
    pub experiment: Option<String>,
    pub class: PairClass,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub eval: Option<String>,
    /// One per column.
    pub cells: Vec<Option<Cell>>,
    pub change: Change,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub columns: Vec<ColumnKey>,
    /// Changed rows first (broken, fixed, flaky, changed), then by eval.
    pub rows: Vec<Row>,
    /// Two sources only.
    pub pairs: Option<(PairedBy, Vec<Pair>)>,
}

impl Comparison {
    pub fn cell(&self, (row, column): (usize, usize)) -> Option<&Cell> {
        self.rows.get(row)?.cells.get(column)?.as_ref()
    }
}

/// The experiments asked for that no attempt has.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownExperiment {
    pub wanted: String,
    pub known: Vec<String>,
}

/// Compare `entries`. `chosen` experiments, when given, are the columns to
/// keep, in that order (on both sides); attempts of other experiments are
/// left out.
pub fn compare(entries: &[Entry], chosen: &[String]) -> Result<Comparison, UnknownExperiment> {
    let known = first_seen(entries.iter().filter_map(|e| e.experiment.clone()));
    if let Some(wanted) = chosen.iter().find(|c| !known.contains(c)) {
        return Err(UnknownExperiment { wanted: wanted.clone(), known });
    }
    let kept: Vec<usize> = (0..entries.len())
        .filter(|&i| chosen.is_empty() || entries[i].experiment.as_ref().is_some_and(|x| chosen.contains(x)))
        .collect();
    let two = kept.iter().any(|&i| entries[i].side() != Side::One);
    let paired_by = two.then(|| paired_by(entries, &kept));
    let columns = columns(entries, &kept, chosen, paired_by);
    let evals = first_seen(kept.iter().map(|&i| entries[i].eval.clone()));
    // Each attempt in its (column, eval) group, once.
    let mut groups: HashMap<(ColumnKey, Option<String>), Vec<usize>> = HashMap::new();
    for &i in &kept {
        groups.entry((column_of(&entries[i]), entries[i].eval.clone())).or_default().push(i);
    }
    let mut rows: Vec<Row> = evals
        .into_iter()
        .map(|eval| {
            let cells = columns
                .iter()
                .map(|col| cell(entries, groups.remove(&(col.clone(), eval.clone())).unwrap_or_default()))
                .collect();
            Row { eval, cells, change: Change::Unchanged }
        })
        .collect();
    let pairs = paired_by.map(|by| (by, pairs(entries, &columns, &rows, by)));
    let changes: Vec<Change> = (0..rows.len())
        .map(|ri| match &pairs {
            None => row_change(entries, &rows[ri]),
            Some((_, pairs)) => pairs_change(entries, &rows, pairs, ri),
        })
        .collect();
    for (row, change) in rows.iter_mut().zip(changes) {
        row.change = change;
    }
    // Sort rows (changes first, then by eval) and renumber the pairs' rows.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| (rows[a].change, &rows[a].eval).cmp(&(rows[b].change, &rows[b].eval)));
    let new_index: HashMap<usize, usize> = order.iter().enumerate().map(|(new, &old)| (old, new)).collect();
    let mut slots: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    let rows: Vec<Row> = order.iter().filter_map(|&i| slots[i].take()).collect();
    let pairs = pairs.map(|(by, mut list)| {
        for p in &mut list {
            for (r, _) in [&mut p.before, &mut p.after].into_iter().flatten() {
                *r = new_index[r];
            }
        }
        let eval = |p: &Pair| p.before.or(p.after).and_then(|(r, _)| rows[r].eval.clone());
        list.sort_by(|a, b| (a.class, eval(a), &a.experiment).cmp(&(b.class, eval(b), &b.experiment)));
        (by, list)
    });
    Ok(Comparison { columns, rows, pairs })
}

/// Distinct values in the order they first appear.
fn first_seen<T: Eq + std::hash::Hash + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    items.filter(|x| seen.insert(x.clone())).collect()
}

fn column_of(e: &Entry) -> ColumnKey {
    ColumnKey { side: e.side(), experiment: e.experiment.clone() }
}

fn paired_by(entries: &[Entry], kept: &[usize]) -> PairedBy {
    let of = |side: Side| -> Vec<usize> { kept.iter().copied().filter(|&i| entries[i].side() == side).collect() };
    let (before, after) = (of(Side::Before), of(Side::After));
    let experiments = |list: &[usize]| first_seen(list.iter().map(|&i| entries[i].experiment.clone()));
    let (eb, ea) = (experiments(&before), experiments(&after));
    let same_eval = |a: usize, b: usize| entries[a].eval == entries[b].eval;
    // Two single attempts were named to be compared, whatever their names.
    if before.len() == 1 && after.len() == 1 && !same_eval(before[0], after[0]) {
        PairedBy::OnlyAttempts
    } else if eb.iter().any(|x| ea.contains(x)) {
        PairedBy::ExperimentAndEval
    } else {
        PairedBy::Eval
    }
}

/// Columns: the chosen experiments' order, else first appearance; with two
/// sources paired by experiment, each experiment's before and after side by side.
fn columns(entries: &[Entry], kept: &[usize], chosen: &[String], by: Option<PairedBy>) -> Vec<ColumnKey> {
    let mut cols = first_seen(kept.iter().map(|&i| column_of(&entries[i])));
    let rank = |c: &ColumnKey| c.experiment.as_ref().and_then(|x| chosen.iter().position(|y| y == x));
    let experiments = first_seen(cols.iter().map(|c| c.experiment.clone()));
    let first = |c: &ColumnKey| experiments.iter().position(|x| *x == c.experiment);
    match by {
        Some(PairedBy::ExperimentAndEval) => cols.sort_by_key(|c| (rank(c), first(c), c.side)),
        Some(_) => cols.sort_by_key(|c| (c.side, rank(c))),
        None => cols.sort_by_key(rank),
    }
    cols
}

fn cell(entries: &[Entry], mut members: Vec<usize>) -> Option<Cell> {
    members.sort_by_key(|&i| (entries[i].attempt_number.unwrap_or(0), i));
    let representative = *members.last()?;
    let (passed, total) = match (members.len(), entries[representative].tally) {
        (1, Some(tally)) => tally,
        _ => {
            let passed = members.iter().filter(|&&i| entries[i].verdict == Some(Verdict::Passed)).count();
            (passed as u64, members.len() as u64)
        }
    };
    Some(Cell { attempts: members, representative, passed, total })
}

/// The change of one step from a verdict (or a capture's status) to another.
fn step(from: Reading, to: Reading) -> Change {
    match (standing(from.0), standing(to.0)) {
        (Standing::Failing, Standing::Passing) => Change::Fixed,
        (Standing::Passing, Standing::Failing) => Change::Broken,
        _ if from != to => Change::Changed,
        _ => Change::Unchanged,
    }
}

/// Fold the steps along a row: both ways (or a mixed cell) is flaky.
fn fold(steps: impl Iterator<Item = Change>, mixed: bool) -> Change {
    let steps: Vec<Change> = steps.collect();
    let (up, down) = (steps.contains(&Change::Fixed), steps.contains(&Change::Broken));
    match (mixed, up, down) {
        (true, _, _) | (_, true, true) => Change::Flaky,
        (_, true, false) => Change::Fixed,
        (_, false, true) => Change::Broken,
        _ if steps.contains(&Change::Changed) => Change::Changed,
        _ => Change::Unchanged,
    }
}

/// One source: from each present cell to the next.
fn row_change(entries: &[Entry], row: &Row) -> Change {
    let present: Vec<&Cell> = row.cells.iter().flatten().collect();
    let mixed = present.iter().any(|c| c.mixed());
    fold(present.windows(2).map(|w| step(w[0].reading(entries), w[1].reading(entries))), mixed)
}

/// Two sources: the pairs of this row with both sides present (the only
/// pair of two single attempts has its sides in two rows: both rows are its).
fn pairs_change(entries: &[Entry], rows: &[Row], pairs: &[Pair], row: usize) -> Change {
    let cell = |(r, c): (usize, usize)| rows.get(r)?.cells.get(c)?.as_ref();
    let both: Vec<(&Cell, &Cell)> = pairs
        .iter()
        .filter_map(|p| match (p.before, p.after) {
            (Some(b), Some(a)) if b.0 == row || a.0 == row => Some((cell(b)?, cell(a)?)),
            _ => None,
        })
        .collect();
    let mixed = both.iter().any(|(b, a)| b.mixed() || a.mixed());
    fold(both.iter().map(|(b, a)| step(b.reading(entries), a.reading(entries))), mixed)
}

/// What a pair came to.
pub fn classify(entries: &[Entry], before: Option<&Cell>, after: Option<&Cell>) -> PairClass {
    let (b, a) = match (before, after) {
        (Some(b), Some(a)) => (b, a),
        (Some(_), None) => return PairClass::OnlyBefore,
        (None, _) => return PairClass::OnlyAfter,
    };
    if b.mixed() || a.mixed() {
        return PairClass::Flaky;
    }
    let (rb, ra) = (b.reading(entries), a.reading(entries));
    match (standing(rb.0), standing(ra.0)) {
        (Standing::Passing, Standing::Passing) => PairClass::StillPassing,
        (Standing::Failing, Standing::Passing) => PairClass::Fixed,
        (Standing::Passing, Standing::Failing) => PairClass::Broken,
        // failed → errored is failing on both sides but not the same: changed, as its row says.
        (Standing::Failing, Standing::Failing) if rb == ra => PairClass::StillFailing,
        _ if rb == ra => PairClass::Unchanged,
        _ => PairClass::Changed,
    }
}

/// A cell's place, (row, column), if the side has one.
type At = Option<(usize, usize)>;

fn pairs(entries: &[Entry], columns: &[ColumnKey], rows: &[Row], by: PairedBy) -> Vec<Pair> {
    let side_cols = |side: Side| -> Vec<usize> { (0..columns.len()).filter(|&c| columns[c].side == side).collect() };
    let (before_cols, after_cols) = (side_cols(Side::Before), side_cols(Side::After));
    let present = |r: usize, c: usize| rows[r].cells[c].is_some();
    let mut raw: Vec<(At, At, Option<String>)> = Vec::new();
    match by {
        PairedBy::OnlyAttempts => {
            let find =
                |cols: &[usize]| (0..rows.len()).find_map(|r| cols.iter().find(|&&c| present(r, c)).map(|&c| (r, c)));
            raw.push((find(&before_cols), find(&after_cols), None));
        }
        PairedBy::ExperimentAndEval => {
            let experiments = first_seen(columns.iter().map(|c| c.experiment.clone()));
            for r in 0..rows.len() {
                for x in &experiments {
                    let col = |side: Side| {
                        (0..columns.len()).find(|&c| columns[c].side == side && columns[c].experiment == *x)
                    };
                    let b = col(Side::Before).filter(|&c| present(r, c)).map(|c| (r, c));
                    let a = col(Side::After).filter(|&c| present(r, c)).map(|c| (r, c));
                    if b.is_some() || a.is_some() {
                        raw.push((b, a, x.clone()));
                    }
                }
            }
        }
        PairedBy::Eval => {
            for r in 0..rows.len() {
                let b: Vec<usize> = before_cols.iter().copied().filter(|&c| present(r, c)).collect();
                let a: Vec<usize> = after_cols.iter().copied().filter(|&c| present(r, c)).collect();
                match (b.is_empty(), a.is_empty()) {
                    (false, false) => {
                        for &cb in &b {
                            for &ca in &a {
                                raw.push((Some((r, cb)), Some((r, ca)), None));
                            }
                        }
                    }
                    (false, true) => raw.extend(b.iter().map(|&c| (Some((r, c)), None, None))),
                    (true, false) => raw.extend(a.iter().map(|&c| (None, Some((r, c)), None))),
                    (true, true) => {}
                }
            }
        }
    }
    let cell_at = |at: At| at.and_then(|(r, c)| rows[r].cells[c].as_ref());
    raw.into_iter()
        .map(|(before, after, experiment)| Pair {
            before,
            after,
            experiment,
            class: classify(entries, cell_at(before), cell_at(after)),
        })
        .collect()
}

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
