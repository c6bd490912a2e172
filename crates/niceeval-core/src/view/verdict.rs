//! Words, marks and tones of every status a user reads: verdicts, scope and
//! turn statuses, tool lifecycles, HITL states, assertion outcomes and
//! finding severities. A mark always goes with its word, so monochrome
//! output reads the same.

use super::text::{Text, Tone, clean};
use crate::model::diagnostics::Severity;
use crate::model::document::Assertion;
use crate::model::timeline::RowStatus;
use crate::model::verdict::{AssertionOutcome, ScopeStatus, Verdict};

/// Mark of a verdict (the official marks; `?` for unavailable).
pub fn verdict_mark(v: Verdict) -> &'static str {
    match v {
        Verdict::Passed => "✓",
        Verdict::Failed => "✗",
        Verdict::Errored => "!",
        Verdict::Skipped => "–",
        Verdict::Unavailable => "?",
    }
}

pub fn verdict_tone(v: Verdict) -> Tone {
    match v {
        Verdict::Passed => Tone::Good,
        Verdict::Failed => Tone::Bad,
        Verdict::Errored | Verdict::Unavailable => Tone::Warn,
        Verdict::Skipped => Tone::Soft,
    }
}

/// "✗ failed".
pub fn verdict_text(v: Verdict) -> Text {
    Text::toned(format!("{} {}", verdict_mark(v), v.as_str()), verdict_tone(v))
}

pub fn scope_status_mark(s: ScopeStatus) -> &'static str {
    match s {
        ScopeStatus::Completed => "✓",
        ScopeStatus::Failed => "✗",
        ScopeStatus::Waiting => "⏸",
    }
}

pub fn scope_status_tone(s: ScopeStatus) -> Tone {
    match s {
        ScopeStatus::Completed => Tone::Good,
        ScopeStatus::Failed => Tone::Bad,
        ScopeStatus::Waiting => Tone::Hitl,
    }
}

/// How an attempt went, in one phrase: its verdict; or, without one (a
/// capture), its scope status, marked as a status so it is never read as a
/// verdict.
pub fn headline(verdict: Option<Verdict>, status: Option<ScopeStatus>) -> Text {
    match (verdict, status) {
        (Some(v), _) => verdict_text(v),
        (None, Some(s)) => Text::toned(format!("{} {}", scope_status_mark(s), s.as_str()), scope_status_tone(s))
            .with(" (status)", Tone::Soft),
        (None, None) => Text::toned("— (no verdict or status recorded)", Tone::Soft),
    }
}

/// A turn's `status` as written: completed / failed / waiting, another
/// word as written, or missing.
pub fn turn_status_text(status: Option<&str>) -> Text {
    match status.map(|s| (s, ScopeStatus::parse(s))) {
        Some((_, Some(s))) => Text::toned(format!("{} {}", scope_status_mark(s), s.as_str()), scope_status_tone(s)),
        Some((other, None)) => Text::toned(format!("? {}", clean(other)), Tone::Warn),
        None => Text::toned("— (no status)", Tone::Soft),
    }
}

/// Mark of a row status (tool lifecycles, HITL requests, turns).
pub fn row_status_mark(s: RowStatus) -> &'static str {
    match s {
        RowStatus::Completed | RowStatus::TurnCompleted | RowStatus::Answered => "✓",
        RowStatus::Failed | RowStatus::TurnFailed => "✗",
        RowStatus::Rejected => "⊘",
        RowStatus::Pending | RowStatus::Open => "…",
        RowStatus::Ambiguous
        | RowStatus::Orphan
        | RowStatus::Other
        | RowStatus::TurnUnknown
        | RowStatus::AnswerNotRecorded
        | RowStatus::FinishNotRecorded => "?",
        RowStatus::Waiting | RowStatus::TurnWaiting => "⏸",
        RowStatus::Unanswered => "!",
    }
}

/// Word of a row status.
pub fn row_status_word(s: RowStatus) -> &'static str {
    match s {
        RowStatus::Completed | RowStatus::TurnCompleted => "completed",
        RowStatus::Failed | RowStatus::TurnFailed => "failed",
        RowStatus::Rejected => "rejected",
        RowStatus::Pending => "pending",
        RowStatus::Open => "open (no turn status)",
        RowStatus::Ambiguous => "ambiguous",
        RowStatus::Orphan => "orphan",
        RowStatus::Other => "unknown status",
        RowStatus::Waiting | RowStatus::TurnWaiting => "waiting",
        RowStatus::Answered => "answered",
        RowStatus::Unanswered => "unanswered",
        RowStatus::AnswerNotRecorded => "answer not recorded",
        RowStatus::FinishNotRecorded => "finish not recorded",
        RowStatus::TurnUnknown => "status not recorded",
    }
}

pub fn row_status_tone(s: RowStatus) -> Tone {
    match s {
        RowStatus::Completed | RowStatus::TurnCompleted | RowStatus::Answered => Tone::Good,
        RowStatus::Failed | RowStatus::TurnFailed => Tone::Bad,
        RowStatus::Pending | RowStatus::Open => Tone::Pending,
        RowStatus::AnswerNotRecorded | RowStatus::FinishNotRecorded => Tone::Soft,
        RowStatus::Waiting | RowStatus::TurnWaiting => Tone::Hitl,
        RowStatus::Rejected
        | RowStatus::Ambiguous
        | RowStatus::Orphan
        | RowStatus::Other
        | RowStatus::TurnUnknown
        | RowStatus::Unanswered => Tone::Warn,
    }
}

/// "✓ completed"; a finish status outside the enum reads as written (`raw`).
pub fn row_status_text(s: RowStatus, raw: Option<&str>) -> Text {
    match (s, raw) {
        (RowStatus::Other, Some(raw)) => Text::toned(format!("? {}", clean(raw)), Tone::Warn),
        _ => Text::toned(format!("{} {}", row_status_mark(s), row_status_word(s)), row_status_tone(s)),
    }
}

pub fn outcome_mark(o: AssertionOutcome) -> &'static str {
    match o {
        AssertionOutcome::Passed => "✓",
        AssertionOutcome::Failed | AssertionOutcome::FailedSoft => "✗",
        AssertionOutcome::Errored => "!",
        AssertionOutcome::Unavailable => "?",
        AssertionOutcome::NotApplicable => "–",
        AssertionOutcome::Undecided => "—",
    }
}

pub fn outcome_word(o: AssertionOutcome) -> &'static str {
    match o {
        AssertionOutcome::Passed => "passed",
        AssertionOutcome::Failed => "failed",
        AssertionOutcome::FailedSoft => "failed (not a gate)",
        AssertionOutcome::Errored => "errored",
        AssertionOutcome::Unavailable => "unavailable",
        AssertionOutcome::NotApplicable => "not applicable",
        AssertionOutcome::Undecided => "no decision recorded",
    }
}

pub fn outcome_tone(o: AssertionOutcome) -> Tone {
    match o {
        AssertionOutcome::Passed => Tone::Good,
        AssertionOutcome::Failed => Tone::Bad,
        AssertionOutcome::FailedSoft | AssertionOutcome::Errored | AssertionOutcome::Unavailable => Tone::Warn,
        AssertionOutcome::NotApplicable | AssertionOutcome::Undecided => Tone::Soft,
    }
}

/// "✗ failed", "? unavailable".
pub fn outcome_text(o: AssertionOutcome) -> Text {
    Text::toned(format!("{} {}", outcome_mark(o), outcome_word(o)), outcome_tone(o))
}

/// Tone of a matcher decision word (`matched`, `mismatched`, `unavailable`, …).
pub fn decision_tone(word: &str) -> Tone {
    match word {
        "matched" | "satisfied" | "passed" | "completed" => Tone::Good,
        "mismatched" | "failed" => Tone::Bad,
        "unavailable" | "errored" => Tone::Warn,
        _ => Tone::Soft,
    }
}

pub fn severity_mark(s: Severity) -> &'static str {
    match s {
        Severity::Error => "✗",
        Severity::Warning => "▲",
    }
}

pub fn severity_tone(s: Severity) -> Tone {
    match s {
        Severity::Error => Tone::Bad,
        Severity::Warning => Tone::Warn,
    }
}

/// "✗ error", "▲ warning".
pub fn severity_text(s: Severity) -> Text {
    Text::toned(format!("{} {}", severity_mark(s), s.as_str()), severity_tone(s))
}

/// "A", "M", "D" of a file change, with its word and tone.
pub fn change_kind(kind: char) -> (&'static str, Tone) {
    match kind {
        'A' => ("added", Tone::Good),
        'D' => ("deleted", Tone::Bad),
        'M' => ("modified", Tone::Warn),
        _ => ("changed", Tone::Warn),
    }
}

/// A score contribution: earned (none when unavailable) of points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Points {
    pub earned: Option<f64>,
    pub points: f64,
}

/// An assertion's score contribution, when it has one.
pub fn points(a: &Assertion) -> Option<Points> {
    let c = a.contribution.as_ref()?;
    let points = c.get("points").and_then(serde_json::Value::as_f64)?;
    match c.get("state").and_then(serde_json::Value::as_str) {
        Some("earned") => Some(Points { earned: c.get("earned").and_then(serde_json::Value::as_f64), points }),
        Some("unavailable") => Some(Points { earned: None, points }),
        _ => None,
    }
}

/// "1/2", "—/2" (earned not recorded or unavailable).
pub fn points_words(p: Points) -> String {
    let earned = p.earned.map(super::format::number).unwrap_or_else(|| super::format::MISSING.into());
    format!("{earned}/{}", super::format::number(p.points))
}

/// NiceEval's severity word of an assertion (its attempt page's
/// `assertionSeverityOf`): `gate` when its gate failed or could not be
/// decided, `recorded` when it carries no score, `soft` when it is scored;
/// `None` when the Record keeps no contribution to tell the last two apart.
pub fn severity(a: &Assertion) -> Option<&'static str> {
    if matches!(a.gate.as_deref(), Some("failed" | "unavailable")) {
        return Some("gate");
    }
    match a.contribution.as_ref()?.get("state").and_then(serde_json::Value::as_str)? {
        "not-scored" => Some("recorded"),
        _ => Some("soft"),
    }
}

/// "gate", "soft", "recorded", or "— (no score contribution recorded)".
pub fn assertion_severity_text(a: &Assertion) -> Text {
    match severity(a) {
        Some("gate") => Text::toned("gate", Tone::Bad),
        Some(word) => Text::plain(word),
        None => Text::toned(format!("{} (no score contribution recorded)", super::format::MISSING), Tone::Soft),
    }
}

/// An assertion's title meta: "✗ failed · gate · 0/2".
pub fn assertion_meta(a: &Assertion) -> Text {
    let o = crate::model::verdict::assertion_outcome(a);
    let mut t = outcome_text(o);
    if let Some(word) = severity(a) {
        t.push(format!(" · {word}"), Tone::Soft);
    }
    if let Some(p) = points(a) {
        t.push(format!(" · {}", points_words(p)), Tone::Soft);
    }
    t
}

/// How complete an assertion's checked material is: its state, why not
/// complete, and the bytes its limitations say were left out (`None` when
/// the Record says nothing of coverage).
pub struct Coverage<'a> {
    pub state: &'a str,
    pub reason: Option<&'a str>,
    pub omitted_bytes: Option<u64>,
}

pub fn coverage(a: &Assertion) -> Option<Coverage<'_>> {
    let c = a.coverage.as_ref()?;
    let state = c.as_str().or_else(|| c.get("state").and_then(serde_json::Value::as_str))?;
    let reason = c.get("reason").and_then(serde_json::Value::as_str);
    let omitted: Vec<u64> = a.limitations.iter().filter_map(|l| l.omitted_bytes).collect();
    let omitted_bytes = (!omitted.is_empty()).then(|| omitted.iter().sum());
    Some(Coverage { state, reason, omitted_bytes })
}

/// NiceEval's coverage notice when the checked material is not complete:
/// "Input evidence partial · truncated · 1,234 bytes omitted".
pub fn coverage_notice(a: &Assertion) -> Option<Text> {
    let c = coverage(a).filter(|c| c.state != "complete")?;
    let mut words = format!("Input evidence {}", clean(c.state));
    if let Some(r) = c.reason {
        words.push_str(&format!(" · {}", clean(r)));
    }
    if let Some(n) = c.omitted_bytes {
        words.push_str(&format!(" · {} omitted", super::format::count(n as usize, "byte", "bytes")));
    }
    Some(Text::toned(words, Tone::Warn))
}
