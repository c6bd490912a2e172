//! A table row whose cells each fit on one line (or are cut to one), passed
//! up through the sections that indent it before it is made into a line.
//! The top of the drawing writes it straight into the output when nothing
//! would change on the way ([`RowLine::write_into`]); otherwise it is made
//! into a [`Text`] and drawn like any other line ([`RowLine::text`]). Both
//! give the same characters: a row of a million-event timeline is drawn
//! without a `Text` of a dozen spans made, indented twice and measured again.

use super::{Align, Overflow, Table, Text, Tone, write_span};
use crate::model::text;

/// One row of `table`, at the column `widths` the table was fitted to.
pub(super) struct RowLine<'t> {
    /// Spaces the enclosing sections put before it.
    pub indent: usize,
    pub cells: &'t [Text],
    /// The cells' widths ([`super::cell_widths`]).
    pub cell_w: &'t [usize],
    pub table: &'t Table,
    pub widths: &'t [usize],
    pub sep: &'static str,
}

impl RowLine<'_> {
    /// No cell is wider than its column and wraps.
    pub fn is_one_line(&self) -> bool {
        let wraps = |i: usize| self.table.columns[i].overflow == Overflow::Wrap;
        self.widths.iter().enumerate().all(|(i, &w)| self.cells.get(i).is_none() || self.cell_w[i] <= w || !wraps(i))
    }

    /// The row as a line, `None` when a cell is wider than its column and wraps.
    pub fn text(&self) -> Option<Text> {
        let mut line = Text::new();
        for (i, w) in self.widths.iter().copied().enumerate() {
            if i > 0 {
                line.push(self.sep, Tone::Soft);
            }
            let (cell, cell_w) = match self.cells.get(i) {
                None => (Text::new(), 0),
                Some(cell) => match (self.cell_w[i], self.table.columns[i].overflow) {
                    (cw, _) if cw <= w => (cell.clone(), cw),
                    (cw, Overflow::Cut) => cell.cut_measured(w, cw),
                    (_, Overflow::Wrap) => return None,
                },
            };
            let pad = " ".repeat(w.saturating_sub(cell_w));
            match self.table.columns[i].align {
                Align::Right => {
                    line.push(pad, Tone::Plain);
                    line.append(cell);
                }
                Align::Left => {
                    line.append(cell);
                    line.push(pad, Tone::Plain);
                }
            }
        }
        for _ in 0..self.indent / 2 {
            if !line.is_empty() {
                line = line.indented("  ");
            }
        }
        Some(line)
    }

    /// Write into `buf` (cleared first) what `render_text` of [`RowLine::text`]
    /// cut to `width` gives, and say so; false when the row is not drawn as
    /// it stands: it is wider than `width`, it is empty, a cell wraps, or
    /// a piece would join the cluster before it (a combining mark after a
    /// space), which moves span boundaries and so widths and colours.
    pub fn write_into(&self, width: usize, color: bool, buf: &mut String) -> bool {
        buf.clear();
        let sep_w = text::width(self.sep);
        let total = self.indent + self.widths.iter().sum::<usize>() + sep_w * self.widths.len().saturating_sub(1);
        if total > width || total == 0 {
            return false;
        }
        let mut pen = Pen { buf, color, last: None };
        pen.spaces(self.indent);
        for (i, w) in self.widths.iter().copied().enumerate() {
            if i > 0 && !pen.put(self.sep, Tone::Soft) {
                return false;
            }
            let right = self.table.columns[i].align == Align::Right;
            let drawn_w = match self.cells.get(i) {
                // No cell: its column of spaces.
                None => Some(0),
                Some(cell) if self.cell_w[i] <= w => {
                    let drawn = self.cell_w[i];
                    let padded = !right || pen.spaces(w - drawn);
                    (padded && cell.spans().iter().all(|(s, tone)| pen.put(s, *tone))).then_some(drawn)
                }
                // A cut cell's width is known once it is written: right-aligned, it goes the old way.
                Some(_) if right || self.table.columns[i].overflow == Overflow::Wrap => None,
                Some(cell) => put_cut(&mut pen, cell, w),
            };
            let Some(drawn_w) = drawn_w else { return false };
            let padded_before = right && self.cells.get(i).is_some();
            if !padded_before && !pen.spaces(w.saturating_sub(drawn_w)) {
                return false;
            }
        }
        true
    }
}

/// The pieces of [`Text::cut_measured`]: the spans that fit, the head of
/// the one that does not, and `…` in that span's tone; and the width they
/// make (what `cut_measured` measures when no piece joins another, which
/// the pen refuses). `None` when a piece would join.
fn put_cut(pen: &mut Pen, cell: &Text, w: usize) -> Option<usize> {
    if w == 0 {
        return Some(0);
    }
    let mut left = w - 1;
    let mut last_tone = Tone::Plain;
    for (s, tone) in cell.spans() {
        last_tone = *tone;
        let sw = text::width(s);
        if sw <= left {
            pen.put(s, *tone).then_some(())?;
            left -= sw;
            continue;
        }
        let (head, head_w) = text::head_within(s, left);
        pen.put(head, *tone).then_some(())?;
        left -= head_w;
        break;
    }
    pen.put("…", last_tone).then_some(w - 1 - left + text::width("…"))
}

/// Writes pieces as `render_text` writes spans, refusing one that would
/// join the last piece's final cluster.
struct Pen<'b> {
    buf: &'b mut String,
    color: bool,
    /// Where in `buf` the text of the last piece written is.
    last: Option<std::ops::Range<usize>>,
}

impl Pen<'_> {
    fn joins_last(&self, s: &str) -> bool {
        self.last.clone().is_some_and(|r| text::continues_cluster(&self.buf[r], s))
    }

    fn put(&mut self, s: &str, tone: Tone) -> bool {
        if s.is_empty() {
            return true;
        }
        if self.joins_last(s) {
            return false;
        }
        write_span(self.buf, s, tone, self.color);
        // The piece's text ends where its reset code, if any, begins (a
        // span holds no escape character: it is sanitised).
        const RESET: &str = "\u{1b}[0m";
        let end = self.buf.len() - if self.buf.ends_with(RESET) { RESET.len() } else { 0 };
        self.last = Some(end - s.len()..end);
        true
    }

    /// `n` spaces in the plain tone (a pad, an indent).
    fn spaces(&mut self, n: usize) -> bool {
        if n == 0 {
            return true;
        }
        if self.joins_last(" ") {
            return false;
        }
        let from = self.buf.len();
        self.buf.extend(std::iter::repeat_n(' ', n));
        self.last = Some(from..self.buf.len());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Column, cell_widths, fit_columns, render_text};
    use super::*;
    use proptest::prelude::*;

    /// Pieces that stand alone, and ones that join what comes before or after them.
    const PIECES: &[&str] =
        &["ab", "x", " ", "→", "✓ ok", "…", "日本", "e\u{301}", "\u{301}", "\u{600}", "👍🏽", "🇫", "🇷", "a\u{200d}", ""];
    /// The [`PIECES`] that join the cluster before or after them.
    const JOINERS: &[usize] = &[8, 9, 11, 12, 13];
    const TONES: &[Tone] = &[Tone::Plain, Tone::Soft, Tone::Bad, Tone::Accent];

    fn cell(picks: &[(usize, usize)]) -> Text {
        let mut t = Text::new();
        for &(p, tone) in picks {
            t.push(PIECES[p % PIECES.len()], TONES[tone % TONES.len()]);
        }
        t
    }

    proptest! {
        /// Written straight or made into a line, a row reads the same; and
        /// a plain row of a timeline is always written straight.
        #[test]
        fn write_into_draws_what_text_draws(
            rows in prop::collection::vec(prop::collection::vec(prop::collection::vec((0usize..15, 0usize..4), 0..4), 4), 1..4),
            avail in 4usize..40,
            indent in 0usize..3,
            color: bool,
            boxed: bool,
        ) {
            let columns = vec![Column::fixed("pos"), Column::right("n"), Column::cut("summary"), Column::left("status")];
            let table = Table {
                columns,
                rows: rows.iter().map(|r| r.iter().map(|c| cell(c)).collect()).collect(),
                floor: vec![],
            };
            let cells = cell_widths(&table);
            let (widths, _) = fit_columns(&table, &cells, avail, 3);
            let sep = if boxed { " │ " } else { "   " };
            let top = avail + indent * 2;
            let mut buf = String::new();
            for (r, row) in table.rows.iter().enumerate() {
                let line = RowLine { indent: indent * 2, cells: row, cell_w: &cells[r * 4..r * 4 + 4], table: &table, widths: &widths, sep };
                let text = line.text();
                prop_assert_eq!(text.is_some(), line.is_one_line());
                let Some(text) = text else { continue };
                let joins = rows[r].iter().flatten().any(|(p, _)| JOINERS.contains(&(p % PIECES.len())));
                if line.write_into(top, color, &mut buf) {
                    prop_assert_eq!(&buf, &render_text(&text.truncate_into(top), color));
                } else {
                    prop_assert!(joins, "a row of pieces that join nothing is written straight");
                }
            }
        }
    }

    #[test]
    fn a_plain_row_is_written_straight() {
        let table = Table {
            columns: vec![Column::fixed("pos"), Column::cut("summary"), Column::fixed("status")],
            rows: vec![vec![
                Text::plain("1:2"),
                Text::plain("Read src/a.rs → ok, a long summary"),
                Text::toned("✓ completed", Tone::Good),
            ]],
            floor: vec![],
        };
        let cells = cell_widths(&table);
        let (widths, _) = fit_columns(&table, &cells, 40, 3);
        let line =
            RowLine { indent: 4, cells: &table.rows[0], cell_w: &cells, table: &table, widths: &widths, sep: "   " };
        let mut buf = String::new();
        assert!(line.write_into(44, true, &mut buf));
        let soft_sep = "\u{1b}[90m   \u{1b}[0m";
        assert_eq!(buf, format!("    1:2{soft_sep}Read src/a.rs → ok,…{soft_sep}\u{1b}[32m✓ completed\u{1b}[0m"));
        // Too wide for the output: left to the line's own cutting.
        assert!(!line.write_into(43, true, &mut buf));
    }
}
