//! NiceEval's own figures, as its report computes them, beside which this
//! viewer's may differ: an attempt's tokens (`analysis/bindings.ts`
//! `attemptTokens`) and duration (`attemptLatencyMs`), the slots of a run
//! that hold no attempt (`sample/analysis.ts` "not-recorded"), and how
//! slot memberships count (a carried attempt is a slot of each run that
//! carries it; the pass rate is over slots, `report/model/metrics.ts`).

use super::completeness::Completeness;
use super::document::Attempt;
pub use super::recorded::{RecordedUsage, SlotNotRecorded};
use super::timing::Timing;

/// A figure NiceEval computes: a value, or none and NiceEval's reason.
#[derive(Debug, Clone, PartialEq)]
pub enum Measured {
    Value(f64),
    NoValue(&'static str),
}

impl Measured {
    pub fn value(&self) -> Option<f64> {
        match self {
            Measured::Value(v) => Some(*v),
            Measured::NoValue(_) => None,
        }
    }
}

/// NiceEval's tokens of an attempt: input + output when the usage
/// collection is complete and holds both buckets; 0 when it is complete
/// with no token bucket at all; no value otherwise.
pub fn tokens(usage: &RecordedUsage) -> Measured {
    if !usage.complete {
        return Measured::NoValue("usage collection is incomplete");
    }
    match (usage.input, usage.output) {
        _ if usage.token_buckets == 0 => Measured::Value(0.0),
        (Some(i), Some(o)) => Measured::Value(i + o),
        _ => Measured::NoValue("recorded usage does not contain both input and output token buckets"),
    }
}

/// NiceEval's duration of an attempt: the sum of its `eval.run` intervals
/// when the timing collection is complete (0 with none); no value when it
/// is not. `None` when the file records no such timing collection (not a
/// Record, nor a NiceEval page: a native log's call timings, an
/// InvocationSummary's phases).
pub fn duration(timing: &Timing) -> Option<Measured> {
    if !timing.niceeval_collection {
        return None;
    }
    match timing.state.as_ref()? {
        Completeness::Complete => Some(Measured::Value(
            timing
                .intervals
                .iter()
                .filter(|i| i.phase.as_deref() == Some("eval.run"))
                .filter_map(|i| i.duration_ms)
                .sum(),
        )),
        Completeness::Partial(_) | Completeness::NotRecorded => {
            Some(Measured::NoValue("timing collection is incomplete"))
        }
    }
}

/// How many run slots hold this attempt: the run whose member points at it
/// and each run that carries or accepts it (1 for an attempt of no run).
pub fn memberships(attempt: &Attempt) -> usize {
    attempt.review.membership.as_ref().map_or(1, |m| 1 + m.also_in.len())
}

/// A document's attempts as NiceEval's summary counts them: run slots
/// ("Attempts"), those with a verdict and those passed (its pass rate is
/// over slots), and the slots that hold no attempt.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SlotTally {
    pub slots: usize,
    pub decided: usize,
    pub passed: usize,
    pub not_recorded: usize,
}

impl SlotTally {
    pub fn of(doc: &super::document::Document) -> SlotTally {
        let mut t = SlotTally { not_recorded: doc.slots_not_recorded.len(), ..Default::default() };
        for a in &doc.attempts {
            t.add(a);
        }
        t
    }

    /// Count an attempt in every slot it fills.
    pub fn add(&mut self, a: &Attempt) {
        let m = memberships(a);
        self.slots += m;
        if let Some(v) = a.verdict {
            self.decided += m;
            self.passed += if v == super::review::Verdict::Passed { m } else { 0 };
        }
    }

    /// Passed of the slots with a verdict; `None` when none has one.
    pub fn pass_rate(&self) -> Option<f64> {
        (self.decided > 0).then(|| self.passed as f64 / self.decided as f64)
    }

    /// Some slots have no verdict (not recorded, or no verdict folded).
    pub fn partial(&self) -> bool {
        self.decided < self.slots + self.not_recorded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::timing::Interval;

    fn usage(complete: bool, input: Option<f64>, output: Option<f64>, other: usize) -> RecordedUsage {
        let token_buckets = usize::from(input.is_some()) + usize::from(output.is_some()) + other;
        RecordedUsage { complete, token_buckets, input, output }
    }

    #[test]
    fn tokens_are_niceevals_attempt_tokens() {
        assert_eq!(tokens(&usage(true, Some(100.0), Some(20.0), 1)), Measured::Value(120.0));
        assert_eq!(tokens(&usage(true, None, None, 0)), Measured::Value(0.0), "complete, no bucket: 0");
        assert!(matches!(tokens(&usage(false, Some(50.0), Some(10.0), 0)), Measured::NoValue(_)), "partial: none");
        assert!(matches!(tokens(&usage(true, Some(5.0), None, 0)), Measured::NoValue(_)), "input alone: none");
        assert!(matches!(tokens(&usage(true, None, None, 1)), Measured::NoValue(_)), "cache alone: none");
    }

    #[test]
    fn duration_is_the_sum_of_the_eval_run_intervals() {
        let iv = |phase: &str, d: f64| Interval {
            phase: Some(phase.into()),
            start_ms: Some(0.0),
            duration_ms: Some(d),
            ..Default::default()
        };
        let mut t = Timing {
            intervals: vec![iv("eval.run", 4.0), iv("assertion.evaluate", 170.0), iv("eval.run", 2.0)],
            state: Some(Completeness::Complete),
            epoch_zero_ms: None,
            niceeval_collection: true,
        };
        assert_eq!(duration(&t), Some(Measured::Value(6.0)));
        t.state = Some(Completeness::Partial(vec![]));
        assert!(matches!(duration(&t), Some(Measured::NoValue(_))));
        assert_eq!(duration(&Timing::default()), None, "no timing collection: not NiceEval's figure");
        t.niceeval_collection = false;
        assert_eq!(duration(&t), None, "a native log's call timings: not NiceEval's figure");
    }
}
