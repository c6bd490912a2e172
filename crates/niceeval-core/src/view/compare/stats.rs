//! What a column of the matrix adds up to: its evals, how many passed and
//! the pass rate, and the sums of tokens, observed and estimated cost over
//! its attempts, with the note that says which sums leave attempts (or
//! turns) out.

use super::{Cv, column_id, letter};
use crate::model::compare::Cell;
use crate::view::format::{MISSING, percent};
use crate::view::text::{Text, Tone};

/// The sum of a figure over a column's attempts, and how many report it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sum {
    pub total: Option<f64>,
    pub reporting: usize,
    pub of: usize,
    /// Attempts whose own figure covers only some of their turns (an
    /// observed cost that only some turns report).
    pub incomplete: usize,
}

impl Sum {
    fn add(&mut self, x: Option<f64>) {
        self.of += 1;
        if let Some(x) = x {
            self.total = Some(self.total.unwrap_or(0.0) + x);
            self.reporting += 1;
        }
    }

    /// Only some of the attempts report it, or some report it for only some turns.
    pub fn partial(&self) -> bool {
        self.total.is_some() && (self.reporting < self.of || self.incomplete > 0)
    }

    /// "800", "800*" when only some attempts report it (a note says how
    /// many), "—" when none does.
    pub fn text(&self, fmt: fn(f64) -> String) -> Text {
        match self.total {
            None => Text::toned(MISSING, Tone::Soft),
            Some(t) if self.partial() => Text::plain(fmt(t)).with("*", Tone::Warn),
            Some(t) => Text::plain(fmt(t)),
        }
    }
}

/// What a column adds up to.
#[derive(Debug, Clone)]
pub struct ColumnStats {
    pub id: String,
    pub letter: String,
    /// Evals with an attempt in this column, how many of them have a
    /// verdict (a capture has none), and how many passed (by the cell's verdict).
    pub evals: usize,
    pub decided: usize,
    pub passed: usize,
    /// Over every attempt of the column.
    pub attempts: usize,
    pub tokens: Sum,
    pub observed: Sum,
    pub estimated: Sum,
}

impl ColumnStats {
    /// Passed of the evals with a verdict; `None` when none has one.
    pub fn pass_rate(&self) -> Option<f64> {
        (self.decided > 0).then(|| self.passed as f64 / self.decided as f64)
    }

    /// "2/9 · 22.2%" (of the evals with a verdict), "— (no verdict)".
    pub fn passed_text(&self) -> Text {
        match self.pass_rate() {
            Some(r) => Text::plain(format!("{}/{} · {}", self.passed, self.decided, percent(r))),
            None => Text::toned(format!("{MISSING} (no verdict)"), Tone::Soft),
        }
    }
}

pub fn column_stats(c: &Cv) -> Vec<ColumnStats> {
    let entries = &c.entries;
    c.comparison
        .columns
        .iter()
        .enumerate()
        .map(|(ci, key)| {
            let cells: Vec<&Cell> = c.comparison.rows.iter().filter_map(|r| r.cells[ci].as_ref()).collect();
            let mut stats = ColumnStats {
                id: column_id(key),
                letter: letter(ci),
                evals: cells.len(),
                decided: cells.iter().filter(|x| x.verdict(entries).is_some()).count(),
                passed: cells
                    .iter()
                    .filter(|x| x.verdict(entries) == Some(crate::model::verdict::Verdict::Passed))
                    .count(),
                attempts: 0,
                tokens: Sum::default(),
                observed: Sum::default(),
                estimated: Sum::default(),
            };
            for s in cells.iter().flat_map(|x| &x.attempts).filter_map(|&i| c.summary(i)) {
                stats.attempts += 1;
                stats.tokens.add(s.tokens());
                stats.observed.add(s.observed.usd);
                stats.observed.incomplete += usize::from(s.observed_partial_counts().is_some());
                stats.estimated.add(s.estimate.total());
            }
            stats
        })
        .collect()
}

/// "* sums of the attempts that report them: tokens A 8 of 9, C 3 of 4;
/// observed C 3 of 4", when a column's sum leaves attempts out.
pub fn partial_note(stats: &[ColumnStats]) -> Option<Text> {
    let mut parts = Vec::new();
    for (name, sum) in [
        ("tokens", (|s: &ColumnStats| s.tokens) as fn(&ColumnStats) -> Sum),
        ("observed", |s| s.observed),
        ("estimated", |s| s.estimated),
    ] {
        let which: Vec<String> = stats
            .iter()
            .filter(|s| sum(s).partial())
            .map(|s| {
                let x = sum(s);
                let part = match x.incomplete {
                    0 => String::new(),
                    1 => " (1 for only some of its turns)".to_string(),
                    n => format!(" ({n} for only some of their turns)"),
                };
                format!("{} {} of {}{part}", s.letter, x.reporting, x.of)
            })
            .collect();
        if !which.is_empty() {
            parts.push(format!("{name} {}", which.join(", ")));
        }
    }
    (!parts.is_empty())
        .then(|| Text::toned(format!("* the sum of the attempts that report it: {}", parts.join("; ")), Tone::Warn))
}
