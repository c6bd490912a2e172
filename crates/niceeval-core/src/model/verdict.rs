//! Verdicts and outcomes: the one place that decides how an attempt, a
//! scope and an assertion went. Words, marks and tones are the view's
//! (`view::verdict`); this module only decides the facts.

use super::document::{Assertion, Attempt, Score};
use serde_json::Value;

pub use super::review::Verdict;

/// Whether an assertion is required for the verdict fold. v1 entries have no
/// policy: a gating v1 entry (gate satisfied/failed/unavailable) counts as required.
pub fn is_required(a: &Assertion) -> bool {
    match a.requirement.as_deref() {
        Some(r) => r == "required",
        None => matches!(a.gate.as_deref(), Some("satisfied" | "failed" | "unavailable")),
    }
}

/// A required assertion NiceEval could not decide (unavailable or
/// errored): one makes the attempt errored in the fold below.
pub fn undecided_required(a: &Assertion) -> bool {
    is_required(a) && matches!(a.result.as_deref(), Some("unavailable" | "errored"))
}

/// The verdict fold (`eval/record/verdict.ts`, formats.md §2.2):
/// 1. `errored` if the outcome is errored or interrupted, or a required
///    assertion is unavailable or errored;
/// 2. else `failed` if any gate failed;
/// 3. else `skipped` if the outcome is cancelled;
/// 4. else `passed`.
///
/// `assertions` is None when the assertions attachment was not recorded:
/// then only an outcome that decides on its own (errored, interrupted,
/// cancelled) gives a verdict; otherwise the verdict is unknown (None).
pub fn fold_verdict(outcome: Option<&str>, assertions: Option<&[Assertion]>) -> Option<Verdict> {
    if matches!(outcome, Some("errored" | "interrupted")) {
        return Some(Verdict::Errored);
    }
    if let Some(list) = assertions {
        if list.iter().any(undecided_required) {
            return Some(Verdict::Errored);
        }
        if list.iter().any(|a| a.gate.as_deref() == Some("failed")) {
            return Some(Verdict::Failed);
        }
    }
    if outcome == Some("cancelled") {
        return Some(Verdict::Skipped);
    }
    match (outcome, assertions) {
        (Some(_), Some(_)) => Some(Verdict::Passed),
        _ => None,
    }
}

/// Sum the score contributions: `earned` entries add `earned` and `points`;
/// `unavailable` entries add `points` only (their earned is unknown, so the
/// sum's `earned` stays what is known). None when nothing is scored.
pub fn sum_score(assertions: &[Assertion]) -> Option<Score> {
    let mut earned: Option<f64> = None;
    let mut points: Option<f64> = None;
    for c in assertions.iter().filter_map(|a| a.contribution.as_ref()) {
        let state = c.get("state").and_then(Value::as_str);
        let p = c.get("points").and_then(Value::as_f64);
        if state == Some("earned")
            && let Some(e) = c.get("earned").and_then(Value::as_f64)
        {
            earned = Some(earned.unwrap_or(0.0) + e);
        }
        if matches!(state, Some("earned" | "unavailable"))
            && let Some(p) = p
        {
            points = Some(points.unwrap_or(0.0) + p);
        }
    }
    (earned.is_some() || points.is_some()).then_some(Score { earned, points })
}

/// How a scope (a session, or the attempt) stands (derivation §5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeStatus {
    Completed,
    Failed,
    Waiting,
}

impl ScopeStatus {
    pub fn parse(word: &str) -> Option<ScopeStatus> {
        match word {
            "completed" => Some(ScopeStatus::Completed),
            "failed" => Some(ScopeStatus::Failed),
            "waiting" => Some(ScopeStatus::Waiting),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ScopeStatus::Completed => "completed",
            ScopeStatus::Failed => "failed",
            ScopeStatus::Waiting => "waiting",
        }
    }
}

/// Scope status of an attempt (spec §5.3): a session's status is its last
/// turn's; any session waiting → waiting; else any failed → failed; else
/// completed. `None` when a session has no turns or a status is not one of
/// the three words.
pub fn attempt_status(attempt: &Attempt) -> Option<ScopeStatus> {
    let mut statuses = Vec::new();
    for s in &attempt.sessions {
        statuses.push(ScopeStatus::parse(s.turns.last()?.turn.status.as_deref()?)?);
    }
    if statuses.contains(&ScopeStatus::Waiting) {
        Some(ScopeStatus::Waiting)
    } else if statuses.contains(&ScopeStatus::Failed) {
        Some(ScopeStatus::Failed)
    } else {
        statuses.first().map(|_| ScopeStatus::Completed)
    }
}

/// What one assertion came to, as a reviewer reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssertionOutcome {
    /// A gate failed.
    Failed,
    /// The decision could not be made (no evidence); a required one errors the attempt.
    Unavailable,
    Errored,
    /// Mismatched, but not a gate (optional or recorded only).
    FailedSoft,
    NotApplicable,
    Passed,
    /// No decision recorded.
    Undecided,
}

impl AssertionOutcome {
    /// NiceEval's three-valued result word for `show --json`: passed,
    /// failed or unavailable (errored counts as unavailable, a soft failure
    /// as failed); `None` when nothing was decided or it did not apply.
    pub fn result_word(self) -> Option<&'static str> {
        match self {
            AssertionOutcome::Passed => Some("passed"),
            AssertionOutcome::Failed | AssertionOutcome::FailedSoft => Some("failed"),
            AssertionOutcome::Unavailable | AssertionOutcome::Errored => Some("unavailable"),
            AssertionOutcome::NotApplicable | AssertionOutcome::Undecided => None,
        }
    }

    /// Needs a reviewer's eye: failed gates, errors, unavailable decisions.
    pub fn is_failing(self) -> bool {
        matches!(self, AssertionOutcome::Failed | AssertionOutcome::Unavailable | AssertionOutcome::Errored)
    }

    /// Sort rank: failing gates first, passed last.
    pub fn rank(self) -> u8 {
        match self {
            AssertionOutcome::Failed => 0,
            AssertionOutcome::Errored => 1,
            AssertionOutcome::Unavailable => 2,
            AssertionOutcome::FailedSoft => 3,
            AssertionOutcome::Undecided => 4,
            AssertionOutcome::NotApplicable => 5,
            AssertionOutcome::Passed => 6,
        }
    }
}

/// The outcome of an assertion from its decision `result` and `gate`.
pub fn assertion_outcome(a: &Assertion) -> AssertionOutcome {
    match (a.result.as_deref(), a.gate.as_deref()) {
        (Some("errored"), _) => AssertionOutcome::Errored,
        (Some("unavailable"), _) | (_, Some("unavailable")) => AssertionOutcome::Unavailable,
        (_, Some("failed")) => AssertionOutcome::Failed,
        (Some("mismatched"), _) => AssertionOutcome::FailedSoft,
        (Some("not-applicable"), _) | (_, Some("not-applicable")) => AssertionOutcome::NotApplicable,
        (Some("matched"), _) | (_, Some("satisfied")) => AssertionOutcome::Passed,
        _ => AssertionOutcome::Undecided,
    }
}

/// Whether an attempt is one to review: its verdict failed, errored or is
/// unavailable; or an assertion is failing; or, with no verdict recorded
/// (a capture), the attempt's own status is failed or one of its turns
/// failed (a session that failed before another one waits: the attempt's
/// status is `waiting`, but something failed all the same).
pub fn needs_review(attempt: &Attempt) -> bool {
    if attempt.verdict.is_some_and(Verdict::needs_review) {
        return true;
    }
    let failing = attempt.review.assertions.iter().flatten().any(|a| assertion_outcome(a).is_failing());
    let turn_failed =
        || attempt.sessions.iter().flat_map(|s| &s.turns).any(|r| r.turn.status.as_deref() == Some("failed"));
    failing || (attempt.verdict.is_none() && (attempt_status(attempt) == Some(ScopeStatus::Failed) || turn_failed()))
}

/// Sort key of an attempt: to review first (failed, errored, unavailable or
/// no verdict), then skipped, then passed.
pub fn review_rank(attempt: &Attempt) -> u8 {
    match attempt.verdict {
        Some(Verdict::Failed) => 0,
        Some(Verdict::Errored) => 1,
        Some(Verdict::Unavailable) => 2,
        None if needs_review(attempt) => 2,
        None => 3,
        Some(Verdict::Skipped) => 4,
        Some(Verdict::Passed) => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn a(result: &str, gate: &str, req: Option<&str>) -> Assertion {
        Assertion {
            result: Some(result.into()),
            gate: Some(gate.into()),
            requirement: req.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    #[allow(clippy::cloned_ref_to_slice_refs)]
    fn fold_order() {
        let ok = a("matched", "satisfied", Some("required"));
        let fail = a("mismatched", "failed", Some("required"));
        let unavail_req = a("unavailable", "unavailable", Some("required"));
        let unavail_opt = a("unavailable", "not-gate", Some("optional"));
        let soft_fail = a("mismatched", "not-gate", Some("optional"));
        let f = |o: &str, l: &[Assertion]| fold_verdict(Some(o), Some(l));
        assert_eq!(f("completed", &[ok.clone()]), Some(Verdict::Passed));
        assert_eq!(f("completed", &[]), Some(Verdict::Passed));
        assert_eq!(f("completed", &[ok.clone(), fail.clone()]), Some(Verdict::Failed));
        // errored beats failed
        assert_eq!(f("completed", &[fail.clone(), unavail_req.clone()]), Some(Verdict::Errored));
        assert_eq!(f("interrupted", &[ok.clone()]), Some(Verdict::Errored));
        assert_eq!(f("errored", &[]), Some(Verdict::Errored));
        // failed beats skipped
        assert_eq!(f("cancelled", &[fail.clone()]), Some(Verdict::Failed));
        assert_eq!(f("cancelled", &[ok.clone()]), Some(Verdict::Skipped));
        // optional unavailable and soft mismatches do not decide
        assert_eq!(f("completed", &[unavail_opt, soft_fail]), Some(Verdict::Passed));
        // required errored assertion → errored
        assert_eq!(f("completed", &[a("errored", "unavailable", Some("required"))]), Some(Verdict::Errored));
        // not recorded: unknown unless the outcome decides
        assert_eq!(fold_verdict(Some("completed"), None), None);
        assert_eq!(fold_verdict(Some("cancelled"), None), Some(Verdict::Skipped));
        assert_eq!(fold_verdict(None, None), None);
        // v1 (no policy): a gating unavailable entry is required
        assert_eq!(f("completed", &[a("unavailable", "unavailable", None)]), Some(Verdict::Errored));
    }

    #[test]
    fn score_sum() {
        let mut x =
            Assertion { contribution: Some(json!({"state":"earned","points":2,"earned":1.5})), ..Default::default() };
        let y = Assertion {
            contribution: Some(json!({"state":"unavailable","points":1,"reason":"x"})),
            ..Default::default()
        };
        let z = Assertion { contribution: Some(json!({"state":"not-scored"})), ..Default::default() };
        assert_eq!(sum_score(&[x.clone(), y, z.clone()]), Some(Score { earned: Some(1.5), points: Some(3.0) }));
        assert_eq!(sum_score(&[z]), None);
        x.contribution = None;
        assert_eq!(sum_score(&[x]), None);
    }

    #[test]
    fn words_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(Verdict::parse(v.as_str()), Some(v));
        }
        assert_eq!(Verdict::parse("PASSED"), None);
    }

    #[test]
    fn outcomes() {
        assert_eq!(assertion_outcome(&a("mismatched", "failed", None)), AssertionOutcome::Failed);
        assert_eq!(assertion_outcome(&a("mismatched", "not-gate", None)), AssertionOutcome::FailedSoft);
        assert_eq!(assertion_outcome(&a("unavailable", "not-gate", None)), AssertionOutcome::Unavailable);
        assert_eq!(assertion_outcome(&a("matched", "satisfied", None)), AssertionOutcome::Passed);
        assert_eq!(assertion_outcome(&Assertion::default()), AssertionOutcome::Undecided);
        assert_eq!(AssertionOutcome::Errored.result_word(), Some("unavailable"));
    }
}
