//! `check --format json`: every finding of the selected rules (it is for
//! machines), the count per rule, what was checked and what was not.

use super::{Report, skip_reason};
use crate::model::diagnostics::Finding;
use crate::model::lint::RULES;
use crate::view::json::PrettyWriter;
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
        let notices: Vec<Value> = self.notices().map(|n| Value::from(clean(&n.message))).collect();
        let statistics: Vec<Value> = self
            .statistics()
            .iter()
            .map(|s| {
                let first = &self.findings[s.first];
                let mut o = json!({
                    "code": s.code, "severity": s.severity.as_str(), "count": s.count,
                    "first": self.position(first), "firstAttempt": first.input().is_none().then_some(first.location.attempt + 1),
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
            for f in &self.findings {
                w.value(&self.finding_json(f))?;
            }
            w.end_array()?;
        }
        w.end_object()
    }

    fn finding_json(&self, f: &Finding) -> Value {
        let l = f.location;
        let attempt = self.doc.attempts.get(l.attempt);
        let session = attempt.and_then(|a| a.sessions.get(l.session));
        let mut o = Map::new();
        o.insert("code".into(), f.code.into());
        o.insert("severity".into(), f.severity.as_str().into());
        o.insert("rule".into(), crate::view::rules::citation_of(f.code).into());
        o.insert("doc".into(), crate::view::rules::rule_link(f.code).into());
        if let Some(source) = self.source_of(f) {
            // Several files were checked: which one this finding is in.
            o.insert("source".into(), source.into());
        }
        o.insert("attempt".into(), (l.attempt + 1).into());
        o.insert("session".into(), session.map(|s| s.scope_name()).unwrap_or_default().into());
        o.insert("sessionIndex".into(), session.map(|s| s.index).into());
        let addr = l.turn.map(|turn| crate::model::TurnAddr { session: l.session, turn });
        // The attempt-wide turn number every surface prints; the label beside it.
        o.insert("turn".into(), self.turn_of(f).into());
        o.insert("turnLabel".into(), addr.zip(attempt).map(|(a, at)| crate::view::address::turn_label(at, a)).into());
        o.insert("turnInSession".into(), l.turn.map(|t| t + 1).into());
        o.insert("eventOrdinal".into(), l.event.map(|e| e + 1).into());
        o.insert("eventIndex".into(), l.event.into());
        o.insert("position".into(), self.position(f).into());
        o.insert("message".into(), clean(&f.message()).into());
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
