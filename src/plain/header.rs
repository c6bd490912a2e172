//! The attempt header: where it came from, what it is, how it went, counts,
//! tokens and the two costs (observed and estimated), and notices.

use super::layout::{Block, Text, Tone, clean, kv_lines};
use super::view::{Ctx, turn_status_text, verdict_text};
use crate::model::document::{Completeness, NoticeLevel};
use crate::view::format::{count, opt_number, usd};

pub fn title(ctx: &Ctx, total: usize) -> String {
    let eval = ctx.attempt.eval_id.as_deref().map(clean);
    let n = match (ctx.attempt.attempt_number, total) {
        (Some(n), _) => format!("attempt {n}"),
        (None, 1) => String::new(),
        (None, _) => format!("attempt {} of {total}", ctx.index + 1),
    };
    match (eval, n.is_empty()) {
        (Some(e), true) => e,
        (Some(e), false) => format!("{e} · {n}"),
        (None, true) => "Attempt".into(),
        (None, false) => format!("Attempt · {n}"),
    }
}

pub fn meta(ctx: &Ctx) -> Text {
    verdict_text(ctx.attempt)
}

pub fn header(ctx: &Ctx) -> Vec<Block> {
    let a = ctx.attempt;
    let d = ctx.derived;
    let mut rows: Vec<(&str, Text)> = Vec::new();
    let files = if ctx.doc.sources.is_empty() {
        "—".to_string()
    } else {
        ctx.doc.sources.iter().map(|s| clean(s)).collect::<Vec<_>>().join(", ")
    };
    rows.push(("file", Text::plain(files)));
    rows.push(("format", Text::plain(if ctx.doc.format.is_empty() { "—".into() } else { clean(&ctx.doc.format) })));
    rows.push(("eval", Text::plain(a.eval_id.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    rows.push(("locator", Text::toned(a.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    let mut verdict = verdict_text(a);
    if let Some(o) = &a.outcome {
        verdict.push(format!(" · outcome {}", clean(o)), Tone::Soft);
    }
    if let Some(s) = &a.score
        && let (Some(e), Some(p)) = (s.earned, s.points)
    {
        verdict.push(format!(" · score {e}/{p}"), Tone::Soft);
    }
    rows.push(("verdict", verdict));
    if let Some(m) = d.model.as_deref().or(a.model.as_deref()) {
        rows.push(("model", Text::plain(clean(m))));
    }
    if let Some(ag) = &a.agent {
        rows.push(("agent", Text::plain(clean(ag))));
    }
    // Status of each turn.
    let mut turns = Text::new();
    for (i, (_, addr)) in ctx.addrs().enumerate() {
        if i > 0 {
            turns.push(" · ", Tone::Soft);
        }
        let status =
            a.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)).and_then(|r| r.turn.status.as_deref());
        turns.push(format!("{} ", ctx.label(addr)), Tone::Plain);
        turns.append(turn_status_text(status));
    }
    if turns.is_empty() {
        turns.push("— (no turns recorded)", Tone::Soft);
    }
    rows.push(("turns", turns));
    let n_turns = d.turns.len();
    let n_events: usize = a.sessions.iter().flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
    // The root fold: the occurrences the timeline rows point at.
    let n_tools = d.occurrences.occurrences.len();
    let n_orphans = d.occurrences.orphan_finishes.len();
    let mut counts = Text::plain(format!(
        "{} · {} · {} · {}",
        count(a.sessions.len(), "session", "sessions"),
        count(n_turns, "turn", "turns"),
        count(n_events, "event", "events"),
        count(n_tools, "tool call", "tool calls"),
    ));
    if n_orphans > 0 {
        counts.push(format!(" · {}", count(n_orphans, "orphan finish", "orphan finishes")), Tone::Warn);
    }
    rows.push(("counts", counts));
    let u = &d.usage;
    let tokens = match u.billable_tokens() {
        Some(t) => Text::plain(format!(
            "{} (input {} + output {}; cache read {}, cache creation {})",
            opt_number(Some(t)),
            opt_number(u.input_tokens),
            opt_number(u.output_tokens),
            opt_number(u.cache_read_tokens),
            opt_number(u.cache_creation_tokens)
        )),
        None => Text::toned("— (no token counts reported)", Tone::Soft),
    };
    rows.push(("tokens", tokens));
    rows.push((
        "observed",
        match u.cost_usd {
            Some(c) => Text::plain(format!("{} (sum of reported costUSD)", usd(c))),
            None => Text::toned("— (no costUSD reported)", Tone::Soft),
        },
    ));
    let mut est = match &d.estimate {
        crate::model::usage::Estimate::Priced { total, hit, .. } => {
            Text::plain(format!("{} (price key {}, see --usage)", usd(*total), clean(&hit.key)))
        }
        other => Text::toned(format!("— ({})", other.reason().unwrap_or_default()), Tone::Soft),
    };
    if let Some(r) = a.reported_estimate {
        est.push(format!(" · file's own estimate {}", usd(r)), Tone::Soft);
    }
    rows.push(("estimated", est));
    let mut blocks = kv_lines(rows);
    // Notices about partial or missing data.
    let mut notices: Vec<String> = Vec::new();
    match &a.events {
        Some(Completeness::Complete) | None if a.events_exact => {}
        Some(Completeness::NotRecorded) => notices.push("events were not recorded for this attempt".into()),
        Some(Completeness::Partial(why)) => {
            notices.push(format!("events are partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")))
        }
        _ => {}
    }
    if !a.events_exact && a.events != Some(Completeness::NotRecorded) {
        notices.push("events were rebuilt from a lossy record, not the adapter's exact stream".into());
    }
    let reconstructed = a.sessions.iter().flat_map(|s| &s.turns).filter(|t| t.reconstructed).count();
    if reconstructed > 0 && a.events_exact {
        notices.push(format!("{} rebuilt from a lossy source", count(reconstructed, "turn was", "turns were")));
    }
    if !d.coverage.is_complete() {
        notices.push("evidence coverage is not complete (see --diagnostics)".into());
    }
    if a.reported_usage.is_some() {
        notices.push("the estimate uses the usage the file states for the whole attempt".into());
    }
    for n in &a.notices {
        let level = match n.level {
            NoticeLevel::Error => "error: ",
            NoticeLevel::Warning => "",
            NoticeLevel::Info => "note: ",
        };
        notices.push(format!("{level}{}", clean(&n.message)));
    }
    // Document-level notices that no attempt carries.
    for n in &ctx.doc.notices {
        if !ctx.doc.attempts.iter().any(|x| x.notices.iter().any(|m| m.message == n.message)) {
            notices.push(clean(&n.message));
        }
    }
    for n in notices {
        blocks.push(Block::Line(Text::toned(format!("! {n}"), Tone::Warn)));
    }
    blocks
}
