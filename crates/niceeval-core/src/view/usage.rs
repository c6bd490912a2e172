//! Usage per turn, session and attempt (absent is "—", never 0), and the
//! cost: the observed `costUSD` and the estimate as a ledger, never mixed.
//! One row builder for the viewer's Usage tab and `show --usage`; one cost
//! detail for the viewer's inspector and `show`'s Estimate section.

use super::blocks::{Block, Column, Section, Table, kv};
use super::context::Ctx;
use super::format::{compact, number, opt_number, opt_usd, percent, rate, usd};
use super::summary::{UsageSource, estimate_reason};
use super::text::{Text, Tone, clean};
use crate::model::usage::{Estimate, Usage};

/// What a usage row totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowScope {
    /// A turn (its scope index).
    Turn(usize),
    /// A session (its index).
    Session(usize),
    /// The sum over every turn.
    Total,
    /// The usage the file states for the whole attempt.
    Stated,
}

/// One row of a usage table.
#[derive(Debug, Clone)]
pub struct UsageRow {
    pub scope: RowScope,
    pub label: Text,
    /// `None`: the turn reported no usage at all.
    pub usage: Option<Usage>,
}

/// The rows of the usage table for the turns in scope: each turn, then each
/// session's sum (with several sessions), the total and the file's own.
pub fn rows(ctx: &Ctx, turns: &[usize], with_totals: bool) -> Vec<UsageRow> {
    let mut out = Vec::new();
    let several = ctx.attempt.sessions.len() > 1;
    for (si, ds) in ctx.derived.sessions.iter().enumerate() {
        let mut any = false;
        for &st in turns.iter().filter(|&&st| ctx.derived.turns.get(st).is_some_and(|t| t.addr.session == si)) {
            let addr = ctx.derived.turns[st].addr;
            let record = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn));
            let label = format!("turn {}", super::address::turn_ref(ctx.attempt, ctx.derived, addr));
            out.push(UsageRow {
                scope: RowScope::Turn(st),
                label: Text::plain(label),
                usage: record.and_then(|r| r.turn.usage),
            });
            any = true;
        }
        if with_totals && several && any {
            let label = Text::toned(format!("{} total", clean(&ds.name)), Tone::Bold);
            out.push(UsageRow { scope: RowScope::Session(si), label, usage: Some(ds.usage) });
        }
    }
    if with_totals {
        out.push(UsageRow {
            scope: RowScope::Total,
            label: Text::toned("turns total", Tone::Bold),
            usage: Some(ctx.derived.usage),
        });
        if let Some(r) = &ctx.attempt.reported_usage {
            out.push(UsageRow {
                scope: RowScope::Stated,
                label: Text::toned("stated by file", Tone::Accent),
                usage: Some(*r),
            });
        }
    }
    out
}

/// The token cells of a row: input, output, cache read, cache creation, reasoning.
pub fn token_cells(u: Option<&Usage>) -> Vec<Text> {
    let d = Usage::default();
    let u = u.unwrap_or(&d);
    [u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_creation_tokens, u.reasoning_tokens]
        .into_iter()
        .map(|x| Text::plain(opt_number(x)))
        .collect()
}

/// The cost cells of a row: requests, costUSD, cache hit ratio.
pub fn cost_cells(u: Option<&Usage>) -> Vec<Text> {
    let d = Usage::default();
    let u = u.unwrap_or(&d);
    vec![
        Text::plain(opt_number(u.requests)),
        Text::plain(opt_usd(u.cost_usd)),
        Text::plain(u.cache_hit_ratio().map(percent).unwrap_or_else(|| "—".into())),
    ]
}

/// The header of the token columns.
/// The first column of the usage tables: a turn, a session or the total.
pub const SCOPE_COLUMN: &str = "scope";

/// A turn's tokens as a bar beside its row, twelve cells for the attempt's
/// largest turn (at least one cell).
pub fn token_bar(tokens: f64, max: f64) -> Text {
    let n = if max > 0.0 { ((tokens / max) * 12.0).round() as usize } else { 0 };
    Text::toned(format!(" {}", "█".repeat(n.max(1))), Tone::Accent)
}

pub const TOKEN_COLUMNS: [&str; 5] = ["input", "output", "cache read", "cache write", "reasoning"];
/// The header of the cost columns.
pub const COST_COLUMNS: [&str; 3] = ["requests", "costUSD", "cache hit"];

/// The widths of the viewer's Usage list columns after the scope: the token
/// columns, then requests and costUSD.
pub const LIST_WIDTHS: [usize; 7] = [9, 8, 10, 11, 9, 8, 9];

/// How the viewer's Usage list fits `width` columns: the scope column's
/// width (its longest label, at most 16), how many of [`LIST_WIDTHS`] are
/// shown whole, and when some are not, the words that say so in the header
/// row (a column is never cut to a stub like `cac`).
pub fn list_layout(labels: &[&Text], width: usize) -> (usize, usize, Option<String>) {
    let label_w = labels.iter().map(|t| t.width()).chain([SCOPE_COLUMN.len()]).max().unwrap_or(0).min(16);
    let fits =
        |n: usize, note: usize| label_w + 1 + LIST_WIDTHS[..n].iter().map(|w| w + 1).sum::<usize>() + note <= width;
    if fits(LIST_WIDTHS.len(), 0) {
        return (label_w, LIST_WIDTHS.len(), None);
    }
    for shown in (0..LIST_WIDTHS.len()).rev() {
        let note = hidden_columns(LIST_WIDTHS.len() - shown);
        if fits(shown, crate::model::text::width(&note)) || shown == 0 {
            return (label_w, shown, Some(note));
        }
    }
    (label_w, 0, None)
}

/// "+4 more": the columns a narrow Usage list leaves out, said in its header
/// row (a wider panel or `show --usage` has them).
fn hidden_columns(n: usize) -> String {
    format!("+{n} more")
}

/// "4.0k": input + output tokens of a turn, for a bar or a dense list.
pub fn turn_tokens_short(u: Option<&Usage>) -> String {
    u.and_then(Usage::billable_tokens).map(compact).unwrap_or_else(|| "—".into())
}

/// `--usage`: tokens and costs per turn, session and attempt, then the estimate.
pub fn section(ctx: &Ctx) -> Section {
    let turns: Vec<usize> = ctx
        .addrs()
        .filter(|(_, a)| ctx.turn_selected(*a))
        .map(|(i, _)| i)
        .filter(|&i| ctx.grep(|| label_of(ctx, i)))
        .collect();
    let whole = ctx.sel.turn.is_none() && ctx.sel.session.is_none();
    let rows = rows(ctx, &turns, whole);
    let mut columns = vec![Column::left(SCOPE_COLUMN)];
    columns.extend(TOKEN_COLUMNS.iter().map(|h| Column::right(h)));
    let tokens = Table {
        columns,
        rows: rows.iter().map(|r| [vec![r.label.clone()], token_cells(r.usage.as_ref())].concat()).collect(),
        floor: vec![],
    };
    let mut columns = vec![Column::left(SCOPE_COLUMN)];
    columns.extend(COST_COLUMNS.iter().map(|h| Column::right(h)));
    let costs = Table {
        columns,
        rows: rows.iter().map(|r| [vec![r.label.clone()], cost_cells(r.usage.as_ref())].concat()).collect(),
        floor: vec![],
    };
    let mut body = vec![Block::Table(tokens), Block::Blank, Block::Table(costs)];
    let absent: Vec<String> = rows
        .iter()
        .filter(|r| matches!(r.scope, RowScope::Turn(_)) && r.usage.is_none())
        .map(|r| r.label.as_plain())
        .collect();
    if !absent.is_empty() {
        body.push(Block::Line(Text::toned(
            format!("! no usage reported for {} (shown as —, not 0)", absent.join(", ")),
            Tone::Warn,
        )));
    }
    body.push(Block::Blank);
    body.push(Block::Section(Section::new("Cost", cost_meta(ctx), cost_detail(ctx))));
    Section::new("Usage", Text::toned("absent = —", Tone::Soft), body)
}

fn label_of(ctx: &Ctx, st: usize) -> String {
    ctx.derived.turns.get(st).map(|t| super::address::turn_ref(ctx.attempt, ctx.derived, t.addr)).unwrap_or_default()
}

/// The estimate in a few characters, for a section's meta.
pub fn cost_meta(ctx: &Ctx) -> Text {
    let s = &ctx.view.summary;
    Text::plain(format!("observed {} · estimated {}", s.observed_short(), s.estimate_short()))
}

/// The observed cost, the estimate as a ledger (tokens × rate = amount) or
/// why there is none, which price table and key, and the cache hit ratio.
pub fn cost_detail(ctx: &Ctx) -> Vec<Block> {
    let s = &ctx.view.summary;
    let mut body = vec![kv("observed", 9, s.observed_long())];
    body.push(kv(
        "model",
        9,
        s.model.as_deref().map(|m| Text::plain(clean(m))).unwrap_or_else(|| Text::toned("— (use --model)", Tone::Soft)),
    ));
    match &s.estimate {
        Estimate::Priced { total, hit, lines } => {
            body.push(kv("estimated", 9, Text::plain(usd(*total))));
            body.push(kv("price key", 9, Text::plain(format!("{} ({})", clean(&hit.key), hit.step.describe()))));
            let mut rows: Vec<Vec<Text>> = lines
                .iter()
                .map(|l| {
                    let mut r = Text::plain(format!("× {}", rate(l.rate)));
                    if l.rate_from_input {
                        r.push(" (input price: no own rate)", Tone::Soft);
                    }
                    vec![
                        Text::plain(l.bucket),
                        Text::plain(number(l.tokens)),
                        r,
                        Text::plain(format!("= {}", usd(l.amount))),
                    ]
                })
                .collect();
            rows.push(vec![
                Text::toned("total", Tone::Bold),
                Text::new(),
                Text::new(),
                Text::toned(format!("= {}", usd(*total)), Tone::Bold),
            ]);
            body.push(Block::Table(Table {
                columns: vec![
                    Column::left("bucket"),
                    Column::right("tokens"),
                    Column::fixed("rate"),
                    Column::right("amount"),
                ],
                rows,
                floor: vec![],
            }));
            body.push(Block::Line(reasoning_note(&s.usage)));
        }
        other => body.push(kv("estimated", 9, Text::toned(format!("— ({})", estimate_reason(other)), Tone::Soft))),
    }
    body.push(kv("prices", 9, Text::plain(s.price_table.clone())));
    if let Some(r) = s.stated_estimate {
        body.push(kv("NiceEval", 9, Text::plain(format!("estimatedCostUSD {} (stated by the file)", usd(r)))));
    }
    if s.usage_source == UsageSource::StatedByFile {
        body.push(Block::Line(Text::toned(
            "the estimate prices the usage the file states for the whole attempt",
            Tone::Soft,
        )));
    }
    body.push(kv("cache hit", 9, Text::plain(s.usage.cache_hit_ratio().map(percent).unwrap_or_else(|| "—".into()))));
    body
}

/// NiceEval counts reasoning inside output, so reasoning above output means
/// the file's counts disagree with that contract: say so rather than repeat it.
fn reasoning_note(u: &Usage) -> Text {
    match (u.reasoning_tokens, u.output_tokens) {
        (Some(r), Some(o)) if r > o => Text::toned(
            format!(
                "reasoning ({}) exceeds output ({}), though NiceEval counts reasoning inside output; requests are never priced",
                number(r),
                number(o)
            ),
            Tone::Warn,
        ),
        _ => Text::toned("reasoning tokens are inside output and requests are never priced", Tone::Soft),
    }
}
