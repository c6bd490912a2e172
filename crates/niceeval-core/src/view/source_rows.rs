//! The viewer's Source tab: the recorded eval files as rows (a header row
//! per file, then its lines, then what is on no line), each line with the
//! gutter `show --source` draws ([`super::source::code_line`]); what a row
//! leads to (Enter: an assertion line to its assertion, a send line to its
//! turn) and which row a turn or an assertion is on (the way back).

use super::blocks::{Block, Section, kv};
use super::context::Ctx;
use super::format::{MISSING, count};
use super::highlight::Spans;
use super::intent::Intent;
use super::keys::key_for;
use super::source::{Mark, documents, file_meta, legend, mark_text, unmapped_assertions};
use super::text::{Text, Tone, clean};
use crate::model::derive::TurnAddr;
use crate::model::verdict::assertion_outcome;

/// One row of the Source tab.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceRow {
    /// A file's header: its index in the attempt's recorded sources and its facts.
    File { file: usize, meta: Text },
    /// Line `line` (1-based) of file `file`, with the marks on it; `text`
    /// is where its words are in the file's content (found once here, not
    /// by counting lines on every frame).
    Line { file: usize, line: u64, text: std::ops::Range<usize>, marks: Vec<Mark> },
    /// A mark whose line is not in its file's text (none recorded, or past its end).
    OffFile { file: usize, line: u64, mark: Mark },
    /// An assertion the attempt records on no source line (its index in the list).
    UnmappedAssertion(usize),
    /// A send the source navigation could not map (its index in `unmapped_sends`).
    UnmappedSend(usize),
}

/// Where a row leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leads {
    /// An assertion, by its index in the attempt's list.
    Assertion(usize),
    /// The turn a send made.
    Turn(TurnAddr),
    /// A send whose turn is not among the attempt's turns.
    UnknownTurn,
    Nowhere,
}

/// The rows of the Source tab for the attempt: every recorded file (the
/// attempt's own eval first), then what is on no line.
pub fn rows(ctx: &Ctx) -> Vec<SourceRow> {
    let review = &ctx.attempt.review;
    let mut out = Vec::new();
    for doc in documents(ctx) {
        let Some(file) = review.sources.iter().position(|f| std::ptr::eq(f, doc.file)) else { continue };
        out.push(SourceRow::File { file, meta: file_meta(&doc) });
        let mut at = 0;
        for (text, line) in line_spans(doc.file.content.as_deref().unwrap_or("")).zip(1..) {
            let mut marks = Vec::new();
            while at < doc.marks.len() && doc.marks[at].0 == line {
                marks.push(doc.marks[at].1.clone());
                at += 1;
            }
            out.push(SourceRow::Line { file, line, text, marks });
        }
        out.extend(doc.off_file.iter().map(|(line, mark)| SourceRow::OffFile {
            file,
            line: *line,
            mark: mark.clone(),
        }));
    }
    if !review.sources.is_empty() {
        out.extend(unmapped_assertions(ctx).into_iter().map(SourceRow::UnmappedAssertion));
    }
    out.extend((0..review.unmapped_sends.len()).map(SourceRow::UnmappedSend));
    out
}

/// The tab's title facts: "2 files · ✗ 2 of 9 assertion lines · 1 send".
pub fn title(ctx: &Ctx, rows: &[SourceRow]) -> String {
    let files = rows.iter().filter(|r| matches!(r, SourceRow::File { .. })).count();
    let marks = || {
        rows.iter().flat_map(|r| match r {
            SourceRow::Line { marks, .. } => marks.iter().collect::<Vec<_>>(),
            SourceRow::OffFile { mark, .. } => vec![mark],
            _ => Vec::new(),
        })
    };
    let asserted = marks().filter(|m| matches!(m, Mark::Assertion { .. })).count();
    let failing = marks().filter(|m| matches!(m, Mark::Assertion { outcome, .. } if outcome.is_failing())).count();
    let sends = marks().filter(|m| matches!(m, Mark::Send { .. })).count();
    if ctx.attempt.review.sources.is_empty() {
        return format!(" {} · not recorded ", super::source::TITLE);
    }
    let failing = if failing > 0 { format!("✗ {failing} of ") } else { String::new() };
    format!(
        " {} · {} · {failing}{} · {} ",
        super::source::TITLE,
        count(files, "file", "files"),
        count(asserted, "assertion line", "assertion lines"),
        count(sends, "send", "sends")
    )
}

/// What the tab says with no row.
pub fn empty_text() -> &'static str {
    "no eval source is recorded for this attempt"
}

/// A row as one line of text (the viewer cuts it at its width); `colours`
/// is the file's lines as the renderer coloured them.
pub fn row_text(ctx: &Ctx, row: &SourceRow, colours: Option<&[Spans]>) -> Text {
    match row {
        SourceRow::File { file, meta } => {
            let path = ctx.attempt.review.sources.get(*file).map(|f| clean(&f.path)).unwrap_or_default();
            Text::toned(path, Tone::Bold).with("  ", Tone::Plain).with_text(meta.clone())
        }
        SourceRow::Line { file, line, text, marks } => {
            let Some(code) = line_of(ctx, *file, text) else { return Text::new() };
            let here: Vec<&Mark> = marks.iter().collect();
            let spans = colours.and_then(|c| c.get(*line as usize - 1));
            let (lead, code) = super::source::code_line(ctx, &here, *line, code, spans);
            lead.with_text(code)
        }
        SourceRow::OffFile { line, mark, .. } => {
            let words =
                if *line == 0 { "no line recorded".to_string() } else { format!("line {line}, past the file's end") };
            mark_text(ctx, mark).with(format!("  {words}: not mapped to its text"), Tone::Warn)
        }
        SourceRow::UnmappedAssertion(i) => match ctx.attempt.review.assertions.as_deref().and_then(|l| l.get(*i)) {
            Some(a) => {
                let o = assertion_outcome(a);
                Text::toned(format!("{} ", super::verdict::outcome_mark(o)), super::verdict::outcome_tone(o))
                    .with(super::format::assertion_title(ctx.attempt, a), Tone::Plain)
                    .with("  not mapped to a source line", Tone::Soft)
            }
            None => Text::new(),
        },
        SourceRow::UnmappedSend(i) => {
            let u = ctx.attempt.review.unmapped_sends.get(*i);
            let turn = u.and_then(|u| u.turn_label.as_deref()).map(clean).unwrap_or_else(|| "a send".into());
            let why = u.and_then(|u| u.reason.as_deref()).map(|r| format!(" ({})", clean(r))).unwrap_or_default();
            Text::toned(format!("→ {turn}  not mapped to a source line{why}"), Tone::Soft)
        }
    }
}

/// The text at `text` of recorded file `file`.
fn line_of<'a>(ctx: &Ctx<'a>, file: usize, text: &std::ops::Range<usize>) -> Option<&'a str> {
    ctx.attempt.review.sources.get(file)?.content.as_deref()?.get(text.clone())
}

/// Where each line of `content` is, as `str::lines` splits it (at `\n` or
/// `\r\n`; a last line without its newline counts).
fn line_spans(content: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut start = 0;
    content.split_inclusive('\n').map(move |piece| {
        let from = start;
        start += piece.len();
        let words = piece.strip_suffix('\n').map_or(piece, |p| p.strip_suffix('\r').unwrap_or(p));
        from..from + words.len()
    })
}

/// Where Enter on a row leads: its first assertion, else the turn its send made.
pub fn leads(row: &SourceRow) -> Leads {
    let marks: &[Mark] = match row {
        SourceRow::Line { marks, .. } => marks,
        SourceRow::OffFile { mark, .. } => std::slice::from_ref(mark),
        SourceRow::UnmappedAssertion(i) => return Leads::Assertion(*i),
        _ => return Leads::Nowhere,
    };
    let assertion = marks.iter().find_map(|m| match m {
        Mark::Assertion { index, .. } => Some(Leads::Assertion(*index)),
        _ => None,
    });
    let send = marks.iter().find_map(|m| match m {
        Mark::Send { turn: Some(addr), .. } => Some(Leads::Turn(*addr)),
        Mark::Send { turn: None, .. } => Some(Leads::UnknownTurn),
        _ => None,
    });
    assertion.or(send).unwrap_or(Leads::Nowhere)
}

/// The row of the send that made turn `addr`.
pub fn row_of_turn(rows: &[SourceRow], addr: TurnAddr) -> Option<usize> {
    rows.iter().position(|r| marks_of(r).iter().any(|m| matches!(m, Mark::Send { turn: Some(a), .. } if *a == addr)))
}

/// The row assertion `index` is declared on (or listed on, when it is on no line).
pub fn row_of_assertion(rows: &[SourceRow], index: usize) -> Option<usize> {
    rows.iter().position(|r| match r {
        SourceRow::UnmappedAssertion(i) => *i == index,
        other => marks_of(other).iter().any(|m| matches!(m, Mark::Assertion { index: i, .. } if *i == index)),
    })
}

fn marks_of(row: &SourceRow) -> &[Mark] {
    match row {
        SourceRow::Line { marks, .. } => marks,
        SourceRow::OffFile { mark, .. } => std::slice::from_ref(mark),
        _ => &[],
    }
}

/// The inspector of a row: where it is, what is on it and where Enter goes.
pub fn detail(ctx: &Ctx, row: &SourceRow) -> (String, Vec<Block>) {
    let path = |file: usize| ctx.attempt.review.sources.get(file).map(|f| clean(&f.path)).unwrap_or_default();
    let mut b = Vec::new();
    let title = match row {
        SourceRow::File { file, meta } => {
            let f = &ctx.attempt.review.sources[*file];
            b.push(kv("file", 6, Text::plain(path(*file))));
            b.push(kv("lines", 6, meta.clone()));
            let bytes = f.content.as_deref().map(|c| super::commands::bytes(c.len() as u64));
            b.push(kv("size", 6, Text::plain(bytes.unwrap_or_else(|| format!("{MISSING} (content not recorded)")))));
            b.push(Block::Blank);
            b.push(Block::Line(legend()));
            path(*file)
        }
        SourceRow::Line { file, line, text, marks } => {
            b.push(Block::Line(Text::toned(format!("{}:{line}", path(*file)), Tone::Accent)));
            if let Some(code) = line_of(ctx, *file, text) {
                b.push(Block::Body(code.to_string(), Tone::Plain));
            }
            b.extend(marks.iter().map(|m| mark_section(ctx, m)));
            format!("{}:{line}", path(*file))
        }
        SourceRow::OffFile { file, mark, .. } => {
            b.push(mark_section(ctx, mark));
            path(*file)
        }
        SourceRow::UnmappedAssertion(i) => {
            if let Some(a) = ctx.attempt.review.assertions.as_deref().and_then(|l| l.get(*i)) {
                b.push(mark_section(
                    ctx,
                    &Mark::Assertion { index: *i, outcome: assertion_outcome(a), points: super::verdict::points(a) },
                ));
            }
            super::source::TITLE.to_string()
        }
        SourceRow::UnmappedSend(_) => super::source::TITLE.to_string(),
    };
    if let Some(keys) = enter_words(leads(row)) {
        b.push(Block::Blank);
        b.push(Block::Line(Text::toned(keys, Tone::Soft)));
    }
    (title, b)
}

/// A mark in the inspector: the assertion with its outcome, or the turn a send made.
fn mark_section(ctx: &Ctx, m: &Mark) -> Block {
    match m {
        Mark::Assertion { index, .. } => {
            let Some(a) = ctx.attempt.review.assertions.as_deref().and_then(|l| l.get(*index)) else {
                return Block::Blank;
            };
            let mut body = Vec::new();
            if let Some(msg) = super::assertions::message(a) {
                body.push(Block::Line(Text::plain(msg)));
            }
            Block::Section(Section::new(
                super::format::assertion_title(ctx.attempt, a),
                super::verdict::assertion_meta(a),
                body,
            ))
        }
        Mark::Send { turn: Some(addr), .. } => {
            let (title, meta) = super::timeline::turn_header(ctx.attempt, ctx.view, *addr);
            Block::Section(Section::new(format!("→ {title}"), meta, Vec::new()))
        }
        Mark::Send { turn: None, label } => {
            Block::Line(Text::toned(format!("→ {}: no turn of this attempt has this label", clean(label)), Tone::Soft))
        }
    }
}

/// "Enter: this assertion in the Assertions tab", or where else Enter goes.
fn enter_words(leads: Leads) -> Option<String> {
    let enter = key_for(Intent::Enter);
    let back = key_for(Intent::JumpBack);
    match leads {
        Leads::Assertion(_) => Some(format!("{enter}: this assertion in the Assertions tab · {back} comes back")),
        Leads::Turn(_) => Some(format!("{enter}: the turn this send made, in the Timeline · {back} comes back")),
        Leads::UnknownTurn | Leads::Nowhere => None,
    }
}

/// What `y` copies and `o` pages for a row: a line's code, a file whole.
pub fn value(attempt: &crate::model::document::Attempt, row: &SourceRow) -> Option<(String, String)> {
    let file = |i: usize| attempt.review.sources.get(i);
    match row {
        SourceRow::File { file: i, .. } => file(*i).and_then(|f| Some((f.path.clone(), f.content.clone()?))),
        SourceRow::Line { file: i, line, text, .. } => {
            let f = file(*i)?;
            let code = f.content.as_deref()?.get(text.clone())?;
            Some((format!("{}:{line}", f.path), code.to_string()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_spans_split_as_str_lines_does() {
        for content in ["", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\n\n", "\n\nx", "é\r\n\rz\r", "one\n\r\n"] {
            let spans: Vec<&str> = super::line_spans(content).map(|r| &content[r]).collect();
            assert_eq!(spans, content.lines().collect::<Vec<_>>(), "{content:?}");
        }
    }
}
