//! The list of a folder's sessions: one line each (start time, first user
//! message, model, turns, tool calls, failures, tokens, estimated cost),
//! and the words around it (reading, not read yet).

use super::format::{MISSING, compact, count, usd};
use super::text::{Text, Tone, clean};
use crate::model::listed::SessionFacts;
use crate::model::usage::Estimate;

/// "2026-11-03 10:00" from an ISO timestamp; other text as it is (cleaned).
pub fn start_time(started: Option<&str>) -> String {
    let Some(t) = started else { return MISSING.into() };
    let b = t.as_bytes();
    let iso = b.len() >= 16 && b[4] == b'-' && b[7] == b'-' && matches!(b[10], b'T' | b' ') && b[13] == b':';
    if iso { format!("{} {}", &t[..10], &t[11..16]) } else { clean(t) }
}

/// The first user message on one line: sanitised, runs of whitespace
/// (newlines too) as one space.
pub fn first_message(text: Option<&str>) -> String {
    match text {
        Some(t) if !t.trim().is_empty() => clean(&t.split_whitespace().collect::<Vec<_>>().join(" ")),
        _ => "(no user message)".into(),
    }
}

/// Columns the first user message takes in a row.
const MESSAGE_COLUMNS: usize = 36;

/// "2026-11-03 10:00 Fix the flaky test …  2 turns · 2 tools · 1 failed ·
/// 3.3k tok · $0.0123 · claude-sonnet-4-5".
pub fn session_line(facts: &SessionFacts, estimate: &Estimate) -> Text {
    let mut t = Text::toned(format!("{} ", start_time(facts.started.as_deref())), Tone::Soft);
    // The message in a column of its own, so the facts line up after it.
    t.append(
        Text::plain(first_message(facts.first_user.as_deref())).truncate(MESSAGE_COLUMNS).pad_into(MESSAGE_COLUMNS),
    );
    t.push(
        format!("  {} · {}", count(facts.user_messages, "turn", "turns"), count(facts.tool_calls, "tool", "tools")),
        Tone::Soft,
    );
    if facts.failures > 0 {
        t.push(format!(" · {} failed", facts.failures), Tone::Bad);
    }
    let tokens = facts.usage.billable_tokens().map(compact).unwrap_or_else(|| MISSING.into());
    let cost = estimate.total().map(usd).unwrap_or_else(|| MISSING.into());
    t.push(format!(" · {tokens} tok · {cost} · "), Tone::Soft);
    t.push(facts.model.as_deref().map(clean).unwrap_or_else(|| MISSING.into()), Tone::Accent);
    if facts.lost_lines > 0 {
        t.push(format!(" · {} unreadable", count(facts.lost_lines, "line", "lines")), Tone::Warn);
    }
    t
}

/// The navigator's title while the folder is still being read.
pub fn listing_title(listed: usize, total: usize) -> String {
    format!("Sessions · {listed} of {total} read…")
}

/// The navigator's title of a folder.
pub fn sessions_title(shown: usize, listed: usize) -> String {
    if shown == listed { format!("Sessions · {listed}") } else { format!("Sessions · {shown} of {listed}") }
}

/// The footer's note when a listed session was read on opening.
pub fn opened_text(name: &str, events: usize) -> String {
    format!("read {} in full: {}", clean(name), count(events, "event", "events"))
}

/// The footer's note when a listed session could not be read.
pub fn open_failed_text(why: &str) -> String {
    format!("could not read the session: {}", clean(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_the_listed_facts_and_absent_ones_as_absent() {
        let mut f = SessionFacts {
            started: Some("2026-11-03T10:00:00.000Z".into()),
            first_user: Some("Fix the\n  flaky\u{1b}[31m test".into()),
            user_messages: 2,
            tool_calls: 1,
            failures: 1,
            ..Default::default()
        };
        let line = session_line(&f, &Estimate::NoModel).as_plain();
        assert!(line.starts_with("2026-11-03 10:00 Fix the flaky"), "{line}");
        assert_eq!(
            line.split("  2 turns").next().map(|m| m.chars().count()),
            Some(17 + MESSAGE_COLUMNS),
            "the facts start after the message's column: {line}"
        );
        assert!(!line.contains('\u{1b}') && !line.contains('\n'), "{line}");
        assert!(line.contains("  2 turns · 1 tool · 1 failed · — tok · — · —"), "{line}");
        f.usage.input_tokens = Some(1500.0);
        f.first_user = None;
        let line = session_line(&f, &Estimate::NoModel).as_plain();
        assert!(line.contains("(no user message)") && line.contains("1.5k tok"), "{line}");
        assert_eq!(start_time(Some("yesterday")), "yesterday");
    }
}
