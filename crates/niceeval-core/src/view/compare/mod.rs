//! Comparing runs: the matrix of evals × experiments, the pairs of two
//! sources, and every word, mark and number they show, decided once for
//! `compare`, `compare --json` and the viewer. A cell's verdict, tokens and
//! costs are its attempt's [`Summary`], the one every attempt page reads.

mod assertions;
pub mod json;
pub mod report;
pub mod split;
mod stats;
mod tools;

use super::attempt::AttemptView;
use super::format::{MISSING, count, number, usd};
use super::summary::Summary;
use super::text::{Text, Tone, clean};
use super::verdict::{headline, verdict_mark, verdict_tone};
use crate::model::compare::{Cell, Change, ColumnKey, Comparison, Entry, PairClass, PairedBy, Side, compare};
use crate::model::diagnostics::Finding;
use crate::model::document::Document;
use crate::view::intent::Intent;
use crate::view::keys::key_for;

pub use crate::model::compare::UnknownExperiment;
pub use stats::{ColumnStats, Sum, column_stats, partial_note, slots_note};

/// One source as loaded: its document and the views built from it alone
/// (so attempt numbers and findings are the source's own; `analysis::build_source` makes one).
pub struct Built {
    pub doc: Document,
    pub views: Vec<AttemptView>,
    pub findings: Vec<Finding>,
}

/// Where the attempts of one source sit in the merged document.
#[derive(Debug, Clone)]
pub struct SourceInfo {
    pub side: Side,
    pub paths: Vec<String>,
    pub format: String,
    pub attempts: std::ops::Range<usize>,
}

/// What was compared, apart from the attempts themselves: the sources, one
/// entry per attempt, and the comparison.
pub struct Comparing {
    pub sources: Vec<SourceInfo>,
    /// One per attempt of the merged document.
    pub entries: Vec<Entry>,
    pub comparison: Comparison,
    /// The slots each source's runs expected that hold no attempt (never
    /// run): no cell's attempt, but NiceEval's pass rate and cost count them.
    pub slots_not_recorded: Vec<(Side, crate::model::measure::SlotNotRecorded)>,
}

/// Everything compared: the sources merged into one document (attempts in
/// source order, with their views and findings), and the comparison. The
/// viewer keeps the document and views as its own and the [`Comparing`]
/// beside them; [`Cv`] borrows both.
pub struct Compared {
    pub doc: Document,
    pub views: Vec<AttemptView>,
    pub findings: Vec<Finding>,
    pub comparing: Comparing,
}

/// A comparison with the attempts it compares, borrowed: what every
/// function here reads.
#[derive(Clone, Copy)]
pub struct Cv<'a> {
    pub doc: &'a Document,
    pub views: &'a [AttemptView],
    pub findings: &'a [Finding],
    pub comparing: &'a Comparing,
}

impl std::ops::Deref for Cv<'_> {
    type Target = Comparing;

    fn deref(&self) -> &Comparing {
        self.comparing
    }
}

impl Compared {
    /// One source with several experiments.
    pub fn one(source: Built, experiments: &[String]) -> Result<Compared, UnknownExperiment> {
        Compared::merge(vec![(Side::One, source)], experiments)
    }

    /// Two sources: BEFORE and AFTER.
    pub fn two(before: Built, after: Built, experiments: &[String]) -> Result<Compared, UnknownExperiment> {
        Compared::merge(vec![(Side::Before, before), (Side::After, after)], experiments)
    }

    pub fn view(&self) -> Cv<'_> {
        Cv { doc: &self.doc, views: &self.views, findings: &self.findings, comparing: &self.comparing }
    }

    fn merge(sources: Vec<(Side, Built)>, experiments: &[String]) -> Result<Compared, UnknownExperiment> {
        let mut doc = Document::default();
        let (mut views, mut findings, mut infos, mut entries) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut slots_not_recorded = Vec::new();
        let mut formats = Vec::new();
        for (side, built) in sources {
            let offset = doc.attempts.len();
            for mut f in built.findings {
                f.location = f.location.shifted(offset);
                findings.push(f);
            }
            for (a, v) in built.doc.attempts.iter().zip(&built.views) {
                entries.push(entry(side, a, &v.summary));
            }
            infos.push(SourceInfo {
                side,
                paths: built.doc.sources.clone(),
                format: built.doc.format.clone(),
                attempts: offset..offset + built.doc.attempts.len(),
            });
            formats.push(built.doc.format.clone());
            doc.sources.extend(built.doc.sources);
            doc.notices.extend(built.doc.notices);
            doc.losses.extend(built.doc.losses);
            slots_not_recorded.extend(built.doc.slots_not_recorded.iter().cloned().map(|x| (side, x)));
            doc.slots_not_recorded.extend(built.doc.slots_not_recorded);
            doc.attempts.extend(built.doc.attempts);
            views.extend(built.views);
        }
        formats.dedup();
        doc.format = format!("compare: {}", formats.join(" → "));
        let comparison = compare(&entries, experiments)?;
        Ok(Compared {
            doc,
            views,
            findings,
            comparing: Comparing { sources: infos, entries, comparison, slots_not_recorded },
        })
    }
}

impl<'a> Cv<'a> {
    pub fn summary(&self, attempt: usize) -> Option<&'a Summary> {
        self.views.get(attempt).map(|v| &v.summary)
    }

    /// Two sources (pairs are listed).
    pub fn is_pairwise(&self) -> bool {
        self.comparison.pairs.is_some()
    }

    pub fn side_of(&self, attempt: usize) -> Side {
        self.entries.get(attempt).and_then(|e| e.side).unwrap_or(Side::One)
    }
}

fn entry(side: Side, a: &crate::model::document::Attempt, s: &Summary) -> Entry {
    Entry {
        side: Some(side),
        experiment: a.experiment_id.clone(),
        eval: a.eval_id.clone(),
        attempt_number: s.attempt_number,
        verdict: s.verdict,
        status: s.status,
        tally: a.eval_tally,
    }
}

/// The word of a side, for JSON and column ids.
pub fn side_word(side: Side) -> Option<&'static str> {
    match side {
        Side::One => None,
        Side::Before => Some("before"),
        Side::After => Some("after"),
    }
}

/// What a missing experiment id reads as.
pub const NO_EXPERIMENT: &str = "(none)";

/// A column's id: the experiment; with two sources, prefixed by its side
/// (`before:main`), so the same experiment on both sides stays two keys.
pub fn column_id(key: &ColumnKey) -> String {
    match (side_word(key.side), &key.experiment) {
        (None, Some(x)) => clean(x),
        (None, None) => NO_EXPERIMENT.into(),
        (Some(side), Some(x)) => format!("{side}:{}", clean(x)),
        (Some(side), None) => side.into(),
    }
}

/// "A", "B", …, "Z", "AA", …: a short column name for narrow matrices.
pub fn letter(i: usize) -> String {
    let mut n = i + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The column headers of the matrix: the ids when they fit in `budget`
/// columns (with a two-column gap each), else the letters the experiments
/// table names.
pub fn column_labels(c: &Cv, budget: usize) -> Vec<String> {
    let ids: Vec<String> = c.comparison.columns.iter().map(column_id).collect();
    let cells = matrix_rows(c);
    let width = |i: usize, head: &str| {
        cells.iter().map(|r| r.cells[i].width()).chain([crate::model::text::width(head)]).max().unwrap_or(0) + 2
    };
    let total: usize = ids.iter().enumerate().map(|(i, id)| width(i, id)).sum();
    if total <= budget { ids } else { (0..ids.len()).map(letter).collect() }
}

/// A cell as the matrix shows it: the representative's verdict mark (its
/// status in parentheses when it has no verdict), its score when scored,
/// and `k/n` when the eval has several attempts.
pub fn cell_text(c: &Cv, cell: &Cell) -> Text {
    let Some(s) = c.summary(cell.representative) else { return Text::toned(MISSING, Tone::Soft) };
    let mut t = match s.verdict {
        Some(v) => Text::toned(verdict_mark(v), verdict_tone(v)),
        None => match s.status {
            Some(_) => {
                Text::toned(format!("({})", headline(None, s.status).as_plain().replace(" (status)", "")), Tone::Soft)
            }
            None => Text::toned(MISSING, Tone::Soft),
        },
    };
    if cell.total > 1 {
        t.push(format!(" {}/{}", cell.passed, cell.total), if cell.mixed() { Tone::Warn } else { Tone::Plain });
    }
    if let Some((earned, points)) = s.score {
        let sep = if cell.total > 1 { " ·" } else { "" };
        t.push(format!("{sep} {}/{} pts", opt(earned), opt(points)), Tone::Plain);
    }
    t
}

fn opt(x: Option<f64>) -> String {
    x.map(number).unwrap_or_else(|| MISSING.into())
}

/// What an eval not run in a column reads as.
pub const NOT_RUN: &str = "·";

/// The legend under the matrix: the marks it shows, and what `k/n` means
/// when a cell has several attempts.
pub fn legend(c: &Cv) -> Text {
    use crate::model::verdict::Verdict;
    let cells: Vec<&Cell> = c.comparison.rows.iter().flat_map(|r| r.cells.iter().flatten()).collect();
    let summaries: Vec<&Summary> = cells.iter().filter_map(|x| c.summary(x.representative)).collect();
    let order = [Verdict::Passed, Verdict::Failed, Verdict::Errored, Verdict::Skipped, Verdict::Unavailable];
    let mut parts: Vec<String> = order
        .into_iter()
        .filter(|v| summaries.iter().any(|s| s.verdict == Some(*v)))
        .map(|v| format!("{} {}", verdict_mark(v), v.as_str()))
        .collect();
    if summaries.iter().any(|s| s.verdict.is_none() && s.status.is_some()) {
        parts.push("(…) no verdict: the attempt's status".into());
    }
    if summaries.iter().any(|s| s.verdict.is_none() && s.status.is_none()) {
        parts.push(format!("{MISSING} no verdict or status recorded"));
    }
    if c.comparison.rows.iter().any(|r| r.cells.iter().any(Option::is_none)) {
        parts.push(format!("{NOT_RUN} not run"));
    }
    if cells.iter().any(|x| x.total > 1) {
        parts.push("k/n: k of n attempts passed, the mark is the last attempt's (as NiceEval reports the eval)".into());
    }
    Text::toned(parts.join("  "), Tone::Soft)
}

pub fn change_word(c: Change) -> &'static str {
    match c {
        Change::Broken => "broken",
        Change::Fixed => "fixed",
        Change::Flaky => "flaky",
        Change::Changed => "changed",
        Change::Unchanged => "unchanged",
    }
}

/// "✓ fixed", "✗ broken", "~ flaky", "≠ changed"; nothing for an unchanged row.
pub fn change_text(c: Change) -> Text {
    match c {
        Change::Broken => Text::toned("✗ broken", Tone::Bad),
        Change::Fixed => Text::toned("✓ fixed", Tone::Good),
        Change::Flaky => Text::toned("~ flaky", Tone::Warn),
        Change::Changed => Text::toned("≠ changed", Tone::Warn),
        Change::Unchanged => Text::new(),
    }
}

pub fn pair_word(p: PairClass) -> &'static str {
    match p {
        PairClass::Broken => "broken",
        PairClass::Fixed => "fixed",
        PairClass::Flaky => "flaky",
        PairClass::Changed => "changed",
        PairClass::OnlyBefore => "only before",
        PairClass::OnlyAfter => "only after",
        PairClass::StillFailing => "still failing",
        PairClass::StillPassing => "still passing",
        PairClass::Unchanged => "unchanged",
    }
}

pub fn pair_text(p: PairClass) -> Text {
    let (mark, tone) = match p {
        PairClass::Broken => ("✗", Tone::Bad),
        PairClass::Fixed => ("✓", Tone::Good),
        PairClass::Flaky => ("~", Tone::Warn),
        PairClass::Changed => ("≠", Tone::Warn),
        PairClass::OnlyBefore => ("◀", Tone::Soft),
        PairClass::OnlyAfter => ("▶", Tone::Soft),
        PairClass::StillFailing => ("✗", Tone::Soft),
        PairClass::StillPassing => ("✓", Tone::Soft),
        PairClass::Unchanged => ("=", Tone::Soft),
    };
    Text::toned(format!("{mark} {}", pair_word(p)), tone)
}

pub fn paired_by_word(p: PairedBy) -> &'static str {
    match p {
        PairedBy::ExperimentAndEval => "experiment-and-eval",
        PairedBy::Eval => "eval",
        PairedBy::OnlyAttempts => "only-attempts",
    }
}

/// "paired by experiment and eval", …
pub fn paired_by_text(p: PairedBy) -> &'static str {
    match p {
        PairedBy::ExperimentAndEval => "paired by experiment and eval",
        PairedBy::Eval => "paired by eval (the sources share no experiment)",
        PairedBy::OnlyAttempts => "each source's only attempt, paired",
    }
}

/// A row's name: its eval, or the file of its first attempt when it has none.
pub fn row_label(c: &Cv, row: usize) -> String {
    let Some(r) = c.comparison.rows.get(row) else { return String::new() };
    match (&r.eval, r.cells.iter().flatten().next()) {
        (Some(e), _) => clean(e),
        (None, Some(cell)) => row_label_of(c, cell.representative),
        (None, None) => "(no eval id)".into(),
    }
}

/// An attempt's eval as a row names it: its eval id, or its file (the
/// file it came from, else its source's).
pub fn row_label_of(c: &Cv, attempt: usize) -> String {
    let Some(s) = c.summary(attempt) else { return "(no eval id)".into() };
    if let Some(e) = &s.eval {
        return clean(e);
    }
    let source = c.sources.iter().find(|x| x.attempts.contains(&attempt)).and_then(|x| x.paths.first());
    let file = s.source.clone().or_else(|| source.cloned());
    Summary { experiment: None, attempt_number: None, source: file, ..s.clone() }.title()
}

/// One matrix row as both surfaces show it.
#[derive(Debug, Clone)]
pub struct MatrixRow {
    pub change: Text,
    pub eval: Text,
    /// One per column: the cell, or [`NOT_RUN`].
    pub cells: Vec<Text>,
}

pub fn matrix_rows(c: &Cv) -> Vec<MatrixRow> {
    c.comparison
        .rows
        .iter()
        .enumerate()
        .map(|(ri, r)| MatrixRow {
            change: change_text(r.change),
            eval: Text::plain(row_label(c, ri)),
            cells: r
                .cells
                .iter()
                .map(|x| match x {
                    Some(cell) => cell_text(c, cell),
                    None => Text::toned(NOT_RUN, Tone::Soft),
                })
                .collect(),
        })
        .collect()
}

/// "3 experiments · 13 evals · 7 fixed · 1 broken".
pub fn meta(c: &Cv) -> Text {
    let rows = &c.comparison.rows;
    let columns = c.comparison.columns.len();
    let columns =
        if c.is_pairwise() { count(columns, "column", "columns") } else { count(columns, "experiment", "experiments") };
    let mut t = Text::toned(format!("{columns} · {}", count(rows.len(), "eval", "evals")), Tone::Soft);
    for change in [Change::Broken, Change::Fixed, Change::Flaky, Change::Changed] {
        let n = rows.iter().filter(|r| r.change == change).count();
        if n > 0 {
            t.push(" · ", Tone::Soft);
            t.append(Text::toned(format!("{n} {}", change_word(change)), change_text(change).spans[0].1));
        }
    }
    // Slots a run expected that hold no attempt: NiceEval's "selected slots … not recorded".
    let missing = c.slots_not_recorded.len();
    if missing > 0 {
        t.push(format!(" · {}", count(missing, "slot not recorded", "slots not recorded")), Tone::Warn);
    }
    t
}

/// A cell's representative as a pair side shows it: "✗ @1ZRKMJ3H7MP47".
pub fn side_text(c: &Cv, cell: &Cell) -> Text {
    let mut t = cell_text(c, cell);
    if let Some(l) = c.summary(cell.representative).and_then(|s| s.locator.as_deref()) {
        t.push(format!(" {}", clean(l)), Tone::Accent);
    }
    t
}

/// A difference of two amounts: "+138", "−0.00002", "±0"; "—" when either is missing.
pub fn delta(before: Option<f64>, after: Option<f64>, fmt: fn(f64) -> String) -> Text {
    match (before, after) {
        (Some(b), Some(a)) => {
            let d = a - b;
            let sign = if d > 0.0 {
                "+"
            } else if d < 0.0 {
                "−"
            } else {
                "±"
            };
            let tone = if d == 0.0 { Tone::Soft } else { Tone::Plain };
            Text::toned(format!("{sign}{}", fmt(d.abs())), tone)
        }
        _ => Text::toned(MISSING, Tone::Soft),
    }
}

/// USD for deltas and sums.
pub fn money(x: f64) -> String {
    usd(x)
}

/// The matrix screen's first line: "niceeval compare" and the sources.
pub fn screen_title(c: &Cv) -> Text {
    let sources: Vec<String> = c.sources.iter().map(|s| clean(&s.paths.join(", "))).collect();
    Text::toned("niceeval compare ", Tone::Bold).with(sources.join(" → "), Tone::Plain)
}

/// "· marked classic/tool-note in classic/baseline".
pub fn marked_text(c: &Cv, (row, column): (usize, usize)) -> Text {
    let col = c.comparison.columns.get(column).map(column_id).unwrap_or_default();
    Text::toned(
        format!("  · marked {} in {col} ({} on another cell opens the two)", row_label(c, row), key_for(Intent::Enter)),
        Tone::Accent,
    )
}

/// The matrix's column headers before the cells.
pub const CHANGE_HEADER: &str = "change";
pub const EVAL_HEADER: &str = "eval";

/// What the matrix says with no rows.
pub const NO_ROWS: &str = "no attempts to compare";

/// "(+3 → h/l)": columns that did not fit and the keys that reach them.
pub fn more_columns(hidden: usize) -> Text {
    Text::toned(format!("(+{hidden} → {}/{})", key_for(Intent::CellLeft), key_for(Intent::CellRight)), Tone::Soft)
}

/// "↓ 2 more rows (j/k, PgDn)".
pub fn more_rows(n: usize) -> Text {
    let keys = [Intent::Down, Intent::Up, Intent::PageDown].map(key_for);
    Text::toned(format!("↓ {} ({}/{}, {})", count(n, "more row", "more rows"), keys[0], keys[1], keys[2]), Tone::Soft)
}

/// "↓ 2 more lines of experiments (`niceeval compare` prints them all)".
pub fn more_experiments(lines: usize) -> Text {
    Text::toned(
        format!(
            "↓ {} of the experiments table (niceeval compare prints it whole)",
            count(lines, "more line", "more lines")
        ),
        Tone::Soft,
    )
}
