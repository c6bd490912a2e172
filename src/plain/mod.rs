//! Plain-text output: the text twin of every viewer panel (`niceeval show`,
//! and `niceeval view` when stdout is not a terminal).
//!
//! Layout primitives live in [`layout`]; each section has its own file.
//! Everything input-derived passes through `text::sanitize`; with colour off
//! the output holds no ESC byte.

pub mod assertions;
pub mod diagnostics;
pub mod header;
pub mod hitl;
pub mod layout;
pub mod timeline;
pub mod tools;
pub mod usage;
pub mod view;

use crate::model::derive::DerivedAttempt;
use crate::model::diagnostics::Finding;
use crate::model::document::Document;
use layout::{Block, Section, Text, Tone};
use view::Ctx;

/// Options for plain rendering.
#[derive(Debug, Clone)]
pub struct PlainOptions {
    pub width: usize,
    pub boxed: bool,
    pub color: bool,
    pub full: bool,
}

impl Default for PlainOptions {
    fn default() -> Self {
        PlainOptions { width: 80, boxed: false, color: false, full: false }
    }
}

/// The sections `show` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    Timeline,
    Tools,
    Hitl,
    Usage,
    Assertions,
    Failures,
    Diagnostics,
}

impl SectionKind {
    /// What `--all` prints (failures are a subset of assertions and have their own mode).
    pub const ALL: [SectionKind; 6] = [
        SectionKind::Timeline,
        SectionKind::Tools,
        SectionKind::Hitl,
        SectionKind::Usage,
        SectionKind::Assertions,
        SectionKind::Diagnostics,
    ];
}

/// Which turn `--turn` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnSelector {
    /// Session index (`sessionK/` prefix), when the label named one.
    pub session: Option<u64>,
    /// 1-based turn number inside the session.
    pub turn: u64,
}

impl TurnSelector {
    /// `3`, `turn3`, `session2/turn1`.
    pub fn parse(s: &str) -> Option<TurnSelector> {
        let s = s.trim();
        if let Ok(n) = s.parse::<u64>() {
            return (n > 0).then_some(TurnSelector { session: None, turn: n });
        }
        let (session, rest) = match s.split_once('/') {
            Some((a, b)) => (Some(a.strip_prefix("session")?.parse::<u64>().ok()?), b),
            None => (None, s),
        };
        let turn = rest.strip_prefix("turn")?.parse::<u64>().ok().filter(|n| *n > 0)?;
        Some(TurnSelector { session, turn })
    }
}

/// Rows and turns to show.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub session: Option<u64>,
    pub turn: Option<TurnSelector>,
    /// Attempt locator, with or without the leading `@`.
    pub locator: Option<String>,
    pub grep: Option<regex::Regex>,
}

impl Selection {
    pub fn session_index(&self) -> Option<u64> {
        self.session.or(self.turn.as_ref().and_then(|t| t.session))
    }

    pub fn turn_number(&self) -> Option<u64> {
        self.turn.as_ref().map(|t| t.turn)
    }

    fn locator_matches(&self, locator: Option<&str>) -> bool {
        match &self.locator {
            None => true,
            Some(want) => {
                let want = want.strip_prefix('@').unwrap_or(want);
                locator.is_some_and(|l| l.strip_prefix('@').unwrap_or(l) == want)
            }
        }
    }
}

/// What `render` produced.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub text: String,
    /// Attempts (of those shown) that failed, errored or have an unavailable gate.
    pub failing: usize,
    /// Attempts shown.
    pub shown: usize,
    /// Messages for stderr (selection that matched nothing, …).
    pub notes: Vec<String>,
}

/// Render the chosen sections for every selected attempt.
pub fn render(
    doc: &Document,
    derived: &[DerivedAttempt],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
    opts: &PlainOptions,
) -> Report {
    let (blocks, mut report) = blocks(doc, derived, findings, sections, sel, opts);
    report.text = layout::render(&blocks, opts.width, opts.boxed, opts.color);
    report
}

/// [`render`], its text written to `out` line by line instead of kept in
/// [`Report::text`] (left empty): a payload of many megabytes shown with
/// `--full` is not held as one more string of the whole output.
pub fn render_to(
    doc: &Document,
    derived: &[DerivedAttempt],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
    opts: &PlainOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Report> {
    let (blocks, report) = blocks(doc, derived, findings, sections, sel, opts);
    layout::render_to(&blocks, opts.width, opts.boxed, opts.color, out)?;
    Ok(report)
}

fn blocks(
    doc: &Document,
    derived: &[DerivedAttempt],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
    opts: &PlainOptions,
) -> (Vec<Block>, Report) {
    let mut report = Report::default();
    let mut blocks = Vec::new();
    let only_failures = sections.iter().all(|s| *s == SectionKind::Failures);
    let total = doc.attempts.len();
    let mut selected_turns = 0usize;
    for (index, (attempt, d)) in doc.attempts.iter().zip(derived).enumerate() {
        if !sel.locator_matches(attempt.locator.as_deref()) {
            continue;
        }
        report.shown += 1;
        let requests = crate::model::hitl::hitl_requests(attempt, d);
        let timeline = crate::model::timeline::build_timeline(attempt, d, &requests);
        let ctx = Ctx {
            doc,
            attempt,
            index,
            derived: d,
            requests,
            timeline,
            opts,
            sel,
            findings: findings.iter().filter(|f| f.location.attempt == index).collect(),
        };
        selected_turns += ctx.addrs().filter(|(_, a)| ctx.turn_selected(*a)).count();
        let failing = assertions::attempt_fails(attempt);
        if failing {
            report.failing += 1;
        }
        if only_failures {
            if failing {
                blocks.push(Block::Section(assertions::failures_section(&ctx, total)));
                blocks.push(Block::Blank);
            }
            continue;
        }
        let mut body = header::header(&ctx);
        for kind in sections {
            let section = match kind {
                SectionKind::Timeline => timeline::section(&ctx),
                SectionKind::Tools => tools::section(&ctx),
                SectionKind::Hitl => hitl::section(&ctx),
                SectionKind::Usage => usage::section(&ctx),
                SectionKind::Assertions => assertions::section(&ctx),
                SectionKind::Failures => {
                    if !failing {
                        Section::new(
                            "Failures",
                            Text::new(),
                            vec![Block::Line(Text::toned("none: this attempt did not fail", Tone::Soft))],
                        )
                    } else {
                        let mut s = assertions::failures_section(&ctx, total);
                        s.title = "Failures".into();
                        s
                    }
                }
                SectionKind::Diagnostics => diagnostics::section(&ctx),
            };
            body.push(Block::Blank);
            body.push(Block::Section(section));
        }
        blocks.push(Block::Section(Section::new(header::title(&ctx, total), header::meta(&ctx), body)));
        blocks.push(Block::Blank);
    }
    if blocks.last().is_some_and(|b| matches!(b, Block::Blank)) {
        blocks.pop();
    }
    if report.shown == 0 {
        if let Some(l) = &sel.locator {
            let known: Vec<String> =
                doc.attempts.iter().filter_map(|a| a.locator.clone()).map(|l| layout::clean(&l)).collect();
            report.notes.push(format!(
                "no attempt with locator {} (known: {})",
                layout::clean(l),
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ));
        } else if doc.attempts.is_empty() {
            // Not a conversation: say what the file is, on stdout, so `show FILE` always answers.
            blocks.push(Block::Line(Text::plain(format!(
                "{}  {}",
                layout::clean(&doc.sources.join(", ")),
                layout::clean(&doc.format)
            ))));
            for n in &doc.notices {
                blocks.push(Block::Line(Text::toned(format!("! {}", layout::clean(&n.message)), Tone::Warn)));
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
            format!("No failures: {} shown, none failed.", layout::count(report.shown, "attempt", "attempts")),
            Tone::Good,
        )));
    }
    (blocks, report)
}

/// Everything `show --all` prints.
pub fn render_all(doc: &Document, derived: &[DerivedAttempt], opts: &PlainOptions) -> String {
    let findings = crate::model::lint::lint_document(doc, derived);
    render(doc, derived, &findings, &SectionKind::ALL, &Selection::default(), opts).text
}
