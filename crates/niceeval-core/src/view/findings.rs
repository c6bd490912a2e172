//! Findings (`niceeval check`'s lint rules) and the diagnostics an input
//! records (execution errors, advisories): where each points (`N:i`), what
//! is wrong and how to fix it. One row and one detail for every surface.

use super::blocks::{Block, Column, Section, Table, kv};
use super::context::Ctx;
use super::format::count;
use super::text::{Text, Tone, clean};
use super::verdict::severity_text;
use crate::model::derive::{DerivedAttempt, TurnAddr};
use crate::model::diagnostics::{CompleteClaim, Finding, Location, Said, Severity, quote};
use crate::model::document::{Attempt, Diagnostic};
use std::borrow::Cow;

const W: usize = 9;

/// One line: what a finding says is wrong (not yet sanitised for a terminal).
pub fn message(f: &Finding) -> Cow<'_, str> {
    said_words(f.said())
}

fn said_words(said: &Said) -> Cow<'_, str> {
    match said {
        Said::Text(t) => Cow::Borrowed(t),
        Said::More(more) => said_words(more.said()),
        Said::TurnShape(fault) => Cow::Owned(super::notice::turn_fault_words(fault)),
        Said::NoCommand { operation_id, claim } => {
            let claim = match claim {
                CompleteClaim::Recorded => {
                    "and this attempt's recorded evidence coverage claims actions complete, so commandMatch() is unavailable for this call while coverage says nothing is missing"
                }
                CompleteClaim::NotRecorded => {
                    "and this file does not carry the agent's evidence coverage: unless the agent declares evidenceCoverage.actions partial, coverage claims complete while commandMatch() is unavailable for this call"
                }
            };
            Cow::Owned(format!(
                "tool start {} has no `command`, the Turn declares no actions downgrade, {claim}",
                quote(operation_id)
            ))
        }
    }
}

/// Whether two findings say the same words, without wording them when their
/// ids tell.
pub fn say_the_same(a: &Finding, b: &Finding) -> bool {
    match (a.said(), b.said()) {
        (Said::Text(x), Said::Text(y)) => x == y,
        (Said::NoCommand { operation_id: x, claim: c }, Said::NoCommand { operation_id: y, claim: d }) => {
            c == d && (x == y || quote(x) == quote(y))
        }
        _ => message(a) == message(b),
    }
}

/// Where a finding points: `6:3` (attempt-wide turn : event), `turn 6`, a
/// session, or the attempt — with the turn's label beside it.
pub fn place(attempt: &Attempt, derived: &DerivedAttempt, loc: &Location) -> String {
    let Some(turn) = loc.turn() else {
        return match attempt.sessions.get(loc.session()) {
            Some(s) => format!("session-{}", s.index),
            None => "attempt".into(),
        };
    };
    let addr = TurnAddr { session: loc.session(), turn };
    let label = super::address::turn_label(attempt, addr);
    let n = super::address::turn_number(derived, addr);
    let label = if label == format!("turn{n}") { String::new() } else { format!(" {label}") };
    match loc.event() {
        Some(e) => format!("{}{label}", super::address::event_address(n, Some(e))),
        None => format!("turn {n}{label}"),
    }
}

/// Where a finding points: a line of the input file for a finding about the
/// file itself (a skipped line), else its [`place`] in the attempt.
pub fn finding_place(attempt: &Attempt, derived: &DerivedAttempt, f: &Finding) -> String {
    match f.input() {
        Some(at) => input_place(at),
        None => place(attempt, derived, &f.location),
    }
}

/// `input line 2` (`:59` with the column): the line of the file, not a turn.
pub fn input_place(at: &crate::model::diagnostics::InputAt) -> String {
    match at.column {
        Some(c) => format!("input line {}:{c}", at.line),
        None => format!("input line {}", at.line),
    }
}

/// One list row: severity, where, code, message.
pub fn finding_row(ctx: &Ctx, f: &Finding) -> Vec<Text> {
    vec![
        severity_text(f.severity),
        Text::toned(finding_place(ctx.attempt, ctx.derived, f), Tone::Soft),
        Text::toned(f.code, Tone::Accent),
        Text::plain(clean(&message(f))),
    ]
}

/// A list row for `count` findings of one code: the first, and how many.
pub fn finding_group_row(ctx: &Ctx, first: &Finding, count: usize) -> Vec<Text> {
    let mut row = finding_row(ctx, first);
    if count > 1 {
        row[1].push(format!(" +{} more", count - 1), Tone::Soft);
        row[3] = Text::toned(format!("{count}× "), Tone::Bold).with_text(row[3].clone());
    }
    row
}

/// The columns of the findings list.
pub fn list_columns() -> Vec<Column> {
    vec![Column::fixed("severity"), Column::fixed("where"), Column::fixed("code"), Column::cut("finding")]
}

/// Everything about one finding: what is wrong, where, how to fix it, the rule.
pub fn finding_detail(ctx: &Ctx, f: &Finding) -> Vec<Block> {
    let mut b = vec![
        kv("severity", W, severity_text(f.severity)),
        kv("code", W, Text::toned(f.code, Tone::Accent)),
        kv("where", W, Text::plain(finding_place(ctx.attempt, ctx.derived, f))),
        kv("rule", W, Text::plain(super::rules::citation_of(f.code))),
        Block::Section(Section::new(
            "What is wrong",
            Text::new(),
            vec![Block::Body(message(f).into_owned(), Tone::Plain)],
        )),
        Block::Section(Section::new(
            "How to fix it",
            Text::new(),
            vec![Block::Body(f.hint().to_string(), Tone::Plain)],
        )),
    ];
    let same: Vec<&&Finding> = ctx.findings().iter().filter(|g| g.code == f.code).collect();
    if same.len() > 1 {
        const SHOWN: usize = 200;
        // Findings of one code share a list row; when they say different
        // things (two at one place, each with its own reason), each place
        // says its own, so none is hidden behind the row's first.
        let differ = same.iter().any(|g| !say_the_same(g, f));
        let mut places: Vec<Block> = same
            .iter()
            .take(SHOWN)
            .map(|g| {
                let at = finding_place(ctx.attempt, ctx.derived, g);
                if differ {
                    Block::Line(Text::toned(format!("{at}  "), Tone::Soft).with(clean(&message(g)), Tone::Plain))
                } else {
                    Block::Line(Text::plain(at))
                }
            })
            .collect();
        if same.len() > SHOWN {
            places.push(Block::Line(Text::toned(format!("… and {} more", same.len() - SHOWN), Tone::Soft)));
        }
        let title = format!("Every {} in this attempt", f.code);
        b.push(Block::Section(Section::new(
            title,
            Text::toned(count(same.len(), "place", "places"), Tone::Soft),
            places,
        )));
    }
    b
}

/// A recorded diagnostic's row: kind, phase, code, message.
pub fn diagnostic_row(d: &Diagnostic) -> Vec<Text> {
    let tone = if d.kind == "execution-error" { Tone::Bad } else { Tone::Warn };
    vec![
        Text::toned(format!("‼ {}", clean(&d.kind)), tone),
        Text::toned(d.phase.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Soft),
        Text::toned(clean(&d.code), Tone::Accent),
        Text::plain(clean(&d.message)),
    ]
}

/// Everything about a recorded diagnostic.
pub fn diagnostic_detail(d: &Diagnostic) -> Vec<Block> {
    let mut b = vec![
        kv("kind", W, Text::plain(clean(&d.kind))),
        kv("code", W, Text::toned(clean(&d.code), Tone::Accent)),
        kv("phase", W, Text::plain(d.phase.as_deref().map(clean).unwrap_or_else(|| "—".into()))),
        Block::Body(d.message.clone(), Tone::Plain),
    ];
    for c in &d.causes {
        b.push(kv("caused by", W, Text::plain(clean(c))));
    }
    b
}

/// Why an attempt to review went wrong, as `--failures` says it: each
/// execution error (phase, code and message), or, for an errored attempt
/// without one, what else the input holds about why (see `view::errored`).
pub fn error_reasons(ctx: &Ctx) -> Vec<Block> {
    let mut out: Vec<Block> = super::errored::execution_errors(ctx.attempt)
        .map(|(_, d)| Block::Line(super::errored::execution_line(d)))
        .collect();
    if let Some(why) = ctx.view.summary.why.as_ref().filter(|w| !matches!(w.cause, super::errored::Cause::Execution(_)))
    {
        out.push(Block::Line(why.line()));
    }
    out
}

/// An attempt with no event at all (a slot never run, a Record attempt
/// without an observability conversation).
pub fn has_no_events(a: &Attempt) -> bool {
    a.events == Some(crate::model::document::Completeness::NotRecorded)
        || a.sessions.iter().all(|s| s.turns.iter().all(|t| t.turn.events.is_empty()))
}

/// Why the lint (and `check`) did not read an attempt's events, or `None`
/// when it did.
pub fn unchecked_reason(a: &Attempt) -> Option<&'static str> {
    if crate::model::lint::attempt_is_checkable(a) {
        None
    } else if has_no_events(a) {
        Some("no event stream was recorded for it")
    } else {
        Some(
            "its events were rebuilt from a lossy record (a Record keeps the conversation, not the adapter's own stream)",
        )
    }
}

/// `--diagnostics`: the findings of the selected turns, then recorded diagnostics.
pub fn section(ctx: &Ctx) -> Section {
    let mut body = Vec::new();
    let findings: Vec<&&Finding> = ctx
        .findings()
        .iter()
        .filter(|f| {
            let sel = match f.location.turn() {
                Some(t) => ctx.turn_selected(TurnAddr { session: f.location.session(), turn: t }),
                None => ctx.session_selected(f.location.session()),
            };
            sel && ctx.grep(|| format!("{} {} {} {}", f.severity.as_str(), f.code, message(f), f.hint()))
        })
        .collect();
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let unchecked = unchecked_reason(ctx.attempt);
    if let (true, Some(reason)) = (findings.is_empty(), unchecked) {
        body.push(Block::Line(Text::toned(format!("Not checked: {reason}."), Tone::Soft)));
    } else if findings.is_empty() {
        body.push(Block::Line(Text::toned("No lint findings.", Tone::Soft)));
    } else {
        let rows = findings
            .iter()
            .map(|f| {
                let mut msg = Text::plain(clean(&message(f)));
                if !f.hint().is_empty() {
                    msg.push(format!(" — fix: {}", clean(f.hint())), Tone::Soft);
                }
                msg.push(format!(" ({}, {})", f.code, super::rules::rule_link(f.code)), Tone::Soft);
                vec![severity_text(f.severity), Text::plain(finding_place(ctx.attempt, ctx.derived, f)), msg]
            })
            .collect();
        body.push(Block::Table(Table {
            columns: vec![Column::fixed("severity"), Column::fixed("where"), Column::left("finding")],
            rows,
            floor: vec![],
        }));
    }
    let recorded: Vec<&Diagnostic> = ctx
        .attempt
        .review
        .diagnostics
        .iter()
        .filter(|d| ctx.grep(|| format!("{} {} {}", d.kind, d.code, d.message)))
        .collect();
    if !recorded.is_empty() {
        let mut rb = Vec::new();
        for d in &recorded {
            let mut t = Text::toned(format!("‼ {} {}", clean(&d.kind), clean(&d.code)), Tone::Warn);
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
            Text::toned(count(recorded.len(), "diagnostic", "diagnostics"), Tone::Soft),
            rb,
        )));
    }
    let warnings = findings.len() - errors;
    let tone = if errors > 0 {
        Tone::Bad
    } else if warnings > 0 {
        Tone::Warn
    } else {
        Tone::Soft
    };
    let mut meta = Text::toned(super::format::finding_tally(errors, warnings, unchecked.is_none()), tone);
    if !recorded.is_empty() {
        meta.push(format!(" · {}", count(recorded.len(), "recorded diagnostic", "recorded diagnostics")), Tone::Soft);
    }
    Section::new("Diagnostics", meta, body)
}
