//! `--tools`: logical tool occurrences per session scope, then orphan
//! finishes and ambiguous ids with what went wrong.

use super::blocks::{Block, Column, Section, Table, kv};
use super::context::{Ctx, detail_value, lifecycle_text, status_text};
use super::format::count;
use super::text::{Text, Tone, clean};
use crate::model::command::describe;
use crate::model::occurrence::{Evidence, Lifecycle, Occurrence};

const LABEL_W: usize = 9;

/// A label with a value of one or more lines (continuations indented under the value).
pub fn kv_multi(label: &str, lead: Text, lines: Vec<String>) -> Vec<Block> {
    let mut out = Vec::new();
    let mut first = lead;
    let mut rest = lines.into_iter();
    if let Some(l) = rest.next() {
        first.push(l, Tone::Plain);
    }
    out.push(kv(label, LABEL_W, first));
    for l in rest {
        out.push(kv("", LABEL_W, Text::plain(l)));
    }
    out
}

fn evidence_blocks(label: &str, ev: &Evidence, ctx: &Ctx) -> Vec<Block> {
    match ev {
        Evidence::Complete { value: Some(v) } => {
            kv_multi(label, Text::toned("complete · ", Tone::Soft), detail_value(v, ctx))
        }
        Evidence::Complete { value: None } => {
            vec![kv(label, LABEL_W, Text::toned("complete · (key absent on the event)", Tone::Soft))]
        }
        Evidence::Partial { value, opaque_pointers, reason } => {
            let ptrs: Vec<String> = opaque_pointers.iter().map(|p| clean(p)).collect();
            let lead = Text::toned(format!("partial ({} at {}) · ", reason.as_str(), ptrs.join(", ")), Tone::Warn);
            match value {
                Some(v) => kv_multi(label, lead, detail_value(v, ctx)),
                None => kv_multi(label, lead, vec!["(no value)".into()]),
            }
        }
        Evidence::Unavailable { reason } => {
            vec![kv(label, LABEL_W, Text::toned(format!("unavailable ({})", clean(reason)), Tone::Soft))]
        }
    }
}

fn occurrence_text(o: &Occurrence) -> String {
    let mut s =
        format!("{} {} {} {}", o.id(), o.operation_id, o.original_name, o.canonical_name.as_deref().unwrap_or(""));
    s.push(' ');
    s.push_str(o.lifecycle.status_word());
    if let Some(v) = o.input.value() {
        s.push(' ');
        s.push_str(&serde_json::to_string(v).unwrap_or_default());
    }
    s
}

pub fn occurrence_section(n: usize, o: &Occurrence, ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    body.push(kv("id", LABEL_W, Text::toned(clean(&o.id()), Tone::Soft)));
    let canonical = match o.canonical_name.as_deref() {
        Some(c) => Text::plain(clean(c)),
        None => Text::toned("— (no canonical class)", Tone::Soft),
    };
    body.push(kv("name", LABEL_W, Text::plain(format!("{} → ", clean(&o.original_name))).with_text(canonical)));
    body.push(kv("operation", LABEL_W, Text::plain(clean(&o.operation_id))));
    let finish = match &o.lifecycle {
        Lifecycle::Finished { finish, .. } => format!("{}:{}", finish.turn_ordinal, finish.event_ordinal),
        _ => "—".into(),
    };
    body.push(kv(
        "position",
        LABEL_W,
        Text::plain(format!(
            "start {}:{} · finish {finish} · {}",
            o.start.turn_ordinal,
            o.start.event_ordinal,
            clean(&o.turn)
        )),
    ));
    let mut status = lifecycle_text(o);
    match &o.lifecycle {
        Lifecycle::Opaque { reason } => {
            status.push(format!(" ({})", reason.as_str()), Tone::Soft);
            if o.ambiguous {
                status.push(
                    format!(" — id {} was started again while open; pairing is unknowable", clean(&o.operation_id)),
                    Tone::Soft,
                );
            }
        }
        Lifecycle::Pending => {
            status.push(" (no finish yet; the last turn it survived into has an outcome)", Tone::Soft);
        }
        Lifecycle::Finished { .. } => {}
    }
    body.push(kv("status", LABEL_W, status));
    body.extend(evidence_blocks("input", &o.input, ctx));
    body.extend(evidence_blocks("output", &o.output, ctx));
    body.push(kv("command", LABEL_W, Text::plain(clean(&describe(o.command.as_deref())))));
    Section::new(format!("#{n} {}", o.display_name()), lifecycle_text(o), body)
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut shown = 0usize;
    let in_selected_turn =
        |scope_turn: usize| ctx.derived.turns.get(scope_turn).is_some_and(|t| ctx.turn_selected(t.addr));
    for (si, ds) in ctx.derived.sessions.iter().enumerate() {
        if !ctx.session_selected(si) {
            continue;
        }
        let mut sbody = Vec::new();
        let mut n = 0usize;
        for o in &ds.occurrences.occurrences {
            n += 1;
            let touches = in_selected_turn(o.start_ref.scope_turn)
                || o.finish_ref.is_some_and(|f| in_selected_turn(f.scope_turn));
            if !touches || !ctx.grep(&occurrence_text(o)) {
                continue;
            }
            shown += 1;
            sbody.push(Block::Section(occurrence_section(n, o, ctx)));
        }
        let orphans: Vec<_> = ds
            .occurrences
            .orphan_finishes
            .iter()
            .filter(|o| in_selected_turn(o.event_ref.scope_turn))
            .filter(|o| ctx.grep(&format!("{} {} orphan", o.operation_id, o.status)))
            .collect();
        if !orphans.is_empty() {
            let rows = orphans
                .iter()
                .map(|o| {
                    let why = if o.ambiguous_id {
                        "id is ambiguous in this session (reused while open)"
                    } else {
                        "no open start with this id in this session"
                    };
                    vec![
                        Text::plain(format!("{}:{}", o.position.turn_ordinal, o.position.event_ordinal)),
                        Text::plain(clean(&o.operation_id)),
                        status_text(&o.status),
                        Text::plain(why),
                    ]
                })
                .collect();
            sbody.push(Block::Section(Section::new(
                "Orphan finishes",
                Text::toned(count(orphans.len(), "finish", "finishes"), Tone::Warn),
                vec![Block::Table(Table {
                    columns: vec![
                        Column::fixed("pos"),
                        Column::left("operation"),
                        Column::fixed("status"),
                        Column::left("what went wrong"),
                    ],
                    rows,
                    floor: vec![],
                })],
            )));
        }
        // Ambiguous ids: every start of a poisoned id.
        let mut ids: Vec<&str> = Vec::new();
        for o in ds.occurrences.occurrences.iter().filter(|o| o.ambiguous) {
            if !ids.contains(&&*o.operation_id) {
                ids.push(&o.operation_id);
            }
        }
        let ids: Vec<&str> = ids.into_iter().filter(|id| ctx.grep(id)).collect();
        if !ids.is_empty() {
            let mut ab = Vec::new();
            for id in &ids {
                let starts: Vec<String> = ds
                    .occurrences
                    .occurrences
                    .iter()
                    .filter(|o| &*o.operation_id == *id)
                    .map(|o| format!("{}:{}", o.start.turn_ordinal, o.start.event_ordinal))
                    .collect();
                let finishes: Vec<String> = ds
                    .occurrences
                    .orphan_finishes
                    .iter()
                    .filter(|o| &*o.operation_id == *id && o.ambiguous_id)
                    .map(|o| format!("{}:{}", o.position.turn_ordinal, o.position.event_ordinal))
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
                ab.push(Block::Line(t));
            }
            sbody.push(Block::Section(Section::new(
                "Ambiguous ids",
                Text::toned(count(ids.len(), "id", "ids"), Tone::Warn),
                ab,
            )));
        }
        if sbody.is_empty() {
            sbody.push(Block::Line(Text::toned(
                if ds.occurrences.occurrences.is_empty() {
                    "No tool calls."
                } else {
                    "No tool call matches the selection."
                },
                Tone::Soft,
            )));
        }
        let meta = Text::toned(count(ds.occurrences.occurrences.len(), "occurrence", "occurrences"), Tone::Soft);
        body.push(Block::Section(Section::new(format!("{} (session scope)", clean(&ds.name)), meta, sbody)));
    }
    if body.is_empty() {
        body.push(Block::Line(Text::toned("No session matches the selection.", Tone::Soft)));
    }
    Section::new("Tools", Text::toned(count(shown, "shown", "shown"), Tone::Soft), body)
}
