//! `--usage`: per turn, per session and total; absent is "—", never 0.
//! Then the estimate as a ledger, or why there is none.

use super::blocks::{Block, Column, Section, Table};
use super::context::Ctx;
use super::format::{number, opt_number, percent, usd};
use super::text::{Text, Tone, clean};
use crate::model::usage::{Estimate, Usage};

fn token_row(scope: Text, u: Option<&Usage>) -> Vec<Text> {
    let d = Usage::default();
    let u = u.unwrap_or(&d);
    vec![
        scope,
        Text::plain(opt_number(u.input_tokens)),
        Text::plain(opt_number(u.output_tokens)),
        Text::plain(opt_number(u.cache_read_tokens)),
        Text::plain(opt_number(u.cache_creation_tokens)),
        Text::plain(opt_number(u.reasoning_tokens)),
    ]
}

fn cost_row(scope: Text, u: Option<&Usage>) -> Vec<Text> {
    let d = Usage::default();
    let u = u.unwrap_or(&d);
    vec![
        scope,
        Text::plain(opt_number(u.requests)),
        Text::plain(u.cost_usd.map(usd).unwrap_or_else(|| "—".into())),
        Text::plain(u.cache_hit_ratio().map(percent).unwrap_or_else(|| "—".into())),
    ]
}

pub fn section(ctx: &Ctx) -> Section {
    let mut tokens = Table {
        columns: vec![
            Column::left("scope"),
            Column::right("input"),
            Column::right("output"),
            Column::right("cache read"),
            Column::right("cache creation"),
            Column::right("reasoning"),
        ],
        rows: Vec::new(),
        floor: vec![],
    };
    let mut costs = Table {
        columns: vec![
            Column::left("scope"),
            Column::right("requests"),
            Column::right("costUSD"),
            Column::right("cache hit"),
        ],
        rows: Vec::new(),
        floor: vec![],
    };
    let mut absent_turns = Vec::new();
    let multi_session = ctx.attempt.sessions.len() > 1;
    for (si, ds) in ctx.derived.sessions.iter().enumerate() {
        if !ctx.session_selected(si) {
            continue;
        }
        for (_, addr) in ctx.addrs().filter(|(_, a)| a.session == si) {
            if !ctx.turn_selected(addr) {
                continue;
            }
            let label = ctx.label(addr);
            if !ctx.grep(&label) {
                continue;
            }
            let u = ctx
                .attempt
                .sessions
                .get(addr.session)
                .and_then(|s| s.turns.get(addr.turn))
                .and_then(|r| r.turn.usage.as_ref());
            if u.is_none() {
                absent_turns.push(label.clone());
            }
            tokens.rows.push(token_row(Text::plain(label.clone()), u));
            costs.rows.push(cost_row(Text::plain(label), u));
        }
        if multi_session && ctx.sel.turn.is_none() {
            let name = Text::toned(format!("{} total", clean(&ds.name)), Tone::Bold);
            tokens.rows.push(token_row(name.clone(), Some(&ds.usage)));
            costs.rows.push(cost_row(name, Some(&ds.usage)));
        }
    }
    if ctx.sel.turn.is_none() && ctx.sel.session.is_none() {
        let name = Text::toned("attempt total", Tone::Bold);
        tokens.rows.push(token_row(name.clone(), Some(&ctx.derived.usage)));
        costs.rows.push(cost_row(name, Some(&ctx.derived.usage)));
        if let Some(r) = &ctx.attempt.reported_usage {
            let name = Text::toned("stated by file", Tone::Soft);
            tokens.rows.push(token_row(name.clone(), Some(r)));
            costs.rows.push(cost_row(name, Some(r)));
        }
    }
    let mut body = vec![Block::Table(tokens), Block::Blank, Block::Table(costs)];
    if !absent_turns.is_empty() {
        body.push(Block::Line(Text::toned(
            format!("! no usage reported for {} (shown as —, not 0)", absent_turns.join(", ")),
            Tone::Warn,
        )));
    }
    body.push(Block::Blank);
    body.push(Block::Section(estimate_section(ctx)));
    Section::new("Usage", Text::toned("absent = —", Tone::Soft), body)
}

fn estimate_section(ctx: &Ctx) -> Section {
    let d = ctx.derived;
    let mut body = Vec::new();
    let observed = match d.usage.cost_usd {
        Some(c) => format!("observed cost {} (reported costUSD; never mixed with the estimate)", usd(c)),
        None => "observed cost — (no costUSD reported)".into(),
    };
    body.push(Block::Line(Text::plain(observed)));
    let meta = match &d.estimate {
        Estimate::Priced { total, hit, lines } => {
            let src = if hit.from_override { "override".to_string() } else { "catalog".to_string() };
            body.push(Block::Line(Text::plain(format!(
                "model {} · price key {} ({src})",
                d.model.as_deref().map(clean).unwrap_or_else(|| "—".into()),
                clean(&hit.key)
            ))));
            let mut rows: Vec<Vec<Text>> = lines
                .iter()
                .map(|l| {
                    let mut rate = Text::plain(format!("× ${}/MTok", trim_rate(l.rate)));
                    if l.rate_from_input {
                        rate.push(" (input price)", Tone::Soft);
                    }
                    vec![
                        Text::plain(l.bucket),
                        Text::plain(number(l.tokens)),
                        rate,
                        Text::plain(format!("= ${:.6}", l.amount)),
                    ]
                })
                .collect();
            rows.push(vec![
                Text::toned("total", Tone::Bold),
                Text::new(),
                Text::new(),
                Text::toned(format!("= ${total:.6}"), Tone::Bold),
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
            if d.usage.reasoning_tokens.is_some() {
                body.push(Block::Line(Text::toned(
                    "reasoning tokens are inside output and are not priced twice",
                    Tone::Soft,
                )));
            }
            Text::plain(usd(*total))
        }
        other => {
            body.push(Block::Line(Text::toned(
                format!("no estimate: {}", other.reason().unwrap_or_default()),
                Tone::Soft,
            )));
            Text::toned("—", Tone::Soft)
        }
    };
    if let Some(r) = ctx.attempt.reported_estimate {
        body.push(Block::Line(Text::toned(format!("the file's own estimatedCostUSD: {}", usd(r)), Tone::Soft)));
    }
    Section::new("Estimate", meta, body)
}

fn trim_rate(r: f64) -> String {
    let s = format!("{r:.4}");
    let s = s.trim_end_matches('0');
    let s = s.strip_suffix('.').map(|x| format!("{x}.00")).unwrap_or_else(|| s.to_string());
    if s.split_once('.').is_some_and(|(_, f)| f.len() == 1) { format!("{s}0") } else { s }
}
