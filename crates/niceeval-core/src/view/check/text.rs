//! `check`'s text: grouped by rule (the default), every finding (`--all`),
//! or the count per rule (`--statistics`).

use super::{Report, RuleStat, skip_reason};
use crate::model::diagnostics::{Finding, Severity};
use crate::model::lint::RULES;
use crate::view::format::{count, finding_counts, number, number_runs};
use crate::view::text::clean;
use crate::view::verdict::severity_text;
use std::fmt::Write as _;

/// How many findings of one rule the grouped report prints in full.
pub const SHOWN_PER_RULE: usize = 3;

/// At most this many attempts are noted one by one; beyond, one note per reason.
const NOTED_ONE_BY_ONE: usize = 3;

/// Which text `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Each rule's first findings, then how many more and where.
    Grouped,
    /// Every finding, by attempt and turn.
    All,
    /// Only the count per rule.
    Statistics,
}

impl Report<'_> {
    /// The report as `check` prints it by default.
    pub fn text(&self) -> String {
        self.text_as(Layout::Grouped)
    }

    pub fn text_as(&self, layout: Layout) -> String {
        let mut out = String::new();
        if layout == Layout::Statistics {
            self.statistics_text(&mut out);
        } else {
            self.head(&mut out);
            match layout {
                Layout::All => self.all_text(&mut out),
                _ => self.grouped_text(&mut out),
            }
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// The first line, then the notes: attempts not checked, turns without
    /// a status, load notices.
    fn head(&self, out: &mut String) {
        let _ = writeln!(out, "niceeval check: {} ({})", self.sources_text(), clean(&self.doc.format));
        if self.skipped.len() <= NOTED_ONE_BY_ONE {
            for &ai in &self.skipped {
                let _ = writeln!(
                    out,
                    "note: {} not checked: {}",
                    self.attempt_title(ai),
                    skip_reason(&self.doc.attempts[ai])
                );
            }
        } else {
            let mut reasons: Vec<(&str, Vec<usize>)> = Vec::new();
            for &ai in &self.skipped {
                let reason = skip_reason(&self.doc.attempts[ai]);
                match reasons.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, list)) => list.push(ai + 1),
                    None => reasons.push((reason, vec![ai + 1])),
                }
            }
            for (reason, list) in reasons {
                let what = count(list.len(), "attempt", "attempts");
                let _ = writeln!(
                    out,
                    "note: {what} not checked ({}), for each: {reason}",
                    ranges("attempt", "attempts", &list)
                );
            }
        }
        for (ai, a) in self.doc.attempts.iter().enumerate() {
            if !self.skipped.contains(&ai) && !crate::model::lint::statuses_recorded(a) {
                let _ = writeln!(
                    out,
                    "note: {} records no Turn status; status, HITL and pending-call rules were skipped",
                    self.attempt_title(ai)
                );
            }
        }
        for n in self.notices() {
            let _ = writeln!(out, "note: {}", clean(&crate::view::notice::words(n)));
        }
        if !self.choice.is_all() {
            let _ = writeln!(out, "note: {}", self.choice_words());
        }
    }

    /// "only orphan-finish, command-unclassified checked; ignored: …".
    fn choice_words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(select) = &self.choice.select {
            parts.push(format!("rules selected: {}", select.join(", ")));
        }
        if !self.choice.ignore.is_empty() {
            parts.push(format!("rules ignored: {}", self.choice.ignore.join(", ")));
        }
        parts.join("; ")
    }

    /// One finding: position, severity, code and message, then where (when
    /// asked), hint and rule.
    fn finding_text(&self, out: &mut String, f: &Finding, with_where: bool) {
        let position = self.position(f);
        let severity = severity_text(f.severity).as_plain();
        let _ =
            writeln!(out, "  {position:<6} {severity:<9} {}  {}", f.code, clean(&crate::view::findings::message(f)));
        if with_where && f.input().is_none() {
            let mut place = self.group_title(f.location);
            if self.doc.attempts.len() > 1 {
                place = format!("{} › {place}", self.attempt_title(f.location.attempt()));
            }
            let _ = writeln!(out, "  {:<6}   where: {place}", "");
        }
        let _ = writeln!(out, "  {:<6}   hint: {}", "", clean(f.hint()));
        let _ = writeln!(out, "  {:<6}   rule: {}", "", crate::view::rules::citation_of(f.code));
    }

    /// Each rule: a title with its count, its first findings in full, then
    /// one line for the rest.
    fn grouped_text(&self, out: &mut String) {
        for stat in self.statistics() {
            let _ = writeln!(out, "\n{} · {}", stat.code, severity_count(stat.severity, stat.count));
            let mut same =
                self.findings[stat.first..].iter().filter(|f| f.code == stat.code && f.severity == stat.severity);
            for f in same.by_ref().take(SHOWN_PER_RULE) {
                self.finding_text(out, f, true);
            }
            let rest: Vec<&Finding> = same.collect();
            if !rest.is_empty() {
                let _ = writeln!(
                    out,
                    "  … and {} more `{}`{}; `--all` lists them",
                    number(rest.len() as f64),
                    stat.code,
                    self.spread(&rest)
                );
            }
        }
    }

    /// Where a rule's hidden findings are: " (turns 1–20)", " (in 12 attempts)", or "".
    fn spread(&self, rest: &[&Finding]) -> String {
        let mut attempts: Vec<usize> = rest.iter().map(|f| f.location.attempt()).collect();
        attempts.sort_unstable();
        attempts.dedup();
        if self.several_files {
            let mut files: Vec<String> = rest.iter().filter_map(|f| self.source_of(f)).collect();
            files.sort_unstable();
            files.dedup();
            if files.len() > 1 {
                return format!(" (in {})", count(files.len(), "file", "files"));
            }
        }
        if attempts.len() > 1 {
            return format!(" (in {})", count(attempts.len(), "attempt", "attempts"));
        }
        let mut turns: Vec<usize> = rest.iter().filter_map(|f| self.turn_of(f)).map(|n| n as usize).collect();
        turns.sort_unstable();
        turns.dedup();
        if turns.is_empty() { String::new() } else { format!(" ({})", ranges("turn", "turns", &turns)) }
    }

    /// Every finding: the file's own first, then by attempt and turn.
    fn all_text(&self, out: &mut String) {
        let (input, turns): (Vec<&Finding>, Vec<&Finding>) = self.findings.iter().partition(|f| f.input().is_some());
        if !input.is_empty() {
            let _ = writeln!(out, "\ninput");
        }
        for f in input {
            self.finding_text(out, f, false);
        }
        let many_attempts = self.doc.attempts.len() > 1;
        let mut last_attempt = None;
        let mut last_group = None;
        for f in turns {
            let l = f.location;
            if l.attempt() >= self.doc.attempts.len() {
                continue;
            }
            if many_attempts && last_attempt != Some(l.attempt()) {
                let _ = writeln!(out, "\n{}", self.attempt_title(l.attempt()));
                last_attempt = Some(l.attempt());
                last_group = None;
            }
            if last_group != Some((l.attempt(), l.session(), l.turn())) {
                let _ = writeln!(out, "\n{}", self.group_title(l));
                last_group = Some((l.attempt(), l.session(), l.turn()));
            }
            self.finding_text(out, f, false);
        }
    }

    /// `--statistics`: code, severity, count and first position of each rule.
    fn statistics_text(&self, out: &mut String) {
        if self.findings.is_empty() {
            return;
        }
        let rows: Vec<[String; 4]> = self
            .statistics()
            .iter()
            .map(|s: &RuleStat| {
                [
                    s.code.to_string(),
                    severity_text(s.severity).as_plain(),
                    number(s.count as f64),
                    self.located(&self.findings[s.first]),
                ]
            })
            .collect();
        let head = ["code", "severity", "count", "first"].map(String::from);
        let width = |i: usize| rows.iter().chain([&head]).map(|r| r[i].chars().count()).max().unwrap_or(0);
        let (w0, w1, w2) = (width(0), width(1), width(2));
        for r in [&head].into_iter().chain(&rows) {
            let _ = writeln!(out, "{:<w0$}  {:<w1$}  {:>w2$}  {}", r[0], r[1], r[2], r[3]);
        }
    }

    /// The last line: the counts, what was checked and each rule's count.
    fn summary(&self) -> String {
        if self.nothing_checked() && self.findings.is_empty() {
            // Why is said on stderr (`Report::refusal`), with exit status 2.
            return match self.skipped.len() {
                1 => "nothing checked: its one attempt does not hold the adapter's own events".into(),
                n => format!(
                    "nothing checked: none of its {} holds the adapter's own events",
                    count(n, "attempt", "attempts")
                ),
            };
        }
        if self.findings.is_empty() {
            return format!("no findings: checked {}", self.counts_text());
        }
        let by_rule: Vec<String> =
            self.statistics().iter().map(|s| format!("{} {}", s.code, number(s.count as f64))).collect();
        let mut line = format!(
            "\n{} in {}: {}",
            finding_counts(self.errors(), self.warnings()),
            self.counts_text(),
            by_rule.join(", ")
        );
        if !self.failed() {
            line.push_str(" (warnings only; --deny-warnings fails on them)");
        }
        line
    }

    /// The files checked; beyond a few, how many and the first.
    fn sources_text(&self) -> String {
        const LISTED: usize = 3;
        let sources = &self.doc.sources;
        if sources.len() <= LISTED {
            return sources.iter().map(|s| clean(s)).collect::<Vec<_>>().join(", ");
        }
        format!("{} ({}, …)", count(sources.len(), "file", "files"), clean(&sources[0]))
    }

    fn counts_text(&self) -> String {
        let c = self.checked;
        format!(
            "{}, {}, {}, {}",
            count(c.attempts, "attempt", "attempts"),
            count(c.sessions, "session", "sessions"),
            count(c.turns, "turn", "turns"),
            count(c.events, "event", "events")
        )
    }
}

/// "3 warnings", "1 error".
fn severity_count(s: Severity, n: usize) -> String {
    match s {
        Severity::Error => count(n, "error", "errors"),
        Severity::Warning => count(n, "warning", "warnings"),
    }
}

/// Sorted, distinct numbers as runs: "turns 1–4, 7, 9–20"; after eight
/// runs the rest is "…".
fn ranges(one: &str, many: &str, sorted: &[usize]) -> String {
    let numbers: Vec<u64> = sorted.iter().map(|&n| n as u64).collect();
    let word = if sorted.len() == 1 { one } else { many };
    format!("{word} {}", number_runs(&numbers, 8, false))
}

/// `check --list-rules`: every rule's code, severity and what it catches.
pub fn rules_text() -> String {
    let mut out = String::new();
    for r in RULES {
        let _ = writeln!(out, "{:<32} {:<7} {}", r.code, r.severity.as_str(), r.summary);
    }
    out.push_str("\nEach rule, how to fix it and the NiceEval behaviour it follows: docs/rules.md\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_runs() {
        assert_eq!(ranges("turn", "turns", &[1, 2, 3, 4, 7, 9, 10]), "turns 1–4, 7, 9–10");
        assert_eq!(ranges("turn", "turns", &[5]), "turn 5");
        assert_eq!(ranges("turn", "turns", &[1, 1000, 1001]), "turns 1, 1,000–1,001");
        let many: Vec<usize> = (0..20).map(|i| i * 2).collect();
        assert!(ranges("turn", "turns", &many).ends_with(", …"));
    }
}
