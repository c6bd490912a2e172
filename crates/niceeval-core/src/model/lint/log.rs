//! Findings about a native agent log beyond NiceEval's reading of it: the
//! loader's [`LogFact`]s, each at the event its line became (else the turn).

use super::{Sink, q};
use crate::model::diagnostics::Location;
use crate::model::diagnostics::{LogFact, LogFactKind, UsageFigures};
use crate::model::document::Attempt;

/// A count as NiceEval prints it: `1200`, `0.5`.
fn n(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{x:.0}") } else { format!("{x}") }
}

fn lines(ls: &[usize]) -> String {
    ls.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
}

fn figures(u: &UsageFigures) -> String {
    let requests = if u.requests == 1 { "1 request".to_string() } else { format!("{} requests", u.requests) };
    format!("{} input and {} output tokens in {requests}", n(u.input), n(u.output))
}

fn message(f: &LogFact) -> (&'static str, String) {
    let l = f.line;
    match &f.kind {
        LogFactKind::UsageRepeated { messages, once, niceeval } => {
            let most = messages.iter().map(|(_, ls)| ls.len()).max().unwrap_or(0);
            let mut listed: Vec<String> =
                messages.iter().take(4).map(|(id, ls)| format!("{} on lines {}", q(id), lines(ls))).collect();
            if messages.len() > 4 {
                listed.push(format!("{} more", messages.len() - 4));
            }
            (
                "log-usage-repeated",
                format!(
                    "line {l}: {} on several lines ({}): counted up to {most} times by NiceEval's parser, which sums {}; once per message: {}",
                    if messages.len() == 1 {
                        "1 API response has its usage".to_string()
                    } else {
                        format!("{} API responses have their usage", messages.len())
                    },
                    listed.join("; "),
                    figures(niceeval),
                    figures(once)
                ),
            )
        }
        LogFactKind::CompactionTwice { boundary_line } => (
            "log-compaction-counted-twice",
            format!(
                "line {l}: this isCompactSummary line continues the compact_boundary of line {boundary_line}: one compaction, counted twice by NiceEval's parser"
            ),
        ),
        LogFactKind::SummaryTitle { title } => (
            "log-summary-read-as-compaction",
            format!(
                "line {l}: a summary line{} is the session's title; NiceEval's parser reads it as a compaction",
                title.as_deref().map(|t| format!(" ({})", q(t))).unwrap_or_default()
            ),
        ),
        LogFactKind::ResultWithoutUse { id } => (
            "log-result-without-use",
            format!(
                "line {l}: a tool result for {} with no tool_use of that id before it; NiceEval's parser emits its finish with no start",
                q(id)
            ),
        ),
        LogFactKind::ErrorFlagNotBoolean { value, read_as } => (
            "log-error-flag-not-boolean",
            format!(
                "line {l}: is_error is {}, not a boolean; NiceEval's parser reads the result as {read_as}",
                q(value)
            ),
        ),
        LogFactKind::TimeBackwards { previous_line, previous, this } => (
            "log-time-backwards",
            format!("line {l}: timestamp {} is earlier than {} on line {previous_line}", q(this), q(previous)),
        ),
    }
}

/// The findings of an attempt's log facts, in its first session's first turn.
pub fn check_attempt(sink: &mut Sink, ai: usize, attempt: &Attempt) {
    if attempt.sessions.first().is_none_or(|s| s.turns.is_empty()) {
        return;
    }
    for f in &attempt.log_facts {
        let (code, text) = message(f);
        sink.push(code, Location::new(ai, 0, Some(0), f.event), text);
    }
}
