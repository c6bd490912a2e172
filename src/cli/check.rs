//! `niceeval check`: lint every turn of every session.
//!
//! Exit status: 0 clean, 1 findings at the failing severity (errors, or
//! warnings too with `--deny-warnings`), 2 input errors.

use crate::model::diagnostics::{Finding, Severity};
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use crate::model::lint::{RULES, attempt_is_checkable, lint_document, notice_is_finding};
use crate::model::text::{Lines, sanitize};
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

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
    let doc = match crate::load::load_paths(&args.paths) {
        Ok(d) => d,
        Err(e) => return super::report_error(&e),
    };
    let derived = crate::model::derive_document(&doc, None, &crate::model::usage::builtin_prices());
    let findings = lint_document(&doc, &derived);
    let report = Report::new(&doc, findings, args.deny_warnings);
    if report.checked.attempts == 0 {
        let sources: Vec<String> = doc.sources.iter().map(|s| clean(s)).collect();
        eprintln!(
            "niceeval: {}: no attempt with the adapter's own events to check ({}); record the Turns your adapter returns (docs/adapters.md) and check that file",
            sources.join(", "),
            clean(&doc.format)
        );
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
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
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
    pub findings: Vec<Finding>,
    pub checked: Counts,
    /// Attempt indices whose events are not the adapter's own.
    pub skipped: Vec<usize>,
    pub deny_warnings: bool,
}

impl<'a> Report<'a> {
    pub fn new(doc: &'a Document, findings: Vec<Finding>, deny_warnings: bool) -> Report<'a> {
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
        Report { doc, findings, checked, skipped, deny_warnings }
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
            plural(c.attempts, "attempt"),
            plural(c.sessions, "session"),
            plural(c.turns, "turn"),
            plural(c.events, "event")
        )
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
            let _ = writeln!(
                out,
                "note: {} skipped: its events were rebuilt from a lossy record, not the adapter's own stream",
                self.attempt_title(ai, a)
            );
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
            finding_text(&mut out, f);
        }
        let many_attempts = self.doc.attempts.len() > 1;
        let mut last_attempt = None;
        let mut last_group = None;
        for f in turns {
            let l = f.location;
            let Some(attempt) = self.doc.attempts.get(l.attempt) else { continue };
            let session = attempt.sessions.get(l.session);
            if many_attempts && last_attempt != Some(l.attempt) {
                let _ = writeln!(out, "\n{}", self.attempt_title(l.attempt, attempt));
                last_attempt = Some(l.attempt);
                last_group = None;
            }
            if last_group != Some((l.attempt, l.session, l.turn)) {
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
                if let Some(t) = l.turn {
                    let _ = write!(head, " › turn {}", t + 1);
                    let label = session.and_then(|s| s.turns.get(t)).and_then(|r| r.label.as_deref());
                    if let Some(label) = label {
                        let _ = write!(head, " ({})", crate::model::text::one_line(label, 40));
                    }
                }
                let _ = writeln!(out, "\n{head}");
                last_group = Some((l.attempt, l.session, l.turn));
            }
            finding_text(&mut out, f);
        }
        if self.findings.is_empty() {
            let _ = writeln!(out, "no findings: checked {}", self.counts_text());
        } else {
            let mut summary = format!(
                "\n{}, {} in {}",
                plural(self.errors(), "error"),
                plural(self.warnings(), "warning"),
                self.counts_text()
            );
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
                json!({
                    "attempt": ai + 1,
                    "evalId": self.doc.attempts[ai].eval_id.as_deref().map(clean),
                    "reason": "events rebuilt from a lossy record, not the adapter's own stream",
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
        })
    }

    /// A load notice worth a note: not one a finding already reports.
    fn is_note(&self, n: &Notice) -> bool {
        n.level >= NoticeLevel::Warning
            && !notice_is_finding(&n.message)
            && !self.doc.losses.iter().any(|l| clean(&l.describe()) == clean(&n.message))
    }

    fn finding_json(&self, f: &Finding) -> Value {
        let l = f.location;
        let session = self.doc.attempts.get(l.attempt).and_then(|a| a.sessions.get(l.session));
        let mut o = Map::new();
        o.insert("code".into(), f.code.into());
        o.insert("severity".into(), f.severity.as_str().into());
        o.insert("rule".into(), f.rule.into());
        o.insert("attempt".into(), (l.attempt + 1).into());
        o.insert("session".into(), session.map(|s| s.scope_name()).unwrap_or_default().into());
        o.insert("sessionIndex".into(), session.map(|s| s.index).into());
        o.insert("turn".into(), l.turn.map(|t| t + 1).into());
        o.insert("eventOrdinal".into(), l.event.map(|e| e + 1).into());
        o.insert("eventIndex".into(), l.event.into());
        o.insert("position".into(), position(f).into());
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

/// One finding: position, mark, severity, code and message, then hint and rule.
fn finding_text(out: &mut String, f: &Finding) {
    let position = position(f);
    let (mark, word) = match f.severity {
        Severity::Error => ("✗", "error"),
        Severity::Warning => ("▲", "warning"),
    };
    let _ = writeln!(out, "  {position:<6} {mark} {word:<7} {}  {}", f.code, clean(&f.message));
    let _ = writeln!(out, "  {:<6}   hint: {}", "", clean(&f.hint));
    let _ = writeln!(out, "  {:<6}   rule: {}", "", f.rule);
}

/// `turn:event` (event ordinal = index + 1; `-` for a whole-turn finding or
/// one about the input file, whose message starts with `path:line:column`).
pub fn position(f: &Finding) -> String {
    if f.input.is_some() {
        return "-".into();
    }
    match (f.location.turn, f.location.event) {
        (Some(t), Some(e)) => format!("{}:{}", t + 1, e + 1),
        (Some(t), None) => format!("{}:-", t + 1),
        _ => "-".into(),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn rules_text() -> String {
    let mut out = String::new();
    for r in RULES {
        let _ = writeln!(out, "{:<32} {:<7} {:<24} {}", r.code, r.severity.as_str(), r.rule, r.summary);
    }
    out
}

fn rules_json() -> Value {
    Value::Array(
        RULES
            .iter()
            .map(|r| {
                json!({"code": r.code, "severity": r.severity.as_str(), "rule": r.rule, "summary": r.summary, "hint": r.hint})
            })
            .collect(),
    )
}
