//! `show --json`: the view as data. Every fact the text and the viewer state
//! — verdict, status, model, usage, costs, counts, turns and their rows,
//! tools, requests, assertions, findings, notices — with the same numbers,
//! addresses and words, so the surfaces cannot disagree.

use super::address::{event_address, turn_label, turn_number};
use super::assertions::{evidence_links, message, ordered, title};
use super::attempt::AttemptView;
use super::context::Ctx;
use super::findings::finding_place;
use super::hitl::{answer_words, state_word};
use super::report::Selection;
use super::summary::{Summary, UsageSource};
use super::timeline::{kind_word, turn_rows_iter};
use super::verdict::{row_status_word, scope_status_mark};
use crate::model::diagnostics::Finding;
use crate::model::document::{Attempt, Document, NoticeLevel};
use crate::model::event::{Pages, RELEASE_EVERY};
use crate::model::hitl::HitlState;
use crate::model::occurrence::{Lifecycle, Occurrence, OpaqueReason};
use crate::model::timeline::{RowStatus, tool_status_in};
use crate::model::usage::{Estimate, Usage, number};
use crate::model::verdict::assertion_outcome;
pub use niceeval_json::pretty::PrettyWriter;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The format name of `show --json`.
pub const FORMAT: &str = "niceeval-viewer.show/1";

/// The document as `show --json` prints it: the selected attempts.
pub fn document(doc: &Document, views: &[AttemptView], findings: &[Finding], sel: &Selection) -> Value {
    fn as_is(s: &str) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Borrowed(s)
    }
    let mut w = PrettyWriter::new(Vec::new(), as_is);
    // Writing to memory does not fail, and the writer writes JSON.
    let _ = write_document(doc, views, findings, sel, &mut w);
    serde_json::from_slice(&w.into_inner()).unwrap_or_default()
}

/// [`document`] written as it is made: a turn's rows, the tools, the
/// findings and the timing nodes one at a time, so the output of a million
/// events is never held whole (issue 37).
pub fn write_document<W: Write>(
    doc: &Document,
    views: &[AttemptView],
    findings: &[Finding],
    sel: &Selection,
    w: &mut PrettyWriter<W>,
) -> io::Result<()> {
    w.begin_object()?;
    w.field("format", &FORMAT)?;
    w.field("sources", &doc.sources)?;
    w.field("inputFormat", &doc.format)?;
    w.field("notices", &doc.notices.iter().map(notice_json).collect::<Vec<_>>())?;
    w.field("slotsNotRecorded", &doc.slots_not_recorded.iter().map(slot_json).collect::<Vec<_>>())?;
    w.key("attempts")?;
    w.begin_array()?;
    for ctx in Ctx::selected(doc, views, findings, sel) {
        write_attempt(&ctx, w)?;
    }
    w.end_array()?;
    w.end_object()
}

/// An array of `items`, each written and dropped.
fn write_each<W: Write>(w: &mut PrettyWriter<W>, items: impl Iterator<Item = Value>) -> io::Result<()> {
    write_releasing(w, items, &Pages::default())
}

/// [`write_each`] of items that read their events' text where it is: every
/// `RELEASE_EVERY` items, the pages read are handed back (a turn of a
/// million events is the whole file).
fn write_releasing<W: Write>(
    w: &mut PrettyWriter<W>,
    items: impl Iterator<Item = Value>,
    pages: &Pages,
) -> io::Result<()> {
    w.begin_array()?;
    for (i, item) in items.enumerate() {
        w.value(&item)?;
        if (i + 1) % RELEASE_EVERY == 0 {
            pages.release();
        }
    }
    w.end_array()
}

/// A slot a run expected that holds no attempt (NiceEval: not recorded).
pub fn slot_json(x: &crate::model::measure::SlotNotRecorded) -> Value {
    json!({"run": x.run_id, "experiment": x.experiment_id, "eval": x.eval_id, "attempt": x.attempt_number, "action": x.action})
}

/// The first number `show --json` would have to print that is not finite,
/// in words, with the attempt it belongs to. JSON has no infinity, and the
/// `null` serde_json would write reads as "not reported" (or "no model or
/// price"), so such a document is refused, as `derive` refuses its own.
pub fn not_finite(doc: &Document, views: &[AttemptView], findings: &[Finding], sel: &Selection) -> Option<String> {
    Ctx::selected(doc, views, findings, sel).find_map(|ctx| {
        let what = ctx.view.derived.not_finite().or_else(|| {
            let s = &ctx.view.summary;
            let bad = |x: Option<f64>| x.is_some_and(|x| !x.is_finite());
            if crate::model::usage::USAGE_FIELDS.into_iter().any(|f| bad(s.usage.get(f))) {
                Some("the attempt's usage".to_string())
            } else if bad(s.tokens()) {
                Some("the attempt's tokens (input + output)".to_string())
            } else if bad(s.observed.usd) || bad(s.estimate.total()) {
                Some("the attempt's cost".to_string())
            } else {
                None
            }
        })?;
        Some(format!("{}: {what}", ctx.view.summary.title()))
    })
}

pub fn notice_json(n: &crate::model::document::Notice) -> Value {
    let level = match n.level {
        NoticeLevel::Error => "error",
        NoticeLevel::Warning => "warning",
        NoticeLevel::Info => "note",
    };
    json!({"level": level, "message": super::notice::words(n)})
}

/// A number, or `null` when absent (never 0).
pub fn opt_num(x: Option<f64>) -> Value {
    x.map(number).unwrap_or(Value::Null)
}

/// A cost in USD as JSON, rounded to 9 decimal places (the finest precision
/// NiceEval's pricing profiles print): a float sum's noise
/// (`0.0007647999999999999`) is not a figure any input gave.
pub fn usd_num(x: Option<f64>) -> Value {
    x.map(|v| number(format!("{v:.9}").parse().unwrap_or(v))).unwrap_or(Value::Null)
}

fn usage_json(u: &Usage) -> Value {
    u.to_json()
}

fn write_attempt<W: Write>(ctx: &Ctx, w: &mut PrettyWriter<W>) -> io::Result<()> {
    w.begin_object()?;
    for (key, value) in attempt_head(ctx) {
        w.field(&key, &value)?;
    }
    w.key("turns")?;
    write_turns(ctx, w)?;
    w.key("tools")?;
    write_each(w, tools_json(ctx))?;
    w.field("orphanFinishes", &orphans_json(ctx))?;
    w.field("requests", &requests_json(ctx))?;
    w.field("assertions", &assertions_json(ctx))?;
    w.key("findings")?;
    write_each(w, findings_json(ctx))?;
    w.key("timing")?;
    write_each(w, super::timing::json_nodes(ctx))?;
    w.field("commands", &super::commands::json(ctx))?;
    w.field("source", &super::source::json(ctx))?;
    w.field("translation", &super::translation::json(ctx))?;
    w.field("fixPrompt", &super::fix_prompt::compose(ctx.attempt, &ctx.view.summary).ok())?;
    w.end_object()
}

/// The attempt's fields before its turns.
fn attempt_head(ctx: &Ctx) -> Map<String, Value> {
    let s = &ctx.view.summary;
    let a = ctx.attempt;
    let mut o = Map::new();
    o.insert("locator".into(), s.locator.clone().into());
    o.insert("experiment".into(), s.experiment.clone().into());
    o.insert("eval".into(), s.eval.clone().into());
    o.insert("attempt".into(), s.attempt_number.into());
    o.insert("title".into(), s.title().into());
    o.insert("verdict".into(), s.verdict.map(|v| v.as_str()).into());
    o.insert("status".into(), s.status.map(|v| v.as_str()).into());
    o.insert("headline".into(), s.headline.as_plain().into());
    o.insert("toReview".into(), s.to_review.into());
    o.insert("outcome".into(), a.outcome.clone().into());
    o.insert("model".into(), s.model.clone().into());
    o.insert("agent".into(), a.agent.clone().into());
    o.insert("score".into(), score_json(s));
    // NiceEval's figures (`durationMs`, `tokens`), with this viewer's own beside them where they differ.
    o.insert("startedAt".into(), a.started_at.clone().into());
    o.insert(
        "startedAtOf".into(),
        a.started_at.as_ref().map(|_| if a.started_at_is_run { "run" } else { "attempt" }).into(),
    );
    o.insert("capabilities".into(), super::header::capabilities_json(a));
    o.insert("durationMs".into(), opt_num(s.duration()));
    if let Some(d) = s.other_duration() {
        o.insert("viewerDurationMs".into(), opt_num(Some(d)));
    }
    // Missing, not zero, when the events were not recorded (as `counts` in words says).
    o.insert(
        "counts".into(),
        if s.counts_known() {
            json!({
                "sessions": s.sessions, "turns": s.turns, "events": s.events,
                "toolCalls": s.tool_calls, "orphanFinishes": s.orphan_finishes,
            })
        } else {
            Value::Null
        },
    );
    o.insert("usage".into(), usage_json(&s.usage));
    o.insert(
        "usageSource".into(),
        match s.usage_source {
            UsageSource::StatedByFile => "stated-by-file",
            UsageSource::Turns => "turns",
            UsageSource::None => "none",
        }
        .into(),
    );
    o.insert("tokens".into(), opt_num(s.tokens()));
    if let Some(why) = s.tokens_no_value() {
        o.insert("tokensNoValue".into(), why.into());
    }
    if let Some(p) = s.partial_tokens() {
        o.insert("partialTokens".into(), opt_num(Some(p)));
    }
    o.insert("observedCostUSD".into(), usd_num(s.observed.usd));
    o.insert("observedCostTurns".into(), json!({"reporting": s.observed.turns_reporting, "of": s.observed.turns}));
    o.insert("estimatedCostUSD".into(), usd_num(s.estimate.total()));
    o.insert("estimate".into(), estimate_json(s));
    o.insert("statedEstimatedCostUSD".into(), usd_num(s.stated_estimate));
    o.insert("waiting".into(), s.waiting.into());
    o.insert("error".into(), error_json(a));
    o.insert("erroredBecause".into(), super::errored::json(a));
    o.insert("firstFailure".into(), super::first_failure::json(ctx));
    o.insert(
        "notices".into(),
        super::header::attempt_notices(ctx.doc, ctx).into_iter().map(|(_, m)| Value::from(m)).collect(),
    );
    o
}

/// `{earned, points}`, or `null` when the attempt is not scored.
pub fn score_json(s: &Summary) -> Value {
    match s.score {
        Some((earned, points)) => json!({"earned": opt_num(earned), "points": opt_num(points)}),
        None => Value::Null,
    }
}

fn estimate_json(s: &Summary) -> Value {
    match &s.estimate {
        Estimate::Priced { total, hit, lines } => json!({
            "totalUSD": number(*total),
            "priceKey": hit.key,
            "lookup": hit.step.describe(),
            "fromOverride": hit.from_override,
            "lines": lines.iter().map(|l| json!({
                "bucket": l.bucket, "tokens": number(l.tokens), "perMTokUSD": number(l.rate),
                "rateFromInput": l.rate_from_input, "amountUSD": number(l.amount),
            })).collect::<Vec<_>>(),
        }),
        other => json!({"reason": super::summary::estimate_reason(other)}),
    }
    .as_object()
    .cloned()
    .map(|mut o| {
        o.insert("priceTable".into(), s.price_table.clone().into());
        Value::Object(o)
    })
    .unwrap_or(Value::Null)
}

/// The first execution error the attempt records: `{phase, message}`.
fn error_json(a: &Attempt) -> Value {
    match super::errored::execution_errors(a).next().map(|(_, d)| d) {
        Some(d) => json!({"phase": d.phase, "code": d.code, "message": d.message}),
        None => Value::Null,
    }
}

/// The selected turns, each with its rows written one at a time.
fn write_turns<W: Write>(ctx: &Ctx, w: &mut PrettyWriter<W>) -> io::Result<()> {
    let pages = ctx.attempt.pages();
    w.begin_array()?;
    for (st, addr) in ctx.addrs() {
        if !ctx.turn_selected(addr) {
            continue;
        }
        let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
            continue;
        };
        let d = ctx.derived.turn(addr);
        let head = json!({
            "turn": turn_number(ctx.derived, addr),
            "label": turn_label(ctx.attempt, addr),
            "session": d.map(|t| t.session_name.clone()),
            "status": record.turn.status,
            "statusMark": record.turn.status.as_deref().and_then(crate::model::verdict::ScopeStatus::parse).map(scope_status_mark),
            // Past a Record's item cap: not recorded (null), not 0.
            "events": (!record.past_item_cap).then_some(record.turn.events.len()),
            "toolCalls": d.filter(|_| !record.past_item_cap).map(|t| t.tool_calls),
            "usage": record.turn.usage.as_ref().map(usage_json),
            "durationMs": opt_num(record.duration_ms),
        });
        w.begin_object()?;
        for (key, value) in head.as_object().into_iter().flatten() {
            w.field(key, value)?;
        }
        w.key("rows")?;
        let rows = turn_rows_iter(ctx.attempt, ctx.view, st).filter(|(_, r)| ctx.grep(|| r.plain())).map(|(i, r)| {
            json!({
                "at": r.pos,
                "sourceLine": source_line(ctx, i),
                "kind": kind_word(r.kind),
                "summary": r.summary.as_plain(),
                "status": r.status.map(|s| s.as_plain()),
                "findings": r.flagged,
                "assertions": r.asserted,
            })
        });
        write_releasing(w, rows, &pages)?;
        w.end_object()?;
    }
    w.end_array()
}

/// The native line (log line or converter call number) timeline row `row`'s
/// event came from; `null` without provenance or event.
fn source_line(ctx: &Ctx, row: usize) -> Value {
    let Some(p) = ctx.attempt.provenance.as_deref() else { return Value::Null };
    let Some(r) = ctx.view.timeline.rows.get(row) else { return Value::Null };
    let line = r.event().and_then(|e| p.line_of((r.addr().session, r.addr().turn), e));
    line.map(|i| Value::from(p.lines[i].number)).unwrap_or(Value::Null)
}

/// NiceEval's status word of a lifecycle: pending, completed, failed,
/// rejected; an opaque one says why (`ambiguous`, `open`).
fn tool_status(a: &Attempt, o: &Occurrence) -> String {
    match &o.lifecycle {
        Lifecycle::Finished { status, .. } => status.to_string(),
        Lifecycle::Opaque { reason: OpaqueReason::MissingLifecycleEvidence } => "ambiguous".into(),
        other => match tool_status_in(a, other) {
            RowStatus::FinishNotRecorded => "finish-not-recorded".into(),
            s => row_status_word(s).split(' ').next().unwrap_or("").to_string(),
        },
    }
}

fn tools_json<'a>(ctx: &'a Ctx) -> impl Iterator<Item = Value> + 'a {
    let d = ctx.derived;
    let at = move |scope_turn: usize, event: usize| {
        d.turns.get(scope_turn).map(|t| event_address(t.turn_ordinal, Some(event))).unwrap_or_default()
    };
    d.occurrences.occurrences.iter().map(move |o| {
        json!({
            "name": o.original_name.as_str(),
            "canonical": o.canonical_name.as_deref(),
            "status": tool_status(ctx.attempt, o),
            "at": at(o.start_ref.scope_turn(), o.start_ref.event()),
            "finishedAt": o.finish_ref.map(|f| at(f.scope_turn(), f.event())),
            "callId": o.operation_id.as_str(),
            "session": o.session.as_str(),
            "occurrence": o.id(),
        })
    })
}

fn orphans_json(ctx: &Ctx) -> Value {
    ctx.derived
        .occurrences
        .orphan_finishes
        .iter()
        .map(|o| {
            json!({
                "callId": o.operation_id.as_str(),
                "status": o.status.as_str(),
                "at": format!("{}:{}", o.position.turn_ordinal, o.position.event_ordinal),
                "ambiguousId": o.ambiguous_id,
            })
        })
        .collect()
}

fn requests_json(ctx: &Ctx) -> Value {
    ctx.view
        .requests
        .iter()
        .map(|r| {
            let answer = match &r.state {
                HitlState::Answered { answer, .. } => Some(answer_words(answer)),
                _ => None,
            };
            json!({
                "id": r.id,
                "at": ctx.at(r.addr, Some(r.event)),
                "state": state_word(&r.state),
                "answer": answer,
                "prompt": r.prompt,
                "display": r.display,
                "action": r.action,
                // A Record keeps no options: null (not recorded), not an empty list.
                "options": if r.options.is_empty() && ctx.attempt.from_record_conversation {
                    Value::Null
                } else {
                    r.options.iter().map(|(id, label)| json!({"id": id, "label": label})).collect()
                },
            })
        })
        .collect()
}

fn assertions_json(ctx: &Ctx) -> Value {
    let Some(list) = &ctx.attempt.review.assertions else { return Value::Null };
    ordered(list)
        .into_iter()
        .map(|i| &list[i])
        .map(|a| {
            let outcome = assertion_outcome(a);
            let evidence: Vec<Value> = evidence_links(ctx.attempt, ctx.view, a)
                .iter()
                .map(|l| {
                    json!({
                        "id": l.evidence.as_ref().map(|r| &r.id),
                        "at": l.target.map(|t| super::assertions::target_at(ctx, t)),
                        "exact": l.target.map(|t| t.exact),
                        "inTranscript": l.target.map(|t| t.in_transcript()),
                    })
                })
                .collect();
            json!({
                "id": a.entry_id,
                "label": a.label,
                "title": title(ctx.attempt, a),
                "result": outcome.result_word(),
                "outcome": super::verdict::outcome_word(outcome),
                "decision": a.result,
                "gate": a.gate,
                "severity": super::verdict::severity(a),
                "points": super::verdict::points(a).map(|p| json!({"earned": opt_num(p.earned), "points": number(p.points)})),
                "requirement": a.requirement,
                "criterion": a.criterion,
                "message": message(a),
                "reason": a.reason,
                "coverage": super::verdict::coverage(a).map(|c| json!({
                    "state": c.state, "reason": c.reason, "omittedBytes": c.omitted_bytes,
                })),
                "evidence": evidence,
            })
        })
        .collect()
}

fn findings_json<'a>(ctx: &'a Ctx) -> impl Iterator<Item = Value> + 'a {
    ctx.findings().iter().map(|f| {
        let mut v = json!({
            "code": f.code,
            "severity": f.severity.as_str(),
            "at": finding_place(ctx.attempt, ctx.derived, f),
            "message": super::findings::message(f),
            "hint": f.hint(),
            "rule": super::rules::citation_of(f.code),
        });
        // A finding about the file itself: where in it, as `check --format json` says.
        if let Some(at) = f.input() {
            v["path"] = at.path.clone().into();
            v["line"] = at.line.into();
            v["column"] = at.column.into();
        }
        v
    })
}
