//! The recorded eval source, whole, for every surface: `show --source[=FILE]`
//! and the marks a viewer's Source view draws and jumps by ([`documents`]:
//! each file with the assertions and sends on its lines, an assertion by
//! its index in the attempt's list, a send by its turn). The gutter marks an
//! assertion line with its outcome (✓ ✗ ? – and the points it earned of
//! those it could) and a send line with the turn it made (→ turn N); what
//! the Record could not put on a line is listed under the file.

use super::blocks::{Block, Section};
use super::context::Ctx;
use super::format::{MISSING, count};
use super::highlight::Spans;
use super::text::{Text, Tone, clean};
use super::verdict::{Points, outcome_mark, outcome_tone, outcome_word, points, points_words};
use crate::model::derive::TurnAddr;
use crate::model::document::{Assertion, Attempt, SourceFile};
use crate::model::verdict::{AssertionOutcome, assertion_outcome};
use serde_json::{Value, json};

pub const TITLE: &str = "Eval source";
/// The gutter's width before the line number.
pub const GUTTER: usize = 11;

/// What is on a line.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// Assertion `index` (in the attempt's assertion list) is declared here.
    Assertion { index: usize, outcome: AssertionOutcome, points: Option<Points> },
    /// A send here made this turn (`None`: its turn is not among the attempt's).
    Send { turn: Option<TurnAddr>, label: String },
}

/// One recorded source file and its marks, line by line.
pub struct SourceDoc<'a> {
    pub file: &'a SourceFile,
    /// `(line, mark)`, sorted by line.
    pub marks: Vec<(u64, Mark)>,
    /// Marks whose line is past the file's end.
    pub off_file: Vec<(u64, Mark)>,
}

/// The recorded sources of the attempt (those `--source=FILE` names), each with its marks.
pub fn documents<'a>(ctx: &Ctx<'a>) -> Vec<SourceDoc<'a>> {
    let review = &ctx.attempt.review;
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    let mut docs: Vec<SourceDoc> = review
        .sources
        .iter()
        .filter(|f| ctx.sel.source_file.as_deref().is_none_or(|want| names(f, want)))
        .map(|file| {
            let lines = file.content.as_deref().map(|c| c.lines().count() as u64).unwrap_or(0);
            let mut marks: Vec<(u64, Mark)> = Vec::new();
            for site in review.source_sites.iter().filter(|s| file.id.is_some() && s.source_id == file.id) {
                let mark = if site.role.as_deref() == Some("send") {
                    let label = site.turn_label.clone().unwrap_or_default();
                    let turn =
                        ctx.addrs().map(|(_, a)| a).find(|a| super::address::turn_label(ctx.attempt, *a) == label);
                    Mark::Send { turn, label }
                } else {
                    let Some(index) =
                        assertions.iter().position(|a| a.entry_id.is_some() && a.entry_id == site.entry_id)
                    else {
                        continue;
                    };
                    let a = &assertions[index];
                    Mark::Assertion { index, outcome: assertion_outcome(a), points: points(a) }
                };
                if !marks.iter().any(|(l, m)| *l == site.line && *m == mark) {
                    marks.push((site.line, mark));
                }
            }
            marks.sort_by_key(|(l, _)| *l);
            let (marks, off_file) = marks.into_iter().partition(|(l, _)| *l >= 1 && *l <= lines);
            SourceDoc { file, marks, off_file }
        })
        .collect();
    // The attempt's own eval first: a run records every eval's source.
    docs.sort_by_key(|d| d.marks.is_empty() && d.off_file.is_empty());
    docs
}

/// Whether `want` names this file: its path, or its path's last segments.
fn names(f: &SourceFile, want: &str) -> bool {
    let want = want.trim_start_matches("./");
    f.path == want || f.path.ends_with(&format!("/{want}"))
}

/// Assertions the attempt records that no source line carries.
pub fn unmapped_assertions(ctx: &Ctx) -> Vec<usize> {
    let review = &ctx.attempt.review;
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    (0..assertions.len())
        .filter(|&i| {
            let id = &assertions[i].entry_id;
            !review.source_sites.iter().any(|s| id.is_some() && s.entry_id == *id && s.role.as_deref() != Some("send"))
        })
        .collect()
}

/// The gutter of one mark: "✗ 0/2", "✓", "→ turn 3".
pub fn mark_text(ctx: &Ctx, m: &Mark) -> Text {
    match m {
        Mark::Assertion { outcome, points, .. } => {
            let mut t = Text::toned(outcome_mark(*outcome), outcome_tone(*outcome));
            if let Some(p) = points {
                t.push(format!(" {}", points_words(*p)), outcome_tone(*outcome));
            }
            t
        }
        Mark::Send { turn, label } => {
            let name = match turn {
                Some(a) => format!("turn {}", super::address::turn_number(ctx.derived, *a)),
                None => clean(label),
            };
            Text::toned(format!("→ {name}"), Tone::Accent)
        }
    }
}

/// The gutter of a line: its marks, sends last.
fn gutter(ctx: &Ctx, marks: &[&Mark]) -> Text {
    let mut t = Text::new();
    let ordered = marks
        .iter()
        .filter(|m| matches!(m, Mark::Assertion { .. }))
        .chain(marks.iter().filter(|m| matches!(m, Mark::Send { .. })));
    for (i, m) in ordered.enumerate() {
        if i > 0 {
            t.push(" ", Tone::Plain);
        }
        t.append(mark_text(ctx, m));
    }
    t
}

/// One line of a file: the lead (its marks in the gutter, its number and
/// the code's own indent, so a wrapped line hangs under its text) and the
/// code, coloured by `spans` when the renderer parsed it.
pub fn code_line(ctx: &Ctx, marks: &[&Mark], n: u64, code: &str, spans: Option<&Spans>) -> (Text, Text) {
    let lead = gutter(ctx, marks).truncate(GUTTER).pad_into(GUTTER);
    let code = clean(code);
    let body = code.trim_start_matches(' ');
    let indent = code.len() - body.len();
    let text = match spans {
        Some(spans) => super::highlight::text(spans, indent),
        None => Text::plain(body.to_string()),
    };
    (lead.with(format!("{n:>4} │ "), Tone::Soft).with(" ".repeat(indent), Tone::Plain), text)
}

/// What the marks mean, once above the files.
pub fn legend() -> Text {
    let mut t = Text::new();
    for o in [
        AssertionOutcome::Passed,
        AssertionOutcome::Failed,
        AssertionOutcome::Unavailable,
        AssertionOutcome::NotApplicable,
    ] {
        t.push(format!("{} {}  ", outcome_mark(o), outcome_word(o)), outcome_tone(o));
    }
    t.push("N/M points earned  ", Tone::Soft);
    t.push("→ turn N the send that made turn N", Tone::Accent);
    t
}

/// One file, whole: a line each with its gutter, then what is off its lines.
fn file_blocks(ctx: &Ctx, doc: &SourceDoc) -> Vec<Block> {
    let Some(content) = doc.file.content.as_deref() else {
        return vec![Block::Line(Text::toned("the content of this source was not recorded", Tone::Soft))];
    };
    let colours = ctx.sel.highlight.and_then(|h| h(content, super::highlight::syntax_of(&doc.file.path)));
    let mut out = Vec::new();
    let mut at = 0;
    for (i, code) in content.lines().enumerate() {
        let n = i as u64 + 1;
        let mut here = Vec::new();
        while at < doc.marks.len() && doc.marks[at].0 == n {
            here.push(&doc.marks[at].1);
            at += 1;
        }
        let (lead, text) = code_line(ctx, &here, n, code, colours.as_ref().and_then(|c| c.get(i)));
        out.push(Block::Kv(lead, text));
    }
    for (line, m) in &doc.off_file {
        let words =
            if *line == 0 { "no line recorded".to_string() } else { format!("line {line}, past the file's end") };
        out.push(Block::Line(mark_text(ctx, m).with(format!("  {words}: not mapped to its text"), Tone::Warn)));
    }
    out
}

/// The file's meta: "42 lines · 3 assertions (✗ 1) · 2 sends".
pub fn file_meta(doc: &SourceDoc) -> Text {
    let lines = doc.file.content.as_deref().map(|c| c.lines().count());
    let mut t = Text::toned(lines.map(|n| count(n, "line", "lines")).unwrap_or_else(|| MISSING.into()), Tone::Soft);
    let all = || doc.marks.iter().chain(&doc.off_file).map(|(_, m)| m);
    let asserted = all().filter(|m| matches!(m, Mark::Assertion { .. })).count();
    let failing = all().filter(|m| matches!(m, Mark::Assertion { outcome, .. } if outcome.is_failing())).count();
    let sends = all().filter(|m| matches!(m, Mark::Send { .. })).count();
    t.push(format!(" · {}", count(asserted, "assertion line", "assertion lines")), Tone::Soft);
    if failing > 0 {
        t.push(format!(" (✗ {failing})"), Tone::Bad);
    }
    t.push(format!(" · {}", count(sends, "send", "sends")), Tone::Soft);
    t
}

/// `show --source[=FILE]`: each recorded eval file whole, with its gutter.
pub fn section(ctx: &Ctx) -> Section {
    let docs = documents(ctx);
    let review = &ctx.attempt.review;
    let mut body = Vec::new();
    if review.sources.is_empty() {
        body.push(Block::Line(Text::toned("no eval source is recorded for this attempt", Tone::Soft)));
    } else if docs.is_empty() {
        let want = ctx.sel.source_file.as_deref().map(clean).unwrap_or_default();
        let known: Vec<String> = review.sources.iter().map(|f| clean(&f.path)).collect();
        body.push(Block::Line(Text::toned(
            format!("no recorded source file {want} (recorded: {})", known.join(", ")),
            Tone::Warn,
        )));
    } else {
        body.push(Block::Line(legend()));
    }
    for doc in &docs {
        body.push(Block::Section(Section::new(clean(&doc.file.path), file_meta(doc), file_blocks(ctx, doc))));
    }
    body.extend(unmapped_blocks(ctx));
    let meta = Text::toned(count(docs.len(), "file", "files"), Tone::Soft);
    Section::new(TITLE, meta, body)
}

/// What is recorded but on no line: assertions without a site, sends the
/// navigation could not map.
fn unmapped_blocks(ctx: &Ctx) -> Vec<Block> {
    let review = &ctx.attempt.review;
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    let mut out = Vec::new();
    let unmapped = if review.sources.is_empty() { Vec::new() } else { unmapped_assertions(ctx) };
    for i in unmapped {
        let a = &assertions[i];
        let o = assertion_outcome(a);
        out.push(Block::Line(
            Text::toned(format!("{} ", outcome_mark(o)), outcome_tone(o))
                .with(super::format::assertion_title(ctx.attempt, a), Tone::Plain)
                .with("  not mapped to a source line", Tone::Soft),
        ));
    }
    for u in &review.unmapped_sends {
        let turn = u.turn_label.as_deref().map(clean).unwrap_or_else(|| "a send".into());
        let why = u.reason.as_deref().map(|r| format!(" ({})", clean(r))).unwrap_or_default();
        out.push(Block::Line(Text::toned(format!("→ {turn}  not mapped to a source line{why}"), Tone::Soft)));
    }
    out
}

/// `show --json`'s `source`: each file's path and the marks on its lines
/// (the text is the Record's; the marks are what the gutter says).
pub fn json(ctx: &Ctx) -> Value {
    let review = &ctx.attempt.review;
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    let mark_json = |line: u64, m: &Mark| match m {
        Mark::Assertion { index, outcome, points } => json!({
            "line": line, "kind": "assertion", "assertion": assertions[*index].entry_id,
            "outcome": outcome_word(*outcome), "mark": mark_text(ctx, m).as_plain(),
            "points": points.map(|p| json!({"earned": p.earned.map(number_value), "points": number_value(p.points)})),
        }),
        Mark::Send { turn, label } => json!({
            "line": line, "kind": "send", "label": label,
            "turn": turn.map(|a| super::address::turn_number(ctx.derived, a)), "mark": mark_text(ctx, m).as_plain(),
        }),
    };
    let files: Vec<Value> = documents(ctx)
        .iter()
        .map(|d| {
            json!({
                "path": d.file.path,
                "lines": d.file.content.as_deref().map(|c| c.lines().count()),
                "marks": d.marks.iter().map(|(l, m)| mark_json(*l, m)).collect::<Vec<_>>(),
                "offFile": d.off_file.iter().map(|(l, m)| mark_json(*l, m)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "files": files,
        "unmappedAssertions": unmapped_assertions(ctx).iter().map(|&i| assertions[i].entry_id.clone()).collect::<Vec<_>>(),
        "unmappedSends": review.unmapped_sends.iter().map(|u| json!({"label": u.turn_label, "reason": u.reason})).collect::<Vec<_>>(),
    })
}

fn number_value(x: f64) -> Value {
    crate::model::usage::number(x)
}

/// The eval source around the assertion, with gutter marks for sends and
/// every assertion on a line (by outcome).
pub fn snippet(attempt: &Attempt, a: &Assertion) -> Vec<Block> {
    let review = &attempt.review;
    let Some(site) = review.source_sites.iter().find(|s| s.entry_id.is_some() && s.entry_id == a.entry_id) else {
        return Vec::new();
    };
    let file = review.sources.iter().find(|f| f.id.is_some() && f.id == site.source_id);
    let Some(content) = file.and_then(|f| f.content.as_deref()) else {
        return vec![Block::Line(Text::toned(
            format!("line {} of a source that was not recorded", site.line),
            Tone::Soft,
        ))];
    };
    let path = file.map(|f| clean(&f.path)).unwrap_or_default();
    let mut out = vec![Block::Line(Text::toned(format!("{path}:{}", site.line), Tone::Accent))];
    let lines: Vec<&str> = content.lines().collect();
    let at = site.line as usize;
    let assertions = review.assertions.as_deref().unwrap_or(&[]);
    for n in at.saturating_sub(3).max(1)..=(at + 3).min(lines.len()) {
        let mark = review
            .source_sites
            .iter()
            .filter(|s| s.line as usize == n && s.source_id == site.source_id)
            .map(|s| {
                if s.role.as_deref() == Some("send") {
                    return ("→".to_string(), Tone::Accent);
                }
                match assertions.iter().find(|x| x.entry_id.is_some() && x.entry_id == s.entry_id) {
                    Some(x) => {
                        let o = assertion_outcome(x);
                        (super::verdict::outcome_mark(o).to_string(), super::verdict::outcome_tone(o))
                    }
                    None => ("·".to_string(), Tone::Soft),
                }
            })
            .next()
            .unwrap_or((" ".to_string(), Tone::Soft));
        let code = clean(lines.get(n - 1).copied().unwrap_or(""));
        // The gutter and the code's own indent lead; a wrapped line of code hangs under its text.
        let body = code.trim_start_matches(' ');
        let indent = " ".repeat(code.len() - body.len());
        out.push(Block::Kv(
            Text::toned(mark.0, mark.1).with(format!("{n:>4} │ "), Tone::Soft).with(indent, Tone::Plain),
            Text::toned(body.to_string(), if n == at { Tone::Bold } else { Tone::Plain }),
        ));
    }
    out
}
