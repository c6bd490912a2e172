//! The view's blocks as lines at a width: what only a screen adds is here
//! (wrapping at the panel's width, JSON highlighting, diffs as looks);
//! every word and number comes from the view.

use super::json::json_lines;
use super::{Chrome, Line, Span, ThemeName, spans};
use crate::model::text::{Lines, sanitize};
use crate::view::blocks::{Align, Block, Table};
use crate::view::{Text, Tone};
use serde_json::Value;

/// Payload text longer than this is cut with a stated count (the whole
/// value: `o` opens it in $PAGER, `y` copies it).
pub const PREVIEW_CHARS: usize = 200_000;

/// Lines of `blocks` at `width` columns.
pub fn lines(blocks: &[Block], width: usize, theme: ThemeName) -> Vec<Line> {
    let mut out = Vec::new();
    for b in blocks {
        block(b, width.max(8), theme, &mut out);
    }
    out
}

fn text_lines(t: &Text, width: usize, out: &mut Vec<Line>) {
    for piece in t.wrap(width) {
        out.push(Line::of(&piece));
    }
}

fn indented(blocks: &[Block], indent: usize, width: usize, theme: ThemeName, out: &mut Vec<Line>) {
    let pad = " ".repeat(indent);
    for l in lines(blocks, width.saturating_sub(indent).max(8), theme) {
        let mut spans = vec![Span::bare(pad.clone())];
        spans.extend(l.spans);
        out.push(Line::new(spans));
    }
}

fn block(b: &Block, width: usize, theme: ThemeName, out: &mut Vec<Line>) {
    match b {
        Block::Line(t) => text_lines(t, width, out),
        Block::Blank => out.push(Line::default()),
        Block::Kv(label, value) => {
            let lw = label.width();
            if lw + 12 > width {
                return text_lines(&label.clone().with_text(value.clone()), width, out);
            }
            for (i, v) in value.wrap(width - lw).into_iter().enumerate() {
                let lead = if i == 0 { label.clone() } else { Text::plain(" ".repeat(lw)) };
                out.push(Line::of(&lead.with_text(v)));
            }
        }
        Block::Section(s) => {
            out.push(Line::default());
            let mut head = Text::toned(s.title.clone(), Tone::Bold);
            if !s.meta.is_empty() {
                head.push("  ", Tone::Plain);
                head.append(s.meta.clone());
            }
            text_lines(&head, width, out);
            indented(&s.body, 2, width, theme, out);
        }
        Block::Body(s, tone) => body(s, *tone, width, out),
        Block::Json(v) => json(v, width, theme, out),
        Block::Field { label, lead, value } => {
            text_lines(&label.clone().with_text(lead.clone()), width, out);
            indented(&crate::view::payload::blocks(value), 2, width, theme, out);
        }
        Block::Diff { expected, received } => {
            let side_by_side = width >= crate::view::diff::SIDE_BY_SIDE;
            let lines = crate::view::diff::value_lines(expected, received, width, side_by_side);
            out.extend(lines.iter().map(Line::of));
        }
        Block::Patch { before, after } => {
            out.extend(crate::view::diff::patch_lines(before, after, width).iter().map(Line::of));
        }
        Block::Table(t) => table(t, width, out),
        Block::Waterfall(w) => out.extend(crate::view::waterfall::layout(w, width).iter().map(Line::of)),
        // Only the report `show` prints defers its rows; the viewer draws its timeline from the view's rows.
        Block::TurnRows(_) => {}
    }
}

/// `text` cut at [`PREVIEW_CHARS`], and how many characters were left out.
fn cut(text: &str) -> (&str, usize) {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((at, _)) => (&text[..at], text[at..].chars().count()),
        None => (text, 0),
    }
}

fn more_line(n: usize) -> Line {
    Line::chrome(crate::view::chrome::more_characters(n), Chrome::Dim)
}

fn body(s: &str, tone: Tone, width: usize, out: &mut Vec<Line>) {
    let (shown, more) = cut(s);
    crate::view::text::body_lines(shown, tone, &mut |line| text_lines(&line, width, out));
    if more > 0 {
        out.push(more_line(more));
    }
}

fn json(v: &Value, width: usize, theme: ThemeName, out: &mut Vec<Line>) {
    let pretty = serde_json::to_string_pretty(v).unwrap_or_default();
    let (shown, more) = cut(&pretty);
    let safe = sanitize(shown, Lines::Multi);
    for line in json_lines(&safe, theme) {
        // Long JSON lines wrap as plain text rather than run off the panel,
        // hanging two columns past their own indent (the tree stays readable).
        if line.width() > width {
            let plain = line.plain();
            let body = plain.trim_start_matches(' ');
            let lead = plain.len() - body.len();
            if lead + 2 + 12 > width {
                text_lines(&Text::plain(plain), width, out);
                continue;
            }
            for (i, piece) in Text::plain(body).wrap(width - lead - 2).into_iter().enumerate() {
                let pad = " ".repeat(if i == 0 { lead } else { lead + 2 });
                out.push(Line::of(&Text::plain(pad).with_text(piece)));
            }
        } else {
            out.push(line);
        }
    }
    if more > 0 {
        out.push(more_line(more));
    }
}

/// A table in columns: natural widths, the widest shrinkable column giving
/// way until it fits, cells cut with `…`.
fn table(t: &Table, width: usize, out: &mut Vec<Line>) {
    let mut widths = crate::view::blocks::natural_widths(t);
    let gap = 2;
    let total = |w: &[usize]| w.iter().sum::<usize>() + gap * w.len().saturating_sub(1);
    while total(&widths) > width {
        let Some(i) = (0..widths.len()).filter(|&i| t.columns[i].shrink && widths[i] > 4).max_by_key(|&i| widths[i])
        else {
            break;
        };
        widths[i] -= 1;
    }
    let row = |cells: Vec<Text>| {
        let mut line = Text::new();
        for (i, w) in widths.iter().enumerate() {
            if i > 0 {
                line.push(" ".repeat(gap), Tone::Plain);
            }
            let cell = cells.get(i).cloned().unwrap_or_default().truncate(*w);
            let pad = " ".repeat(w.saturating_sub(cell.width()));
            match t.columns[i].align {
                Align::Right => line = line.with(pad, Tone::Plain).with_text(cell),
                Align::Left => line = line.with_text(cell).with(pad, Tone::Plain),
            }
        }
        line
    };
    let header = t.columns.iter().map(|c| Text::toned(c.header.clone(), Tone::Soft)).collect();
    let mut lines = vec![row(header)];
    lines.extend(t.rows.iter().map(|r| row(r.clone())));
    for l in lines {
        out.push(Line::new(spans(&l.truncate(width))));
    }
}
