//! Where a failed or errored attempt began to go wrong, for every surface:
//! the earliest failed step (a sandbox command that did not exit 0, a tool
//! call that failed, a denied one, a provider error in the stream, a failed
//! turn, an execution error) and the chain from it to the failing
//! assertions. `show --failures` opens each attempt with it, `show --json`
//! carries it as `firstFailure`, and a viewer's first screen can draw
//! [`blocks`] and jump by each link's [`Target`].
//!
//! Steps are ordered on what the input records: setup before the turns,
//! the turns in order and their events in order, teardown after. A command
//! linked to timing is placed among the sends by its start; one run during
//! a turn counts after that turn's events (a Record times the turn, not its
//! events). With no failed step, the first failing assertion (or, for an
//! errored attempt, what `view::errored` names) is where it began.

use super::blocks::{Block, Section};
use super::commands::{Placed, When};
use super::context::Ctx;
use super::text::{Text, Tone, clean};
use crate::model::document::Assertion;
use crate::model::timeline::{RowKind, RowStatus};
use crate::model::verdict::assertion_outcome;
use serde_json::{Value, json};

/// What kind of step failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Command,
    Tool,
    Denied,
    ProviderError,
    Turn,
    ExecutionError,
    Assertion,
}

impl Kind {
    /// The word `show --json` and the text say.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Tool => "tool",
            Kind::Denied => "denied",
            Kind::ProviderError => "provider-error",
            Kind::Turn => "turn",
            Kind::ExecutionError => "execution-error",
            Kind::Assertion => "assertion",
        }
    }
}

/// Where a step or a link leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A timeline row (its index in the attempt's timeline).
    Row(usize),
    /// A sandbox command, 1-based as its card numbers it.
    Command(usize),
    /// An assertion: its index in the attempt's list.
    Assertion(usize),
    /// An execution error: its index in the recorded diagnostics.
    Diagnostic(usize),
}

/// One step of the chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub kind: Kind,
    /// `N:i`, `N` for a turn, `command K`, or `None` (an assertion without evidence).
    pub at: Option<String>,
    pub summary: Text,
    /// `None` when nothing recorded names it.
    pub target: Option<Target>,
}

/// The first failed step and what followed from it.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstFailure {
    pub first: Link,
    pub chain: Vec<Link>,
}

/// Order of a step: (band: 0 before the turns, 1 the turns, 2 after;
/// turn number; place in the turn).
type Key = (u8, u64, u64);
/// A step's summary is cut to this many columns (its row or card has the rest).
pub const SUMMARY_WIDTH: usize = 160;
const END: u64 = u64::MAX;

/// Where the attempt began to fail; `None` when it is not one to review.
pub fn of(ctx: &Ctx) -> Option<FirstFailure> {
    if !ctx.view.summary.to_review {
        return None;
    }
    let mut steps: Vec<(Key, Link)> = Vec::new();
    steps.extend(row_steps(ctx));
    steps.extend(command_steps(ctx));
    steps.extend(error_steps(ctx));
    steps.sort_by_key(|(k, _)| *k);
    let mut chain = Vec::new();
    let first = match steps.into_iter().next() {
        Some((_, first)) => {
            if let Some(turn) = failed_turn_after(ctx, &first) {
                chain.push(turn);
            }
            first
        }
        None => fallback(ctx)?,
    };
    chain.extend(failing_assertions(ctx, &first));
    Some(FirstFailure { first, chain })
}

/// The earliest failed tool, denied one or provider error, and the earliest
/// failed turn with none of these. Only the chosen rows are worded (an
/// attempt of a million failed calls words two).
fn row_steps(ctx: &Ctx) -> Vec<(Key, Link)> {
    let rows = &ctx.view.timeline.rows;
    let mut earliest: Option<(Key, usize, Kind)> = None;
    let mut turns_with_a_step = std::collections::HashSet::new();
    for (ri, row) in rows.iter().enumerate() {
        if row.merged_away() {
            continue;
        }
        let kind = match (row.kind, row.status) {
            (RowKind::Error, _) => Kind::ProviderError,
            (
                RowKind::ToolStart | RowKind::ToolFinish | RowKind::SubagentStart | RowKind::SubagentFinish,
                Some(RowStatus::Failed),
            ) => Kind::Tool,
            (_, Some(RowStatus::Rejected)) => Kind::Denied,
            _ => continue,
        };
        let Some(event) = row.event() else { continue };
        turns_with_a_step.insert(row.turn_ordinal);
        let key = (1, row.turn_ordinal, event as u64);
        if earliest.is_none_or(|(k, _, _)| key < k) {
            earliest = Some((key, ri, kind));
        }
    }
    let mut out = Vec::new();
    if let Some((key, ri, kind)) = earliest {
        let summary = super::timeline::row_view(ctx.attempt, ctx.view, ri).map(|v| v.summary).unwrap_or_default();
        let lead = match kind {
            Kind::Tool => "failed: ",
            Kind::Denied => "denied: ",
            _ => "provider error: ",
        };
        let text = Text::toned(lead, Tone::Bad).with_text(summary).truncate(SUMMARY_WIDTH);
        out.push((key, Link { kind, at: Some(rows[ri].position()), summary: text, target: Some(Target::Row(ri)) }));
    }
    let failed_turn = rows.iter().enumerate().find(|(_, row)| {
        row.kind == RowKind::TurnHeader
            && row.status == Some(RowStatus::TurnFailed)
            && !turns_with_a_step.contains(&row.turn_ordinal)
    });
    if let Some((ri, row)) = failed_turn {
        let text = Text::toned(format!("turn {} failed", row.turn_ordinal), Tone::Bad);
        out.push((
            (1, row.turn_ordinal, END - 1),
            Link { kind: Kind::Turn, at: Some(row.position()), summary: text, target: Some(Target::Row(ri)) },
        ));
    }
    out
}

/// Sandbox commands that did not exit 0.
fn command_steps(ctx: &Ctx) -> Vec<(Key, Link)> {
    super::commands::placed(ctx)
        .iter()
        .filter(|p| p.command.outcome.failed())
        .map(|p| (command_key(p), command_link(p)))
        .collect()
}

fn command_key(p: &Placed) -> Key {
    let n = p.number as u64;
    let after = |t: &super::commands::TurnRef| (1, t.number.unwrap_or(END), END / 2 + n);
    match &p.when {
        When::BeforeTurns => (0, 0, n),
        When::Before(t) => match t.number {
            Some(k) if k > 1 => (1, k - 1, END / 2 + n),
            _ => (0, 0, n),
        },
        When::During(t) | When::After(t) | When::Between(t, _) => after(t),
        When::AfterTurns => (2, 0, n),
        When::Unplaced => (1, END, n),
    }
}

/// "attempt.setup command exited 1: pnpm install (stderr: ERR_PNPM …)".
pub fn command_link(p: &Placed) -> Link {
    let c = p.command;
    let mut t = Text::toned(
        format!("{} command ", c.phase.as_deref().map(clean).unwrap_or_else(|| "sandbox".into())),
        Tone::Plain,
    );
    t.append(super::commands::outcome_text(&c.outcome));
    t.push(": ", Tone::Plain);
    t.append(super::commands::line_text(c, 80));
    if let Some(last) = c.stderr.text.as_deref().and_then(|s| s.lines().rev().find(|l| !l.trim().is_empty())) {
        t.push(format!(" (stderr: {})", crate::model::text::truncate(&clean(last.trim()), 120)), Tone::Warn);
    }
    Link {
        kind: Kind::Command,
        at: Some(format!("command {}", p.number)),
        summary: t,
        target: Some(Target::Command(p.number)),
    }
}

/// Execution errors, placed by their phase.
fn error_steps(ctx: &Ctx) -> Vec<(Key, Link)> {
    super::errored::execution_errors(ctx.attempt)
        .map(|(i, d)| {
            // Before the turns as a command of the same phase is; then the run's own.
            let band = match (super::commands::by_phase(d.phase.as_deref()), d.phase.as_deref()) {
                (When::BeforeTurns, _) => 0,
                (_, Some("eval.run" | "agent.send")) => 1,
                _ => 2,
            };
            let key = (band, END, i as u64);
            let link = Link {
                kind: Kind::ExecutionError,
                at: d.phase.as_deref().map(clean),
                summary: super::errored::execution_line(d),
                target: Some(Target::Diagnostic(i)),
            };
            (key, link)
        })
        .collect()
}

/// The turn a failed step is in, when that turn failed (and the step is not the turn itself).
fn failed_turn_after(ctx: &Ctx, first: &Link) -> Option<Link> {
    let Some(Target::Row(ri)) = first.target else { return None };
    let rows = &ctx.view.timeline.rows;
    let turn = rows.get(ri)?.turn_ordinal;
    let (hi, header) =
        rows.iter().enumerate().find(|(_, r)| r.kind == RowKind::TurnHeader && r.turn_ordinal == turn)?;
    (first.kind != Kind::Turn && header.status == Some(RowStatus::TurnFailed)).then(|| Link {
        kind: Kind::Turn,
        at: Some(header.position()),
        summary: Text::toned(format!("turn {turn} failed"), Tone::Bad),
        target: Some(Target::Row(hi)),
    })
}

/// With no failed step: the first failing assertion, or why it errored.
fn fallback(ctx: &Ctx) -> Option<Link> {
    if let Some(why) = super::errored::why(ctx.attempt) {
        let list = ctx.attempt.review.assertions.as_deref().unwrap_or(&[]);
        let link = |target| Link { kind: Kind::ExecutionError, at: None, summary: why.text.clone(), target };
        return match why.cause {
            super::errored::Cause::Assertion(i) if i < list.len() => Some(assertion_link(ctx, i, &list[i])),
            super::errored::Cause::Execution(i) => Some(link(Some(Target::Diagnostic(i)))),
            _ => Some(link(None)),
        };
    }
    let list = ctx.attempt.review.assertions.as_deref()?;
    let i = super::assertions::ordered(list).into_iter().find(|&i| assertion_outcome(&list[i]).is_failing())?;
    Some(assertion_link(ctx, i, &list[i]))
}

/// "✗ turn succeeded — expected completed, got failed" at its first evidence.
fn assertion_link(ctx: &Ctx, i: usize, a: &Assertion) -> Link {
    let o = assertion_outcome(a);
    let mut t = Text::toned(format!("{} ", super::verdict::outcome_mark(o)), super::verdict::outcome_tone(o));
    t.push(super::format::assertion_title(ctx.attempt, a), Tone::Plain);
    if let Some(m) = super::assertions::message(a) {
        let m = m.split_whitespace().collect::<Vec<_>>().join(" ");
        t.push(format!(" — {}", crate::model::text::truncate(&clean(&m), 160)), Tone::Soft);
    }
    let at = super::assertions::evidence_links(ctx.attempt, ctx.view, a)
        .iter()
        .find_map(|l| l.target)
        .map(|target| super::assertions::target_at(ctx, target));
    Link { kind: Kind::Assertion, at, summary: t, target: Some(Target::Assertion(i)) }
}

/// The failing assertions, those whose evidence is the first step first.
fn failing_assertions(ctx: &Ctx, first: &Link) -> Vec<Link> {
    let Some(list) = ctx.attempt.review.assertions.as_deref() else { return Vec::new() };
    let mut failing: Vec<(bool, usize)> = super::assertions::ordered(list)
        .into_iter()
        .filter(|&i| assertion_outcome(&list[i]).is_failing() && first.target != Some(Target::Assertion(i)))
        .map(|i| {
            let here = match first.target {
                Some(Target::Row(ri)) => {
                    super::assertions::evidence_links(ctx.attempt, ctx.view, &list[i]).iter().any(|l| l.row == Some(ri))
                }
                _ => false,
            };
            (!here, i)
        })
        .collect();
    failing.sort_by_key(|(not_here, _)| *not_here);
    failing.into_iter().map(|(_, i)| assertion_link(ctx, i, &list[i])).collect()
}

/// "where it began" as blocks: the step, then each link of the chain after "→".
pub fn blocks(ctx: &Ctx) -> Vec<Block> {
    let Some(f) = of(ctx) else { return Vec::new() };
    let line = |prefix: &str, l: &Link| {
        let mut t = Text::toned(prefix.to_string(), Tone::Soft);
        if let Some(at) = &l.at {
            t.push(format!("{at}  "), Tone::Accent);
        }
        t.with_text(l.summary.clone())
    };
    let mut body = vec![Block::Line(line("", &f.first))];
    body.extend(f.chain.iter().map(|l| Block::Line(line("→ ", l))));
    vec![Block::Section(Section::new(BEGAN, Text::toned(f.first.kind.word(), Tone::Soft), body))]
}

fn link_json(l: &Link) -> Value {
    json!({"at": l.at, "kind": l.kind.word(), "summary": l.summary.as_plain()})
}

/// `show --json`'s `firstFailure`: `{at, kind, summary, chain: [{at, kind, summary}]}`, or `null`.
pub fn json(ctx: &Ctx) -> Value {
    match of(ctx) {
        Some(f) => json!({
            "at": f.first.at, "kind": f.first.kind.word(), "summary": f.first.summary.as_plain(),
            "chain": f.chain.iter().map(link_json).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    }
}

/// The viewer's Assertions list shows the first step and at most this many
/// links of the chain above the fix prompt; the rest are counted on one row.
pub const LIST_LINKS: usize = 3;

/// A row of "where it began" in the viewer's Assertions list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BeganRow {
    /// The first step (0) or a link of the chain (1…).
    Link(usize),
    /// The links past [`LIST_LINKS`], counted.
    More(usize),
}

/// The rows the list shows for `f`.
pub fn list_rows(f: &FirstFailure) -> Vec<BeganRow> {
    let shown = f.chain.len().min(LIST_LINKS);
    let mut rows: Vec<BeganRow> = (0..=shown).map(BeganRow::Link).collect();
    if f.chain.len() > shown {
        rows.push(BeganRow::More(f.chain.len() - shown));
    }
    rows
}

/// Link `k` (0 the first step, then the chain's).
pub fn link(f: &FirstFailure, k: usize) -> Option<&Link> {
    if k == 0 { Some(&f.first) } else { f.chain.get(k - 1) }
}

/// A row's words: "⚑ where it began  1:2  failed: shell …", then "  → 1  turn 1 failed".
pub fn row_text(f: &FirstFailure, row: BeganRow) -> Text {
    match row {
        BeganRow::Link(k) => {
            let Some(l) = link(f, k) else { return Text::new() };
            let mut t =
                if k == 0 { Text::toned("⚑ where it began  ", Tone::Bad) } else { Text::toned("  → ", Tone::Soft) };
            if let Some(at) = &l.at {
                t.push(format!("{at}  "), Tone::Accent);
            }
            t.with_text(l.summary.clone())
        }
        BeganRow::More(n) => Text::toned(
            format!("  → … {} (the failing assertions below)", super::format::count(n, "more link", "more links")),
            Tone::Soft,
        ),
    }
}

/// Where a link leads, in words: "the timeline row 1:2", "command 3 in the Commands tab".
fn target_words(l: &Link) -> Option<String> {
    Some(match l.target? {
        Target::Row(_) => format!("the timeline row {}", l.at.clone().unwrap_or_default()),
        Target::Command(n) => format!("command {n} in the Commands tab"),
        Target::Assertion(_) => "this assertion in the list below".into(),
        Target::Diagnostic(_) => "the recorded diagnostic in the Diagnostics tab".into(),
    })
}

/// The inspector of a row: the whole chain, and where Enter on this row goes.
pub fn row_detail(ctx: &Ctx, f: &FirstFailure, row: BeganRow) -> Vec<Block> {
    let mut b = blocks(ctx);
    use super::{intent::Intent, keys::key_for};
    let enter = key_for(Intent::Enter);
    let words = match row {
        BeganRow::Link(k) => link(f, k).map(|l| match target_words(l) {
            Some(w) => format!("{enter}: {w} · {} comes back", key_for(Intent::JumpBack)),
            None => "nothing recorded names this step: it is no jump".into(),
        }),
        BeganRow::More(_) => Some(format!("{enter}: the first failing assertion below")),
    };
    if let Some(w) = words {
        b.push(Block::Blank);
        b.push(Block::Line(Text::toned(w, Tone::Soft)));
    }
    b
}

/// Its title where a surface names it.
pub const BEGAN: &str = "Where it began";

/// The chain as plain lines (what the viewer copies): "1:2  failed: …", "→ 1  turn 1 failed".
pub fn plain(f: &FirstFailure) -> String {
    let line = |prefix: &str, l: &Link| {
        let at = l.at.as_deref().map(|a| format!("{a}  ")).unwrap_or_default();
        format!("{prefix}{at}{}", l.summary.as_plain())
    };
    std::iter::once(line("", &f.first)).chain(f.chain.iter().map(|l| line("→ ", l))).collect::<Vec<_>>().join("\n")
}
