//! `compare --json`: the comparison as data, with the numbers `show --json`
//! gives each attempt (its `verdict`, `locator`, `score`, `tokens`,
//! `observedCostUSD` as `costUSD`, `estimatedCostUSD`), so the two agree.

use super::{Cv, Sum, change_word, column_id, column_stats, pair_word, paired_by_word, side_word};
use crate::model::compare::Cell;
use crate::view::json::{notice_json, opt_num, score_json, usd_num};
use serde_json::{Map, Value, json};

/// The format name of `compare --json`.
pub const FORMAT: &str = "niceeval-viewer.compare/1";

pub fn document(c: &Cv) -> Value {
    let mut o = Map::new();
    o.insert("format".into(), FORMAT.into());
    o.insert(
        "sources".into(),
        c.sources
            .iter()
            .map(|s| {
                json!({
                    "side": side_word(s.side),
                    "paths": s.paths,
                    "inputFormat": s.format,
                    "attempts": s.attempts.len(),
                })
            })
            .collect(),
    );
    o.insert("notices".into(), c.doc.notices.iter().map(notice_json).collect());
    o.insert(
        "slotsNotRecorded".into(),
        c.slots_not_recorded
            .iter()
            .map(|(side, x)| {
                let mut v = crate::view::json::slot_json(x);
                v["source"] = side_word(*side).into();
                v
            })
            .collect(),
    );
    o.insert("pairedBy".into(), c.comparison.pairs.as_ref().map(|(by, _)| paired_by_word(*by)).into());
    o.insert("experiments".into(), experiments(c));
    o.insert("rows".into(), rows(c));
    if let Some((_, pairs)) = &c.comparison.pairs {
        let list: Vec<Value> = pairs
            .iter()
            .map(|p| {
                let row = p.before.or(p.after).map(|(r, _)| r).unwrap_or_default();
                let side = |at: Option<(usize, usize)>| match at {
                    Some((r, col)) => c.comparison.cell((r, col)).map_or(Value::Null, |cell| {
                        let mut v = cell_json(c, cell);
                        v["experiment"] = c.comparison.columns[col].experiment.clone().into();
                        v["eval"] = c.comparison.rows[r].eval.clone().into();
                        v
                    }),
                    None => Value::Null,
                };
                json!({
                    "eval": c.comparison.rows[row].eval,
                    "experiment": p.experiment,
                    "before": side(p.before),
                    "after": side(p.after),
                    "change": pair_word(p.class),
                })
            })
            .collect();
        o.insert("pairs".into(), list.into());
    }
    Value::Object(o)
}

fn sum_json(s: &Sum) -> Value {
    json!({"reporting": s.reporting, "of": s.of})
}

fn experiments(c: &Cv) -> Value {
    column_stats(c)
        .iter()
        .zip(&c.comparison.columns)
        .map(|(s, key)| {
            json!({
                "id": s.id,
                "letter": s.letter,
                "experiment": key.experiment,
                "source": side_word(key.side),
                "evals": s.evals,
                "decided": s.decided,
                "passed": s.passed,
                "evalPassRate": opt_num(s.eval_pass_rate()),
                // NiceEval's figures, over run slots (a carried attempt counts in each run that carries it).
                "attempts": s.slots.slots,
                "passRate": opt_num(s.pass_rate()),
                "passRateSlots": {"passed": s.slots.passed, "decided": s.slots.decided, "notRecorded": s.slots.not_recorded},
                "totalCostUSD": usd_num(s.total_cost.total),
                "totalCostReported": sum_json(&s.total_cost),
                "distinctAttempts": s.attempts,
                "tokens": opt_num(s.tokens.total),
                "tokensReported": sum_json(&s.tokens),
                "costUSD": usd_num(s.observed.total),
                "costReported": sum_json(&s.observed),
                "estimatedCostUSD": usd_num(s.estimated.total),
                "estimateReported": sum_json(&s.estimated),
            })
        })
        .collect()
}

fn rows(c: &Cv) -> Value {
    c.comparison
        .rows
        .iter()
        .map(|r| {
            let mut cells = Map::new();
            for (key, cell) in c.comparison.columns.iter().zip(&r.cells) {
                if let Some(cell) = cell {
                    cells.insert(column_id(key), cell_json(c, cell));
                }
            }
            json!({"eval": r.eval, "cells": cells, "change": change_word(r.change)})
        })
        .collect()
}

/// One attempt's figures, as `show --json` states them.
fn attempt_json(c: &Cv, i: usize) -> Value {
    let Some(s) = c.summary(i) else { return Value::Null };
    json!({
        "locator": s.locator,
        "attempt": s.attempt_number,
        "verdict": s.verdict.map(|v| v.as_str()),
        "status": s.status.map(|v| v.as_str()),
        "score": score_json(s),
        "tokens": opt_num(s.tokens()),
        "costUSD": usd_num(s.observed.usd),
        "observedCostTurns": {"reporting": s.observed.turns_reporting, "of": s.observed.turns},
        "estimatedCostUSD": usd_num(s.estimate.total()),
    })
}

/// A cell: its representative attempt's figures, with the eval's tally
/// and every attempt it holds.
fn cell_json(c: &Cv, cell: &Cell) -> Value {
    let mut v = attempt_json(c, cell.representative);
    if let Value::Object(o) = &mut v {
        o.insert("attempts".into(), cell.total.into());
        o.insert("passed".into(), cell.passed.into());
        o.insert("attemptList".into(), cell.attempts.iter().map(|&i| attempt_json(c, i)).collect());
    }
    v
}
