//! `--hitl`: every `input.requested`, its answer (from the next turn's
//! `input.responses`) and the tool lifecycle it gated.

use super::layout::{Block, Section, Text, Tone, clean, count, kv};
use super::view::{Ctx, RequestState, cut_count, one_line_value, request_state, status_text};
use crate::model::derive::TurnAddr;
use crate::model::event::EventKind;
use crate::model::occurrence::{Lifecycle, Occurrence};
use serde_json::Value;

const W: usize = 8;

/// The tool call a request gates: a session-scope occurrence started in the
/// request's turn and still open when the turn ended, preferring one whose
/// operation id the request id names.
fn gated<'a>(ctx: &Ctx<'a>, st: usize, addr: TurnAddr, request: &Value) -> Option<&'a Occurrence> {
    let ds = ctx.derived.sessions.get(addr.session)?;
    let open_after_turn: Vec<&Occurrence> = ds
        .occurrences
        .occurrences
        .iter()
        .filter(|o| o.start_ref.scope_turn == st)
        .filter(|o| o.finish_ref.is_none_or(|f| f.scope_turn != st))
        .collect();
    let id = request.get("id").and_then(Value::as_str).unwrap_or("");
    if !id.is_empty()
        && let Some(o) =
            open_after_turn.iter().find(|o| !o.operation_id.is_empty() && id.contains(o.operation_id.as_str()))
    {
        return Some(o);
    }
    let input = request.get("input");
    if let Some(o) = open_after_turn.iter().find(|o| input.is_some() && o.input.value() == input) {
        return Some(o);
    }
    (open_after_turn.len() == 1).then(|| open_after_turn[0])
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut n = 0usize;
    for (st, addr) in ctx.addrs() {
        if !ctx.turn_selected(addr) {
            continue;
        }
        let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
            continue;
        };
        for (ei, ev) in record.turn.events.iter().enumerate() {
            if !matches!(ev.kind, EventKind::InputRequested) {
                continue;
            }
            let req = ev.request().cloned().unwrap_or(Value::Null);
            if !ctx.grep(&serde_json::to_string(&req).unwrap_or_default()) {
                continue;
            }
            n += 1;
            let state = request_state(ctx.attempt, addr, &req);
            let s = |k: &str| req.get(k).and_then(Value::as_str).map(clean);
            let mut b = Vec::new();
            b.push(kv(
                "id",
                W,
                s("id").map(Text::plain).unwrap_or_else(|| Text::toned("— (no stable id)", Tone::Warn)),
            ));
            b.push(kv("asked at", W, Text::plain(format!("{} ({})", ctx.pos(st, Some(ei)), ctx.label(addr)))));
            for key in ["action", "prompt", "display"] {
                if let Some(v) = s(key) {
                    b.push(kv(key, W, Text::plain(cut_count(&v, ctx.limit()))));
                }
            }
            if let Some(input) = req.get("input") {
                b.push(kv("input", W, Text::plain(cut_count(&one_line_value(input), ctx.limit()))));
            }
            match req.get("options").and_then(Value::as_array) {
                Some(opts) if !opts.is_empty() => {
                    let list: Vec<String> = opts
                        .iter()
                        .map(|o| {
                            let id = o.get("id").and_then(Value::as_str).map(clean).unwrap_or_else(|| "?".into());
                            match o.get("label").and_then(Value::as_str) {
                                Some(l) => format!("{id} ({})", clean(l)),
                                None => id,
                            }
                        })
                        .collect();
                    b.push(kv("options", W, Text::plain(list.join(" · "))));
                }
                _ => b.push(kv("options", W, Text::toned("— (free text)", Tone::Soft))),
            }
            let mut st_text = state.short();
            match &state {
                RequestState::Waiting => {
                    st_text.push(" — the turn is waiting and no later turn answers it", Tone::Soft);
                }
                RequestState::Answered { turn, option, option_label, text } => {
                    let what = match (option, option_label, text) {
                        (Some(o), Some(l), _) => format!("option {} ({})", clean(o), clean(l)),
                        (Some(o), None, _) => format!("option {}", clean(o)),
                        (None, _, Some(t)) => format!("text \"{}\"", cut_count(&clean(t), ctx.limit())),
                        _ => "an answer without optionId or text".into(),
                    };
                    st_text.push(format!(" in {turn} with {what}"), Tone::Plain);
                }
                RequestState::NeverAnswered { reason } => {
                    st_text.push(format!(" — {reason}"), Tone::Soft);
                }
            }
            b.push(kv("state", W, st_text));
            let gate = match gated(ctx, st, addr, &req) {
                None => Text::toned("— (no open tool call in this turn)", Tone::Soft),
                Some(o) => {
                    let mut t = Text::plain(format!(
                        "{} {} started {}:{} → ",
                        clean(o.display_name()),
                        clean(&o.operation_id),
                        o.start.turn_ordinal,
                        o.start.event_ordinal
                    ));
                    match &o.lifecycle {
                        Lifecycle::Finished { status, finish } => {
                            t.append(status_text(status));
                            t.push(format!(" at {}:{}", finish.turn_ordinal, finish.event_ordinal), Tone::Plain);
                            let verdict = match (status.as_str(), &state) {
                                ("completed", RequestState::Answered { .. }) => " (approved → completed)",
                                ("rejected", RequestState::Answered { .. }) => " (denied → rejected)",
                                ("failed", _) => " (ran and failed)",
                                _ => "",
                            };
                            t.push(verdict, Tone::Soft);
                        }
                        Lifecycle::Pending => t.append(Text::toned("… pending", Tone::Soft)),
                        Lifecycle::Opaque { reason } => {
                            t.append(Text::toned(format!("? {}", reason.as_str()), Tone::Warn))
                        }
                    }
                    t
                }
            };
            b.push(kv("gated", W, gate));
            let title = format!("{} {}", ctx.label(addr), s("id").unwrap_or_else(|| "(no id)".into()));
            body.push(Block::Section(Section::new(title, state.short(), b)));
        }
    }
    if n == 0 {
        body.push(Block::Line(Text::toned("No input requests.", Tone::Soft)));
    }
    Section::new("Human input (HITL)", Text::toned(count(n, "request", "requests"), Tone::Soft), body)
}
