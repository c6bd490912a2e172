//! What a timeline row says: its `N:i` address, kind, one-line summary,
//! status and marks. The viewer draws the rows on screen, `show --timeline`
//! all of them, `--failures` the rows evidence points at: one row builder.

use super::address::{event_address, turn_number, turn_title};
use super::attempt::AttemptView;
use super::blocks::{Block, Column, Overflow, Section, Table, TurnRows};
use super::context::Ctx;
use super::format::{compact, count};
use super::hitl::{answer_text, request_state_text};
use super::preview::{InputWords, PREVIEW_MAX_CHARS, preview_head, read_tool_input, value_preview};
use super::text::{Lane, Text, Tone, clean, clean_owned};
use super::verdict::{row_status_text, turn_status_text};
use crate::model::derive::TurnAddr;
use crate::model::document::{Attempt, TurnRecord};
use crate::model::event::{Event, EventKind};
use crate::model::occurrence::{Lifecycle, Occurrence};
use crate::model::timeline::{Row, RowKind, finish_status};
use serde_json::Value;

mod columns;
mod measure;
mod position;
pub use columns::{KIND_WORD_COLUMNS, kind_cell, status_mark};
pub use position::{COMPACT_POSITION_COLUMNS, POSITION_COLUMNS, position, position_as, position_width};

/// How much of a long string a summary reads (a lazy event's string is read
/// from the file only this far).
const READS_CHARS: usize = PREVIEW_MAX_CHARS * 4 + 1;

/// Everything a timeline row shows.
#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    /// `6:3`, `6:3→4` (a start with its finish merged in), `turn 6` (a header).
    pub pos: String,
    pub kind: RowKind,
    /// Mark and word; `None` where a row has no status.
    pub status: Option<Text>,
    /// One line, sanitized, cut at [`PREVIEW_MAX_CHARS`] characters.
    pub summary: Text,
    /// A diagnostic finding points at this row.
    pub flagged: bool,
    /// How many assertions point at this row.
    pub asserted: usize,
}

impl RowView {
    /// The row as one line of plain text (what search and `--grep` look in).
    pub fn plain(&self) -> String {
        let status = self.status.as_ref().map(Text::as_plain).unwrap_or_default();
        format!("{} {} {} {status}", self.pos, kind_word(self.kind), self.summary.as_plain())
    }

    /// `⚑`, `◆2`, `⚑◆1` or empty.
    pub fn badges(&self) -> String {
        let mut b = String::new();
        if self.flagged {
            b.push('⚑');
        }
        if self.asserted > 0 {
            b.push_str(&format!("◆{}", self.asserted));
        }
        b
    }
}

/// The kind of a row in one short word.
pub fn kind_word(kind: RowKind) -> &'static str {
    match kind {
        RowKind::TurnHeader => "turn",
        RowKind::Input => "input",
        RowKind::UserMessage => "user",
        RowKind::AssistantMessage => "assistant",
        RowKind::ToolStart => "tool",
        RowKind::ToolFinish => "tool end",
        RowKind::SubagentStart => "subagent",
        RowKind::SubagentFinish => "agent end",
        RowKind::Skill => "skill",
        RowKind::InputRequest => "input req",
        RowKind::Thinking => "thinking",
        RowKind::Context => "context",
        RowKind::Compaction => "compaction",
        RowKind::Error => "error",
        RowKind::Unrecognized => "unknown",
    }
}

/// The lane glyph of a row kind (the viewer's kind column).
pub fn kind_marker(kind: RowKind) -> &'static str {
    match kind {
        RowKind::TurnHeader => "▌",
        RowKind::Input => "»",
        RowKind::UserMessage => "u",
        RowKind::AssistantMessage => "◆",
        RowKind::ToolStart => "⚙",
        RowKind::ToolFinish => "⤶",
        RowKind::SubagentStart | RowKind::SubagentFinish => "⧉",
        RowKind::Skill => "✦",
        RowKind::InputRequest => "⁇",
        RowKind::Thinking => "∴",
        RowKind::Context => "⊕",
        RowKind::Compaction => "⇊",
        RowKind::Error => "‼",
        RowKind::Unrecognized => "¿",
    }
}

/// The colour lane of a row kind, for every surface (`None`: a turn header,
/// which is drawn as a title).
pub fn kind_lane(kind: RowKind) -> Option<Lane> {
    Some(match kind {
        RowKind::TurnHeader => return None,
        RowKind::Input | RowKind::UserMessage => Lane::User,
        RowKind::AssistantMessage => Lane::Assistant,
        RowKind::ToolStart | RowKind::ToolFinish | RowKind::Skill => Lane::Tool,
        RowKind::SubagentStart | RowKind::SubagentFinish => Lane::Subagent,
        RowKind::InputRequest => Lane::Hitl,
        RowKind::Thinking => Lane::Thinking,
        RowKind::Context => Lane::Context,
        RowKind::Compaction => Lane::Compaction,
        RowKind::Error => Lane::Error,
        RowKind::Unrecognized => Lane::Unrecognized,
    })
}

/// The tone of a row kind's word (and mark): its lane, or a title.
pub fn kind_tone(kind: RowKind) -> Tone {
    kind_lane(kind).map_or(Tone::Bold, Tone::Lane)
}

/// The tone a row's one-line summary is drawn in where a renderer draws it in
/// one tone: the lane of the kinds whose text is itself the signal (errors,
/// unrecognised events, thinking, input requests), else plain.
pub fn summary_tone(kind: RowKind) -> Tone {
    match kind {
        RowKind::Error | RowKind::Unrecognized | RowKind::Thinking | RowKind::InputRequest => kind_tone(kind),
        _ => Tone::Plain,
    }
}

/// The kind word in its lane's tone.
pub fn kind_text(kind: RowKind) -> Text {
    Text::toned(kind_word(kind), kind_tone(kind))
}

/// A turn past a Record's item cap: its events are missing, not none.
pub const PAST_ITEM_CAP: &str = "events not recorded (past the Record's item cap)";

/// A turn's title and what it came to: "turn 6 · session2/turn1" and
/// "⏸ waiting · 3 events · 1 tool call · 4.0k tokens".
pub fn turn_header(attempt: &Attempt, view: &AttemptView, addr: TurnAddr) -> (String, Text) {
    let title = turn_title(attempt, &view.derived, addr);
    let Some(record) = attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
        return (title, Text::new());
    };
    let mut meta = turn_status_text(record.turn.status.as_deref());
    let tools = view.derived.turn(addr).map(|t| t.tool_calls).unwrap_or(0);
    if record.past_item_cap {
        meta.push(format!(" · {PAST_ITEM_CAP}"), Tone::Warn);
    } else {
        meta.push(
            format!(
                " · {} · {}",
                count(record.turn.events.len(), "event", "events"),
                count(tools, "tool call", "tool calls")
            ),
            Tone::Soft,
        );
    }
    let tokens = record.turn.usage.and_then(|u| u.billable_tokens());
    meta.push(format!(" · {} tokens", tokens.map(compact).unwrap_or_else(|| "—".into())), Tone::Soft);
    match record.duration_ms {
        Some(ms) => meta.push(format!(" · {}", super::format::duration_ms(ms)), Tone::Soft),
        None => meta.push(format!(" · {}", super::timing::UNAVAILABLE), Tone::Soft),
    };
    (title, meta)
}

/// Timeline row `ri` of an attempt and the turn it is in.
fn row_and_record<'a>(attempt: &'a Attempt, view: &'a AttemptView, ri: usize) -> Option<(&'a Row, &'a TurnRecord)> {
    let row = view.timeline.rows.get(ri)?;
    Some((row, attempt.sessions.get(row.addr().session)?.turns.get(row.addr().turn)?))
}

/// The view of timeline row `ri` of an attempt (lifecycle rows merged).
pub fn row_view(attempt: &Attempt, view: &AttemptView, ri: usize) -> Option<RowView> {
    row_view_as(attempt, view, ri, true)
}

/// [`row_view`]; with `merged` false (raw events, `m`) a start row is the
/// start alone: its own position, and where it finished instead of the output.
pub fn row_view_as(attempt: &Attempt, view: &AttemptView, ri: usize, merged: bool) -> Option<RowView> {
    let (row, record) = row_and_record(attempt, view, ri)?;
    let event = row.event().and_then(|e| record.turn.events.get(e));
    let key = (row.addr(), row.event());
    let summary = match (row.kind, event) {
        (RowKind::TurnHeader, _) => {
            let (title, meta) = turn_header(attempt, view, row.addr());
            Text::toned(title, Tone::Bold).with("  ", Tone::Plain).with_text(meta)
        }
        (RowKind::Input, _) => input_summary(record),
        (_, Some(ev)) => event_summary(view, row, record, ev, merged),
        (_, None) => Text::new(),
    };
    Some(RowView {
        pos: position_as(row, merged),
        kind: row.kind,
        status: row_status(view, row, record),
        summary: cut(summary),
        flagged: view.flagged.contains(&key),
        asserted: view.badges.get(&key).map(Vec::len).unwrap_or(0),
    })
}

/// A summary cut at [`PREVIEW_MAX_CHARS`] characters (each span sanitized already).
fn cut(summary: Text) -> Text {
    let chars: usize = summary.spans.iter().map(|(s, _)| s.chars().count()).sum();
    if chars <= PREVIEW_MAX_CHARS {
        return summary;
    }
    let mut out = Text::new();
    let mut left = PREVIEW_MAX_CHARS;
    for (s, tone) in summary.spans {
        if left == 0 {
            break;
        }
        let piece: String = s.chars().take(left).collect();
        left -= piece.chars().count();
        out.push(piece, tone);
    }
    out.push("…", Tone::Soft);
    out
}

/// The eval's input (the runner's user message, `N:0`) and any HITL answers it carries.
fn input_summary(record: &TurnRecord) -> Text {
    let mut summary = match record.input_text() {
        Some(t) => Text::plain(clean_owned(preview_head(t))),
        None => Text::toned("— (input text not recorded)", Tone::Soft),
    };
    let answers: Vec<String> = record.responses().iter().map(answer_text).collect();
    if !answers.is_empty() {
        summary.push(format!(" · answers: {}", answers.join(", ")), Tone::Soft);
    }
    summary
}

fn text_of(ev: &Event) -> String {
    clean_owned(preview_head(&ev.text_prefix(READS_CHARS).unwrap_or_default()))
}

fn output_of(ev: &Event) -> String {
    match ev.output_prefix(READS_CHARS) {
        None => "(no output)".into(),
        Some(v) => clean_owned(value_preview(&v)),
    }
}

/// "Read (file_read)": the tool's own name and its canonical class when it differs.
pub fn tool_name(o: &Occurrence) -> String {
    let name = clean(&o.original_name);
    match o.canonical_name.as_deref() {
        Some(c) if c != &*o.original_name => format!("{name} ({})", clean(c)),
        _ => name,
    }
}

/// What a tool input says in a few words: `$ command`, the path or URL, or compact JSON.
pub fn tool_input_words(ev: &Event) -> String {
    match read_tool_input(ev) {
        InputWords::Command(cmd) => format!("$ {}", clean_owned(preview_head(&cmd))),
        InputWords::Other(words) => clean_owned(words),
    }
}

/// The finish status as written that decided a row's status, if any.
fn raw_finish_status(view: &AttemptView, events: &[Event], row: &Row) -> Option<String> {
    let finish_event = match row.event().and_then(|e| events.get(e)).map(|e| &e.kind) {
        Some(EventKind::ToolFinished { .. } | EventKind::SubagentFinished { .. }) => row.event(),
        _ => row.merged_finish(),
    };
    match finish_event.and_then(|f| events.get(f)).map(|e| &e.kind) {
        Some(EventKind::ToolFinished { status, .. } | EventKind::SubagentFinished { status, .. }) => {
            Some(status.to_string())
        }
        _ => match &row.occurrence().and_then(|i| view.derived.occurrences.occurrences.get(i))?.lifecycle {
            // A start finished in a later turn.
            Lifecycle::Finished { status, .. } => Some(status.to_string()),
            _ => None,
        },
    }
}

/// The status of a row of `record`'s turn, `None` where a row has none.
fn row_status(view: &AttemptView, row: &Row, record: &TurnRecord) -> Option<Text> {
    let events = &record.turn.events;
    let ev = row
        .event()
        .and_then(|e| events.get(e))
        .filter(|_| !matches!(row.kind, RowKind::TurnHeader | RowKind::Input))?;
    let status = row.status.map(|s| row_status_text(s, raw_finish_status(view, events, row).as_deref()));
    if let EventKind::InputRequested = ev.kind {
        return match row.request().and_then(|i| view.requests.get(i)) {
            Some(r) => Some(request_state_text(&r.state)),
            None => status,
        };
    }
    match (status, row.kind) {
        (Some(s), _) => Some(s),
        (None, RowKind::Error) => Some(Text::toned("✗ error", Tone::Bad)),
        (None, RowKind::Unrecognized) => Some(Text::toned("? kept as written", Tone::Warn)),
        (None, RowKind::ToolStart | RowKind::ToolFinish) => Some(row_status_text(finish_status("?"), Some("?"))),
        (None, _) => None,
    }
}

/// The summary of an event row.
fn event_summary(view: &AttemptView, row: &Row, record: &TurnRecord, ev: &Event, merge: bool) -> Text {
    let events = &record.turn.events;
    let occurrences = &view.derived.occurrences;
    let occ = row.occurrence().and_then(|i| occurrences.occurrences.get(i));
    let merged = row.merged_finish().filter(|_| merge).and_then(|f| events.get(f));
    match &ev.kind {
        EventKind::Message { .. } | EventKind::Thinking | EventKind::Error => Text::plain(text_of(ev)),
        EventKind::ContextInjected => {
            let mut s = Text::new();
            if let Some(src) = ev.source() {
                s.push(format!("[{}] ", clean_owned(preview_head(&src))), Tone::Soft);
            }
            s.push(text_of(ev), Tone::Plain);
            s
        }
        EventKind::Compaction => match ev.reason() {
            Some(r) => Text::plain(clean_owned(preview_head(&r))),
            None => Text::toned("(no reason given)", Tone::Soft),
        },
        EventKind::SkillLoaded { skill, operation_id } => {
            let mut s = Text::plain(clean(skill));
            if let Some(id) = operation_id {
                s.push(format!(" (via tool call {})", clean(id)), Tone::Soft);
            }
            s
        }
        EventKind::InputRequested => match row.request().and_then(|i| view.requests.get(i)) {
            Some(r) => super::hitl::request_line(r),
            None => Text::toned("(request not read)", Tone::Soft),
        },
        EventKind::ToolStarted { .. } => match occ {
            Some(o) => {
                let mut s = Text::plain(tool_name(o));
                s.push(format!(" {}", tool_input_words(ev)), Tone::Plain);
                match (merged, &o.lifecycle) {
                    (Some(f), _) => s.push(format!(" → {}", output_of(f)), Tone::Soft),
                    (None, Lifecycle::Finished { finish, .. }) => s.push(
                        format!(
                            " (finished at {})",
                            event_address(finish.turn_ordinal, event_of(finish.event_ordinal))
                        ),
                        Tone::Soft,
                    ),
                    _ => &mut s,
                };
                if o.ambiguous {
                    s.push(format!(" (id {} reused while open)", clean(&o.operation_id)), Tone::Warn);
                }
                s
            }
            None => Text::plain(tool_input_words(ev)),
        },
        EventKind::ToolFinished { operation_id, status: st } => match occ {
            Some(o) => {
                let mut s = Text::plain(tool_name(o));
                s.push(format!(" → {}", output_of(ev)), Tone::Plain);
                s.push(
                    format!(" (started at {})", event_address(o.start.turn_ordinal, event_of(o.start.event_ordinal))),
                    Tone::Soft,
                );
                s
            }
            None => {
                let ambiguous =
                    row.orphan().and_then(|i| occurrences.orphan_finishes.get(i)).is_some_and(|o| o.ambiguous_id);
                let why = if ambiguous {
                    format!("id {} is ambiguous in this session", clean(operation_id))
                } else {
                    format!("no open start for id {}", clean(operation_id))
                };
                Text::plain(format!("{} · {why}", clean(st))).with(format!(" → {}", output_of(ev)), Tone::Soft)
            }
        },
        EventKind::SubagentStarted { name, .. } => {
            let mut s = Text::plain(clean(name));
            if let Some(url) = ev.remote_url() {
                s.push(format!(" {}", clean(&url)), Tone::Soft);
            }
            if let Some(f) = merged {
                s.push(format!(" → {}", output_of(f)), Tone::Soft);
            }
            s
        }
        EventKind::SubagentFinished { operation_id, status: st } => {
            Text::plain(format!("{} · no open start for id {}", clean(st), clean(operation_id)))
                .with(format!(" → {}", output_of(ev)), Tone::Soft)
        }
        EventKind::Unrecognized { reason, .. } => {
            let ty = ev.type_name().map(|t| clean(&t)).unwrap_or_else(|| "?".into());
            Text::toned(format!("{ty}: {}", clean(reason)), Tone::Warn)
                .with(format!(" · {}", clean_owned(value_preview(&ev.head().to_value_prefix(READS_CHARS)))), Tone::Soft)
        }
    }
}

/// Adapter event index of an event ordinal (ordinal 0 is the input).
fn event_of(ordinal: u64) -> Option<usize> {
    usize::try_from(ordinal).ok()?.checked_sub(1)
}

/// The rows of the turn at scope index `st` (no header; rows merged into
/// their start left out), with their indices into the timeline.
pub fn turn_rows(attempt: &Attempt, view: &AttemptView, st: usize) -> Vec<(usize, RowView)> {
    turn_rows_iter(attempt, view, st).collect()
}

/// [`turn_rows`] one at a time (`show --json` writes each as it is made).
pub fn turn_rows_iter<'a>(
    attempt: &'a Attempt,
    view: &'a AttemptView,
    st: usize,
) -> impl Iterator<Item = (usize, RowView)> + 'a {
    turn_row_span(view, st).into_iter().flat_map(move |span| rows_in(attempt, view, span))
}

/// The timeline indices of the turn's rows after its header.
pub fn turn_row_span(view: &AttemptView, st: usize) -> Option<std::ops::Range<usize>> {
    let addr = view.derived.turns.get(st)?.addr;
    let first = *view.timeline.by_turn.get(&addr)? + 1;
    let rows = &view.timeline.rows;
    let len = rows[first..].iter().take_while(|r| r.addr() == addr && r.kind != RowKind::TurnHeader).count();
    Some(first..first + len)
}

/// The shown rows among timeline rows `span` (rows merged into their start left out).
fn rows_in<'a>(
    attempt: &'a Attempt,
    view: &'a AttemptView,
    span: std::ops::Range<usize>,
) -> impl Iterator<Item = (usize, RowView)> + 'a {
    span.filter(|&i| !view.timeline.rows[i].merged_away()).filter_map(move |i| Some((i, row_view(attempt, view, i)?)))
}

/// The text table of some rows: pos, kind, summary, status.
pub fn table(rows: Vec<RowView>, full: bool) -> Table {
    let mut summary = Column::cut("summary");
    if full {
        summary.overflow = Overflow::Wrap;
    }
    Table {
        columns: vec![Column::fixed("pos"), Column::fixed("kind"), summary, Column::fixed("status")],
        rows: rows.into_iter().map(cells).collect(),
        floor: vec![],
    }
}

/// The column of [`table`] a row's summary is in (the one that takes the width left).
const SUMMARY: usize = 2;

/// A row's cells in [`table`]: pos, kind, summary (after its badges), status.
fn cells(r: RowView) -> Vec<Text> {
    let badges = r.badges();
    let mut summary = r.summary;
    if !badges.is_empty() {
        summary = Text::toned(format!("{badges} "), Tone::Warn).with_text(summary);
    }
    vec![Text::plain(r.pos), kind_text(r.kind), summary, r.status.unwrap_or_default()]
}

/// The table of the rows among timeline rows `span` that the selection keeps (`--grep`).
/// Made a part at a time, each part's events are handed back to their file
/// once its rows are made: a long turn is not all resident at once.
pub fn rows_table(ctx: &Ctx, span: std::ops::Range<usize>) -> Table {
    let rows = rows_in(ctx.attempt, ctx.view, span.clone())
        .map(|(i, r)| if ctx.sel.full { whole_text(ctx, i, r) } else { r })
        .filter(|r| ctx.grep(|| r.plain()));
    let table = table(rows.collect(), ctx.sel.full);
    release_rows(ctx.attempt, ctx.view, span);
    table
}

/// `--full`: a message's, thinking's or error's row says its whole text, not
/// the first [`PREVIEW_MAX_CHARS`] characters (the column wraps).
fn whole_text(ctx: &Ctx, ri: usize, mut r: RowView) -> RowView {
    let Some((row, record)) = row_and_record(ctx.attempt, ctx.view, ri) else { return r };
    let Some(ev) = row.event().and_then(|e| record.turn.events.get(e)) else { return r };
    if matches!(ev.kind, EventKind::Message { .. } | EventKind::Thinking | EventKind::Error)
        && let Some(text) = ev.text()
    {
        r.summary = Text::plain(clean_owned(text.into_owned()));
    }
    r
}

/// Hand back the pages of the events of timeline rows `span` (one turn's).
fn release_rows(attempt: &Attempt, view: &AttemptView, span: std::ops::Range<usize>) {
    let rows = &view.timeline.rows;
    let Some(first) = rows.get(span.start) else { return };
    let addr = first.addr();
    let Some(record) = attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else { return };
    let events = span.filter_map(|i| rows.get(i)).filter(|r| r.addr() == addr).flat_map(|r| r.event());
    let (lo, hi) = events.fold((usize::MAX, 0), |(lo, hi), e| (lo.min(e), hi.max(e + 1)));
    if let Some(events) = record.turn.events.get(lo..hi) {
        crate::model::event::release_pages(events);
    }
}

/// A turn's table is drawn in parts of this many timeline rows, made one at a time.
const ROWS_AT_ONCE: usize = 4096;

/// `--timeline`: every row of every selected turn. The rows are measured
/// here a part at a time (`measure`) and made when each part is drawn.
pub fn section(ctx: &Ctx) -> Section {
    let turns: Vec<(usize, TurnAddr, std::ops::Range<usize>)> = ctx
        .addrs()
        .filter(|&(_, addr)| ctx.turn_selected(addr))
        .map(|(st, addr)| (st, addr, turn_row_span(ctx.view, st).unwrap_or(0..0)))
        .collect();
    let parts: Vec<std::ops::Range<usize>> = turns.iter().flat_map(|(_, _, span)| part_ranges(span.clone())).collect();
    let (measured, floor) = measure::measure(ctx, &parts);
    let mut measured = parts.iter().cloned().zip(measured);
    let mut body = Vec::new();
    let mut shown_rows = 0usize;
    let mut shown_turns = 0usize;
    for (_, addr, span) in &turns {
        let mut parts = Vec::new();
        let mut turn_rows = 0usize;
        for (range, rows) in measured.by_ref().take(part_ranges(span.clone()).count()) {
            turn_rows += rows;
            let (first, last) = (parts.is_empty(), range.end == span.end);
            parts.push(TurnRows { attempt: ctx.index, rows: range, first, last, floor: Vec::new() });
        }
        let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
            continue;
        };
        if turn_rows == 0 && ctx.sel.grep.is_some() {
            continue;
        }
        shown_turns += 1;
        shown_rows += turn_rows;
        let (title, meta) = turn_header(ctx.attempt, ctx.view, *addr);
        let mut turn_body = Vec::new();
        if record.past_item_cap {
            turn_body.push(Block::Line(Text::toned(
                "Its events were not recorded: the Record keeps no item past its item cap.",
                Tone::Warn,
            )));
        } else if record.turn.events.is_empty() {
            turn_body.push(Block::Line(Text::toned("No events captured for this turn.", Tone::Soft)));
        }
        turn_body.extend(parts.into_iter().map(Block::TurnRows));
        body.push(Block::Section(Section::new(title, meta, turn_body)));
    }
    for block in &mut body {
        if let Block::Section(s) = block {
            for part in &mut s.body {
                if let Block::TurnRows(t) = part {
                    t.floor = floor.clone();
                }
            }
        }
    }
    if shown_turns == 0 {
        let why = if ctx.derived.turns.is_empty() {
            "No turns recorded."
        } else if ctx.sel.grep.is_some() {
            "No row matches --grep."
        } else {
            "No turn matches the selection."
        };
        body.push(Block::Line(Text::toned(why, Tone::Soft)));
    }
    Section::new("Timeline", Text::toned(super::format::timeline_counts(shown_rows, shown_turns), Tone::Soft), body)
}

/// A turn's rows `span` in parts of [`ROWS_AT_ONCE`]; an empty turn is one empty part.
fn part_ranges(span: std::ops::Range<usize>) -> impl Iterator<Item = std::ops::Range<usize>> {
    let starts = (span.start..span.end.max(span.start + 1)).step_by(ROWS_AT_ONCE);
    starts.map(move |from| from..(from + ROWS_AT_ONCE).min(span.end))
}

/// The turn number a row belongs to (for headers and jumps).
pub fn row_turn(view: &AttemptView, row: &Row) -> u64 {
    turn_number(&view.derived, row.addr())
}

/// A JSON value as one short line (strings as they are), sanitized.
pub fn one_line(v: &Value) -> String {
    clean_owned(value_preview(v))
}
