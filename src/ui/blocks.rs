//! Draws the view's blocks as ratatui lines at a width: what only a screen
//! adds is here (wrapping at the panel's width, JSON highlighting, diffs as
//! colours); every word and number comes from the view.

use super::highlight::json_lines;
use super::theme::{Theme, ThemeName};
use crate::model::text::{Lines, sanitize, truncate};
use crate::view::blocks::{Align, Block, Table};
use crate::view::{Text, Tone};
use ratatui::text::{Line, Span};
use serde_json::Value;

/// Payload text longer than this is cut with a stated count (the whole
/// value: `o` opens it in $PAGER, `y` copies it).
pub const PREVIEW_CHARS: usize = 200_000;

/// Lines of `blocks` at `width` columns.
pub fn lines(blocks: &[Block], width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for b in blocks {
        block(b, width.max(8), theme, &mut out);
    }
    out
}

fn text_lines(t: &Text, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    for piece in t.wrap(width) {
        out.push(Line::from(theme.spans(&piece)));
    }
}

fn indented(blocks: &[Block], indent: usize, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    let pad = " ".repeat(indent);
    for l in lines(blocks, width.saturating_sub(indent).max(8), theme) {
        let mut spans = vec![Span::raw(pad.clone())];
        spans.extend(l.spans);
        out.push(Line::from(spans));
    }
}

fn block(b: &Block, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    match b {
        Block::Line(t) => text_lines(t, width, theme, out),
        Block::Blank => out.push(Line::raw("")),
        Block::Kv(label, value) => {
            let lw = label.width();
            if lw + 12 > width {
                return text_lines(&label.clone().with_text(value.clone()), width, theme, out);
            }
            for (i, v) in value.wrap(width - lw).into_iter().enumerate() {
                let lead = if i == 0 { label.clone() } else { Text::plain(" ".repeat(lw)) };
                out.push(Line::from(theme.spans(&lead.with_text(v))));
            }
        }
        Block::Section(s) => {
            out.push(Line::raw(""));
            let mut head = Text::toned(s.title.clone(), Tone::Bold);
            if !s.meta.is_empty() {
                head.push("  ", Tone::Plain);
                head.append(s.meta.clone());
            }
            text_lines(&head, width, theme, out);
            indented(&s.body, 2, width, theme, out);
        }
        Block::Body(s, tone) => body(s, *tone, width, theme, out),
        Block::Json(v) => json(v, width, theme, out),
        Block::Field { label, lead, value } => {
            text_lines(&label.clone().with_text(lead.clone()), width, theme, out);
            indented(&crate::view::payload::blocks(value), 2, width, theme, out);
        }
        Block::Diff { expected, received } => {
            let side_by_side = width >= crate::view::diff::SIDE_BY_SIDE;
            let lines = crate::view::diff::value_lines(expected, received, width, side_by_side);
            out.extend(lines.iter().map(|t| Line::from(theme.spans(t))));
        }
        Block::Patch { before, after } => {
            let lines = crate::view::diff::patch_lines(before, after, width);
            out.extend(lines.iter().map(|t| Line::from(theme.spans(t))));
        }
        Block::Table(t) => table(t, width, theme, out),
        Block::Waterfall(w) => {
            out.extend(crate::view::waterfall::layout(w, width).iter().map(|t| Line::from(theme.spans(t))));
        }
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

fn more_line(n: usize, theme: &Theme) -> Line<'static> {
    Line::styled(crate::view::chrome::more_characters(n), theme.dim)
}

fn body(s: &str, tone: Tone, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    let (shown, more) = cut(s);
    crate::view::text::body_lines(shown, tone, &mut |line| text_lines(&line, width, theme, out));
    if more > 0 {
        out.push(more_line(more, theme));
    }
}

fn json(v: &Value, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
    let pretty = serde_json::to_string_pretty(v).unwrap_or_default();
    let (shown, more) = cut(&pretty);
    let safe = sanitize(shown, Lines::Multi);
    for line in json_lines(&safe, theme.name != ThemeName::Mono, theme.name == ThemeName::Dark) {
        // Long JSON lines wrap as plain text rather than run off the panel,
        // hanging two columns past their own indent (the tree stays readable).
        if line.width() > width {
            let plain: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            let body = plain.trim_start_matches(' ');
            let lead = plain.len() - body.len();
            if lead + 2 + 12 > width {
                text_lines(&Text::plain(plain), width, theme, out);
                continue;
            }
            for (i, piece) in Text::plain(body).wrap(width - lead - 2).into_iter().enumerate() {
                let pad = " ".repeat(if i == 0 { lead } else { lead + 2 });
                out.push(Line::from(theme.spans(&Text::plain(pad).with_text(piece))));
            }
        } else {
            out.push(line);
        }
    }
    if more > 0 {
        out.push(more_line(more, theme));
    }
}

/// A table in columns: natural widths, the widest shrinkable column giving
/// way until it fits, cells cut with `…`.
fn table(t: &Table, width: usize, theme: &Theme, out: &mut Vec<Line<'static>>) {
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
        out.push(Line::from(theme.spans(&l.truncate(width))));
    }
}

/// One list row of cells laid out in fixed columns (only rows on screen are made).
pub fn list_line(cells: &[Text], widths: &[usize], theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, w) in widths.iter().enumerate() {
        let cell = cells.get(i).cloned().unwrap_or_default();
        let last = i + 1 == widths.len();
        let cell = cell.truncate(*w);
        let pad = if last { String::new() } else { " ".repeat(w.saturating_sub(cell.width()) + 1) };
        spans.extend(theme.spans(&cell));
        if !pad.is_empty() {
            spans.push(Span::raw(pad));
        }
    }
    Line::from(spans)
}

/// Column widths for a list: each fixed column at `fixed[i]`, the last one
/// gets the rest.
pub fn list_widths(fixed: &[usize], width: usize) -> Vec<usize> {
    let used: usize = fixed.iter().map(|w| w + 1).sum();
    let mut w = fixed.to_vec();
    w.push(width.saturating_sub(used).max(4));
    w
}

/// `text` cut to `width` columns (for titles drawn by ratatui blocks).
pub fn cut_to(text: &str, width: usize) -> String {
    truncate(text, width)
}
