//! `--hitl`: every `input.requested`, its answer (from the next turn's
//! `input.responses`) and the tool lifecycle it gated — all read from the
//! core's [`hitl_requests`](crate::model::hitl::hitl_requests).

use super::blocks::{Block, Section, kv};
use super::context::{Ctx, lifecycle_text, status_text};
use super::format::count;
use super::preview::preview_head;
use super::text::{Text, Tone, clean, clean_owned};
use super::verdict::{row_status_mark, row_status_tone};
use crate::model::document::Attempt;
use crate::model::hitl::{Answer, HitlRequest, HitlState};
use crate::model::occurrence::{Lifecycle, Occurrence};
use crate::model::timeline::request_status;
use serde_json::Value;

const W: usize = 8;

/// The word of a request's state.
pub fn state_word(state: &HitlState) -> &'static str {
    match state {
        HitlState::Waiting => "waiting",
        HitlState::Answered { .. } => "answered",
        HitlState::NeverAnswered { .. } => "never answered",
        HitlState::Unanswered { .. } => "unanswered",
        HitlState::AnswerNotRecorded { .. } => "answer not recorded",
    }
}

/// Mark and word of a request's state: `⏸ waiting`, `✓ answered`,
/// `! never answered`, `! unanswered`.
pub fn request_state_text(state: &HitlState) -> Text {
    let status = request_status(state);
    Text::toned(format!("{} {}", row_status_mark(status), state_word(state)), row_status_tone(status))
}

/// What an answer chose: `option approve (Allow)`, `text "…"`.
pub fn answer_words(answer: &Answer) -> String {
    match answer {
        Answer::Option { id, label: Some(l) } => format!("option {} ({})", clean(id), clean(l)),
        Answer::Option { id, label: None } => format!("option {}", clean(id)),
        Answer::Text(t) if t.is_empty() => "an empty answer (no optionId, no text)".into(),
        Answer::Text(t) => format!("text \"{}\"", clean_owned(preview_head(t))),
    }
}

/// One `input.responses` entry as written: `approve-rm-1 → approve`, `id → "text"`.
pub fn answer_text(response: &Value) -> String {
    let id = response.get("requestId").and_then(Value::as_str).map(clean).unwrap_or_else(|| "?".into());
    match (response.get("optionId").and_then(Value::as_str), response.get("text").and_then(Value::as_str)) {
        (Some(o), _) => format!("{id} → {}", clean(o)),
        (None, Some(t)) => format!("{id} → \"{}\"", clean_owned(preview_head(t))),
        _ => format!("{id} → ?"),
    }
}

/// A request in one line: `id · what it asks [option / option] → the answer`.
pub fn request_line(r: &HitlRequest) -> Text {
    let mut s = Text::new();
    if let Some(id) = r.id.as_deref() {
        s.push(format!("{} · ", clean(id)), Tone::Accent);
    }
    let ask = r.display.as_deref().or(r.prompt.as_deref()).or(r.action.as_deref());
    match ask {
        Some(a) => s.push(clean_owned(preview_head(a)), Tone::Plain),
        None => s.push("(no prompt)", Tone::Soft),
    };
    if !r.options.is_empty() {
        let ids: Vec<String> = r.options.iter().map(|(id, _)| clean(id)).collect();
        s.push(format!(" [{}]", ids.join(" / ")), Tone::Soft);
    }
    if let HitlState::Answered { answer, .. } = &r.state {
        s.push(format!(" → {}", answer_words(answer)), Tone::Good);
    }
    s
}

/// What the state line adds after the state word.
fn state_detail(ctx: &Ctx, r: &HitlRequest) -> Text {
    match &r.state {
        HitlState::Waiting => Text::toned(" — the turn is waiting and no later turn answers it", Tone::Soft),
        HitlState::Answered { answer, turn } => {
            let what = answer_words(answer);
            Text::plain(format!(" in {} with {what}", super::address::turn_title(ctx.attempt, ctx.derived, *turn)))
        }
        HitlState::NeverAnswered { next } => {
            let next_label = ctx.turn_title(*next);
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
        HitlState::AnswerNotRecorded { next } => {
            let after = match next {
                Some(t) => format!("; {} followed it", ctx.turn_title(*t)),
                None => String::new(),
            };
            Text::toned(
                format!(" — this file keeps no answers (a Record stores no input.responses){after}"),
                Tone::Soft,
            )
        }
    }
}

/// `name id started t:e → status at t:e (verdict)` for one gated call.
fn gated_text(a: &Attempt, o: &Occurrence, state: &HitlState) -> Text {
    let mut t = Text::plain(format!(
        "{} {} started at {}:{} → ",
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
        _ => t.append(lifecycle_text(a, o)),
    }
    t
}

/// The request event as written (for `--grep` and to count its options).
fn raw_request(ctx: &Ctx, r: &HitlRequest) -> Value {
    ctx.attempt
        .sessions
        .get(r.addr.session)
        .and_then(|s| s.turns.get(r.addr.turn))
        .and_then(|t| t.turn.events.get(r.event))
        .and_then(|e| e.request())
        .map(|r| r.to_value().into_owned())
        .unwrap_or(Value::Null)
}

/// An input request's id or options from a Record's conversation, which
/// keeps only the prompt (`o11y/record/runner-producer.ts`): not absent.
pub const NOT_KEPT: &str = "not recorded (a Record keeps only an input request's prompt)";

/// Everything known about one input request: what it asked, its state and
/// answer, and the tool calls it gated.
pub fn request_detail(ctx: &Ctx, r: &HitlRequest) -> Vec<Block> {
    let raw = raw_request(ctx, r);
    let mut b = Vec::new();
    let mut st_text = request_state_text(&r.state);
    st_text.append(state_detail(ctx, r));
    b.push(kv("state", W, st_text));
    b.push(kv(
        "id",
        W,
        match r.id.as_deref() {
            Some(id) => Text::plain(clean(id)),
            None if ctx.attempt.from_record_conversation => Text::toned(format!("— {NOT_KEPT}"), Tone::Soft),
            None => Text::toned("— (no stable id)", Tone::Warn),
        },
    ));
    b.push(kv("asked at", W, Text::plain(format!("{} ({})", ctx.at(r.addr, Some(r.event)), ctx.turn_title(r.addr)))));
    for (key, v) in [("action", &r.action), ("prompt", &r.prompt), ("display", &r.display)] {
        if let Some(v) = v {
            b.push(kv(key, W, Text::plain(ctx.line_text(v))));
        }
    }
    if let Some(input) = &r.input {
        b.push(ctx.field(
            Text::toned(crate::model::text::fit("input", W), Tone::Soft).with("  ", Tone::Plain),
            Text::new(),
            input,
        ));
    }
    // Options without a string id cannot be answered; the core keeps only the others.
    let written = raw.get("options").and_then(Value::as_array).map_or(0, Vec::len);
    let without_id = written.saturating_sub(r.options.len());
    if r.options.is_empty() && written == 0 && ctx.attempt.from_record_conversation {
        b.push(kv("options", W, Text::toned(format!("— {NOT_KEPT}"), Tone::Soft)));
    } else if r.options.is_empty() && written == 0 {
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
            t.push(format!(" (+{without_id} without an id)"), Tone::Warn);
        }
        b.push(kv("options", W, t));
    }
    let occ = |i: usize| ctx.derived.occurrences.occurrences.get(i);
    let primary = r.primary_gated(ctx.attempt, ctx.derived);
    let gate = match primary.and_then(occ) {
        Some(o) => gated_text(ctx.attempt, o, &r.state),
        None if r.gated.is_empty() => Text::toned("— (no tool call pending when it was asked)", Tone::Soft),
        None => Text::toned("— (several tool calls pending; none named by the request)", Tone::Soft),
    };
    b.push(kv("gated", W, gate));
    // Every other call pending when it was asked.
    for o in r.gated.iter().filter(|&&i| Some(i) != primary).filter_map(|&i| occ(i)) {
        b.push(kv("pending", W, gated_text(ctx.attempt, o, &r.state)));
    }
    b
}

/// What a request without an id reads as: a Record keeps no id to show.
fn missing_id(ctx: &Ctx) -> String {
    if ctx.attempt.from_record_conversation { "(id not recorded)" } else { "(no id)" }.into()
}

/// "turn 2 approve-rm-1": the title of a request.
pub fn request_title(ctx: &Ctx, r: &HitlRequest) -> String {
    format!("{} {}", ctx.turn_title(r.addr), r.id.as_deref().map(clean).unwrap_or_else(|| missing_id(ctx)))
}

/// One list row: state, where it was asked, its id, what it asks and the answer.
pub fn request_row(ctx: &Ctx, r: &HitlRequest) -> Vec<Text> {
    let id = r.id.as_deref().map(clean).unwrap_or_else(|| missing_id(ctx));
    let mut line = Text::new();
    let ask = r.display.as_deref().or(r.prompt.as_deref()).or(r.action.as_deref());
    line.push(ask.map(|a| clean_owned(preview_head(a))).unwrap_or_else(|| "(no prompt)".into()), Tone::Plain);
    match &r.state {
        HitlState::Answered { answer, .. } => line.push(format!(" → {}", answer_words(answer)), Tone::Good),
        HitlState::Waiting => line.push(" → waiting for an answer", Tone::Hitl),
        _ => &mut line,
    };
    vec![
        request_state_text(&r.state),
        Text::toned(ctx.at(r.addr, Some(r.event)), Tone::Soft),
        Text::toned(crate::model::text::middle_ellipsis(&id, 18), Tone::Accent),
        line,
    ]
}

/// The columns of the request list.
pub fn list_columns() -> Vec<super::blocks::Column> {
    use super::blocks::Column;
    vec![Column::fixed("state"), Column::fixed("asked at"), Column::fixed("id"), Column::cut("asks → answer")]
}

/// `--hitl`: every request, its answer and the tool calls it gated.
pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut n = 0usize;
    for r in &ctx.view.requests {
        if !ctx.turn_selected(r.addr) || !ctx.grep(|| serde_json::to_string(&raw_request(ctx, r)).unwrap_or_default()) {
            continue;
        }
        n += 1;
        body.push(Block::Section(Section::new(
            request_title(ctx, r),
            request_state_text(&r.state),
            request_detail(ctx, r),
        )));
    }
    if n == 0 {
        body.push(Block::Line(Text::toned("No input requests.", Tone::Soft)));
    }
    Section::new("Human input (HITL)", Text::toned(count(n, "request", "requests"), Tone::Soft), body)
}
