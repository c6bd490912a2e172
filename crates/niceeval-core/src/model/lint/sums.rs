//! Sums that overflow: a session's or the attempt's usage, and the cost
//! estimate. Each turn's numbers can be finite and yet add up to infinity
//! (two turns of 1e308 tokens) or past what a JavaScript number holds
//! exactly; NiceEval sums and prices them all the same.

use super::Sink;
use crate::model::derive::DerivedAttempt;
use crate::model::diagnostics::Location;
use crate::model::document::{Attempt, Session};
use crate::model::usage::{Estimate, MAX_EXACT, USAGE_FIELDS, Usage};

/// What is wrong with a sum, or `None` when it is fine. A sum beyond 2^53
/// made of a turn's count already beyond it is that turn's finding
/// (`usage-too-large`); an infinite sum is always its own.
fn problem(field: &str, x: f64, turn_too_large: bool) -> Option<String> {
    if !x.is_finite() {
        return Some("is not a finite number (the counts add up past 1.8e308)".into());
    }
    (field != "costUSD" && x > MAX_EXACT && !turn_too_large)
        .then(|| format!("is {x:e}, beyond 2^53 − 1: a JavaScript number cannot hold it exactly"))
}

/// Report the fields of `usage` (other than `skip`) whose sum is wrong;
/// `too_large(field)` says whether a turn summed in has that count beyond 2^53.
fn check_usage(
    sink: &mut Sink,
    here: Location,
    whose: &str,
    usage: &Usage,
    skip: &[&str],
    too_large: impl Fn(&str) -> bool,
) -> Vec<&'static str> {
    let mut found = Vec::new();
    for field in USAGE_FIELDS {
        if skip.contains(&field) {
            continue;
        }
        if let Some(why) = usage.get(field).and_then(|x| problem(field, x, too_large(field))) {
            sink.push("usage-sum-overflow", here, format!("{whose} usage.{field} {why}"));
            found.push(field);
        }
    }
    found
}

pub fn check_attempt(sink: &mut Sink, ai: usize, attempt: &Attempt, d: &DerivedAttempt) {
    let turn_too_large = |session: &Session, field: &str| {
        session.turns.iter().any(|t| t.turn.usage.and_then(|u| u.get(field)).is_some_and(|x| x > MAX_EXACT))
    };
    let mut found = Vec::new();
    for (si, s) in d.sessions.iter().enumerate() {
        let here = Location::new(ai, si, None, None);
        let session = attempt.sessions.get(si);
        let too_large = |f: &str| session.is_some_and(|s| turn_too_large(s, f));
        found.extend(check_usage(sink, here, &format!("{}'s", s.name), &s.usage, &[], too_large));
    }
    // The attempt's sum only for fields no session sum already reported.
    let here = Location::new(ai, 0, None, None);
    let too_large = |f: &str| attempt.sessions.iter().any(|s| turn_too_large(s, f));
    check_usage(sink, here, "the attempt's", &d.usage, &found, too_large);
    if let Estimate::Priced { total, .. } = &d.estimate
        && !total.is_finite()
    {
        sink.push(
            "usage-sum-overflow",
            here,
            "the cost estimate is not a finite number (tokens × price per million add up past 1.8e308)".into(),
        );
    }
}
