//! Why an errored attempt errored, from what the input holds: decided once
//! for the viewer's header, its inspector and `e`, `show`'s header,
//! `--failures` and `show --json`.
//!
//! NiceEval folds `errored` from an execution error, or from a required
//! assertion it could not decide (`eval/record/verdict.ts`); its attempt page
//! names the execution error by phase and code
//! (`report/components/attempt-detail`), and its run feedback falls back to
//! the undecided assertion when no execution error is known
//! (`runner/feedback/failure.ts`). So do we, and when the input holds
//! neither, we say that instead of saying nothing.

use super::text::{Text, Tone, clean};
use crate::model::document::{Attempt, Diagnostic};
use crate::model::verdict::{Verdict, assertion_outcome, undecided_required};
use serde_json::{Value, json};

/// What the input holds about why an attempt errored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// An execution error: its index in the attempt's recorded diagnostics.
    Execution(usize),
    /// A required assertion that could not be decided (unavailable or
    /// errored): its index in the attempt's assertions.
    Assertion(usize),
    /// Neither: the outcome says errored and nothing says why.
    NotRecorded,
}

/// Why an attempt errored, in words every surface prints as they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Why {
    pub cause: Cause,
    /// "error in eval.run (unexpected-error): deliberate error for report fixture".
    pub text: Text,
    /// The same, without the message (a narrow header line).
    pub short: Text,
    /// Further causes of the same kind (more execution errors, or more undecided assertions).
    pub more: usize,
}

/// The diagnostics that are execution errors, with their indices.
pub fn execution_errors(a: &Attempt) -> impl Iterator<Item = (usize, &Diagnostic)> {
    a.review.diagnostics.iter().enumerate().filter(|(_, d)| d.is_execution_error())
}

/// "error in eval.run (unexpected-error)", and the message after it.
fn execution_text(d: &Diagnostic) -> (Text, Text) {
    let mut short = Text::toned("error", Tone::Bad);
    if let Some(p) = &d.phase {
        short.push(format!(" in {}", clean(p)), Tone::Soft);
    }
    if !d.code.is_empty() {
        short.push(format!(" ({})", clean(&d.code)), Tone::Soft);
    }
    let text = short.clone().with(format!(": {}", clean(&d.message)), Tone::Plain);
    (text, short)
}

/// One execution error as a line ("error in PHASE (CODE): MESSAGE").
pub fn execution_line(d: &Diagnostic) -> Text {
    execution_text(d).0
}

/// Why the attempt errored, when its verdict is errored.
pub fn why(a: &Attempt) -> Option<Why> {
    if a.verdict != Some(Verdict::Errored) {
        return None;
    }
    let errors: Vec<(usize, &Diagnostic)> = execution_errors(a).collect();
    if let Some(&(i, d)) = errors.first() {
        let (text, short) = execution_text(d);
        return Some(Why { cause: Cause::Execution(i), text, short, more: errors.len() - 1 });
    }
    let undecided: Vec<usize> = a
        .review
        .assertions
        .iter()
        .flatten()
        .enumerate()
        .filter(|(_, x)| undecided_required(x))
        .map(|(i, _)| i)
        .collect();
    if let Some(&i) = undecided.first() {
        let x = &a.review.assertions.as_deref().unwrap_or_default()[i];
        let word = super::verdict::outcome_word(assertion_outcome(x));
        let short = Text::toned(format!("required assertion {word}"), Tone::Warn);
        let mut text = short.clone().with(format!(": {}", super::format::assertion_title(a, x)), Tone::Plain);
        if let Some(m) = super::format::assertion_message(x).filter(|m| *m != x.label) {
            text.push(format!(" — {m}"), Tone::Soft);
        }
        if let Some(r) = &x.reason {
            text.push(format!(" ({})", clean(r)), Tone::Soft);
        }
        return Some(Why { cause: Cause::Assertion(i), text, short, more: undecided.len() - 1 });
    }
    let given = match a.outcome.as_deref() {
        Some(o) => format!("the outcome is {}", clean(o)),
        None => "the verdict errored is stated".into(),
    };
    let short = Text::toned("no reason recorded", Tone::Warn);
    let text = short.clone().with(
        format!(": {given}, and neither an execution error nor an undecided required assertion is recorded"),
        Tone::Soft,
    );
    Some(Why { cause: Cause::NotRecorded, text, short, more: 0 })
}

impl Why {
    /// The line with how many more there are: "… · 1 more execution error".
    pub fn line(&self) -> Text {
        let mut t = self.text.clone();
        if self.more > 0 {
            let (one, many) = match self.cause {
                Cause::Execution(_) => ("more execution error", "more execution errors"),
                _ => ("more undecided required assertion", "more undecided required assertions"),
            };
            t.push(format!(" · {}", super::format::count(self.more, one, many)), Tone::Soft);
        }
        t
    }

    /// Where the viewer's `e` goes for it, in words (the status line after the jump).
    pub fn jump_note(&self) -> String {
        match self.cause {
            Cause::Execution(_) => format!("errored: {} (Diagnostics)", self.text.as_plain()),
            Cause::Assertion(_) => format!("errored: {} (Assertions)", self.text.as_plain()),
            Cause::NotRecorded => format!("errored: {}", self.text.as_plain()),
        }
    }
}

/// `show --json`'s `erroredBecause`: null unless the verdict is errored.
pub fn json(a: &Attempt) -> Value {
    let Some(w) = why(a) else { return Value::Null };
    let text = w.line().as_plain();
    match w.cause {
        Cause::Execution(i) => {
            let d = &a.review.diagnostics[i];
            json!({"cause": "execution-error", "text": text, "phase": d.phase, "code": d.code, "message": d.message})
        }
        Cause::Assertion(i) => {
            let x = &a.review.assertions.as_deref().unwrap_or_default()[i];
            json!({
                "cause": "required-assertion-undecided",
                "text": text,
                "assertion": x.entry_id,
                "outcome": super::verdict::outcome_word(assertion_outcome(x)),
                "reason": x.reason,
            })
        }
        Cause::NotRecorded => json!({"cause": "not-recorded", "text": text}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::Assertion;

    fn errored() -> Attempt {
        Attempt { verdict: Some(Verdict::Errored), outcome: Some("errored".into()), ..Default::default() }
    }

    #[test]
    fn an_attempt_that_is_not_errored_has_no_why() {
        let a = Attempt { verdict: Some(Verdict::Failed), ..Default::default() };
        assert_eq!(why(&a), None);
        assert_eq!(json(&a), Value::Null);
    }

    #[test]
    fn an_execution_error_is_the_reason_with_its_phase_and_code() {
        let mut a = errored();
        for m in ["boom", "again"] {
            a.review.diagnostics.push(Diagnostic {
                kind: "execution-error".into(),
                code: "unexpected-error".into(),
                phase: Some("eval.run".into()),
                message: m.into(),
                causes: vec![],
            });
        }
        let w = why(&a).unwrap();
        assert_eq!(w.cause, Cause::Execution(0));
        assert_eq!(w.text.as_plain(), "error in eval.run (unexpected-error): boom");
        assert_eq!(w.short.as_plain(), "error in eval.run (unexpected-error)");
        assert_eq!(w.line().as_plain(), "error in eval.run (unexpected-error): boom · 1 more execution error");
        assert_eq!(json(&a)["cause"], "execution-error");
    }

    #[test]
    fn an_undecided_required_assertion_is_the_reason_when_no_error_is_recorded() {
        let mut a = errored();
        a.review.assertions = Some(vec![
            Assertion {
                label: "optional".into(),
                result: Some("unavailable".into()),
                requirement: Some("optional".into()),
                ..Default::default()
            },
            Assertion {
                label: "tool ran".into(),
                result: Some("unavailable".into()),
                gate: Some("unavailable".into()),
                reason: Some("evidence-unavailable".into()),
                requirement: Some("required".into()),
                ..Default::default()
            },
        ]);
        let w = why(&a).unwrap();
        assert_eq!(w.cause, Cause::Assertion(1));
        assert_eq!(w.text.as_plain(), "required assertion unavailable: tool ran (evidence-unavailable)");
        assert_eq!(json(&a)["cause"], "required-assertion-undecided");
    }

    #[test]
    fn nothing_recorded_says_so() {
        let w = why(&errored()).unwrap();
        assert_eq!(w.cause, Cause::NotRecorded);
        assert_eq!(
            w.text.as_plain(),
            "no reason recorded: the outcome is errored, and neither an execution error nor an undecided required assertion is recorded"
        );
        assert_eq!(json(&errored())["cause"], "not-recorded");
    }
}
