//! Drawing blocks as lines: sections (plain: indented; boxed: rounded boxes
//! with nested dividers) and tables. Lines go to a sink as they are made, so
//! a table cell of many megabytes is never held as a list of all its lines.

use super::row::RowLine;
use super::{Align, Block, Column, Overflow, Section, Table, Text, Tone, cell_widths, fit_columns, render_text};
use crate::model::text;
use crate::view::blocks::TurnRows;

/// A line of rendered output before it goes into a box.
enum Out<'t> {
    Body(Text),
    Divider(String, Text),
    /// A table row of one line, made into a line only at the top ([`RowLine`]).
    Row(RowLine<'t>),
}

/// Lends the rows of a [`Block::TurnRows`] to `draw` when it is drawn (the
/// view's `report::turn_rows_table`); the lender keeps the table, so it can
/// be freed where it was made. Blocks without such tables can pass [`no_turn_rows`].
pub type TurnRowsFn<'r> = &'r dyn Fn(&TurnRows, &mut dyn FnMut(&Table));

/// For blocks that hold no [`Block::TurnRows`] (only the view's report makes them).
pub fn no_turn_rows(_: &TurnRows, draw: &mut dyn FnMut(&Table)) {
    draw(&Table { columns: Vec::new(), rows: Vec::new(), floor: Vec::new() })
}

/// How blocks are drawn: boxed or not, and where deferred rows come from.
struct Draw<'r> {
    boxed: bool,
    turn_rows: TurnRowsFn<'r>,
}

/// Render top-level blocks to a string ending in a newline.
pub fn render(blocks: &[Block], width: usize, boxed: bool, color: bool, turn_rows: TurnRowsFn) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and only whole `str`s are written.
    let _ = render_to(blocks, width, boxed, color, turn_rows, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The width text asked to be `width` wide is drawn at: never under 20.
pub fn drawn_width(width: usize) -> usize {
    width.max(20)
}

/// [`render`], each line written to `out` as soon as it is made.
pub fn render_to(
    blocks: &[Block],
    width: usize,
    boxed: bool,
    color: bool,
    turn_rows: TurnRowsFn,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let width = drawn_width(width);
    let d = Draw { boxed: boxed && width >= 60, turn_rows };
    let mut result = Ok(());
    let mut line_out = |line: &str| {
        if result.is_ok() {
            result = out.write_all(line.trim_end().as_bytes()).and_then(|()| out.write_all(b"\n"));
        }
    };
    let mut row_buf = String::new();
    for block in blocks {
        match (block, d.boxed) {
            (Block::Section(s), true) => render_box(s, width, color, &d, &mut line_out),
            (b, _) => emit_block(b, width, &d, &mut |o| match o {
                Out::Body(t) => line_out(&render_text(&t.truncate_into(width), color)),
                Out::Row(r) if r.write_into(width, color, &mut row_buf) => line_out(&row_buf),
                Out::Row(r) => line_out(&render_text(&r.text().unwrap_or_default().truncate_into(width), color)),
                Out::Divider(title, meta) => line_out(&render_text(&rule_line(&title, &meta, width), color)),
            }),
        }
    }
    result
}

fn render_box(s: &Section, width: usize, color: bool, d: &Draw, out: &mut dyn FnMut(&str)) {
    let box_w = width.min(100);
    let content_w = box_w - 4;
    out(&render_text(&border_line('╭', '╮', &s.title, &s.meta, box_w), color));
    for b in &s.body {
        emit_block(b, content_w, d, &mut |o| match o {
            Out::Body(t) => out(&format!("│ {} │", render_text(&exact(t, content_w), color))),
            Out::Row(r) => out(&format!("│ {} │", render_text(&exact(r.text().unwrap_or_default(), content_w), color))),
            Out::Divider(title, meta) => out(&render_text(&border_line('├', '┤', &title, &meta, box_w), color)),
        });
    }
    out(&format!("╰{}╯", "─".repeat(box_w - 2)));
}

/// `t` cut or padded to exactly `w` columns. Spans are measured one by one;
/// should their joined text measure otherwise, it is fitted as one string.
fn exact(t: Text, w: usize) -> Text {
    let t = t.truncate_into(w).pad_into(w);
    let plain = t.as_plain();
    if text::width(&plain) == w { t } else { Text::plain(text::fit(&plain, w)) }
}

/// "╭─ Title ───── meta ─╮" at exactly `w` columns: shorten the fill, then
/// the title (middle ellipsis); a short title keeps the start of a long
/// meta (cut with `…`); otherwise the meta is dropped.
fn border_line(left: char, right: char, title: &str, meta: &Text, w: usize) -> Text {
    let inner = w.saturating_sub(2);
    let title_w = text::width(title);
    let meta_w = meta.width();
    let mut t = Text::plain(left.to_string());
    // Layout: "─ " title " " fill " " meta " ─"  => 1+1+title+1+fill(>=1)+1+meta+1+1
    let fixed_with_meta = 7 + meta_w;
    if !meta.is_empty() && title_w + fixed_with_meta <= inner {
        let fill = inner - title_w - 6 - meta_w;
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta.clone());
        t.push(" ─", Tone::Plain);
    } else if !meta.is_empty() && inner >= fixed_with_meta + 8 {
        let title = text::middle_ellipsis(title, inner - fixed_with_meta);
        let fill = inner.saturating_sub(text::width(&title) + 6 + meta_w);
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta.clone());
        t.push(" ─", Tone::Plain);
    } else if !meta.is_empty() && title_w <= 24 && inner >= title_w + 7 + 16 {
        // A short title and a long meta: the meta's end is cut rather than
        // the whole meta dropped (a turn's status comes first in it).
        let meta = meta.truncate(inner - title_w - 7);
        let fill = inner.saturating_sub(title_w + 6 + meta.width());
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta);
        t.push(" ─", Tone::Plain);
    } else {
        let title = text::middle_ellipsis(title, inner.saturating_sub(4));
        let fill = inner.saturating_sub(text::width(&title) + 3);
        t.push(format!("─ {title} {}", "─".repeat(fill)), Tone::Plain);
    }
    t.push(right.to_string(), Tone::Plain);
    if text::width(&t.as_plain()) == w {
        return t;
    }
    // Not reached while every width here is measured the same way; a border
    // of the wrong width would misdraw the whole box, so fit the title alone.
    Text::plain(format!("{left}─ {} ─{right}", text::fit(title, inner.saturating_sub(4))))
}

/// A rule for a section heading outside a box (boxed mode below 60 never happens; kept for safety).
fn rule_line(title: &str, meta: &Text, w: usize) -> Text {
    let mut t = Text::plain(format!("── {title} "));
    if !meta.is_empty() {
        t.append(meta.clone());
        t.push(" ", Tone::Plain);
    }
    let used = t.width();
    t.push("─".repeat(w.saturating_sub(used).max(2)), Tone::Plain);
    t.truncate(w)
}

fn emit_block(block: &Block, width: usize, d: &Draw, out: &mut dyn FnMut(Out)) {
    match block {
        Block::Line(t) => t.wrap_lines(width).for_each(|l| out(Out::Body(l))),
        Block::Body(s, tone) => multi_line(s, *tone, width, out),
        Block::Json(v) => multi_line(&serde_json::to_string_pretty(v).unwrap_or_default(), Tone::Plain, width, out),
        Block::Field { label, lead, value } => {
            let lw = label.width();
            out(Out::Body(label.clone().with_text(lead.clone()).truncate(width)));
            let pad = Text::plain(" ".repeat(lw));
            for b in crate::view::payload::blocks(value) {
                emit_block(&b, width.saturating_sub(lw).max(10), d, &mut |o| match o {
                    Out::Body(t) if t.is_empty() => out(Out::Body(t)),
                    Out::Body(t) => out(Out::Body(pad.clone().with_text(t))),
                    Out::Row(r) => match r.text().unwrap_or_default() {
                        t if t.is_empty() => out(Out::Body(t)),
                        t => out(Out::Body(pad.clone().with_text(t))),
                    },
                    d => out(d),
                });
            }
        }
        Block::Diff { expected, received } => {
            for t in crate::view::diff::value_lines(expected, received, width, false) {
                t.wrap_lines(width).for_each(|l| out(Out::Body(l)));
            }
        }
        Block::Patch { before, after } => {
            crate::view::diff::patch_lines(before, after, width).into_iter().for_each(|l| out(Out::Body(l)));
        }
        Block::Kv(label, value) => {
            let lw = label.width();
            if lw + 12 > width {
                let mut t = label.clone();
                t.append(value.clone());
                t.wrap_lines(width).for_each(|l| out(Out::Body(l)));
                return;
            }
            for (i, v) in value.wrap_lines(width - lw).enumerate() {
                let lead = if i == 0 { label.clone() } else { Text::plain(" ".repeat(lw)) };
                out(Out::Body(lead.with_text(v)));
            }
        }
        Block::Blank => out(Out::Body(Text::new())),
        Block::Waterfall(w) => crate::view::waterfall::layout(w, width).into_iter().for_each(|l| out(Out::Body(l))),
        Block::Table(t) => table_part_lines(t, width, d.boxed, (true, true), out),
        Block::TurnRows(r) => {
            (d.turn_rows)(r, &mut |table| table_part_lines(table, width, d.boxed, (r.first, r.last), out))
        }
        Block::Section(s) if d.boxed => {
            out(Out::Divider(s.title.clone(), s.meta.clone()));
            for b in &s.body {
                emit_block(b, width, d, out);
            }
        }
        Block::Section(s) => {
            let title = Text::toned(text::middle_ellipsis(&s.title, width), Tone::Bold);
            let tw = title.width();
            let mw = s.meta.width();
            if s.meta.is_empty() {
                out(Out::Body(title));
            } else if tw + 3 + mw <= width {
                let mut line = title;
                line.push(" ".repeat(width - tw - mw), Tone::Plain);
                line.append(s.meta.clone());
                out(Out::Body(line));
            } else {
                out(Out::Body(title));
                for l in s.meta.wrap_lines(width.saturating_sub(2)) {
                    out(Out::Body(Text::plain("  ").with_text(l)));
                }
            }
            let inner = width.saturating_sub(2).max(10);
            for b in &s.body {
                emit_block(b, inner, d, &mut |o| match o {
                    Out::Body(t) => out(Out::Body(if t.is_empty() { t } else { t.indented("  ") })),
                    Out::Row(r) => out(Out::Row(RowLine { indent: r.indent + 2, ..r })),
                    d => out(d),
                });
            }
        }
    }
}

/// Render a table at most `avail` columns wide.
pub fn render_table(table: &Table, avail: usize, boxed: bool) -> Vec<Text> {
    let mut lines = Vec::new();
    table_part_lines(table, avail, boxed, (true, true), &mut |o| match o {
        Out::Body(t) => lines.push(t),
        Out::Row(r) => lines.push(r.text().unwrap_or_default()),
        Out::Divider(..) => {}
    });
    lines
}

/// The lines of one table row: each cell gives its lines in turn (a wrapped
/// cell one at a time), until every cell has given all of its own.
type CellLines<'a> = Box<dyn Iterator<Item = Text> + 'a>;

/// A table, or a part of one: the first part draws the header, the last the
/// note of dropped columns.
fn table_part_lines(table: &Table, avail: usize, boxed: bool, (first, last): (bool, bool), out: &mut dyn FnMut(Out)) {
    let sep = if boxed { " │ " } else { "   " };
    let cells = cell_widths(table);
    let (widths, dropped) = fit_columns(table, &cells, avail, 3);
    let shown = widths.len();
    if first {
        header_lines(table, &widths, boxed, sep, &mut |t| out(Out::Body(t)));
    }
    let n = table.columns.len();
    for (r, row) in table.rows.iter().enumerate() {
        let cell_w = &cells[r * n..(r + 1) * n];
        let line = RowLine { indent: 0, cells: row, cell_w, table, widths: &widths, sep };
        if line.is_one_line() {
            out(Out::Row(line));
            continue;
        }
        let cells: Vec<CellLines> = (0..shown)
            .map(|i| {
                let w = widths[i];
                let Some(cell) = row.get(i) else { return Box::new(std::iter::once(Text::new())) as CellLines };
                match table.columns[i].overflow {
                    _ if cell.width() <= w => Box::new(std::iter::once(cell.clone())),
                    Overflow::Cut => Box::new(std::iter::once(cell.truncate(w))),
                    Overflow::Wrap => Box::new(cell.wrap_lines(w).map(move |l| l.truncate(w))),
                }
            })
            .collect();
        row_lines(cells, &widths, &table.columns, sep, &mut |t| out(Out::Body(t)));
    }
    if dropped > 0 && last {
        out(Out::Body(Text::toned(crate::view::chrome::columns_not_shown(dropped), Tone::Soft)));
    }
}

fn header_lines(table: &Table, widths: &[usize], boxed: bool, sep: &str, out: &mut dyn FnMut(Text)) {
    let header: Vec<CellLines> = table.columns[..widths.len()]
        .iter()
        .zip(widths)
        .map(|(c, w)| Box::new(std::iter::once(Text::toned(text::truncate(&c.header, *w), Tone::Bold))) as CellLines)
        .collect();
    row_lines(header, widths, &table.columns, sep, out);
    if boxed {
        let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        out(Text::toned(rule.join("─┼─"), Tone::Soft));
    }
}

fn row_lines(mut cells: Vec<CellLines>, widths: &[usize], cols: &[Column], sep: &str, out: &mut dyn FnMut(Text)) {
    if cells.is_empty() {
        out(Text::new());
        return;
    }
    loop {
        let parts: Vec<Option<Text>> = cells.iter_mut().map(Iterator::next).collect();
        if parts.iter().all(Option::is_none) {
            return;
        }
        let mut line = Text::new();
        for (i, (w, part)) in widths.iter().zip(parts).enumerate() {
            if i > 0 {
                line.push(sep, Tone::Soft);
            }
            let cell = part.unwrap_or_default();
            match cols[i].align {
                Align::Right => {
                    line.push(" ".repeat(w.saturating_sub(cell.width())), Tone::Plain);
                    line.append(cell);
                }
                Align::Left => line.append(cell.pad_into(*w)),
            }
        }
        out(line);
    }
}

/// Text from a file on its own lines, each wrapped at words, one line at a time.
fn multi_line(s: &str, tone: Tone, width: usize, out: &mut dyn FnMut(Out)) {
    crate::view::text::body_lines(s, tone, &mut |line| line.wrap_lines(width).for_each(|l| out(Out::Body(l))));
}
