//! The report `show` prints: for each selected attempt, its header and the
//! chosen sections, as neutral blocks (`plain` lays them out as text).

use super::attempt::AttemptView;
use super::blocks::{Block, Section, Table, TurnRows};
use super::context::Ctx;
use super::panel::Panel;
use super::text::{Text, Tone, clean};
use super::{assertions, findings, header, hitl, timeline, tools, usage};
use crate::model::diagnostics::Finding;
use crate::model::document::Document;

/// The sections `show` can print: a panel's (the viewer's tabs, one list
/// for both), or the failures of a failing attempt (`--failures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    Of(Panel),
    Failures,
}

impl SectionKind {
    /// What `--all` prints (failures are a subset of assertions and have their own mode).
    pub const ALL: [SectionKind; 9] = [
        SectionKind::Of(Panel::Timeline),
        SectionKind::Of(Panel::Tools),
        SectionKind::Of(Panel::Hitl),
        SectionKind::Of(Panel::Usage),
        SectionKind::Of(Panel::Assertions),
        SectionKind::Of(Panel::Diagnostics),
        SectionKind::Of(Panel::Changes),
        SectionKind::Of(Panel::Commands),
        SectionKind::Of(Panel::Timing),
    ];

    /// NiceEval's `--execution`: what the attempt did (this viewer's
    /// timeline, tools, usage, commands and diagnostics).
    pub const EXECUTION: [SectionKind; 5] = [
        SectionKind::Of(Panel::Timeline),
        SectionKind::Of(Panel::Tools),
        SectionKind::Of(Panel::Usage),
        SectionKind::Of(Panel::Commands),
        SectionKind::Of(Panel::Diagnostics),
    ];
}

pub use super::address::TurnSelector;

pub use super::context::Selection;

/// What [`build`] produced.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub blocks: Vec<Block>,
    /// Attempts (of those shown) that failed, errored or have an unavailable gate.
    pub failing: usize,
    /// Attempts shown.
    pub shown: usize,
    /// Messages for stderr (selection that matched nothing, …).
    pub notes: Vec<String>,
}

/// The chosen sections for every selected attempt.
pub fn build(
    doc: &Document,
    views: &[AttemptView],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
) -> Report {
    let mut report = Report::default();
    let mut blocks = Vec::new();
    let only_failures = sections.iter().all(|s| *s == SectionKind::Failures);
    let mut selected_turns = 0usize;
    for ctx in Ctx::selected(doc, views, findings, sel) {
        let view = ctx.view;
        report.shown += 1;
        selected_turns += ctx.addrs().filter(|(_, a)| ctx.turn_selected(*a)).count();
        let failing = view.summary.to_review;
        if failing {
            report.failing += 1;
        }
        if only_failures {
            if failing {
                blocks.push(Block::Section(failures(&ctx)));
                blocks.push(Block::Blank);
            }
            continue;
        }
        let mut body = header::header(&ctx);
        for kind in sections {
            let section = match kind {
                SectionKind::Of(Panel::Timeline) => timeline::section(&ctx),
                SectionKind::Of(Panel::Tools) => tools::section(&ctx),
                SectionKind::Of(Panel::Hitl) => hitl::section(&ctx),
                SectionKind::Of(Panel::Usage) => usage::section(&ctx),
                SectionKind::Of(Panel::Assertions) => assertions::section(&ctx),
                SectionKind::Failures => {
                    if !failing {
                        Section::new(
                            "Failures",
                            Text::new(),
                            vec![Block::Line(Text::toned("none: this attempt did not fail", Tone::Soft))],
                        )
                    } else {
                        let mut s = failures(&ctx);
                        s.title = "Failures".into();
                        s
                    }
                }
                SectionKind::Of(Panel::Diagnostics) => findings::section(&ctx),
                SectionKind::Of(Panel::Changes) => super::changes::section(&ctx),
                SectionKind::Of(Panel::Timing) => super::timing::section(&ctx),
                SectionKind::Of(Panel::Translation) => super::translation::section(&ctx),
                SectionKind::Of(Panel::Commands) => super::commands::section(&ctx),
                SectionKind::Of(Panel::Source) => super::source::section(&ctx),
            };
            body.push(Block::Blank);
            body.push(Block::Section(section));
        }
        blocks.push(Block::Section(Section::new(header::title(&ctx), header::meta(&ctx), body)));
        blocks.push(Block::Blank);
    }
    if blocks.last().is_some_and(|b| matches!(b, Block::Blank)) {
        blocks.pop();
    }
    if report.shown == 0 {
        if let Some(l) = &sel.locator {
            let known: Vec<String> = doc.attempts.iter().filter_map(|a| a.locator.clone()).map(|l| clean(&l)).collect();
            report.notes.push(format!(
                "no attempt with locator {} (known: {})",
                clean(l),
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ));
        } else if doc.attempts.is_empty() {
            // Not a conversation: say what the file is, on stdout, so `show FILE` always answers.
            blocks.push(Block::Line(Text::plain(format!(
                "{}  {}",
                clean(&doc.sources.join(", ")),
                clean(&doc.format)
            ))));
            for n in &doc.notices {
                blocks.push(Block::Line(Text::toned(format!("! {}", clean(&super::notice::words(n))), Tone::Warn)));
            }
            blocks.push(Block::Line(Text::plain("(no attempts, sessions or turns in this input)".to_string())));
        } else {
            report.notes.push("the input holds no attempt".into());
        }
    } else if (sel.session.is_some() || sel.turn.is_some()) && selected_turns == 0 {
        report.notes.push("no turn matches --session/--turn".into());
    }
    if report.shown > 0 && only_failures && report.failing == 0 {
        blocks.push(Block::Line(Text::toned(
            format!("No failures: {} shown, none failed.", super::format::count(report.shown, "attempt", "attempts")),
            Tone::Good,
        )));
    }
    report.blocks = blocks;
    report
}

/// `--failures` for one attempt: where it began to fail, after the lines
/// that name it (locator, eval, verdict), then why each part failed.
fn failures(ctx: &Ctx) -> Section {
    let mut s = assertions::failures_section(ctx);
    let named = s.body.iter().take_while(|b| matches!(b, Block::Kv(..))).count().min(3);
    let began = super::first_failure::blocks(ctx);
    s.body.splice(named..named, began);
    s
}

/// The rows a [`Block::TurnRows`] of [`build`]'s report stands for, made
/// when it is drawn, with the column widths its sibling tables share.
pub fn turn_rows_table(
    doc: &Document,
    views: &[AttemptView],
    findings: &[Finding],
    sel: &super::context::Selection,
    rows: &TurnRows,
) -> Table {
    let mut table = match Ctx::of(doc, views, findings, sel, rows.attempt) {
        Some(ctx) => timeline::rows_table(&ctx, rows.rows.clone()),
        None => timeline::table(Vec::new(), sel.full),
    };
    table.floor = rows.floor.clone();
    table
}
