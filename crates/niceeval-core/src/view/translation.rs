//! The translation: each native line (a log's line, a capture's converter
//! call) beside the events it became, worded once for `show --translation`,
//! `show --json` and the viewer's Translation tab.

use super::address::{event_address, turn_number};
use super::blocks::{Block, Column, Section, Table, kv_lines};
use super::context::Ctx;
use super::format::count;
use super::preview::value_preview;
use super::text::{Text, Tone, clean, clean_owned};
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::document::Attempt;
use crate::model::provenance::{DropReason, Origin, Provenance, SkipReason};
use crate::view::intent::Intent;
use crate::view::keys::key_for;
use serde_json::{Value, json};

/// A line preview keeps this many characters.
const PREVIEW_CHARS: usize = 300;
/// A line longer than this is previewed from its raw head, not parsed.
const PREVIEW_PARSES: usize = 1 << 20;

/// Why a line became nothing, in a few words (for a column).
pub fn drop_text(r: &DropReason) -> String {
    match r {
        DropReason::Skipped(SkipReason::NotJson(_)) => "not JSON".into(),
        DropReason::Skipped(SkipReason::Throws) => "parser throws".into(),
        DropReason::Skipped(SkipReason::Metadata) => "metadata".into(),
        DropReason::Skipped(SkipReason::Incomplete) => "incomplete item".into(),
        DropReason::Skipped(SkipReason::Delta) => "stream delta".into(),
        DropReason::Skipped(SkipReason::Unmapped(t)) => format!("unmapped {}", clean(t)),
        DropReason::Skipped(SkipReason::NoText) => "no text".into(),
        DropReason::Skipped(SkipReason::SkillResult) => "skill result".into(),
        DropReason::Skipped(SkipReason::NoShape) => "no type".into(),
        DropReason::ReadNoEvent => "usage/state only".into(),
        DropReason::ReturnedNothing => "returned nothing".into(),
    }
}

/// Why a line became nothing, in full (the inspector, `--json`).
pub fn drop_detail(r: &DropReason) -> String {
    match r {
        DropReason::Skipped(SkipReason::NotJson(e)) => {
            format!("not JSON ({}); NiceEval's parser skips it and reports parseSuccess false", clean(e))
        }
        DropReason::Skipped(SkipReason::Throws) => {
            "NiceEval's parser throws on this line and skips it; parseSuccess false".into()
        }
        DropReason::Skipped(SkipReason::Metadata) => {
            "session metadata or lifecycle, which NiceEval's parser does not read".into()
        }
        DropReason::Skipped(SkipReason::Incomplete) => {
            "an intermediate item state; the completed item is what counts".into()
        }
        DropReason::Skipped(SkipReason::Delta) => {
            "streaming text fragments; the whole text comes on another line".into()
        }
        DropReason::Skipped(SkipReason::Unmapped(t)) => {
            format!("type {:?}, which NiceEval's parser does not map", clean(t))
        }
        DropReason::Skipped(SkipReason::NoText) => "a message or reasoning line with no text".into(),
        DropReason::Skipped(SkipReason::SkillResult) => {
            "the result of a Skill tool use, already shown as skill.loaded".into()
        }
        DropReason::Skipped(SkipReason::NoShape) => "no type NiceEval's parser reads".into(),
        DropReason::ReadNoEvent => "read for usage or state, but made into no event".into(),
        DropReason::ReturnedNothing => "the converter call returned no event".into(),
    }
}

/// `line` for a log, `call` for a capture.
pub fn line_noun(p: &Provenance) -> &'static str {
    match p.origin {
        Origin::AgentLog { .. } => "line",
        Origin::ConverterCalls => "call",
    }
}

/// What the lines are, for a title.
pub fn origin_text(p: &Provenance) -> String {
    match &p.origin {
        Origin::AgentLog { agent, .. } => format!("{} log lines", clean(agent)),
        Origin::ConverterCalls => "recorded converter calls".into(),
    }
}

/// One native line as every surface shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LineRow {
    pub number: String,
    pub kind: String,
    /// One line, sanitised, cut.
    pub preview: String,
    /// The `N:i` addresses it became; empty when dropped.
    pub events: Vec<String>,
    /// Why it became nothing.
    pub dropped: Option<String>,
}

impl LineRow {
    /// The Translation tab's cells: number (right-aligned), became, what.
    pub fn list_cells(&self) -> Vec<Text> {
        vec![Text::plain(format!("{:>6}", self.number)), self.became(), self.what()]
    }

    /// `assistant  [{"type":"text",…`: the kind, then what the line carries.
    pub fn what(&self) -> Text {
        Text::plain(self.kind.clone()).with(format!("  {}", self.preview), Tone::Soft)
    }

    /// `→ 1:2 1:3` or `dropped: <reason>`.
    pub fn became(&self) -> Text {
        match &self.dropped {
            Some(why) => Text::toned(format!("dropped: {why}"), Tone::Soft),
            None => Text::plain(format!("→ {}", self.events.join(" "))),
        }
    }
}

/// The `N:i` address of event `event` of the turn at `addr`.
pub fn address(derived: &DerivedAttempt, addr: TurnAddr, event: usize) -> String {
    event_address(turn_number(derived, addr), Some(event))
}

/// Keys of a log line's envelope, which say nothing of what it carries.
const ENVELOPE: [&str; 14] = [
    "type",
    "parentUuid",
    "isSidechain",
    "userType",
    "cwd",
    "sessionId",
    "session_id",
    "version",
    "gitBranch",
    "uuid",
    "timestamp",
    "requestId",
    "parent_tool_use_id",
    // In the kind word already.
    "subtype",
];

/// What a line carries: its message's content, item, payload or call
/// arguments, else the line without its envelope.
fn carried(v: Value) -> Value {
    let Value::Object(mut o) = v else { return v };
    if let Some(mut m) = o.remove("message") {
        return m.get_mut("content").map(Value::take).unwrap_or(m);
    }
    for key in ["item", "payload"] {
        if let Some(mut x) = o.remove(key) {
            // Its type is in the kind word already.
            if let Some(x) = x.as_object_mut() {
                x.remove("type");
            }
            return x;
        }
    }
    // A converter call: what it was given (one frame, itself carried).
    match o.remove("args") {
        Some(Value::Array(mut args)) if args.len() == 1 && args[0].is_object() => return carried(args.remove(0)),
        Some(args) => return args,
        None => {}
    }
    for key in ENVELOPE {
        o.remove(key);
    }
    Value::Object(o)
}

/// The turn line `i`'s events went to.
pub fn turn_addr(p: &Provenance, i: usize) -> TurnAddr {
    let (session, turn) = p.turn_of(i);
    TurnAddr { session, turn }
}

/// A one-line preview of what line `i` carries (its raw head when it is
/// not JSON or very long).
pub fn preview(p: &Provenance, i: usize) -> String {
    let text = p.text(i);
    if text.len() <= PREVIEW_PARSES
        && let Ok(v) = serde_json::from_slice::<Value>(text)
    {
        let shown = value_preview(&carried(v));
        return clean_owned(match shown.char_indices().nth(PREVIEW_CHARS) {
            Some((at, _)) => format!("{}…", &shown[..at]),
            None => shown,
        });
    }
    let head = String::from_utf8_lossy(&text[..text.len().min(PREVIEW_CHARS)]);
    let cut = if text.len() > PREVIEW_CHARS { "…" } else { "" };
    clean_owned(format!("{head}{cut}"))
}

/// Line `i` as a row.
pub fn line_row(derived: &DerivedAttempt, p: &Provenance, i: usize) -> LineRow {
    let addr = turn_addr(p, i);
    LineRow {
        number: p.lines.get(i).map_or(String::new(), |l| l.number.to_string()),
        kind: clean(p.kind(i)),
        preview: preview(p, i),
        events: p.events(i).iter().map(|&e| address(derived, addr, e as usize)).collect(),
        dropped: p.dropped(i).map(drop_text),
    }
}

/// `line 12` / `call 3`: where event `event` of the turn at `addr` came from.
pub fn event_source(p: &Provenance, addr: TurnAddr, event: usize) -> Option<String> {
    let i = p.line_of((addr.session, addr.turn), event)?;
    Some(format!("{} {}", line_noun(p), p.lines[i].number))
}

/// The counts: lines, lines that made events, dropped lines by kind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Counts {
    pub lines: usize,
    pub producing: usize,
    pub events: usize,
    /// Dropped lines per kind word, most first (ties by kind).
    pub dropped: Vec<(String, usize)>,
}

pub fn counts(p: &Provenance) -> Counts {
    let mut dropped: Vec<(String, usize)> = Vec::new();
    let mut n_dropped = 0;
    for (i, _) in p.dropped_lines() {
        n_dropped += 1;
        let kind = p.kind(i);
        match dropped.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => dropped.push((kind.to_string(), 1)),
        }
    }
    dropped.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let events = (0..p.lines.len()).map(|i| p.events(i).len()).sum();
    Counts { lines: p.lines.len(), producing: p.lines.len() - n_dropped, events, dropped }
}

/// `24 lines · 18 made 30 events · 6 dropped (system init 2, summary 4)`.
pub fn counts_text(p: &Provenance) -> Text {
    let c = counts(p);
    let noun = line_noun(p);
    let mut t = Text::plain(format!(
        "{} · {} made {}",
        count(c.lines, noun, &format!("{noun}s")),
        c.producing,
        count(c.events, "event", "events")
    ));
    let total: usize = c.dropped.iter().map(|(_, n)| n).sum();
    if total > 0 {
        let by: Vec<String> = c.dropped.iter().map(|(k, n)| format!("{} {n}", clean(k))).collect();
        t.push(format!(" · {total} dropped ({})", by.join(", ")), Tone::Soft);
    }
    t
}

/// Turns whose lines became another number of events than the turn holds
/// (a capture whose calls and Turn disagree): the pairing is then suspect.
pub fn mismatches(attempt: &Attempt, derived: &DerivedAttempt, p: &Provenance) -> Vec<String> {
    let mut out = Vec::new();
    for ((session, turn), made) in p.turns() {
        let held = attempt.sessions.get(session).and_then(|s| s.turns.get(turn)).map(|t| t.turn.events.len());
        if held != Some(made) {
            let n = turn_number(derived, TurnAddr { session, turn });
            let held = held.map_or("no such turn".to_string(), |h| count(h, "event", "events"));
            out.push(format!(
                "turn {n}: its {}s made {} but the turn holds {held}; the pairing may be wrong",
                line_noun(p),
                count(made, "event", "events")
            ));
        }
    }
    out
}

/// `16 lines · 15 events · 1 dropped`: the counts for a panel title.
pub fn counts_brief(p: &Provenance) -> String {
    let c = counts(p);
    let noun = line_noun(p);
    let dropped: usize = c.dropped.iter().map(|(_, n)| n).sum();
    format!(
        "{} · {} · {dropped} dropped",
        count(c.lines, noun, &format!("{noun}s")),
        count(c.events, "event", "events")
    )
}

/// `show --translation`: a table of every line and what it became.
pub fn section(ctx: &Ctx) -> Section {
    let Some(p) = ctx.attempt.provenance.as_deref() else {
        let why = "no native lines: this input is not a native agent log or a capture with recorded converter calls";
        return Section::new("Translation", Text::new(), vec![Block::Line(Text::toned(why, Tone::Soft))]);
    };
    let mut rows = Vec::new();
    for i in 0..p.lines.len() {
        if !ctx.turn_selected(turn_addr(p, i)) {
            continue;
        }
        let row = line_row(ctx.derived, p, i);
        if !ctx.grep(|| format!("{} {} {} {}", row.number, row.kind, row.became().as_plain(), row.preview)) {
            continue;
        }
        rows.push(vec![Text::plain(row.number.clone()), row.became(), row.what()]);
    }
    let noun = line_noun(p);
    let columns = vec![Column::right(noun), Column::fixed("became"), Column::cut("kind · what it carries")];
    let mut body: Vec<Block> =
        mismatches(ctx.attempt, ctx.derived, p).into_iter().map(|m| Block::Line(Text::toned(m, Tone::Warn))).collect();
    body.push(Block::Table(Table { columns, rows, floor: vec![] }));
    Section::new(format!("Translation · {}", origin_text(p)), counts_text(p), body)
}

/// `show --json`'s `translation`: `null` without native lines.
pub fn json(ctx: &Ctx) -> Value {
    let Some(p) = ctx.attempt.provenance.as_deref() else { return Value::Null };
    let c = counts(p);
    let lines: Vec<Value> = (0..p.lines.len())
        .filter(|&i| ctx.turn_selected(turn_addr(p, i)))
        .map(|i| {
            let row = line_row(ctx.derived, p, i);
            let l = p.lines[i];
            json!({
                "line": l.number,
                "bytes": [l.start, l.start + l.len as u64],
                "kind": row.kind,
                "events": row.events,
                "dropped": p.dropped(i).map(|r| json!({"reason": row.dropped, "detail": drop_detail(r), "loss": r.is_loss()})),
            })
        })
        .collect();
    json!({
        "origin": match &p.origin { Origin::AgentLog { agent, .. } => json!({"agentLog": agent}), Origin::ConverterCalls => json!("converterCalls") },
        // Where `bytes` point: the file, its text with invalid UTF-8 read as U+FFFD, or the calls' JSON (one a line).
        "bytesIn": match &p.origin {
            Origin::AgentLog { repaired, .. } if *repaired || text_replaced(ctx) => "repairedText",
            Origin::AgentLog { .. } => "file",
            Origin::ConverterCalls => "callsJson",
        },
        "counts": {
            "lines": c.lines, "producing": c.producing, "events": c.events,
            "droppedByKind": c.dropped.iter().map(|(k, n)| json!({"kind": k, "lines": n})).collect::<Vec<_>>(),
        },
        "mismatches": mismatches(ctx.attempt, ctx.derived, p),
        "lines": lines,
    })
}

/// `from line 12 (assistant) · t or Enter: that line`: where a timeline
/// row's event came from, for the inspector.
pub fn row_source(ctx: &Ctx, addr: TurnAddr, event: usize) -> Option<Text> {
    let p = ctx.attempt.provenance.as_deref()?;
    let i = p.line_of((addr.session, addr.turn), event)?;
    let noun = line_noun(p);
    Some(
        Text::toned(format!("from {noun} "), Tone::Soft)
            .with(format!("{} ({})", p.lines[i].number, clean(p.kind(i))), Tone::Plain)
            .with(
                format!(
                    " · {} or {} here: that {noun} in the Translation tab",
                    key_for(Intent::ToSource),
                    key_for(Intent::Enter)
                ),
                Tone::Soft,
            ),
    )
}

/// The value of line `i`: its JSON, or its text as a string when it is not JSON.
fn line_value(p: &Provenance, i: usize) -> Value {
    let text = p.text(i);
    serde_json::from_slice(text).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(text).into_owned()))
}

/// The inspector's view of native line `i`: what it became, then its raw JSON.
pub fn line_detail(ctx: &Ctx, i: usize) -> Option<(String, Vec<Block>)> {
    let p = ctx.attempt.provenance.as_deref()?;
    let row = line_row(ctx.derived, p, i);
    let mut kv: Vec<(&str, Text)> = vec![("kind", Text::plain(row.kind.clone()))];
    let mut hint = None;
    match p.dropped(i) {
        Some(r) => {
            let tone = if r.is_loss() { Tone::Bad } else { Tone::Soft };
            kv.push(("became", Text::toned(format!("nothing: {}", drop_detail(r)), tone)));
        }
        None => {
            let addr = turn_addr(p, i);
            let record = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn));
            for (k, &e) in p.events(i).iter().enumerate() {
                let summary = record.and_then(|r| r.turn.events.get(e as usize)).map(event_words).unwrap_or_default();
                let at = address(ctx.derived, addr, e as usize);
                kv.push((if k == 0 { "became" } else { "" }, Text::plain(at).with(format!("  {summary}"), Tone::Soft)));
            }
            let keys = format!(
                "{}: to these events in the timeline ({}: back)",
                key_for(Intent::Enter),
                key_for(Intent::JumpBack)
            );
            hint = Some(Block::Line(Text::toned(keys, Tone::Soft)));
        }
    }
    let l = p.lines[i];
    kv.push(("bytes", Text::toned(format!("{}..{}", l.start, l.start + l.len as u64), Tone::Soft)));
    let mut blocks = kv_lines(kv);
    blocks.extend(hint);
    blocks.push(Block::Blank);
    blocks.push(Block::Json(line_value(p, i)));
    let title = format!("{} {} · {}", line_noun(p), row.number, row.kind);
    Some((title, blocks))
}

/// Raw: the line's JSON alone.
pub fn line_raw(ctx: &Ctx, i: usize) -> Option<(String, Vec<Block>)> {
    let p = ctx.attempt.provenance.as_deref()?;
    let title = format!("{} {} · raw", line_noun(p), p.lines.get(i)?.number);
    Some((title, vec![Block::Json(line_value(p, i))]))
}

/// `message assistant`, `operation.started Read`: an event in a few words.
fn event_words(e: &crate::model::event::Event) -> String {
    let ty = e.type_name().map(|t| clean(&t)).unwrap_or_else(|| "?".into());
    let name = e.raw();
    let detail = name
        .get("role")
        .or_else(|| name.get("operation").and_then(|o| o.get("name")))
        .and_then(Value::as_str)
        .map(clean)
        .unwrap_or_default();
    if detail.is_empty() { ty } else { format!("{ty} {detail}") }
}

/// Whether invalid UTF-8 in the input was read as U+FFFD (before or by the
/// log reader): the line ranges are then into that text, not the file.
fn text_replaced(ctx: &Ctx) -> bool {
    ctx.doc.losses.iter().any(|l| l.kind == crate::model::diagnostics::LossKind::TextReplaced)
}

/// The raw text of line `i` for the inspector: pretty JSON when it parses,
/// else the text as it is (the inspector sanitises and highlights it).
pub fn raw_pretty(p: &Provenance, i: usize) -> String {
    let text = String::from_utf8_lossy(p.text(i));
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| text.into_owned()),
        Err(_) => text.into_owned(),
    }
}

#[cfg(test)]
mod tests;
