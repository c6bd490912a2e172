//! Execution timing of an attempt, for every surface: the "Execution
//! timeline" section of `show --timing` (a [`Waterfall`] block), its title
//! facts, the inspector's page for a row of the viewer's Timing tab, and
//! `show --json`'s `timing` list. Missing is "—" or "timing unavailable".

use super::blocks::{Block, Section, kv};
use super::context::Ctx;
use super::format::{MISSING, count, duration_ms, percent};
use super::text::{Text, Tone, clean};
use super::waterfall::{Expand, Row, Target, Waterfall, kind_word, node_label, outcome_mark, rows};
use crate::model::document::{Completeness, Diagnostic};
use crate::model::timing::{Node, Source, SpanPlacement, Timing, Tree};
use crate::model::usage::number;
use serde_json::{Value, json};
use std::collections::HashSet;

pub const TITLE: &str = "Execution timeline";
/// What a turn or an attempt without recorded timing says.
pub const UNAVAILABLE: &str = "timing unavailable";

/// "9.0s · 10 nodes · ✗ 1 failed": the axis total, the nodes, the failed ones
/// (and the parent loops cut, when any were).
pub fn meta(tree: &Tree) -> Text {
    let total = tree.axis.map(|(_, d)| duration_ms(d)).unwrap_or_else(|| MISSING.into());
    let mut t = Text::plain(format!("{total} · {}", count(tree.nodes.len(), "node", "nodes")));
    let failed = tree.failed();
    if failed > 0 {
        t.push(format!(" · ✗ {failed} failed"), Tone::Bad);
    }
    let errored = tree.errored();
    if errored > 0 {
        t.push(format!(" · ! {errored} errored"), errored_tone());
    }
    if !tree.unplaced_errors.is_empty() {
        let n = tree.unplaced_errors.len();
        t.push(
            format!(" · ! {}", count(n, "execution error on no one interval", "execution errors on no one interval")),
            errored_tone(),
        );
    }
    // In the title too: the Timing tab shows the notes only when it is empty.
    if tree.loops_cut > 0 {
        t.push(format!(" · {}", count(tree.loops_cut, "parent loop cut", "parent loops cut")), Tone::Warn);
    }
    t
}

fn errored_tone() -> Tone {
    super::verdict::verdict_tone(crate::model::verdict::Verdict::Errored)
}

/// An execution error on a node: "! errored: error in eval.run (unexpected-error): …".
fn error_text(d: &Diagnostic) -> Text {
    Text::toned("! errored: ", errored_tone()).with_text(super::errored::execution_line(d))
}

/// Execution errors no one interval carries: the phase has none, or several
/// (the input records the phase, not the interval).
pub fn unplaced_errors(tree: &Tree, diagnostics: &[Diagnostic]) -> Vec<Text> {
    let mut out = Vec::new();
    for &(d, of_phase) in &tree.unplaced_errors {
        let Some(diag) = diagnostics.get(d) else { continue };
        let where_ = match of_phase {
            0 => "no interval of that phase is recorded".to_string(),
            n => format!("{n} intervals have that phase and which one is not recorded"),
        };
        out.push(error_text(diag).with(format!(" ({where_})"), Tone::Soft));
    }
    out
}

/// What the reader should know before the tree: no timing, partial
/// timing, and how OTel spans were placed.
pub fn notes(timing: &Timing, tree: &Tree) -> Vec<Text> {
    let mut out = Vec::new();
    match &timing.state {
        _ if !tree.nodes.is_empty() => {}
        None | Some(Completeness::NotRecorded) => {
            out.push(Text::toned(format!("{UNAVAILABLE}: this input records no timing intervals"), Tone::Soft))
        }
        Some(_) => out.push(Text::toned(format!("{UNAVAILABLE}: no timing intervals were recorded"), Tone::Soft)),
    }
    if let Some(Completeness::Partial(why)) = &timing.state {
        let why: Vec<String> = why.iter().map(|w| clean(w)).collect();
        out.push(Text::toned(format!("timing is partial: {}", why.join("; ")), Tone::Warn));
    }
    out.extend(placement(tree));
    if tree.loops_cut > 0 {
        out.push(Text::toned(
            format!(
                "{} cut: a node there was its own ancestor, so one parent link of each loop is not followed",
                count(tree.loops_cut, "timing parent loop", "timing parent loops")
            ),
            Tone::Warn,
        ));
    }
    if tree.unreadable_spans > 0 {
        out.push(Text::toned(
            format!("{} of the OTel trace are not readable spans", count(tree.unreadable_spans, "entry", "entries")),
            Tone::Warn,
        ));
    }
    out
}

/// How the OTel spans were put on the attempt's axis, when there are any.
pub fn placement(tree: &Tree) -> Option<Text> {
    let how = match tree.placement? {
        SpanPlacement::Exact => "placed by the attempt's recorded start time",
        SpanPlacement::AlignedToSends => {
            "each trace starts where its send does (a Record keeps no clock to place spans exactly)"
        }
        SpanPlacement::AlignedToFirstSend => {
            "shifted so the first trace starts with the first send (traces and sends differ in number; a Record keeps no clock to place spans exactly)"
        }
        SpanPlacement::Unanchored => "not anchored to the attempt's clock: the first starts where the timing does",
    };
    Some(Text::toned(format!("{} from the OTel trace: {how}", count(tree.spans.len(), "span", "spans")), Tone::Soft))
}

/// The waterfall block of some rows (the axis total in the scale line).
pub fn block(tree: &Tree, rows: &[Row]) -> Block {
    let total = tree.axis.map(|(_, d)| duration_ms(d)).unwrap_or_else(|| MISSING.into());
    Block::Waterfall(Waterfall { lines: rows.iter().map(|r| r.line.clone()).collect(), total })
}

/// `show --timing`: the tree with every node open, folds closed (open with `--full`).
pub fn section(ctx: &Ctx) -> Section {
    let tree = &ctx.view.timing;
    let mut body: Vec<Block> = notes(&ctx.attempt.review.timing, tree).into_iter().map(Block::Line).collect();
    body.extend(unplaced_errors(tree, &ctx.attempt.review.diagnostics).into_iter().map(Block::Line));
    if !tree.nodes.is_empty() {
        let none = HashSet::new();
        let rows = rows(tree, Expand { toggled: &none, all_folds: ctx.sel.full || ctx.sel.timing_full });
        body.push(block(tree, &rows));
    }
    if ctx.sel.timing_full && !tree.nodes.is_empty() {
        body.push(Block::Blank);
        body.push(Block::Table(full_table(ctx)));
    }
    Section::new(TITLE, meta(tree), body)
}

/// `--timing=full`: every node with its id, start, duration, outcome and
/// parent, depth first (NiceEval's full timing columns).
pub fn full_table(ctx: &Ctx) -> super::blocks::Table {
    use super::blocks::{Column, Table};
    let tree = &ctx.view.timing;
    let ms = |x: Option<f64>| Text::plain(x.map(duration_ms).unwrap_or_else(|| MISSING.into()));
    let mut order = Vec::new();
    let mut stack: Vec<usize> = tree.roots.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        order.push(n);
        stack.extend(tree.nodes[n].children.iter().rev());
    }
    let rows = order
        .into_iter()
        .map(|n| {
            let node = &tree.nodes[n];
            let soft =
                |s: Option<String>| Text::toned(s.map(|s| clean(&s)).unwrap_or_else(|| MISSING.into()), Tone::Soft);
            vec![
                soft(name_of(ctx, n)),
                soft(phase_of(ctx, node).as_str().map(str::to_string)),
                Text::plain(clean(&node.label)),
                ms(node.start_ms),
                ms(node.duration_ms),
                Text::plain(node.outcome.as_deref().map(clean).unwrap_or_else(|| MISSING.into()))
                    .with_text(outcome_mark(node)),
                soft(node.parent.and_then(|p| name_of(ctx, p))),
            ]
        })
        .collect();
    Table {
        columns: vec![
            Column::cut("id"),
            Column::fixed("phase"),
            Column::cut("label"),
            Column::right("start"),
            Column::right("took"),
            Column::fixed("outcome"),
            Column::cut("parent"),
        ],
        rows,
        floor: Vec::new(),
    }
}

/// The id a node is known by (its label when the file gives it none).
fn name_of(ctx: &Ctx, n: usize) -> Option<String> {
    let tree = &ctx.view.timing;
    let node = tree.nodes.get(n)?;
    Some(tree.id(&ctx.attempt.review.timing, n).map(str::to_string).unwrap_or_else(|| node.label.clone()))
}

/// The phase a node is listed with: the interval's, or `otel.<kind>` for a span.
fn phase_of(ctx: &Ctx, node: &Node) -> Value {
    match node.source {
        Source::Interval(i) => ctx.attempt.review.timing.intervals[i].phase.clone().into(),
        Source::Span(_) => format!("otel.{}", node.kind).into(),
    }
}

/// One node as `show --json` lists it.
pub fn node_json(ctx: &Ctx, n: usize) -> Value {
    let tree = &ctx.view.timing;
    let node = &tree.nodes[n];
    let num = |x: Option<f64>| x.map(number).unwrap_or(Value::Null);
    json!({
        "id": tree.id(&ctx.attempt.review.timing, n),
        "label": node.label,
        "phase": phase_of(ctx, node),
        "source": match node.source { Source::Interval(_) => "timing", Source::Span(_) => "otel-trace" },
        "startOffsetMs": num(node.start_ms),
        "durationMs": num(node.duration_ms),
        "parent": node.parent.and_then(|p| name_of(ctx, p)),
        "outcome": node.outcome,
        "failed": node.failed,
        "executionError": node.execution_error.and_then(|d| ctx.attempt.review.diagnostics.get(d)).map(|d| {
            json!({"phase": d.phase, "code": d.code, "message": d.message})
        }),
        "command": node.command,
    })
}

/// Every node, depth first in axis order: `show --json`'s `timing`.
pub fn json(ctx: &Ctx) -> Value {
    Value::Array(json_nodes(ctx).collect())
}

/// The nodes of [`json`] one at a time, depth first.
pub fn json_nodes<'a>(ctx: &'a Ctx) -> impl Iterator<Item = Value> + 'a {
    let tree = &ctx.view.timing;
    let mut stack: Vec<usize> = tree.roots.iter().rev().copied().collect();
    std::iter::from_fn(move || {
        let n = stack.pop()?;
        stack.extend(tree.nodes[n].children.iter().rev());
        Some(node_json(ctx, n))
    })
}

const W: usize = 9;

/// The inspector's page for a node: what it is, when, how long, how it ended.
pub fn detail(ctx: &Ctx, n: usize) -> Vec<Block> {
    let tree = &ctx.view.timing;
    let Some(node) = tree.nodes.get(n) else { return Vec::new() };
    // Offsets read as durations do ("27ms", "1.2s"), on every surface.
    let ms = |x: Option<f64>| x.map(duration_ms).unwrap_or_else(|| MISSING.into());
    let mut b = vec![
        kv("label", W, node_label(tree, node)),
        kv("kind", W, Text::plain(kind_word(node))),
        kv("duration", W, Text::plain(node.duration_ms.map(duration_ms).unwrap_or_else(|| MISSING.into()))),
        kv("start", W, Text::plain(ms(node.start_ms))),
        kv("end", W, Text::plain(ms(node.end_ms()))),
    ];
    if let (Some(d), Some((_, total))) = (node.duration_ms, tree.axis.filter(|(_, t)| *t > 0.0)) {
        // A share that rounds to 0% is not none: say it is under a tenth.
        let share = if d > 0.0 && d / total < 0.0005 { "< 0.1%".to_string() } else { percent(d / total) };
        b.push(kv("share", W, Text::plain(format!("{share} of the attempt's {}", duration_ms(total)))));
    }
    let mut outcome = match node.outcome.as_deref() {
        Some(o) => Text::plain(clean(o)).with_text(outcome_mark(node)),
        None => Text::toned(format!("{MISSING} (not recorded)"), Tone::Soft).with_text(outcome_mark(node)),
    };
    // The interval may say completed while an error is recorded in its phase: both are said.
    let errors: Vec<&Diagnostic> = match node.execution_error.and_then(|d| ctx.attempt.review.diagnostics.get(d)) {
        Some(d) => {
            super::errored::execution_errors(ctx.attempt).filter(|(_, x)| x.phase == d.phase).map(|(_, x)| x).collect()
        }
        None => Vec::new(),
    };
    if !errors.is_empty() {
        let said = match node.outcome.as_deref() {
            Some(o) => format!("the interval says {}", clean(o)),
            None => "the interval records no outcome".into(),
        };
        outcome = Text::toned("! errored", errored_tone())
            .with(format!(" (an execution error is recorded in its phase; {said})"), Tone::Soft);
    }
    b.push(kv("outcome", W, outcome));
    for x in errors {
        b.push(kv("error", W, super::errored::execution_line(x)));
    }
    let parent = node.parent.and_then(|p| tree.nodes.get(p)).map(|p| Text::plain(clean(&p.label)));
    b.push(kv("parent", W, parent.unwrap_or_else(|| Text::toned("— (top level)", Tone::Soft))));
    if !node.children.is_empty() {
        b.push(kv("children", W, Text::plain(count(node.children.len(), "node", "nodes"))));
    }
    match node.source {
        Source::Interval(_) => {
            let id = tree.id(&ctx.attempt.review.timing, n).map(clean).unwrap_or_else(|| MISSING.into());
            b.push(kv("id", W, Text::plain(id)));
            b.push(kv("source", W, Text::plain("the attempt's timing intervals")));
            b.extend(command_here(ctx, node));
        }
        Source::Span(s) => {
            let span = &tree.spans[s];
            b.push(kv("span", W, Text::plain(clean(&span.span_id))));
            b.push(kv("trace", W, Text::plain(clean(&span.trace_id))));
            b.push(kv("source", W, Text::plain("the OTel trace")));
            b.extend(placement(tree).map(Block::Line));
        }
    }
    b
}

/// The sandbox command an interval times, as its card says it (the Commands tab has it whole).
fn command_here(ctx: &Ctx, node: &crate::model::timing::Node) -> Option<Block> {
    let placed = super::commands::placed(ctx);
    let p = placed.get(node.command?.checked_sub(1)?)?;
    let body = vec![
        Block::Line(super::commands::card_meta(p)),
        Block::Line(super::commands::line_text(p.command, super::commands::LINE_CHARS)),
        Block::Line(Text::toned(
            format!("the Commands tab ({}) has its streams", super::keys::panel_key(super::panel::Panel::Commands)),
            Tone::Soft,
        )),
    ];
    Some(Block::Section(super::blocks::Section::new(super::commands::card_title(p), Text::new(), body)))
}

/// The inspector's page for a fold: what it holds.
pub fn fold_detail(ctx: &Ctx, nodes: &[usize], short: bool) -> Vec<Block> {
    let tree = &ctx.view.timing;
    let total: f64 = nodes.iter().filter_map(|&n| tree.nodes.get(n)?.duration_ms).sum();
    let why = if short {
        "consecutive siblings each under 1% of the attempt"
    } else {
        "consecutive siblings of one kind and label"
    };
    let mut b = vec![
        kv("folded", W, Text::plain(super::waterfall::fold_label(tree, nodes, short))),
        kv("why", W, Text::toned(why, Tone::Soft)),
        kv("total", W, Text::plain(duration_ms(total))),
        Block::Blank,
    ];
    for &n in nodes {
        let node = &tree.nodes[n];
        let d = node.duration_ms.map(duration_ms).unwrap_or_else(|| MISSING.into());
        b.push(Block::Line(Text::plain(format!("{d:>7}  ")).with_text(node_label(tree, node))));
    }
    b
}

/// What the selected row is, as the inspector's title.
pub fn row_title(ctx: &Ctx, target: &Target) -> String {
    let tree = &ctx.view.timing;
    match target {
        Target::Node(n) => format!("Timing · {}", tree.nodes.get(*n).map(|x| clean(&x.label)).unwrap_or_default()),
        Target::Fold { nodes, short } => format!("Timing · {}", super::waterfall::fold_label(tree, nodes, *short)),
    }
}
