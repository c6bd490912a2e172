//! `--diagnostics`: lint findings (`lint_document`) and the attempt's own
//! review diagnostics.

use super::blocks::{Block, Column, Section, Table};
use super::context::Ctx;
use super::format::count;
use super::text::{Text, Tone, clean};
use crate::model::derive::TurnAddr;
use crate::model::diagnostics::{Finding, Severity};

fn where_(ctx: &Ctx, f: &Finding) -> String {
    let Some(turn) = f.location.turn else {
        return match ctx.attempt.sessions.get(f.location.session) {
            Some(s) => format!("session-{}", s.index),
            None => "attempt".into(),
        };
    };
    let addr = TurnAddr { session: f.location.session, turn };
    let label = ctx.label(addr);
    match (f.location.event, ctx.derived.scope_index(addr)) {
        (Some(e), Some(st)) => format!("{label} {}", ctx.pos(st, Some(e))),
        (Some(e), None) => format!("{label} event {}", e + 1),
        (None, _) => label,
    }
}

pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let findings: Vec<&&Finding> = ctx
        .findings
        .iter()
        .filter(|f| {
            let sel = match f.location.turn {
                Some(t) => ctx.turn_selected(TurnAddr { session: f.location.session, turn: t }),
                None => ctx.session_selected(f.location.session),
            };
            sel && ctx.grep(&format!("{} {} {} {}", f.severity.as_str(), f.code, f.message, f.hint))
        })
        .collect();
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    if !findings.is_empty() {
        let rows = findings
            .iter()
            .map(|f| {
                let sev = match f.severity {
                    Severity::Error => Text::toned("✗ error", Tone::Bad),
                    Severity::Warning => Text::toned("! warning", Tone::Warn),
                };
                let mut msg = Text::plain(clean(&f.message));
                if !f.hint.is_empty() {
                    msg.push(format!(" — fix: {}", clean(&f.hint)), Tone::Soft);
                }
                msg.push(format!(" ({}, {})", f.code, f.rule), Tone::Soft);
                vec![sev, Text::plain(where_(ctx, f)), msg]
            })
            .collect();
        body.push(Block::Table(Table {
            columns: vec![Column::fixed("severity"), Column::fixed("where"), Column::left("finding")],
            rows,
            floor: vec![],
        }));
    } else {
        body.push(Block::Line(Text::toned("No lint findings.", Tone::Soft)));
    }
    let review: Vec<_> = ctx
        .attempt
        .review
        .diagnostics
        .iter()
        .filter(|d| ctx.grep(&format!("{} {} {}", d.kind, d.code, d.message)))
        .collect();
    if !review.is_empty() {
        let mut rb = Vec::new();
        for d in &review {
            let mut t = Text::toned(format!("! {} {}", clean(&d.kind), clean(&d.code)), Tone::Warn);
            if let Some(p) = &d.phase {
                t.push(format!(" [{}]", clean(p)), Tone::Soft);
            }
            t.push(format!(": {}", clean(&d.message)), Tone::Plain);
            rb.push(Block::Line(t));
            for c in &d.causes {
                rb.push(Block::Line(Text::toned(format!("    caused by: {}", clean(c)), Tone::Soft)));
            }
        }
        body.push(Block::Section(Section::new(
            "Recorded diagnostics",
            Text::toned(count(review.len(), "diagnostic", "diagnostics"), Tone::Soft),
            rb,
        )));
    }
    let meta = if errors > 0 {
        Text::toned(
            format!("{} · {}", count(errors, "error", "errors"), count(findings.len(), "finding", "findings")),
            Tone::Bad,
        )
    } else {
        Text::toned(count(findings.len(), "finding", "findings"), Tone::Soft)
    };
    Section::new("Diagnostics", meta, body)
}
