//! Tool calls: logical occurrences per session scope, orphan finishes and
//! ambiguous ids, with what went wrong. One detail for an occurrence, shown
//! by `show --tools` and by the viewer's inspector; one list row.

use super::blocks::{Block, Column, Section, Table, kv};
use super::context::{Ctx, lifecycle_text, status_text};
use super::format::count;
use super::text::{Text, Tone, clean};
use super::timeline::{tool_input_words, tool_name};
use crate::model::command::describe;
use crate::model::document::Attempt;
use crate::model::event::Event;
use crate::model::occurrence::{EventAt, Evidence, Lifecycle, Occurrence, OpaqueReason, OrphanFinish};

const W: usize = 10;

/// The tool calls of a scope, counted alike on every surface: calls started
/// in it, calls started before it that finish in it (a HITL-gated call
/// answered in a later turn: not an orphan), and orphan finishes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolCounts {
    pub started: usize,
    pub carried: usize,
    pub orphans: usize,
}

impl ToolCounts {
    /// Over the scope turns (indices into `derived.turns`) `in_scope` accepts.
    pub fn of(derived: &crate::model::derive::DerivedAttempt, in_scope: impl Fn(usize) -> bool) -> ToolCounts {
        let mut c = ToolCounts::default();
        for o in &derived.occurrences.occurrences {
            if in_scope(o.start_ref.scope_turn()) {
                c.started += 1;
            } else if o.finish_ref.is_some_and(|f| in_scope(f.scope_turn())) {
                c.carried += 1;
            }
        }
        c.orphans = derived.occurrences.orphan_finishes.iter().filter(|o| in_scope(o.event_ref.scope_turn())).count();
        c
    }

    /// "1 occurrence · 1 call from an earlier turn finished here · 0 orphan finishes".
    pub fn text(&self) -> String {
        let carried = match self.carried {
            0 => String::new(),
            1 => " · 1 call from an earlier turn finished here".into(),
            n => format!(" · {} calls from earlier turns finished here", super::format::number(n as f64)),
        };
        format!(
            "{}{carried} · {}",
            count(self.started, "occurrence", "occurrences"),
            count(self.orphans, "orphan finish", "orphan finishes")
        )
    }
}

fn label(l: &str) -> Text {
    Text::toned(crate::model::text::fit(l, W), Tone::Soft).with("  ", Tone::Plain)
}

/// An input or output as evidence: complete, partial (what was withheld) or unavailable (why).
fn evidence_block(ctx: &Ctx, name: &str, ev: &Evidence) -> Block {
    match ev {
        Evidence::Complete { value: Some(v) } => {
            ctx.field(label(name), Text::toned("complete", Tone::Soft), &v.value())
        }
        Evidence::Complete { value: None } => {
            kv(name, W, Text::toned("complete · (key absent on the event)", Tone::Soft))
        }
        Evidence::Partial(p) => {
            let crate::model::occurrence::PartialEvidence { value, opaque_pointers, reason } = &**p;
            let ptrs: Vec<String> = opaque_pointers.iter().map(|p| clean(p)).collect();
            let lead = Text::toned(format!("partial ({} at {})", reason.as_str(), ptrs.join(", ")), Tone::Warn);
            match value {
                Some(v) => ctx.field(label(name), lead, &v.value()),
                None => kv(name, W, lead.with(" · (no value)", Tone::Soft)),
            }
        }
        Evidence::Unavailable { reason } => {
            kv(name, W, Text::toned(format!("unavailable ({})", clean(reason)), Tone::Soft))
        }
    }
}

/// Why an unfinished or untrusted lifecycle is what it is.
fn lifecycle_note(a: &Attempt, o: &Occurrence) -> Option<String> {
    match &o.lifecycle {
        Lifecycle::Opaque { reason: OpaqueReason::MissingLifecycleEvidence } => Some(format!(
            "id {} was started again while open: which finish belongs to which start is unknowable",
            clean(&o.operation_id)
        )),
        Lifecycle::Opaque { reason: OpaqueReason::PartialStream } => {
            Some("no turn status: the stream may not be finished".into())
        }
        // NiceEval drops a finish without output from a Record (`o11y/record/runner-producer.ts`).
        Lifecycle::Pending if a.from_record_conversation => {
            Some("a Record drops a tool finish that has no output: whether and how it finished is unknown".into())
        }
        Lifecycle::Pending => Some("started, never finished: no output exists".into()),
        Lifecycle::Finished { .. } => None,
    }
}

/// Everything known about one logical tool occurrence.
pub fn occurrence_detail(ctx: &Ctx, o: &Occurrence) -> Vec<Block> {
    let mut body = Vec::new();
    let mut status = lifecycle_text(ctx.attempt, o);
    if let Some(note) = lifecycle_note(ctx.attempt, o) {
        status.push(format!(" — {note}"), Tone::Soft);
    }
    body.push(kv("status", W, status));
    let canonical = match o.canonical_name.as_deref() {
        Some(c) => Text::plain(clean(c)),
        None => Text::toned("— (no canonical class)", Tone::Soft),
    };
    body.push(kv("name", W, Text::plain(format!("{} → ", clean(&o.original_name))).with_text(canonical)));
    body.push(kv("call id", W, Text::plain(clean(&o.operation_id))));
    let start_turn = ctx.derived.turns.get(o.start_ref.scope_turn()).map(|t| t.addr);
    let started = match start_turn {
        Some(addr) => format!("{} ({})", ctx.at(addr, Some(o.start_ref.event())), ctx.turn_title(addr)),
        None => format!("{}:{}", o.start.turn_ordinal, o.start.event_ordinal),
    };
    body.push(kv("started", W, Text::plain(started)));
    let finished = match (&o.lifecycle, o.finish_ref) {
        (Lifecycle::Finished { .. }, Some(f)) => match ctx.derived.turns.get(f.scope_turn()).map(|t| t.addr) {
            Some(addr) => Text::plain(format!("{} ({})", ctx.at(addr, Some(f.event())), ctx.turn_title(addr))),
            None => Text::plain("—"),
        },
        _ if ctx.attempt.from_record_conversation => Text::toned("— (not recorded)", Tone::Soft),
        _ => Text::toned("— (never finished)", Tone::Soft),
    };
    body.push(kv("finished", W, finished));
    let evidence = o.evidence(&ctx.events());
    body.push(evidence_block(ctx, "input", &evidence.input));
    body.push(evidence_block(ctx, "output", &evidence.output));
    let command = evidence.command.as_ref().map(|c| c.value());
    body.push(kv("command", W, Text::plain(clean(&describe(command.as_deref())))));
    body.push(kv("occurrence", W, Text::toned(clean(&o.id()), Tone::Soft)));
    let key = (ctx.derived.turns.get(o.start_ref.scope_turn()).map(|t| t.addr), Some(o.start_ref.event()));
    if let (Some(addr), Some(list)) = (key.0, key.0.and_then(|a| ctx.view.badges.get(&(a, key.1))))
        && let Some(assertions) = ctx.attempt.review.assertions.as_ref()
    {
        let lines: Vec<Block> = list
            .iter()
            .filter_map(|&i| assertions.get(i))
            .map(|a| Block::Line(Text::plain(super::assertions::title(ctx.attempt, a))))
            .collect();
        let _ = addr;
        body.push(Block::Section(Section::new(
            format!("◆ asserted by {}", count(lines.len(), "assertion", "assertions")),
            Text::new(),
            lines,
        )));
    }
    body
}

/// Why a finish has no start, and what it carried.
pub fn orphan_detail(ctx: &Ctx, o: &OrphanFinish, event: Option<&Event>) -> Vec<Block> {
    let why = if o.ambiguous_id {
        "this id was reused while open earlier in the session (ambiguous), so no finish of it can be trusted"
    } else {
        "no open start with this id in its session (pairing never crosses sessions)"
    };
    let mut body = vec![
        kv("status", W, Text::toned("? orphan", Tone::Warn).with(format!(" — {why}"), Tone::Soft)),
        kv("call id", W, Text::plain(clean(&o.operation_id))),
        kv(
            "finished",
            W,
            status_text(&o.status)
                .with(format!(" at {}:{}", o.position.turn_ordinal, o.position.event_ordinal), Tone::Plain),
        ),
    ];
    match event.and_then(Event::output) {
        Some(v) => body.push(ctx.field(label("output"), Text::new(), &v)),
        None => body.push(kv("output", W, Text::toned("— (absent)", Tone::Soft))),
    }
    body
}

/// One tool list row: status, name, where it started → finished, what it was given.
pub fn occurrence_row(ctx: &Ctx, o: &Occurrence) -> Vec<Text> {
    let finish = match (&o.lifecycle, o.finish_ref) {
        (Lifecycle::Finished { finish, .. }, Some(_)) => format!("{}:{}", finish.turn_ordinal, finish.event_ordinal),
        _ => "—".into(),
    };
    let input = ctx.events().event_at(o.start_ref).map(tool_input_words).unwrap_or_default();
    vec![
        lifecycle_text(ctx.attempt, o),
        Text::plain(tool_name(o)),
        Text::toned(format!("{}:{} → {finish}", o.start.turn_ordinal, o.start.event_ordinal), Tone::Soft),
        Text::plain(input),
    ]
}

/// One list row of an orphan finish.
pub fn orphan_row(o: &OrphanFinish) -> Vec<Text> {
    let why = if o.ambiguous_id { "finish of an ambiguous id" } else { "finish without a start" };
    vec![
        Text::toned("? orphan", Tone::Warn),
        Text::plain(clean(&o.operation_id)),
        Text::toned(format!("{}:{}", o.position.turn_ordinal, o.position.event_ordinal), Tone::Soft),
        Text::plain(format!("{why} ({})", clean(&o.status))),
    ]
}

/// The columns of the tool list.
pub fn list_columns() -> Vec<Column> {
    vec![Column::fixed("status"), Column::cut("tool"), Column::fixed("start → finish"), Column::cut("input")]
}

/// What `--grep` looks in for an occurrence.
fn occurrence_text(ctx: &Ctx, o: &Occurrence) -> String {
    let mut s =
        format!("{} {} {} {}", o.id(), o.operation_id, o.original_name, o.canonical_name.as_deref().unwrap_or(""));
    s.push(' ');
    s.push_str(o.lifecycle.status_word());
    if let Some(v) = o.input(&ctx.events()).value() {
        s.push(' ');
        s.push_str(&serde_json::to_string(&*v).unwrap_or_default());
    }
    s
}

/// `--tools`: occurrences per session scope, then orphan finishes and ambiguous ids.
pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut shown = ToolCounts::default();
    let in_selected_turn =
        |scope_turn: usize| ctx.derived.turns.get(scope_turn).is_some_and(|t| ctx.turn_selected(t.addr));
    for (si, ds) in ctx.derived.sessions.iter().enumerate() {
        if !ctx.session_selected(si) {
            continue;
        }
        let fold = ctx.derived.session_occurrences(si);
        let mut sbody = Vec::new();
        for (n, o) in fold.occurrences.iter().enumerate() {
            let touches = in_selected_turn(o.start_ref.scope_turn())
                || o.finish_ref.is_some_and(|f| in_selected_turn(f.scope_turn()));
            if !touches || !ctx.grep(|| occurrence_text(ctx, o)) {
                continue;
            }
            shown.started += usize::from(in_selected_turn(o.start_ref.scope_turn()));
            shown.carried += usize::from(!in_selected_turn(o.start_ref.scope_turn()));
            let title = format!("#{} {}", n + 1, tool_name(o));
            sbody.push(Block::Section(Section::new(title, lifecycle_text(ctx.attempt, o), occurrence_detail(ctx, o))));
        }
        let orphans: Vec<&OrphanFinish> = fold
            .orphan_finishes
            .iter()
            .filter(|o| in_selected_turn(o.event_ref.scope_turn()))
            .filter(|o| ctx.grep(|| format!("{} {} orphan", o.operation_id, o.status)))
            .collect();
        shown.orphans += orphans.len();
        if !orphans.is_empty() {
            sbody.push(Block::Section(Section::new(
                "Orphan finishes",
                Text::toned(count(orphans.len(), "finish", "finishes"), Tone::Warn),
                vec![Block::Table(Table {
                    columns: vec![
                        Column::fixed("status"),
                        Column::left("operation"),
                        Column::fixed("pos"),
                        Column::left("what went wrong"),
                    ],
                    rows: orphans.iter().map(|o| orphan_row(o)).collect(),
                    floor: vec![],
                })],
            )));
        }
        if let Some(b) = ambiguous_ids(ctx, fold) {
            sbody.push(b);
        }
        if sbody.is_empty() {
            sbody.push(Block::Line(Text::toned(
                if fold.occurrences.is_empty() { "No tool calls." } else { "No tool call matches the selection." },
                Tone::Soft,
            )));
        }
        let meta = Text::toned(count(fold.occurrences.len(), "occurrence", "occurrences"), Tone::Soft);
        body.push(Block::Section(Section::new(format!("{} (session scope)", clean(&ds.name)), meta, sbody)));
    }
    if body.is_empty() {
        body.push(Block::Line(Text::toned("No session matches the selection.", Tone::Soft)));
    }
    Section::new("Tools", Text::toned(shown.text(), Tone::Soft), body)
}

/// Every id that was started again while open: where, and what that poisoned.
fn ambiguous_ids(ctx: &Ctx, set: crate::model::derive::Occurrences<'_>) -> Option<Block> {
    let mut ids: Vec<&str> = Vec::new();
    for o in set.occurrences.iter().filter(|o| o.ambiguous) {
        if !ids.contains(&&*o.operation_id) && ctx.grep(|| &o.operation_id) {
            ids.push(&o.operation_id);
        }
    }
    if ids.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    for id in &ids {
        let at = |p: &crate::model::occurrence::EventPosition| format!("{}:{}", p.turn_ordinal, p.event_ordinal);
        let starts: Vec<String> =
            set.occurrences.iter().filter(|o| &*o.operation_id == *id).map(|o| at(&o.start)).collect();
        let finishes: Vec<String> = set
            .orphan_finishes
            .iter()
            .filter(|o| &*o.operation_id == *id && o.ambiguous_id)
            .map(|o| at(&o.position))
            .collect();
        let mut t = Text::toned(format!("? {}", clean(id)), Tone::Warn);
        t.push(
            format!(
                " started at {} with an earlier start still open; every later start is ambiguous and every later finish an orphan{}",
                starts.join(", "),
                if finishes.is_empty() { String::new() } else { format!(" (orphaned finishes at {})", finishes.join(", ")) }
            ),
            Tone::Plain,
        );
        lines.push(Block::Line(t));
    }
    Some(Block::Section(Section::new("Ambiguous ids", Text::toned(count(ids.len(), "id", "ids"), Tone::Warn), lines)))
}
