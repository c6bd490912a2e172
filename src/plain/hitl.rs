//! `--hitl`: every `input.requested`, its answer (from the next turn's
//! `input.responses`) and the tool lifecycle it gated — all read from the
//! core's [`hitl_requests`](crate::model::hitl::hitl_requests).

use super::layout::{Block, Section, Text, Tone, clean, count, kv};
use super::view::{Ctx, cut_count, lifecycle_text, one_line_value, request_text, status_text};
use crate::model::hitl::{Answer, HitlRequest, HitlState};
use crate::model::occurrence::{Lifecycle, Occurrence};
use serde_json::Value;

const W: usize = 8;

/// What the state line adds after the state word.
fn state_detail(ctx: &Ctx, r: &HitlRequest) -> Text {
    match &r.state {
        HitlState::Waiting => Text::toned(" — the turn is waiting and no later turn answers it", Tone::Soft),
        HitlState::Answered { answer, turn } => {
            let what = match answer {
                Answer::Option { id, label: Some(l) } => format!("option {} ({})", clean(id), clean(l)),
                Answer::Option { id, label: None } => format!("option {}", clean(id)),
                Answer::Text(t) if t.is_empty() => "an empty answer (no optionId, no text)".into(),
                Answer::Text(t) => format!("text \"{}\"", cut_count(&clean(t), ctx.limit())),
            };
            Text::plain(format!(" in {} with {what}", ctx.label(*turn)))
        }
        HitlState::NeverAnswered { next } => {
            let next_label = ctx.label(*next);
            let next_input_recorded = ctx
                .attempt
                .sessions
                .get(next.session)
                .and_then(|s| s.turns.get(next.turn))
                .is_some_and(|t| t.input.is_some());
            let reason = if r.id.is_none() {
                format!("the request has no stable id, so no answer in {next_label} can refer to it")
            } else if !next_input_recorded {
                format!("the input of {next_label} was not recorded")
            } else {
                format!("{next_label} carries no response for this id")
            };
            Text::toned(format!(" — {reason}"), Tone::Soft)
        }
        HitlState::Unanswered { turn_status } => {
            let ended = match turn_status {
                Some(s) => format!("the turn ended {}", clean(s)),
                None => "the turn's status was not recorded".into(),
            };
            Text::toned(format!(" — no later turn in this session and {ended}, not waiting"), Tone::Soft)
        }
        HitlState::AnswerNotRecorded { .. } => Text::toned(" — the file keeps no answers (a Record)", Tone::Soft),
    }
}

/// `name id started t:e → status at t:e (verdict)` for one gated call.
fn gated_text(o: &Occurrence, state: &HitlState) -> Text {
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
            let verdict = match (&**status, state) {
                ("completed", HitlState::Answered { .. }) => " (approved → completed)",
                ("rejected", HitlState::Answered { .. }) => " (denied → rejected)",
                ("failed", _) => " (ran and failed)",
                _ => "",
            };
            t.push(verdict, Tone::Soft);
        }
        _ => t.append(lifecycle_text(o)),
    }
    t
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut n = 0usize;
    for r in &ctx.requests {
        if !ctx.turn_selected(r.addr) {
            continue;
        }
        let Some(st) = ctx.derived.scope_index(r.addr) else { continue };
        let raw = ctx
            .attempt
            .sessions
            .get(r.addr.session)
            .and_then(|s| s.turns.get(r.addr.turn))
            .and_then(|t| t.turn.events.get(r.event))
            .and_then(|e| e.request())
            .cloned()
            .unwrap_or(Value::Null);
        if !ctx.grep(&serde_json::to_string(&raw).unwrap_or_default()) {
            continue;
        }
        n += 1;
        let mut b = Vec::new();
        b.push(kv(
            "id",
            W,
            r.id.as_deref()
                .map(|id| Text::plain(clean(id)))
                .unwrap_or_else(|| Text::toned("— (no stable id)", Tone::Warn)),
        ));
        b.push(kv("asked at", W, Text::plain(format!("{} ({})", ctx.pos(st, Some(r.event)), ctx.label(r.addr)))));
        for (key, v) in [("action", &r.action), ("prompt", &r.prompt), ("display", &r.display)] {
            if let Some(v) = v {
                b.push(kv(key, W, Text::plain(cut_count(&clean(v), ctx.limit()))));
            }
        }
        if let Some(input) = &r.input {
            b.push(kv("input", W, Text::plain(cut_count(&one_line_value(input), ctx.limit()))));
        }
        // Options without a string id cannot be answered; the core keeps only the others.
        let written = raw.get("options").and_then(Value::as_array).map_or(0, Vec::len);
        let without_id = written.saturating_sub(r.options.len());
        if r.options.is_empty() && written == 0 {
            b.push(kv("options", W, Text::toned("— (free text)", Tone::Soft)));
        } else {
            let list: Vec<String> = r
                .options
                .iter()
                .map(|(id, label)| match label {
                    Some(l) => format!("{} ({})", clean(id), clean(l)),
                    None => clean(id),
                })
                .collect();
            let mut t = Text::plain(list.join(" · "));
            if without_id > 0 {
                t.push(format!(" (+{} without an id)", without_id), Tone::Warn);
            }
            b.push(kv("options", W, t));
        }
        let mut st_text = request_text(&r.state);
        st_text.append(state_detail(ctx, r));
        b.push(kv("state", W, st_text));
        let occ = |i: usize| ctx.derived.occurrences.occurrences.get(i);
        let primary = r.primary_gated(ctx.derived);
        let gate = match primary.and_then(occ) {
            Some(o) => gated_text(o, &r.state),
            None if r.gated.is_empty() => Text::toned("— (no tool call pending when it was asked)", Tone::Soft),
            None => Text::toned("— (several tool calls pending; none named by the request)", Tone::Soft),
        };
        b.push(kv("gated", W, gate));
        // Every other call pending when it was asked, as the viewer lists them.
        for o in r.gated.iter().filter(|&&i| Some(i) != primary).filter_map(|&i| occ(i)) {
            b.push(kv("pending", W, gated_text(o, &r.state)));
        }
        let title = format!("{} {}", ctx.label(r.addr), r.id.as_deref().map(clean).unwrap_or_else(|| "(no id)".into()));
        body.push(Block::Section(Section::new(title, request_text(&r.state), b)));
    }
    if n == 0 {
        body.push(Block::Line(Text::toned("No input requests.", Tone::Soft)));
    }
    Section::new("Human input (HITL)", Text::toned(count(n, "request", "requests"), Tone::Soft), body)
}
