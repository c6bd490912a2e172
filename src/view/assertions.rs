//! `--assertions` and `--failures`, from `attempt.review.assertions`.
//! Unavailable is distinct from failed and from skipped, with its reason.

use super::blocks::{Block, Section, kv};
use super::context::{Ctx, Row, cut_count, detail_value, turn_rows, verdict_text};
use super::format::count;
use super::text::{Text, Tone, clean};
use super::timeline;
use crate::model::document::{Assertion, Attempt, Completeness, Fact};
use serde_json::Value;

const W: usize = 11;

/// True when the attempt failed, errored, or has a failing or unavailable gate.
pub fn attempt_fails(a: &Attempt) -> bool {
    crate::model::verdict::needs_review(a)
        || a.review.assertions.as_ref().is_some_and(|list| list.iter().any(assertion_fails))
}

fn assertion_fails(a: &Assertion) -> bool {
    a.is_failing_gate() || a.result.as_deref() == Some("errored")
}

/// The outcome a person reads, with mark and word.
pub fn outcome(a: &Assertion) -> Text {
    let gate = a.gate.as_deref();
    match (a.result.as_deref(), gate) {
        (Some("errored"), _) => Text::toned("! errored", Tone::Warn),
        (Some("unavailable"), _) | (_, Some("unavailable")) => Text::toned("? unavailable", Tone::Warn),
        (Some("mismatched"), Some("failed")) | (_, Some("failed")) => Text::toned("✗ failed", Tone::Bad),
        (Some("mismatched"), _) => Text::toned("✗ failed (not a gate)", Tone::Warn),
        (Some("not-applicable"), _) | (_, Some("not-applicable")) => Text::toned("– not applicable", Tone::Soft),
        (Some("matched"), _) | (_, Some("satisfied")) => Text::toned("✓ passed", Tone::Good),
        (Some(other), _) => Text::plain(clean(other)),
        (None, _) => Text::toned("— (no decision recorded)", Tone::Soft),
    }
}

fn title(a: &Assertion) -> String {
    let mut parts: Vec<String> = a.group_path.iter().map(|g| clean(g)).collect();
    parts.push(if a.label.is_empty() { "(unlabelled)".into() } else { clean(&a.label) });
    parts.join(" › ")
}

fn fact_lines(f: &Fact, ctx: &Ctx) -> Vec<String> {
    match f {
        Fact::Value(v) => detail_value(v, ctx),
        Fact::Text(t) => {
            if ctx.sel.full {
                crate::model::text::sanitize(t, crate::model::text::Lines::Multi)
                    .split('\n')
                    .map(str::to_string)
                    .collect()
            } else {
                vec![cut_count(&clean(t), ctx.limit())]
            }
        }
        Fact::Unavailable(r) => vec![format!("unavailable ({})", clean(r))],
        Fact::List(items) => {
            if items.is_empty() {
                return vec!["(empty list)".into()];
            }
            items
                .iter()
                .flat_map(|i| {
                    let lines = fact_lines(i, ctx);
                    lines.into_iter().enumerate().map(|(n, l)| if n == 0 { format!("- {l}") } else { format!("  {l}") })
                })
                .collect()
        }
        Fact::Fields(fields) => {
            if fields.is_empty() {
                return vec!["(no fields)".into()];
            }
            fields
                .iter()
                .flat_map(|(k, v)| {
                    let lines = fact_lines(v, ctx);
                    let k = clean(k);
                    lines
                        .into_iter()
                        .enumerate()
                        .map(move |(n, l)| if n == 0 { format!("{k}: {l}") } else { format!("  {l}") })
                        .collect::<Vec<_>>()
                })
                .collect()
        }
    }
}

fn fact_blocks(label: &str, f: &Fact, ctx: &Ctx) -> Vec<Block> {
    let tone = if matches!(f, Fact::Unavailable(_)) { Tone::Warn } else { Tone::Plain };
    let mut out = Vec::new();
    for (i, l) in fact_lines(f, ctx).into_iter().enumerate() {
        if i == 0 {
            out.push(kv(label, W, Text::toned(l, tone)));
        } else {
            out.push(kv("", W, Text::toned(l, tone)));
        }
    }
    out
}

fn assertion_text(a: &Assertion) -> String {
    format!(
        "{} {} {} {} {} {}",
        title(a),
        a.criterion.as_deref().unwrap_or(""),
        a.result.as_deref().unwrap_or(""),
        a.gate.as_deref().unwrap_or(""),
        a.reason.as_deref().unwrap_or(""),
        outcome(a).as_plain()
    )
}

pub fn assertion_section(a: &Assertion, ctx: &Ctx) -> Section {
    let mut b = Vec::new();
    b.push(kv("criterion", W, Text::plain(a.criterion.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    let mut decision = Text::plain(a.result.as_deref().map(clean).unwrap_or_else(|| "—".into()));
    if let Some(r) = &a.reason {
        decision.push(format!(" ({})", clean(r)), Tone::Soft);
    }
    b.push(kv("decision", W, decision));
    let gate = match a.gate.as_deref() {
        Some("failed") => Text::toned("failed", Tone::Bad),
        Some("unavailable") => Text::toned("unavailable", Tone::Warn),
        Some(g) => Text::plain(clean(g)),
        None => Text::toned("—", Tone::Soft),
    };
    let mut gate = gate;
    gate.push(
        format!(" · {}", a.requirement.as_deref().map(clean).unwrap_or_else(|| "requirement —".into())),
        Tone::Soft,
    );
    b.push(kv("gate", W, gate));
    for (label, f) in
        [("check", &a.check), ("expected", &a.expected), ("observed", &a.observed), ("explanation", &a.explanation)]
    {
        if let Some(f) = f {
            b.extend(fact_blocks(label, f, ctx));
        }
    }
    if let Some(v) = &a.checked_value {
        b.extend(fact_blocks("value", &Fact::Value(v.clone()), ctx));
    }
    Section::new(title(a), outcome(a), b)
}

/// Failing gates first, then the rest, each in source order.
fn ordered(list: &[Assertion]) -> Vec<&Assertion> {
    let mut v: Vec<(usize, &Assertion)> = list.iter().enumerate().collect();
    v.sort_by_key(|(i, a)| (!assertion_fails(a), a.source_order.unwrap_or(u64::MAX), *i));
    v.into_iter().map(|(_, a)| a).collect()
}

fn assertions_state(ctx: &Ctx) -> Option<Block> {
    match &ctx.attempt.review.assertions_state {
        Some(Completeness::Partial(why)) => Some(Block::Line(Text::toned(
            format!("! assertions are partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")),
            Tone::Warn,
        ))),
        Some(Completeness::NotRecorded) => Some(Block::Line(Text::toned("! assertions were not recorded", Tone::Warn))),
        _ => None,
    }
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    if let Some(b) = assertions_state(ctx) {
        body.push(b);
    }
    let Some(list) = &ctx.attempt.review.assertions else {
        body.push(Block::Line(Text::toned("unavailable: this input carries no assertion results", Tone::Soft)));
        return Section::new("Assertions", Text::toned("unavailable", Tone::Soft), body);
    };
    if list.is_empty() {
        body.push(Block::Line(Text::toned("No assertions (the eval declared none).", Tone::Soft)));
    }
    let mut shown = 0;
    for a in ordered(list) {
        if !ctx.grep(&assertion_text(a)) {
            continue;
        }
        shown += 1;
        body.push(Block::Section(assertion_section(a, ctx)));
    }
    let failing = list.iter().filter(|a| assertion_fails(a)).count();
    let mut meta = Text::toned(count(shown, "shown", "shown"), Tone::Soft);
    if failing > 0 {
        meta = Text::toned(format!("{failing} failing · "), Tone::Bad).with_text(meta);
    }
    Section::new("Assertions", meta, body)
}

/// An evidence reference found inside an assertion.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceRef {
    pub raw: String,
    pub session: String,
    pub turn: String,
    pub turn_ordinal: u64,
    pub event_ordinal: u64,
}

fn as_ref(v: &Value) -> Option<EvidenceRef> {
    let arr = v.as_array()?;
    let kind = arr.first()?.as_str()?;
    if !(kind == "niceeval.logical-tool-occurrence/1" || kind == "niceeval.assertion-event/1") || arr.len() != 5 {
        return None;
    }
    Some(EvidenceRef {
        raw: serde_json::to_string(v).unwrap_or_default(),
        session: arr[1].as_str()?.to_string(),
        turn: arr[2].as_str()?.to_string(),
        turn_ordinal: arr[3].as_u64()?,
        event_ordinal: arr[4].as_u64()?,
    })
}

/// Every occurrence / assertion-event id inside `v` (as arrays or as their JSON strings).
pub fn find_refs(v: &Value, out: &mut Vec<EvidenceRef>, depth: usize) {
    if depth > 64 {
        return;
    }
    if let Some(r) = as_ref(v) {
        if !out.contains(&r) {
            out.push(r);
        }
        return;
    }
    match v {
        Value::String(s) if s.starts_with("[\"niceeval.") => {
            if let Ok(parsed) = serde_json::from_str::<Value>(s) {
                find_refs(&parsed, out, depth + 1);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| find_refs(i, out, depth + 1)),
        Value::Object(o) => o.values().for_each(|i| find_refs(i, out, depth + 1)),
        _ => {}
    }
}

fn fact_refs(f: &Fact, out: &mut Vec<EvidenceRef>) {
    match f {
        Fact::Value(v) => find_refs(v, out, 0),
        Fact::Text(t) => find_refs(&Value::String(t.clone()), out, 0),
        Fact::List(items) => items.iter().for_each(|i| fact_refs(i, out)),
        Fact::Fields(fields) => fields.iter().for_each(|(_, v)| fact_refs(v, out)),
        Fact::Unavailable(_) => {}
    }
}

pub fn assertion_refs(a: &Assertion) -> Vec<EvidenceRef> {
    let mut out = Vec::new();
    find_refs(&a.raw, &mut out, 0);
    for v in [&a.checked_value, &a.receipt, &a.contribution].into_iter().flatten() {
        find_refs(v, &mut out, 0);
    }
    for f in [&a.check, &a.expected, &a.observed, &a.explanation].into_iter().flatten() {
        fact_refs(f, &mut out);
    }
    out
}

/// The timeline row an evidence reference points at.
pub fn resolve(ctx: &Ctx, r: &EvidenceRef) -> Option<Row> {
    let st = ctx
        .derived
        .turns
        .iter()
        .position(|t| t.session_name == r.session && t.turn_name == r.turn && t.turn_ordinal == r.turn_ordinal)
        .or_else(|| ctx.derived.turns.iter().position(|t| t.session_name == r.session && t.turn_name == r.turn))?;
    let addr = ctx.derived.turns.get(st)?.addr;
    let rows = turn_rows(ctx, st);
    let Some(e) = r.event_ordinal.checked_sub(1).map(|e| e as usize) else {
        return rows.into_iter().find(|row| row.event.is_none());
    };
    // A finish the core merged into its start row resolves to that row.
    let core = &ctx.view.timeline.rows;
    let cr = core.get(ctx.view.timeline.row_of_event(addr, e)?)?;
    let shown = if cr.merged_away {
        core.iter().find(|s| s.addr == addr && s.merged_finish == Some(e)).and_then(|s| s.event)?
    } else {
        e
    };
    rows.into_iter().find(|row| row.event == Some(shown))
}

pub fn failures_section(ctx: &Ctx) -> Section {
    let a = ctx.attempt;
    let mut b = Vec::new();
    b.push(kv("locator", W, Text::toned(a.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    b.push(kv("eval", W, Text::plain(a.eval_id.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    b.push(kv("verdict", W, verdict_text(a)));
    if let Some(s) = assertions_state(ctx) {
        b.push(s);
    }
    match &a.review.assertions {
        None => b.push(Block::Line(Text::toned(
            "assertions unavailable: this input carries no assertion results",
            Tone::Soft,
        ))),
        Some(list) => {
            let failing: Vec<&Assertion> = ordered(list)
                .into_iter()
                .filter(|x| assertion_fails(x))
                .filter(|x| ctx.grep(&assertion_text(x)))
                .collect();
            if failing.is_empty() {
                b.push(Block::Line(Text::toned("no failing assertion recorded", Tone::Soft)));
            }
            for x in failing {
                let mut s = assertion_section(x, ctx);
                let refs = assertion_refs(x);
                if !refs.is_empty() {
                    let mut rows = Vec::new();
                    let mut missing = Vec::new();
                    for r in &refs {
                        match resolve(ctx, r) {
                            Some(row) => rows.push(row),
                            None => missing.push(r.raw.clone()),
                        }
                    }
                    s.body.push(Block::Line(Text::toned("evidence", Tone::Soft)));
                    if !rows.is_empty() {
                        s.body.push(Block::Table(timeline::table(rows, ctx.sel.full)));
                    }
                    for m in missing {
                        s.body.push(Block::Line(Text::toned(
                            format!("! evidence {} is not in this file", clean(&m)),
                            Tone::Warn,
                        )));
                    }
                }
                b.push(Block::Section(s));
            }
        }
    }
    let title = super::header::title(ctx);
    Section::new(format!("FAILED {title}"), verdict_text(a), b)
}
