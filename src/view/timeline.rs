//! `--timeline`: one row per event, `turnOrdinal:eventOrdinal`, kind,
//! summary cut by display width, lifecycle status.

use super::blocks::{Block, Column, Overflow, Section, Table, natural_widths};
use super::context::{Ctx, Row, turn_rows, turn_status_text};
use super::format::count;
use super::text::{Text, Tone};

pub fn table(rows: Vec<Row>, full: bool) -> Table {
    let mut summary = Column::cut("summary");
    if full {
        summary.overflow = Overflow::Wrap;
    }
    Table {
        columns: vec![Column::fixed("pos"), Column::fixed("kind"), summary, Column::fixed("status")],
        rows: rows.into_iter().map(|r| vec![Text::plain(r.pos), r.kind, r.summary, r.status]).collect(),
        floor: vec![],
    }
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let mut shown_rows = 0usize;
    let mut shown_turns = 0usize;
    // (index in body, index in the turn section's body) of each turn table.
    let mut tables: Vec<(usize, usize)> = Vec::new();
    for (st, addr) in ctx.addrs() {
        if !ctx.turn_selected(addr) {
            continue;
        }
        let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
            continue;
        };
        let rows: Vec<Row> = turn_rows(ctx, st).into_iter().filter(|r| ctx.grep(&r.plain())).collect();
        if rows.is_empty() && ctx.sel.grep.is_some() {
            continue;
        }
        shown_turns += 1;
        shown_rows += rows.len();
        let mut meta = turn_status_text(record.turn.status.as_deref());
        meta.push(format!(" · {}", count(record.turn.events.len(), "event", "events")), Tone::Soft);
        let mut turn_body = Vec::new();
        if record.turn.events.is_empty() {
            turn_body.push(Block::Line(Text::toned("No events captured for this turn.", Tone::Soft)));
        }
        turn_body.push(Block::Table(table(rows, ctx.sel.full)));
        tables.push((body.len(), turn_body.len() - 1));
        body.push(Block::Section(Section::new(ctx.label(addr), meta, turn_body)));
    }
    // Sibling turn tables share their column widths, so rows line up across turns.
    let mut floor = vec![0usize; 4];
    for &(b, t) in &tables {
        if let Some(Block::Section(s)) = body.get(b)
            && let Some(Block::Table(table)) = s.body.get(t)
        {
            for (i, w) in natural_widths(table).into_iter().enumerate() {
                floor[i] = floor[i].max(w);
            }
        }
    }
    for &(b, t) in &tables {
        if let Some(Block::Section(s)) = body.get_mut(b)
            && let Some(Block::Table(table)) = s.body.get_mut(t)
        {
            table.floor = floor.clone();
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
    Section::new("Timeline", Text::toned(count(shown_rows, "row", "rows"), Tone::Soft), body)
}
