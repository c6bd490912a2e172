//! The navigator's lines: attempts (verdict, eval · experiment · attempt N,
//! locator), their sessions and turns (status, turn number and label,
//! events, tool calls, tokens).

use super::attempt::AttemptView;
use super::format::{compact, count};
use super::text::{Text, Tone, clean};
use super::verdict::{turn_status_text, verdict_mark, verdict_tone};
use crate::model::derive::TurnAddr;
use crate::model::document::Attempt;

/// "✗ realrun/claude · baseline · attempt 2 · @1YVAP5X8K33CP".
/// The fold mark before a navigator node: "▾ " open, "▸ " folded, "  " a leaf.
pub fn fold_mark(has_children: bool, folded: bool) -> &'static str {
    match (has_children, folded) {
        (false, _) => "  ",
        (true, false) => "▾ ",
        (true, true) => "▸ ",
    }
}

pub fn attempt_line(view: &AttemptView) -> Text {
    let s = &view.summary;
    let mut t = match s.verdict {
        Some(v) => Text::toned(format!("{} ", verdict_mark(v)), verdict_tone(v)),
        None => s
            .headline
            .spans
            .first()
            .map(|(m, tone)| Text::toned(format!("{} ", m.split(' ').next().unwrap_or("")), *tone))
            .unwrap_or_default(),
    };
    t.push(s.title(), Tone::Plain);
    if let Some(v) = s.verdict {
        t.push(format!(" {}", v.as_str()), verdict_tone(v));
    }
    if let Some(l) = &s.locator {
        t.push(format!(" {}", clean(l)), Tone::Soft);
    }
    t
}

/// "session-2 thread_demo_deploy · 2 turns".
pub fn session_line(attempt: &Attempt, si: usize) -> Text {
    let Some(session) = attempt.sessions.get(si) else { return Text::new() };
    let mut t = Text::toned(session.scope_name(), Tone::Bold);
    if let Some(id) = &session.id {
        t.push(format!(" {}", clean(id)), Tone::Soft);
    }
    t.push(format!(" · {}", count(session.turns.len(), "turn", "turns")), Tone::Soft);
    t
}

/// "✓ turn 1 · 15 events · 5 tools · 4.0k tok" (the label beside the number when it differs).
pub fn turn_line(attempt: &Attempt, view: &AttemptView, addr: TurnAddr) -> Text {
    let Some(record) = attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
        return Text::new();
    };
    let status = turn_status_text(record.turn.status.as_deref());
    let mark = status.as_plain().split(' ').next().unwrap_or("").to_string();
    let tone = status.first_tone();
    let mut t = Text::toned(format!("{mark} "), tone);
    t.push(super::address::turn_title(attempt, &view.derived, addr), Tone::Plain);
    let tools = view.derived.turn(addr).map(|d| d.tool_calls).unwrap_or(0);
    let tokens = record.turn.usage.and_then(|u| u.billable_tokens()).map(compact).unwrap_or_else(|| "—".into());
    t.push(format!("  {} ev · {} · {tokens} tok", record.turn.events.len(), count(tools, "tool", "tools")), Tone::Soft);
    t
}
