//! The attempt header: where it came from, what it is, how it went, counts,
//! tokens, the observed cost and the estimate (never mixed), and notices.
//! `show` prints it as key–value lines; the viewer's header line draws the
//! same facts ([`header_parts`]), fitted to the width by priority.

use super::blocks::{Block, kv_lines};
use super::context::Ctx;
use super::summary::{Summary, notices};
use super::text::{Text, Tone, clean};
use crate::model::document::{Completeness, Document, NoticeLevel};

/// The section title of an attempt: "eval · experiment · attempt N".
pub fn title(ctx: &Ctx) -> String {
    ctx.view.summary.title()
}

/// The section meta: the verdict, or the status when there is none.
pub fn meta(ctx: &Ctx) -> Text {
    ctx.view.summary.headline.clone()
}

pub fn header(ctx: &Ctx) -> Vec<Block> {
    let a = ctx.attempt;
    let s = &ctx.view.summary;
    let mut rows: Vec<(&str, Text)> = Vec::new();
    let files = if ctx.doc.sources.is_empty() {
        "—".to_string()
    } else {
        ctx.doc.sources.iter().map(|s| clean(s)).collect::<Vec<_>>().join(", ")
    };
    rows.push(("file", Text::plain(files)));
    rows.push(("format", Text::plain(if ctx.doc.format.is_empty() { "—".into() } else { clean(&ctx.doc.format) })));
    rows.push(("eval", Text::plain(s.eval.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    if let Some(x) = &s.experiment {
        rows.push(("experiment", Text::plain(clean(x))));
    }
    if let Some(n) = s.attempt_number {
        rows.push(("attempt", Text::plain(n.to_string())));
    }
    rows.push(("locator", Text::toned(s.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    let mut verdict = s.headline.clone();
    if let Some(o) = &a.outcome {
        verdict.push(format!(" · outcome {}", clean(o)), Tone::Soft);
    }
    if let Some(score) = s.score_text() {
        verdict.push(format!(" · {score}"), Tone::Soft);
    }
    rows.push((if s.verdict.is_some() { "verdict" } else { "status" }, verdict));
    rows.push((
        "model",
        s.model.as_deref().map(|m| Text::plain(clean(m))).unwrap_or_else(|| Text::toned("—", Tone::Soft)),
    ));
    if let Some(ag) = &a.agent {
        rows.push(("agent", Text::plain(clean(ag))));
    }
    rows.push(("turns", turn_statuses(ctx)));
    rows.push(("counts", s.counts()));
    rows.push(("tokens", s.tokens_long()));
    rows.push(("observed", s.observed_long()));
    rows.push(("estimated", s.estimate_long()));
    if let Some(f) = s.findings_text() {
        rows.push(("findings", f.with(" (see --diagnostics)", Tone::Soft)));
    }
    if let Some(w) = s.waiting_text() {
        rows.push(("waiting", w));
    }
    let mut blocks = kv_lines(rows);
    for (level, message) in attempt_notices(ctx.doc, ctx) {
        let prefix = match level {
            NoticeLevel::Error => "error: ",
            NoticeLevel::Warning => "",
            NoticeLevel::Info => "note: ",
        };
        blocks.push(Block::Line(Text::toned(format!("! {prefix}{message}"), Tone::Warn)));
    }
    blocks
}

/// "1 ✓ completed · 2 ⏸ waiting · 6 session2/turn1 ⏸ waiting".
fn turn_statuses(ctx: &Ctx) -> Text {
    let mut turns = Text::new();
    for (i, (_, addr)) in ctx.addrs().enumerate() {
        if i > 0 {
            turns.push(" · ", Tone::Soft);
        }
        let status = ctx
            .attempt
            .sessions
            .get(addr.session)
            .and_then(|s| s.turns.get(addr.turn))
            .and_then(|r| r.turn.status.as_deref());
        turns.push(format!("{} ", super::address::turn_ref(ctx.attempt, ctx.derived, addr)), Tone::Plain);
        turns.append(super::verdict::turn_status_text(status));
    }
    if turns.is_empty() {
        turns.push("— (no turns recorded)", Tone::Soft);
    }
    turns
}

/// What the input says about this attempt's data, then its notices.
fn attempt_notices(doc: &Document, ctx: &Ctx) -> Vec<(NoticeLevel, String)> {
    let a = ctx.attempt;
    let mut out = Vec::new();
    let warn = |m: String| (NoticeLevel::Warning, m);
    match &a.events {
        Some(Completeness::NotRecorded) => out.push(warn("events were not recorded for this attempt".into())),
        Some(Completeness::Partial(why)) => out
            .push(warn(format!("events are partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")))),
        _ => {}
    }
    if !a.events_exact && a.events != Some(Completeness::NotRecorded) {
        out.push(warn("events were rebuilt from a lossy record, not the adapter's exact stream".into()));
    }
    let reconstructed = a.sessions.iter().flat_map(|s| &s.turns).filter(|t| t.reconstructed).count();
    if reconstructed > 0 && a.events_exact {
        out.push(warn(format!(
            "{} rebuilt from a lossy source",
            super::format::count(reconstructed, "turn was", "turns were")
        )));
    }
    if !ctx.derived.coverage.is_complete() {
        out.push(warn("evidence coverage is not complete (see --diagnostics)".into()));
    }
    out.extend(notices(doc, a));
    out
}

/// The facts of the viewer's header line, each with a priority (0 = kept
/// longest): the verdict, waiting, tokens and costs before names and counts.
pub fn header_parts(summary: &Summary, notice_count: usize) -> Vec<(u8, Text)> {
    let mut parts = vec![(0, summary.headline.clone())];
    if let Some(w) = summary.waiting_text() {
        parts.push((1, w));
    }
    parts.push((6, Text::plain(summary.title())));
    if let Some(l) = &summary.locator {
        parts.push((7, Text::toned(clean(l), Tone::Accent)));
    }
    parts.push((2, Text::plain(summary.tokens_short())));
    let mut observed = Text::plain(format!("cost {}", summary.observed_short()));
    if let Some(k) = summary.observed_partial() {
        observed.push(format!(" ({k})"), Tone::Warn);
    }
    parts.push((3, observed));
    parts.push((4, Text::plain(format!("est {}", summary.estimate_short()))));
    parts.push((8, summary.counts()));
    if let Some(f) = summary.findings_text() {
        parts.push((5, f));
    }
    if notice_count > 0 {
        parts.push((
            9,
            Text::toned(format!("! {}", super::format::count(notice_count, "notice", "notices")), Tone::Warn),
        ));
    }
    parts
}
