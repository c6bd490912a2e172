//! Neutral blocks: what a surface shows, before it is laid out. The view
//! builds them; `plain` lays them out as text (boxed or plain) and `ui`
//! draws them with ratatui. Nothing here knows a width or a colour.

use super::text::{Text, Tone, clean};
use crate::model::text;

/// Column alignment; right-aligned (numeric) columns never shrink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// What a cell does when its column is narrower than the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    Wrap,
    Cut,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub header: String,
    pub align: Align,
    pub overflow: Overflow,
    /// False for columns that keep their natural width (like numeric ones).
    pub shrink: bool,
}

impl Column {
    pub fn left(h: &str) -> Column {
        Column { header: h.into(), align: Align::Left, overflow: Overflow::Wrap, shrink: true }
    }
    pub fn right(h: &str) -> Column {
        Column { header: h.into(), align: Align::Right, overflow: Overflow::Cut, shrink: false }
    }
    pub fn cut(h: &str) -> Column {
        Column { header: h.into(), align: Align::Left, overflow: Overflow::Cut, shrink: true }
    }
    /// A short left-aligned column that keeps its natural width.
    pub fn fixed(h: &str) -> Column {
        Column { header: h.into(), align: Align::Left, overflow: Overflow::Cut, shrink: false }
    }

    /// The narrowest a layout makes this column, the `index`th of its
    /// table, when its cells are `natural` wide: a right-aligned one keeps
    /// its width, a fixed one up to 24 columns of it, one that shrinks goes
    /// down to 8 (24 for the first column, which names the row).
    pub fn least_width(&self, natural: usize, index: usize) -> usize {
        match (self.align, self.shrink) {
            (Align::Right, _) => natural,
            (Align::Left, false) => natural.min(24),
            (Align::Left, true) => natural.min(if index == 0 { 24 } else { 8 }),
        }
    }
}

/// Whether a table laid out at most `widest` columns wide comes out the
/// same for every width of column `c` from [`wide_enough`] up, the other
/// columns being `natural` wide: so when none of them can give up width
/// (each is at its least). Column `c` then takes what the others leave, or
/// is dropped, whatever its cells; a table measured that far need not be
/// measured further (`show` of a million rows measures each once).
pub fn settled_past(columns: &[Column], natural: &[usize], c: usize) -> bool {
    columns.iter().zip(natural).enumerate().all(|(i, (col, &w))| i == c || col.least_width(w, i) == w)
}

/// Whether column `c`, `natural[c]` wide, is wide enough that a table at
/// most `widest` wide must shrink: the columns together are that wide, and
/// it is at its least whatever wider (past 8, say).
pub fn wide_enough(columns: &[Column], natural: &[usize], c: usize, widest: usize) -> bool {
    let least = |w: usize| columns.get(c).map(|col| col.least_width(w, c));
    natural.iter().sum::<usize>() >= widest && natural.get(c).is_some_and(|&w| least(w) == least(usize::MAX))
}

#[derive(Debug, Clone)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Text>>,
    /// Minimum natural widths (so sibling tables can share column widths).
    pub floor: Vec<usize>,
}

/// A block of output.
#[derive(Debug, Clone)]
pub enum Block {
    Line(Text),
    /// "label  value": the value wraps under itself.
    Kv(Text, Text),
    Blank,
    Table(Table),
    Section(Section),
    /// Text from a file, on as many lines as it has, wrapped at words.
    Body(String, Tone),
    /// A JSON value: pretty and highlighted on screen; in text one line, or
    /// pretty with `--full`.
    Json(serde_json::Value),
    /// "label  lead" and a payload: on screen the payload's blocks follow
    /// ([`super::payload::blocks`]); in text it is one line after the lead,
    /// or its blocks with `--full`.
    Field {
        label: Text,
        lead: Text,
        value: serde_json::Value,
    },
    /// Expected against received: a word diff for one line, a line diff otherwise.
    Diff {
        expected: String,
        received: String,
    },
    /// A file's content before and after, as a unified diff.
    Patch {
        before: String,
        after: String,
    },
    /// Intervals on a time axis; [`super::waterfall::layout`] lays it out
    /// for a width (both renderers draw the same cells).
    Waterfall(super::waterfall::Waterfall),
    /// A turn's timeline table whose rows are made when it is drawn (see
    /// [`super::report::turn_rows_table`]), so that `show` of a million
    /// events holds one turn's rows at a time, never all of them.
    TurnRows(TurnRows),
}

/// Which turn's rows a [`Block::TurnRows`] stands for, and the column widths
/// its sibling tables share (measured over every selected turn before).
#[derive(Debug, Clone)]
pub struct TurnRows {
    /// The attempt's index in the document.
    pub attempt: usize,
    /// A part of the turn's rows (timeline indices): a turn of many rows is
    /// drawn in several parts, the first with the column headers, the last
    /// with any note of dropped columns.
    pub rows: std::ops::Range<usize>,
    pub first: bool,
    pub last: bool,
    pub floor: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct Section {
    pub title: String,
    pub meta: Text,
    pub body: Vec<Block>,
}

impl Section {
    pub fn new(title: impl Into<String>, meta: Text, body: Vec<Block>) -> Section {
        Section { title: clean(&title.into()), meta, body }
    }
}

/// A "label   value" line whose value wraps under itself.
pub fn kv(label: &str, label_w: usize, value: Text) -> Block {
    let mut t = Text::toned(text::fit(label, label_w), Tone::Soft);
    t.push("  ", Tone::Plain);
    Block::Kv(t, value)
}

/// Several "label  value" lines with aligned values.
pub fn kv_lines(rows: Vec<(&str, Text)>) -> Vec<Block> {
    let w = rows.iter().map(|(l, _)| text::width(l)).max().unwrap_or(0);
    rows.into_iter().map(|(l, v)| kv(l, w, v)).collect()
}

/// Natural width of each column (header and cells).
pub fn natural_widths(table: &Table) -> Vec<usize> {
    let mut natural: Vec<usize> = table.columns.iter().map(|c| text::width(&c.header)).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate().take(natural.len()) {
            natural[i] = natural[i].max(cell.width());
        }
    }
    natural
}

/// The widths of a viewer list's columns in `width`: each column but the
/// last as wide as its widest cell among `rows` (at most `caps[i]`), the
/// last one the rest, so a short code is never cut for a column sized for
/// the widest one could be (`ambiguous-oper…`).
pub fn fitted_widths(rows: &[Vec<Text>], caps: &[usize], width: usize) -> Vec<usize> {
    let mut w: Vec<usize> = caps
        .iter()
        .enumerate()
        .map(|(i, cap)| rows.iter().filter_map(|r| r.get(i)).map(Text::width).max().unwrap_or(0).min(*cap))
        .collect();
    let used: usize = w.iter().map(|w| w + 1).sum();
    w.push(width.saturating_sub(used).max(4));
    w
}
