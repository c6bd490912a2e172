//! What a column of the matrix adds up to: its evals, how many passed and
//! the pass rate, and the sums of tokens, observed and estimated cost over
//! its attempts, with the note that says which sums leave attempts (or
//! turns) out.

use super::{Cv, column_id, letter};
use crate::model::compare::Cell;
use crate::model::measure::{SlotTally, memberships};
use crate::view::format::{MISSING, count, percent};
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
    /// Over every attempt of the column, each once.
    pub attempts: usize,
    pub tokens: Sum,
    pub observed: Sum,
    pub estimated: Sum,
    /// As NiceEval counts (`report/model/metrics.ts`, its summaries): the run
    /// slots the column's attempts fill (a carried attempt is a slot of each
    /// run that carries it, so "Attempts" counts it in each), how many of
    /// them have a verdict and passed, and the slots that hold no attempt.
    pub slots: SlotTally,
    /// NiceEval's total cost over the slots (each slot's observed cost, else
    /// its estimate); its `of` counts every slot, the not recorded too.
    pub total_cost: Sum,
}

impl ColumnStats {
    /// NiceEval's pass rate: passed of the slots with a verdict; `None` when none has one.
    pub fn pass_rate(&self) -> Option<f64> {
        self.slots.pass_rate()
    }

    /// NiceEval's pass rate leaves slots out: not recorded, or without a verdict.
    pub fn pass_rate_partial(&self) -> bool {
        self.pass_rate().is_some() && self.slots.partial()
    }

    /// "3/4 · 75%" (passed of the slots with a verdict), with "*" when some
    /// slots have none (a note says which), "— (no verdict)".
    pub fn pass_rate_text(&self) -> Text {
        let t = &self.slots;
        match self.pass_rate() {
            None => Text::toned(format!("{MISSING} (no verdict)"), Tone::Soft),
            Some(r) => {
                let text = Text::plain(format!("{}/{} · {}", t.passed, t.decided, percent(r)));
                if self.pass_rate_partial() { text.with("*", Tone::Warn) } else { text }
            }
        }
    }

    /// This viewer's eval-level figure reads otherwise than NiceEval's slot-level one.
    pub fn evals_differ(&self) -> bool {
        (self.passed, self.decided) != (self.slots.passed, self.slots.decided)
    }

    /// This viewer's own rate: passed of the evals with a verdict (the last attempt's).
    pub fn eval_pass_rate(&self) -> Option<f64> {
        (self.decided > 0).then(|| self.passed as f64 / self.decided as f64)
    }

    /// "2/9 · 22.2%" (of the evals with a verdict), "— (no verdict)".
    pub fn passed_text(&self) -> Text {
        match self.eval_pass_rate() {
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
                slots: SlotTally {
                    not_recorded: c
                        .slots_not_recorded
                        .iter()
                        .filter(|(side, x)| *side == key.side && x.experiment_id == key.experiment)
                        .count(),
                    ..Default::default()
                },
                total_cost: Sum::default(),
            };
            for &i in cells.iter().flat_map(|x| &x.attempts) {
                let Some(s) = c.summary(i) else { continue };
                stats.attempts += 1;
                stats.tokens.add(s.tokens());
                stats.observed.add(s.observed.usd);
                stats.observed.incomplete += usize::from(s.observed_partial_counts().is_some());
                stats.estimated.add(s.estimate.total());
                let Some(a) = c.doc.attempts.get(i) else { continue };
                stats.slots.add(a);
                for _ in 0..memberships(a) {
                    stats.total_cost.add(s.observed.usd.or(s.estimate.total()));
                }
            }
            stats.total_cost.of += stats.slots.not_recorded;
            stats
        })
        .collect()
}

/// How NiceEval's figures of a column are made, when they are not this
/// viewer's own: "attempts, pass rate and total cost count run slots, as
/// NiceEval does (…): A 4 slots for 3 attempts, 3 of 4 with a verdict passed,
/// 1 slot not recorded".
pub fn slots_note(stats: &[ColumnStats]) -> Option<Text> {
    let which: Vec<String> = stats
        .iter()
        .filter(|s| s.slots.slots != s.attempts || s.pass_rate_partial())
        .map(|s| {
            let t = &s.slots;
            let mut parts = vec![format!("{} slots for {}", t.slots, count(s.attempts, "attempt", "attempts"))];
            if t.pass_rate().is_some() {
                parts.push(format!("{} of {} with a verdict passed", t.passed, t.decided));
            }
            if t.not_recorded > 0 {
                parts.push(count(t.not_recorded, "slot not recorded", "slots not recorded"));
            }
            format!("{} {}", s.letter, parts.join(", "))
        })
        .collect();
    (!which.is_empty()).then(|| {
        Text::toned(
            format!(
                "attempts, pass rate and total cost count run slots, as NiceEval does (a carried attempt counts in each run that carries it): {}",
                which.join("; ")
            ),
            Tone::Soft,
        )
    })
}

/// "* of the attempts that report it: tokens A 8 of 9, C 3 of 4;
/// observed C 3 of 4", when a column's sum leaves attempts out.
pub fn partial_note(stats: &[ColumnStats]) -> Option<Text> {
    let mut parts = Vec::new();
    for (name, sum) in [
        ("tokens", (|s: &ColumnStats| s.tokens) as fn(&ColumnStats) -> Sum),
        ("observed", |s| s.observed),
        ("estimated", |s| s.estimated),
        ("total cost (slots)", |s| s.total_cost),
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
    let rates: Vec<String> = stats
        .iter()
        .filter(|s| s.pass_rate_partial())
        .map(|s| format!("{} {} of {}", s.letter, s.slots.decided, s.slots.slots + s.slots.not_recorded))
        .collect();
    if !rates.is_empty() {
        parts.push(format!("pass rate (slots with a verdict) {}", rates.join(", ")));
    }
    (!parts.is_empty())
        .then(|| Text::toned(format!("* of the attempts that report it: {}", parts.join("; ")), Tone::Warn))
}
