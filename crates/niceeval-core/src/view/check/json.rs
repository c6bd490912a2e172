//! `check --format json`: every finding of the selected rules (it is for
//! machines), the count per rule, what was checked and what was not.

use super::{Report, skip_reason};
use crate::model::diagnostics::Finding;
use crate::model::lint::RULES;
use crate::view::json::PrettyWriter;
use crate::view::rules::{citation_of, rule_link};
use crate::view::text::clean;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// Output format name of `--format json`.
pub const JSON_FORMAT: &str = "niceeval.check/1";

impl Report<'_> {
    pub fn json(&self) -> Value {
        self.json_as(false)
    }

    /// The report as data; with `statistics_only`, the count per rule and no findings.
    pub fn json_as(&self, statistics_only: bool) -> Value {
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|&ai| {
                let a = &self.doc.attempts[ai];
                let mut o = json!({
                    "attempt": ai + 1,
                    "evalId": a.eval_id.as_deref().map(clean),
                    "locator": a.locator.as_deref().map(clean),
                    "stream": if crate::view::findings::has_no_events(a) { "none" } else { "rebuilt" },
                    "reason": skip_reason(a),
                });
                if let (true, Some(source)) = (self.several_files, &a.source) {
                    o["source"] = clean(source).into();
                }
                o
            })
            .collect();
        let notices: Vec<Value> = self.notices().map(|n| Value::from(clean(&crate::view::notice::words(n)))).collect();
        let statistics: Vec<Value> = self
            .statistics()
            .iter()
            .map(|s| {
                let first = &self.findings[s.first];
                let mut o = json!({
                    "code": s.code, "severity": s.severity.as_str(), "count": s.count,
                    "first": self.position(first), "firstAttempt": first.input().is_none().then_some(first.location.attempt() + 1),
                });
                if let Some(source) = self.source_of(first) {
                    o["firstSource"] = source.into();
                }
                o
            })
            .collect();
        let c = self.checked;
        let mut o = json!({
            "format": JSON_FORMAT,
            "sources": self.doc.sources.iter().map(|s| clean(s)).collect::<Vec<_>>(),
            "inputFormat": clean(&self.doc.format),
            "checked": {"attempts": c.attempts, "sessions": c.sessions, "turns": c.turns, "events": c.events},
            "skippedAttempts": skipped,
            "select": self.choice.select,
            "ignore": self.choice.ignore,
            "errors": self.errors(),
            "warnings": self.warnings(),
            "denyWarnings": self.deny_warnings,
            "failed": self.failed(),
            "statistics": statistics,
            "notices": notices,
            "nothingToCheck": self.nothing_checked().then_some(super::NOTHING_TO_CHECK),
        });
        if !statistics_only {
            o["findings"] = self.findings.iter().map(|f| self.finding_json(f)).collect();
        }
        o
    }

    /// [`Report::json_as`] written as it is made, byte for byte as that tree
    /// pretty-printed: each finding is built, written and dropped, so a
    /// stream with hundreds of thousands of findings never holds them as a tree.
    pub fn write_json<W: Write>(&self, statistics_only: bool, w: &mut PrettyWriter<W>) -> io::Result<()> {
        w.begin_object()?;
        if let Value::Object(head) = self.json_as(true) {
            for (key, value) in &head {
                w.field(key, value)?;
            }
        }
        if !statistics_only {
            w.key("findings")?;
            w.begin_array()?;
            let mut memo = Memo::default();
            for f in &self.findings {
                match f.input() {
                    // About the file itself (rare): its keys are made over.
                    Some(_) => w.value(&self.finding_json(f))?,
                    None => self.write_finding(f, w, &mut memo)?,
                }
            }
            w.end_array()?;
        }
        w.end_object()
    }

    /// [`Report::finding_json`] of a finding about a turn, written field by
    /// field (the same bytes): a stream can have a finding for every event.
    /// What findings in a row share (the rule's citation, the session's name,
    /// the turn's label) is worked out once for the row ([`Memo`]).
    fn write_finding<W: Write>(&self, f: &Finding, w: &mut PrettyWriter<W>, memo: &mut Memo) -> io::Result<()> {
        let l = f.location;
        let attempt = self.doc.attempts.get(l.attempt());
        let session = attempt.and_then(|a| a.sessions.get(l.session()));
        if memo.code != f.code {
            *memo = Memo { code: f.code, citation: citation_of(f.code), doc: rule_link(f.code), ..Memo::default() };
        }
        if memo.session != Some((l.attempt(), l.session())) {
            memo.session = Some((l.attempt(), l.session()));
            memo.session_name = session.map(|s| s.scope_name()).unwrap_or_default();
            memo.turn = None;
        }
        if memo.turn != Some(l.turn()) {
            memo.turn = Some(l.turn());
            let addr = l.turn().map(|turn| crate::model::TurnAddr { session: l.session(), turn });
            memo.turn_label = addr.zip(attempt).map(|(a, at)| crate::view::address::turn_label(at, a));
            memo.turn_number = self.turn_of(f);
        }
        w.begin_object()?;
        w.field("code", &f.code)?;
        w.field("severity", &f.severity.as_str())?;
        w.field("rule", &memo.citation)?;
        w.field("doc", &memo.doc)?;
        if let Some(source) = self.source_of(f) {
            w.field("source", &source)?;
        }
        w.field("attempt", &(l.attempt() + 1))?;
        w.field("session", &memo.session_name)?;
        w.field("sessionIndex", &session.map(|s| s.index))?;
        w.field("turn", &memo.turn_number)?;
        w.field("turnLabel", &memo.turn_label)?;
        w.field("turnInSession", &l.turn().map(|t| t + 1))?;
        w.field("eventOrdinal", &l.event().map(|e| e + 1))?;
        w.field("eventIndex", &l.event())?;
        w.field("position", &self.position(f))?;
        w.field("message", &clean(&crate::view::findings::message(f)))?;
        w.field("hint", &clean(f.hint()))?;
        w.end_object()
    }

    fn finding_json(&self, f: &Finding) -> Value {
        let l = f.location;
        let attempt = self.doc.attempts.get(l.attempt());
        let session = attempt.and_then(|a| a.sessions.get(l.session()));
        let mut o = Map::new();
        o.insert("code".into(), f.code.into());
        o.insert("severity".into(), f.severity.as_str().into());
        o.insert("rule".into(), citation_of(f.code).into());
        o.insert("doc".into(), rule_link(f.code).into());
        if let Some(source) = self.source_of(f) {
            // Several files were checked: which one this finding is in.
            o.insert("source".into(), source.into());
        }
        o.insert("attempt".into(), (l.attempt() + 1).into());
        o.insert("session".into(), session.map(|s| s.scope_name()).unwrap_or_default().into());
        o.insert("sessionIndex".into(), session.map(|s| s.index).into());
        let addr = l.turn().map(|turn| crate::model::TurnAddr { session: l.session(), turn });
        // The attempt-wide turn number every surface prints; the label beside it.
        o.insert("turn".into(), self.turn_of(f).into());
        o.insert("turnLabel".into(), addr.zip(attempt).map(|(a, at)| crate::view::address::turn_label(at, a)).into());
        o.insert("turnInSession".into(), l.turn().map(|t| t + 1).into());
        o.insert("eventOrdinal".into(), l.event().map(|e| e + 1).into());
        o.insert("eventIndex".into(), l.event().into());
        o.insert("position".into(), self.position(f).into());
        o.insert("message".into(), clean(&crate::view::findings::message(f)).into());
        o.insert("hint".into(), clean(f.hint()).into());
        if let Some(at) = f.input() {
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

/// What [`Report::write_finding`] works out once for findings in a row.
#[derive(Default)]
struct Memo {
    code: &'static str,
    citation: String,
    doc: String,
    /// (attempt, session) the name is of.
    session: Option<(usize, usize)>,
    session_name: String,
    /// The turn (of that session) the label and number are of.
    turn: Option<Option<usize>>,
    turn_label: Option<String>,
    turn_number: Option<u64>,
}

/// `check --list-rules --format json`.
pub fn rules_json() -> Value {
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
