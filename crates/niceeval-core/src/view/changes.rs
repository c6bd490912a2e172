//! File changes: added, modified or deleted paths with a patch each; "no
//! file changes (complete)" is told apart from "not recorded".

use super::blocks::{Block, Column, Section, kv};
use super::context::Ctx;
use super::format::count;
use super::text::{Text, Tone, clean};
use super::verdict::change_kind;
use crate::model::document::{Attempt, Completeness, FileChange};

const W: usize = 7;

/// The collection's state in words.
pub fn state_text(attempt: &Attempt) -> Text {
    match attempt.review.file_changes.as_ref().map(|f| &f.state) {
        None | Some(Some(Completeness::NotRecorded)) => Text::toned("not recorded", Tone::Soft),
        Some(Some(Completeness::Complete)) => Text::plain("complete"),
        Some(Some(Completeness::Partial(r))) => {
            Text::toned(format!("partial: {}", r.iter().map(|x| clean(x)).collect::<Vec<_>>().join("; ")), Tone::Warn)
        }
        Some(None) => Text::toned("—", Tone::Soft),
    }
}

/// What an empty list means: nothing changed, or nothing was recorded.
pub fn empty_text(attempt: &Attempt) -> String {
    match attempt.review.file_changes.as_ref().map(|f| &f.state) {
        None | Some(Some(Completeness::NotRecorded)) => "file changes not recorded in this input".into(),
        Some(Some(Completeness::Complete)) => "no file changes (complete collection)".into(),
        Some(Some(Completeness::Partial(r))) => format!("no file changes recorded (partial: {})", r.join("; ")),
        Some(None) => "no file changes listed".into(),
    }
}

/// One list row: kind, window, path.
pub fn row(c: &FileChange) -> Vec<Text> {
    let (word, tone) = change_kind(c.kind);
    vec![
        Text::toned(format!("{} {word}", c.kind), tone),
        Text::toned(c.window.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Soft),
        Text::plain(clean(&c.path)),
    ]
}

/// The columns of the change list.
pub fn list_columns() -> Vec<Column> {
    vec![Column::fixed("change"), Column::fixed("window"), Column::cut("path")]
}

/// One change: path, kind, window, note, and its patch (or why there is none).
pub fn detail(c: &FileChange) -> Vec<Block> {
    let (word, tone) = change_kind(c.kind);
    let mut b = vec![
        kv("path", W, Text::plain(clean(&c.path))),
        kv("change", W, Text::toned(word, tone)),
        kv("window", W, Text::plain(c.window.as_deref().map(clean).unwrap_or_else(|| "—".into()))),
    ];
    if let Some(n) = &c.note {
        b.push(kv("note", W, Text::toned(clean(n), Tone::Warn)));
    }
    match (c.before.as_deref(), c.after.as_deref(), c.kind) {
        (before, Some(after), _) => {
            b.push(Block::Patch { before: before.unwrap_or("").to_string(), after: after.to_string() })
        }
        (Some(before), None, 'D') => b.push(Block::Patch { before: before.to_string(), after: String::new() }),
        _ => b.push(Block::Line(Text::toned("(patch unavailable: the content was not recorded)", Tone::Soft))),
    }
    b
}

/// `--changes`: every file change with its patch.
pub fn section(ctx: &Ctx) -> Section {
    let changes = ctx.attempt.review.file_changes.as_ref().map(|f| f.changes.as_slice()).unwrap_or(&[]);
    let at_path = |c: &&FileChange| match ctx.sel.diff_path.as_deref().map(|p| p.trim_start_matches("./")) {
        None => true,
        Some(want) => c.path == want || c.path.ends_with(&format!("/{want}")),
    };
    let shown: Vec<&FileChange> =
        changes.iter().filter(at_path).filter(|c| ctx.grep(|| format!("{} {}", c.kind, c.path))).collect();
    let mut body = Vec::new();
    match (&ctx.sel.diff_path, shown.is_empty(), changes.is_empty()) {
        (Some(want), true, false) => {
            let known: Vec<String> = changes.iter().map(|c| clean(&c.path)).collect();
            body.push(Block::Line(Text::toned(
                format!("no file change at {} (changed: {})", clean(want), known.join(", ")),
                Tone::Warn,
            )));
        }
        (_, true, _) => body.push(Block::Line(Text::toned(empty_text(ctx.attempt), Tone::Soft))),
        _ => {}
    }
    for c in &shown {
        let (word, tone) = change_kind(c.kind);
        body.push(Block::Section(Section::new(clean(&c.path), Text::toned(word, tone), detail(c))));
    }
    let meta = state_text(ctx.attempt).with(format!(" · {}", count(shown.len(), "file", "files")), Tone::Soft);
    Section::new("File changes", meta, body)
}
