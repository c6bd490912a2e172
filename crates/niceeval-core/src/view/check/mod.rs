//! `niceeval check` as the view draws it: which findings the selected
//! rules keep, what was checked, where each finding points, the counts per
//! rule, and every line the text and JSON reports print. `cli/check.rs`
//! parses arguments and writes what this gives.

mod json;
mod text;

pub use json::{JSON_FORMAT, rules_json};
pub use text::{Layout, SHOWN_PER_RULE, rules_text};

use super::text::clean;
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::{Finding, Location, Severity};
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use crate::model::lint::{RULES, attempt_is_checkable, notice_is_finding};

/// What `check` says when no attempt has the adapter's own events.
pub const NOTHING_TO_CHECK: &str = "no attempt with the adapter's own events to check; record the Turns your adapter returns (docs/adapters.md) and check that file";

/// Which rules `--select` and `--ignore` keep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleChoice {
    /// `None`: every rule.
    pub select: Option<Vec<&'static str>>,
    pub ignore: Vec<&'static str>,
}

impl RuleChoice {
    /// The codes given to `--select` and `--ignore` (each already split at
    /// commas); an unknown code is a usage error that names it.
    pub fn parse(select: &[String], ignore: &[String]) -> Result<RuleChoice, String> {
        let known = |flag: &str, list: &[String]| -> Result<Vec<&'static str>, String> {
            list.iter()
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .map(|s| {
                    RULES.iter().find(|r| r.code == s).map(|r| r.code).ok_or_else(|| {
                        format!("{flag}: no rule has the code `{}`; `niceeval check --list-rules` lists them", clean(s))
                    })
                })
                .collect()
        };
        let select = if select.is_empty() { None } else { Some(known("--select", select)?) };
        Ok(RuleChoice { select, ignore: known("--ignore", ignore)? })
    }

    pub fn allows(&self, code: &str) -> bool {
        self.select.as_ref().is_none_or(|s| s.contains(&code)) && !self.ignore.contains(&code)
    }

    fn is_all(&self) -> bool {
        self.select.is_none() && self.ignore.is_empty()
    }
}

/// Counts of what was checked.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub attempts: usize,
    pub sessions: usize,
    pub turns: usize,
    pub events: usize,
}

/// One rule's findings: how many, and the first (in the order check found them).
#[derive(Debug, Clone)]
pub struct RuleStat {
    pub code: &'static str,
    pub severity: Severity,
    pub count: usize,
    /// Index of the first finding in [`Report::findings`].
    pub first: usize,
}

pub struct Report<'a> {
    doc: &'a Document,
    derived: &'a [DerivedAttempt],
    /// The findings of the selected rules.
    pub findings: Vec<Finding>,
    pub checked: Counts,
    /// Attempt indices whose events are not the adapter's own.
    pub skipped: Vec<usize>,
    pub deny_warnings: bool,
    pub choice: RuleChoice,
    /// True when the attempts came from several files: each finding then names its file.
    several_files: bool,
}

impl<'a> Report<'a> {
    pub fn new(doc: &'a Document, derived: &'a [DerivedAttempt], findings: Vec<Finding>, deny_warnings: bool) -> Self {
        Report::chosen(doc, derived, findings, deny_warnings, RuleChoice::default())
    }

    /// The report of the rules `choice` keeps: exit codes and counts see only those.
    pub fn chosen(
        doc: &'a Document,
        derived: &'a [DerivedAttempt],
        mut findings: Vec<Finding>,
        deny_warnings: bool,
        choice: RuleChoice,
    ) -> Self {
        if !choice.is_all() {
            findings.retain(|f| choice.allows(f.code));
        }
        let mut checked = Counts::default();
        let mut skipped = Vec::new();
        for (i, a) in doc.attempts.iter().enumerate() {
            if !attempt_is_checkable(a) {
                skipped.push(i);
                continue;
            }
            checked.attempts += 1;
            checked.sessions += a.sessions.len();
            for t in a.sessions.iter().flat_map(|s| &s.turns).filter(|t| !t.reconstructed) {
                checked.turns += 1;
                checked.events += t.turn.events.len();
            }
        }
        let mut sources = doc.attempts.iter().filter_map(|a| a.source.as_deref());
        let several_files = sources.next().is_some_and(|first| sources.any(|s| s != first));
        Report { doc, derived, findings, checked, skipped, deny_warnings, choice, several_files }
    }

    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Error).count()
    }

    pub fn warnings(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Warning).count()
    }

    pub fn failed(&self) -> bool {
        self.errors() > 0 || (self.deny_warnings && self.warnings() > 0)
    }

    /// Nothing was checked: every attempt's events were rebuilt or absent.
    pub fn nothing_checked(&self) -> bool {
        self.checked.attempts == 0
    }

    /// The exit status: 1 on findings at the failing severity, 2 when there
    /// was nothing to check, else 0.
    pub fn exit_code(&self) -> i32 {
        if self.failed() {
            1
        } else if self.nothing_checked() {
            2
        } else {
            0
        }
    }

    /// What stderr says when nothing was checked.
    pub fn refusal(&self) -> Option<String> {
        let sources: Vec<String> = self.doc.sources.iter().map(|s| clean(s)).collect();
        self.nothing_checked()
            .then(|| format!("niceeval: {} ({}): {NOTHING_TO_CHECK}", sources.join(", "), clean(&self.doc.format)))
    }

    /// The rules that found something, errors first, then in the order found.
    pub fn statistics(&self) -> Vec<RuleStat> {
        let mut stats: Vec<RuleStat> = Vec::new();
        for (i, f) in self.findings.iter().enumerate() {
            match stats.iter_mut().find(|s| s.code == f.code && s.severity == f.severity) {
                Some(s) => s.count += 1,
                None => stats.push(RuleStat { code: f.code, severity: f.severity, count: 1, first: i }),
            }
        }
        stats.sort_by_key(|s| (std::cmp::Reverse(s.severity), s.first));
        stats
    }

    /// `N:i` of a finding (the attempt-wide turn number and the event
    /// ordinal), `turn N` for a whole-turn one, `-` for a session's or the file's.
    pub fn position(&self, f: &Finding) -> String {
        if f.input().is_some() {
            return "-".into();
        }
        let l = f.location;
        match (l.turn(), l.event()) {
            (Some(t), e @ Some(_)) => super::address::event_address(self.turn_number(l, t), e),
            (Some(t), None) => format!("turn {}", self.turn_number(l, t)),
            _ => "-".into(),
        }
    }

    fn turn_number(&self, l: Location, turn: usize) -> u64 {
        self.derived
            .get(l.attempt())
            .map(|d| super::address::turn_number(d, TurnAddr { session: l.session(), turn }))
            .unwrap_or(0)
    }

    /// The attempt-wide turn number of a finding, when it points at a turn.
    fn turn_of(&self, f: &Finding) -> Option<u64> {
        f.location.turn().filter(|_| f.input().is_none()).map(|t| self.turn_number(f.location, t))
    }

    /// The file a finding comes from, when several files were checked.
    pub fn source_of(&self, f: &Finding) -> Option<String> {
        if !self.several_files {
            return None;
        }
        match f.input() {
            Some(at) => Some(clean(&at.path)),
            None => self.doc.attempts.get(f.location.attempt()).and_then(|a| a.source.as_deref()).map(clean),
        }
    }

    /// A finding's position with what tells it apart from another file's or
    /// attempt's: `turns/b.json › 1:3`, `attempt 4 › 1:3`, or `1:3`;
    /// `path:line` for a finding about the file itself.
    pub fn located(&self, f: &Finding) -> String {
        if let Some(at) = f.input() {
            return format!("{}:{}", clean(&at.path), at.line);
        }
        let position = self.position(f);
        if let Some(source) = self.source_of(f) {
            format!("{source} › {position}")
        } else if self.doc.attempts.len() > 1 {
            format!("attempt {} › {position}", f.location.attempt() + 1)
        } else {
            position
        }
    }

    /// "session-2 (thread_x) › turn 6 · session2/turn1".
    fn group_title(&self, l: Location) -> String {
        let Some(attempt) = self.doc.attempts.get(l.attempt()) else { return String::new() };
        let mut head = match attempt.sessions.get(l.session()) {
            Some(s) => {
                let mut h = s.scope_name();
                if let Some(id) = &s.id {
                    h.push_str(&format!(" ({})", crate::model::text::one_line(id, 40)));
                }
                h
            }
            None => format!("session {}", l.session() + 1),
        };
        if let (Some(turn), Some(d)) = (l.turn(), self.derived.get(l.attempt())) {
            let addr = TurnAddr { session: l.session(), turn };
            head.push_str(&format!(" › {}", super::address::turn_title(attempt, d, addr)));
        }
        head
    }

    /// "attempt 4 · turns/b.json · eval-id #2": the file only when several were checked.
    fn attempt_title(&self, ai: usize) -> String {
        let mut parts = vec![format!("attempt {}", ai + 1)];
        let Some(attempt) = self.doc.attempts.get(ai) else { return parts.join(" ") };
        if let Some(source) = attempt.source.as_deref().filter(|_| self.several_files) {
            parts.push(format!("· {}", clean(source)));
        }
        if let Some(id) = &attempt.eval_id {
            parts.push(clean(id));
        }
        if let Some(n) = attempt.attempt_number {
            parts.push(format!("#{n}"));
        }
        parts.join(" ")
    }

    /// A load notice worth a note: not one a finding already reports.
    fn is_note(n: &Notice) -> bool {
        n.level >= NoticeLevel::Warning && !notice_is_finding(n) && !n.kind.is_input_lost()
    }

    /// The notes of the checked attempts' notices.
    fn notices(&self) -> impl Iterator<Item = &Notice> {
        self.doc
            .attempts
            .iter()
            .enumerate()
            .filter(|(ai, _)| !self.skipped.contains(ai))
            .flat_map(|(_, a)| a.notices.iter())
            .filter(|n| Report::is_note(n))
    }
}

/// Why `check` has no stream to check in an attempt it skips.
fn skip_reason(a: &Attempt) -> &'static str {
    super::findings::unchecked_reason(a).unwrap_or("its events were not checked")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_choice_names_an_unknown_code() {
        let err = RuleChoice::parse(&["orphan-finish".into(), "no-such-rule".into()], &[]).unwrap_err();
        assert!(err.contains("--select") && err.contains("`no-such-rule`"), "{err}");
        let err = RuleChoice::parse(&[], &["nope".into()]).unwrap_err();
        assert!(err.contains("--ignore") && err.contains("`nope`"), "{err}");
        let c = RuleChoice::parse(&["orphan-finish".into()], &[]).unwrap();
        assert!(c.allows("orphan-finish") && !c.allows("command-unclassified"));
        let c = RuleChoice::parse(&[], &["orphan-finish".into()]).unwrap();
        assert!(!c.allows("orphan-finish") && c.allows("command-unclassified"));
    }
}
