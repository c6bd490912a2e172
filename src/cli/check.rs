//! `niceeval check`: lint every turn of every session.
//!
//! Exit status: 0 clean, 1 findings at the failing severity (errors, or
//! warnings too with `--deny-warnings`), 2 input errors.

use crate::analysis::derive_and_lint;
use crate::model::diagnostics::{Finding, Severity};
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use crate::model::lint::{RULES, attempt_is_checkable, notice_is_finding};
use crate::model::text::{Lines, sanitize};
use crate::view::format::{count, finding_counts};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use std::io::Write as _;

#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Input files or directories (`-` for stdin).
    #[arg(value_name = "PATH", required_unless_present = "list_rules")]
    pub paths: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Fail (exit 1) on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Print every rule (code, severity, spec rule, what it catches) and exit.
    #[arg(long)]
    pub list_rules: bool,
    #[command(flatten)]
    pub agent: super::convert::AgentOpt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

/// What `check` says when no attempt has the adapter's own events.
const NOTHING_TO_CHECK: &str = "no attempt with the adapter's own events to check; record the Turns your adapter returns (docs/adapters.md) and check that file";

/// Output format name of `--format json`.
pub const JSON_FORMAT: &str = "niceeval.check/1";

pub fn run(args: &CheckArgs) -> i32 {
    if args.list_rules {
        let text = match args.format {
            CheckFormat::Text => rules_text(),
            CheckFormat::Json => pretty(&rules_json()),
        };
        return emit(&text, 0);
    }
    let doc = match crate::load::load_paths_as(&args.paths, args.agent.agent()) {
        Ok(d) => d,
        Err(e) => return super::report_error(&e),
    };
    let (derived, findings) = derive_and_lint(&doc, None, &crate::model::usage::builtin_prices());
    let report = Report::new(&doc, &derived, findings, args.deny_warnings);
    if report.checked.attempts == 0 && args.format == CheckFormat::Json {
        // Still JSON, saying which attempts have no stream to check and why.
        return emit(&pretty(&report.json()), super::EXIT_INPUT);
    }
    if report.checked.attempts == 0 {
        let sources: Vec<String> = doc.sources.iter().map(|s| clean(s)).collect();
        eprintln!("niceeval: {} ({}): {NOTHING_TO_CHECK}", sources.join(", "), clean(&doc.format));
        return super::EXIT_INPUT;
    }
    let text = match args.format {
        CheckFormat::Text => report.text(),
        CheckFormat::Json => pretty(&report.json()),
    };
    emit(&text, if report.failed() { 1 } else { 0 })
}

/// Write to stdout; a closed pipe is a normal exit.
fn emit(text: &str, code: i32) -> i32 {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => super::report_error(&e),
    }
}

fn pretty(v: &Value) -> String {
    super::terminal_safe_json(v)
}

fn clean(s: &str) -> String {
    sanitize(s, Lines::Single).into_owned()
}

/// Counts of what was checked.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub attempts: usize,
    pub sessions: usize,
    pub turns: usize,
    pub events: usize,
}

pub struct Report<'a> {
    doc: &'a Document,
    derived: &'a [crate::model::derive::DerivedAttempt],
    pub findings: Vec<Finding>,
    pub checked: Counts,
    /// Attempt indices whose events are not the adapter's own.
    pub skipped: Vec<usize>,
    pub deny_warnings: bool,
}

impl<'a> Report<'a> {
    pub fn new(
        doc: &'a Document,
        derived: &'a [crate::model::derive::DerivedAttempt],
        findings: Vec<Finding>,
        deny_warnings: bool,
    ) -> Report<'a> {
        let mut checked = Counts::default();
        let mut skipped = Vec::new();
        for (i, a) in doc.attempts.iter().enumerate() {
            if !attempt_is_checkable(a) {
                skipped.push(i);
                continue;
            }
            checked.attempts += 1;
            checked.sessions += a.sessions.len();
            for s in &a.sessions {
                checked.turns += s.turns.iter().filter(|t| !t.reconstructed).count();
                checked.events +=
                    s.turns.iter().filter(|t| !t.reconstructed).map(|t| t.turn.events.len()).sum::<usize>();
            }
        }
        Report { doc, derived, findings, checked, skipped, deny_warnings }
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

    /// `N:i` of a finding (the attempt-wide turn number and the event
    /// ordinal), `turn N` for a whole-turn one, `-` for a session's.
    pub fn position(&self, f: &Finding) -> String {
        // A finding about the input file: its message starts with `path:line:column`.
        if f.input.is_some() {
            return "-".into();
        }
        let l = f.location;
        let number = |turn| {
            self.derived
                .get(l.attempt)
                .map(|d| crate::view::address::turn_number(d, crate::model::TurnAddr { session: l.session, turn }))
                .unwrap_or(0)
        };
        match (l.turn, l.event) {
            (Some(t), e @ Some(_)) => crate::view::address::event_address(number(t), e),
            (Some(t), None) => format!("turn {}", number(t)),
            _ => "-".into(),
        }
    }

    /// One finding: position, severity, code and message, then hint and rule.
    fn finding_text(&self, out: &mut String, f: &Finding) {
        let position = self.position(f);
        let severity = crate::view::verdict::severity_text(f.severity).as_plain();
        let _ = writeln!(out, "  {position:<6} {severity:<9} {}  {}", f.code, clean(&f.message));
        let _ = writeln!(out, "  {:<6}   hint: {}", "", clean(&f.hint));
        let _ = writeln!(out, "  {:<6}   rule: {}", "", crate::view::rules::citation_of(f.code));
    }

    /// "session-2 (thread_x) › turn 6 · session2/turn1".
    fn group_title(&self, l: crate::model::diagnostics::Location) -> String {
        let Some(attempt) = self.doc.attempts.get(l.attempt) else { return String::new() };
        let session = attempt.sessions.get(l.session);
        let mut head = match session {
            Some(s) => {
                let mut h = s.scope_name();
                if let Some(id) = &s.id {
                    let _ = write!(h, " ({})", crate::model::text::one_line(id, 40));
                }
                h
            }
            None => format!("session {}", l.session + 1),
        };
        if let (Some(turn), Some(d)) = (l.turn, self.derived.get(l.attempt)) {
            let addr = crate::model::TurnAddr { session: l.session, turn };
            let _ = write!(head, " › {}", crate::view::address::turn_title(attempt, d, addr));
        }
        head
    }

    fn attempt_title(&self, ai: usize, attempt: &Attempt) -> String {
        let mut parts = vec![format!("attempt {}", ai + 1)];
        if let Some(id) = &attempt.eval_id {
            parts.push(clean(id));
        }
        if let Some(n) = attempt.attempt_number {
            parts.push(format!("#{n}"));
        }
        parts.join(" ")
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let sources: Vec<String> = self.doc.sources.iter().map(|s| clean(s)).collect();
        let _ = writeln!(out, "niceeval check: {} ({})", sources.join(", "), clean(&self.doc.format));
        for &ai in &self.skipped {
            let a = &self.doc.attempts[ai];
            let _ = writeln!(out, "note: {} skipped: {}", self.attempt_title(ai, a), skip_reason(a));
        }
        for (ai, a) in self.doc.attempts.iter().enumerate() {
            if self.skipped.contains(&ai) {
                continue;
            }
            if !crate::model::lint::statuses_recorded(a) {
                let _ = writeln!(
                    out,
                    "note: {} records no Turn status; status, HITL and pending-call rules were skipped",
                    self.attempt_title(ai, a)
                );
            }
            for n in a.notices.iter().filter(|n| self.is_note(n)) {
                let _ = writeln!(out, "note: {}", clean(&n.message));
            }
        }
        let (input, turns): (Vec<&Finding>, Vec<&Finding>) = self.findings.iter().partition(|f| f.input.is_some());
        if !input.is_empty() {
            let _ = writeln!(out, "\ninput");
        }
        for f in input {
            self.finding_text(&mut out, f);
        }
        let many_attempts = self.doc.attempts.len() > 1;
        let mut last_attempt = None;
        let mut last_group = None;
        for f in turns {
            let l = f.location;
            let Some(attempt) = self.doc.attempts.get(l.attempt) else { continue };
            if many_attempts && last_attempt != Some(l.attempt) {
                let _ = writeln!(out, "\n{}", self.attempt_title(l.attempt, attempt));
                last_attempt = Some(l.attempt);
                last_group = None;
            }
            if last_group != Some((l.attempt, l.session, l.turn)) {
                let _ = writeln!(out, "\n{}", self.group_title(l));
                last_group = Some((l.attempt, l.session, l.turn));
            }
            self.finding_text(&mut out, f);
        }
        if self.findings.is_empty() {
            let _ = writeln!(out, "no findings: checked {}", self.counts_text());
        } else {
            let mut summary = format!("\n{} in {}", finding_counts(self.errors(), self.warnings()), self.counts_text());
            if !self.failed() {
                summary.push_str(" (warnings only; --deny-warnings fails on them)");
            }
            let _ = writeln!(out, "{summary}");
        }
        out
    }

    pub fn json(&self) -> Value {
        let findings: Vec<Value> = self.findings.iter().map(|f| self.finding_json(f)).collect();
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|&ai| {
                let a = &self.doc.attempts[ai];
                json!({
                    "attempt": ai + 1,
                    "evalId": a.eval_id.as_deref().map(clean),
                    "locator": a.locator.as_deref().map(clean),
                    "stream": if crate::view::findings::has_no_events(a) { "none" } else { "rebuilt" },
                    "reason": skip_reason(a),
                })
            })
            .collect();
        let notices: Vec<Value> = self
            .doc
            .attempts
            .iter()
            .enumerate()
            .filter(|(ai, _)| !self.skipped.contains(ai))
            .flat_map(|(_, a)| a.notices.iter())
            .filter(|n| self.is_note(n))
            .map(|n| Value::from(clean(&n.message)))
            .collect();
        let c = self.checked;
        json!({
            "format": JSON_FORMAT,
            "sources": self.doc.sources.iter().map(|s| clean(s)).collect::<Vec<_>>(),
            "inputFormat": clean(&self.doc.format),
            "checked": {"attempts": c.attempts, "sessions": c.sessions, "turns": c.turns, "events": c.events},
            "skippedAttempts": skipped,
            "errors": self.errors(),
            "warnings": self.warnings(),
            "denyWarnings": self.deny_warnings,
            "failed": self.failed(),
            "findings": findings,
            "notices": notices,
            "nothingToCheck": (c.attempts == 0).then_some(NOTHING_TO_CHECK),
        })
    }

    /// A load notice worth a note: not one a finding already reports.
    fn is_note(&self, n: &Notice) -> bool {
        n.level >= NoticeLevel::Warning
            && !notice_is_finding(n)
            && n.kind != crate::model::document::NoticeKind::InputLost
    }

    fn finding_json(&self, f: &Finding) -> Value {
        let l = f.location;
        let session = self.doc.attempts.get(l.attempt).and_then(|a| a.sessions.get(l.session));
        let mut o = Map::new();
        o.insert("code".into(), f.code.into());
        o.insert("severity".into(), f.severity.as_str().into());
        o.insert("rule".into(), crate::view::rules::citation_of(f.code).into());
        o.insert("doc".into(), crate::view::rules::rule_link(f.code).into());
        o.insert("attempt".into(), (l.attempt + 1).into());
        o.insert("session".into(), session.map(|s| s.scope_name()).unwrap_or_default().into());
        o.insert("sessionIndex".into(), session.map(|s| s.index).into());
        let addr = l.turn.map(|turn| crate::model::TurnAddr { session: l.session, turn });
        let derived = self.derived.get(l.attempt);
        let number = addr.zip(derived).map(|(a, d)| crate::view::address::turn_number(d, a));
        // The attempt-wide turn number every surface prints; the label beside it.
        o.insert("turn".into(), number.into());
        o.insert(
            "turnLabel".into(),
            addr.zip(self.doc.attempts.get(l.attempt)).map(|(a, at)| crate::view::address::turn_label(at, a)).into(),
        );
        o.insert("turnInSession".into(), l.turn.map(|t| t + 1).into());
        o.insert("eventOrdinal".into(), l.event.map(|e| e + 1).into());
        o.insert("eventIndex".into(), l.event.into());
        o.insert("position".into(), self.position(f).into());
        o.insert("message".into(), clean(&f.message).into());
        o.insert("hint".into(), clean(&f.hint).into());
        if let Some(at) = &f.input {
            // A finding about the file itself: where in it, not which turn.
            for key in ["attempt", "session", "sessionIndex", "turn", "eventOrdinal", "eventIndex"] {
                o.insert(key.into(), Value::Null);
            }
            o.insert("path".into(), clean(&at.path).into());
            o.insert("line".into(), at.line.into());
            o.insert("column".into(), at.column.into());
        }
        Value::Object(o)
    }
}

/// Why `check` has no stream to check in an attempt it skips.
fn skip_reason(a: &Attempt) -> &'static str {
    crate::view::findings::unchecked_reason(a).unwrap_or("its events were not checked")
}

fn rules_text() -> String {
    let mut out = String::new();
    for r in RULES {
        let _ = writeln!(out, "{:<32} {:<7} {}", r.code, r.severity.as_str(), r.summary);
    }
    out.push_str("\nEach rule, how to fix it and the NiceEval behaviour it follows: docs/rules.md\n");
    out
}

fn rules_json() -> Value {
    Value::Array(
        RULES
            .iter()
            .map(|r| {
                json!({
                    "code": r.code, "severity": r.severity.as_str(), "rule": crate::view::rules::citation(r),
                    "doc": crate::view::rules::rule_link(r.code), "summary": r.summary, "hint": r.hint,
                })
            })
            .collect(),
    )
}
