//! The navigator's lines: attempts (verdict, eval · experiment · attempt N,
//! locator), their sessions and turns (status, turn number and label,
//! events, tool calls, tokens).

use super::attempt::AttemptView;
use super::format::{compact, count};
use super::text::{Text, Tone, clean};
use super::verdict::{turn_status_text, verdict_mark, verdict_tone};
use crate::model::derive::TurnAddr;
use crate::model::document::Attempt;
use crate::model::text::{head_ellipsis, middle_ellipsis, width};

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

/// [`attempt_line`] in `room` columns. When it does not fit, the line keeps
/// what tells one attempt from another: the eval and the experiment each cut
/// to its end and the experiment in the middle (`…tool-note · base…ne`,
/// `…tool-note · memo…-b`), and a later attempt's number as `#N`: two
/// attempts of one eval under two experiments, or two of one experiment,
/// never read alike.
pub fn attempt_line_fit(view: &AttemptView, room: usize) -> Text {
    let full = attempt_line(view);
    if full.width() <= room {
        return full;
    }
    let s = &view.summary;
    let mut t = full.spans.first().map(|(m, tone)| Text::toned(m.clone(), *tone)).unwrap_or_default();
    // A first attempt is told from a later one by the later one's number.
    let number = s.attempt_number.filter(|n| *n > 1).map(|n| format!(" #{n}")).unwrap_or_default();
    let mut parts: Vec<String> = s.title_parts().into_iter().take(if s.experiment.is_some() { 2 } else { 1 }).collect();
    if let [eval, experiment] = parts.as_mut_slice() {
        // The experiment without the namespace it shares with the eval
        // (`classic/tool-note · baseline`), and not at all when it is the eval's name.
        let shared = eval.rfind('/').map(|i| &eval[..=i]).filter(|ns| experiment.starts_with(ns)).map(str::len);
        *experiment = experiment[shared.unwrap_or(0)..].to_string();
        if experiment == eval || experiment.is_empty() {
            parts.truncate(1);
        }
    }
    let separators = 3 * parts.len().saturating_sub(1);
    let mut left = room.saturating_sub(t.width() + width(&number) + separators);
    let mut cut = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        // The eval takes three fifths of what is left, the experiment the rest;
        // a short part leaves its rest to the next.
        let share = if i + 1 == parts.len() { left } else { left * 3 / 5 }.min(width(p));
        // An eval's namespace is shared by its neighbours: its end is kept (`…tool-note`).
        cut.push(if i == 0 { head_ellipsis(p, share) } else { middle_ellipsis(p, share) });
        left -= share;
    }
    t.push(cut.join(" · "), Tone::Plain);
    t.push(number, Tone::Plain);
    t.truncate(room)
}

/// The navigator's order of attempts: those to review first (failed,
/// errored, unavailable, then the rest), each kind in the file's order, and
/// the attempts of one eval and experiment together, by their number.
pub fn order(attempts: &[Attempt], views: &[AttemptView]) -> Vec<usize> {
    let mut first_of: std::collections::HashMap<(Option<&str>, Option<&str>), usize> = Default::default();
    let group: Vec<usize> = attempts
        .iter()
        .enumerate()
        .map(|(i, a)| *first_of.entry((a.eval_id.as_deref(), a.experiment_id.as_deref())).or_insert(i))
        .collect();
    let number = |i: usize| views.get(i).and_then(|v| v.summary.attempt_number);
    let mut order: Vec<usize> = (0..attempts.len()).collect();
    order.sort_by_key(|&i| (crate::model::verdict::review_rank(&attempts[i]), group[i], number(i), i));
    order
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
    if record.past_item_cap {
        t.push("  events not recorded", Tone::Warn);
    } else {
        // Counts read as every surface writes them ("1,000"), shortened words for the narrow panel.
        let events = super::format::number(record.turn.events.len() as f64);
        let tools = super::format::count(tools, "tool", "tools");
        t.push(format!("  {events} ev · {tools} · {tokens} tok"), Tone::Soft);
    }
    t
}
