//! Layout primitives of the house style (official-viewer §2): styled text,
//! sections (plain: indented; boxed: rounded boxes with nested dividers),
//! tables (3-column gaps, shrinking, dropping), key–value lines. Widths are
//! taken per grapheme cluster (see `model::text`); drawing is in [`draw`],
//! cutting and wrapping in [`wrap`].
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through `text::sanitize`; the helpers here ([`clean`]) do that.

mod draw;
mod wrap;

use crate::model::text::{self, Lines};
pub use crate::model::timeline::grouped;
pub use draw::{render, render_table, render_to};
pub use wrap::WrapLines;

/// Semantic tone of a span. Colour is only a second channel: every tone is
/// always accompanied by a word or mark that carries the meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    #[default]
    Plain,
    Good,
    Bad,
    Warn,
    Soft,
    Accent,
    Bold,
}

impl Tone {
    fn sgr(self) -> Option<&'static str> {
        match self {
            Tone::Plain => None,
            Tone::Good => Some("32"),
            Tone::Bad => Some("31"),
            Tone::Warn => Some("33"),
            Tone::Soft => Some("90"),
            Tone::Accent => Some("36"),
            Tone::Bold => Some("1"),
        }
    }
}

/// Input text made safe for one line.
pub fn clean(s: &str) -> String {
    text::sanitize(s, Lines::Single).into_owned()
}

/// `s` as it will be drawn: a span is measured as what [`Text::render`]
/// writes, so a control or zero-width character that reached a span
/// unsanitized cannot make the drawn line wider than the measured one.
fn drawable(s: String) -> String {
    match text::sanitize(&s, Lines::Single) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(safe) => safe,
    }
}

/// A line of styled spans. Widths are display widths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text {
    pub spans: Vec<(String, Tone)>,
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// Trusted text (our own words); input-derived text must be [`clean`]ed first.
    pub fn plain(s: impl Into<String>) -> Text {
        Text::toned(s, Tone::Plain)
    }

    pub fn toned(s: impl Into<String>, tone: Tone) -> Text {
        Text { spans: vec![(drawable(s.into()), tone)] }
    }

    pub fn push(&mut self, s: impl Into<String>, tone: Tone) -> &mut Self {
        let s = drawable(s.into());
        if s.is_empty() {
            return self;
        }
        match self.spans.last_mut() {
            Some((last, _)) if wrap::continues_cluster(last, &s) => last.push_str(&s),
            _ => self.spans.push((s, tone)),
        }
        self
    }

    pub fn with(mut self, s: impl Into<String>, tone: Tone) -> Text {
        self.push(s, tone);
        self
    }

    pub fn append(&mut self, other: Text) {
        for (s, tone) in other.spans {
            self.push(s, tone);
        }
    }

    pub fn width(&self) -> usize {
        self.spans.iter().map(|(s, _)| text::width(s)).sum()
    }

    pub fn as_plain(&self) -> String {
        self.spans.iter().map(|(s, _)| s.as_str()).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.iter().all(|(s, _)| s.is_empty())
    }

    /// Pad with spaces to `width` columns (never cuts).
    pub fn pad_to(&self, width: usize) -> Text {
        let w = self.width();
        let mut t = self.clone();
        if w < width {
            t.push(" ".repeat(width - w), Tone::Plain);
        }
        t
    }

    /// The line as terminal text. Every span is sanitized again here as a
    /// safety net, so no input byte can reach the terminal raw.
    pub fn render(&self, color: bool) -> String {
        let mut out = String::new();
        for (s, tone) in &self.spans {
            let s = &text::sanitize(s, Lines::Single);
            match (color, tone.sgr()) {
                (true, Some(code)) => {
                    out.push_str("\u{1b}[");
                    out.push_str(code);
                    out.push('m');
                    out.push_str(s);
                    out.push_str("\u{1b}[0m");
                }
                _ => out.push_str(s),
            }
        }
        out
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::plain(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::plain(s)
    }
}

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

impl Text {
    pub fn with_text(mut self, other: Text) -> Text {
        self.append(other);
        self
    }
}

/// Column widths after shrinking; `None` entries are dropped columns.
pub(crate) fn fit_columns(table: &Table, avail: usize, gap: usize) -> (Vec<usize>, usize) {
    let n = table.columns.len();
    let mut natural: Vec<usize> = table.columns.iter().map(|c| text::width(&c.header)).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate().take(n) {
            natural[i] = natural[i].max(cell.width());
        }
    }
    for (i, f) in table.floor.iter().enumerate().take(n) {
        natural[i] = natural[i].max(*f);
    }
    let mins: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| match (c.align, c.shrink) {
            (Align::Right, _) => natural[i],
            (Align::Left, false) => natural[i].min(24),
            (Align::Left, true) => natural[i].min(if i == 0 { 24 } else { 8 }),
        })
        .collect();
    let mut shown = n;
    loop {
        let total = |w: &[usize]| w.iter().sum::<usize>() + gap * w.len().saturating_sub(1);
        let mut widths: Vec<usize> = natural[..shown].to_vec();
        if total(&widths) <= avail {
            return (widths, n - shown);
        }
        let excess = total(&widths) - avail;
        let slack: Vec<usize> = (0..shown).map(|i| natural[i] - mins[i]).collect();
        let slack_total: usize = slack.iter().sum();
        if slack_total >= excess || shown == 1 {
            let mut removed = 0;
            for i in 0..shown {
                let cut = (excess * slack[i]).checked_div(slack_total).unwrap_or(0);
                widths[i] -= cut.min(slack[i]);
                removed += cut.min(slack[i]);
            }
            // The rounding remainder comes from the column with the most slack left.
            while removed < excess {
                let Some(i) = (0..shown).filter(|&i| widths[i] > mins[i]).max_by_key(|&i| (widths[i] - mins[i], i))
                else {
                    break;
                };
                widths[i] -= 1;
                removed += 1;
            }
            if shown == 1 {
                widths[0] = widths[0].min(avail).max(1);
            }
            return (widths, n - shown);
        }
        shown -= 1;
    }
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

/// Optional count: "—" when absent.
pub fn opt_count(x: Option<f64>) -> String {
    x.map(grouped).unwrap_or_else(|| "—".into())
}

/// USD with 4 decimals (the usage grid's observed cost form).
pub fn usd4(x: f64) -> String {
    if x < 0.0 { format!("-${:.4}", -x) } else { format!("${x:.4}") }
}

/// USD with 6 decimals, trailing zeros trimmed to at least 2.
pub fn usd6(x: f64) -> String {
    let s = format!("{:.6}", x.abs());
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let mut frac = frac.trim_end_matches('0').to_string();
    while frac.len() < 2 {
        frac.push('0');
    }
    format!("{}${int}.{frac}", if x < 0.0 { "-" } else { "" })
}

pub fn percent(r: f64) -> String {
    let p = (r * 1000.0).round() / 10.0;
    if p.fract() == 0.0 { format!("{p:.0}%") } else { format!("{p:.1}%") }
}

/// "N things" with a plural.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n as f64), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(cols: &[&str], rows: &[&[&str]]) -> Table {
        Table {
            columns: cols.iter().map(|c| Column::left(c)).collect(),
            rows: rows.iter().map(|r| r.iter().map(|c| Text::plain(*c)).collect()).collect(),
            floor: vec![],
        }
    }

    #[test]
    fn tables_shrink_then_drop() {
        let table = t(&["name", "a", "b"], &[&["x".repeat(40).as_str(), &"y".repeat(30), &"z".repeat(30)]]);
        let lines = render_table(&table, 60, false);
        assert!(lines.iter().all(|l| l.width() <= 60), "{lines:?}");
        let table = t(&["name", "a", "b", "c"], &[&[&"x".repeat(30), &"y".repeat(30), &"z".repeat(30), "q"]]);
        let lines = render_table(&table, 40, false);
        let last = lines.last().unwrap().as_plain();
        assert!(last.contains("more column"), "{last}");
    }

    #[test]
    fn numbers() {
        assert_eq!(grouped(1234567.0), "1,234,567");
        assert_eq!(grouped(12.0), "12");
        assert_eq!(usd6(0.00285), "$0.00285");
        assert_eq!(usd6(4.0), "$4.00");
        assert_eq!(percent(0.875), "87.5%");
        assert_eq!(opt_count(None), "—");
    }

    #[test]
    fn wrap_keeps_width() {
        let t = Text::plain("日本語のテキストはとても長いです and some english words here");
        for l in t.wrap(10) {
            assert!(l.width() <= 10, "{l:?}");
        }
    }

    #[test]
    fn long_titles_get_a_middle_ellipsis() {
        let title = format!("{}MIDDLE{}", "a".repeat(60), "z".repeat(60));
        let s = Section::new(
            title,
            Text::plain("✓ passed"),
            vec![Block::Section(Section::new("x".repeat(200), Text::plain("meta"), vec![]))],
        );
        let out = render(&[Block::Section(s)], 80, true, false);
        let top = out.lines().next().unwrap();
        assert_eq!(text::width(top), 80);
        assert!(
            top.starts_with("╭─ aaa") && top.contains('…') && top.contains("zzz ") && top.ends_with("✓ passed ─╮"),
            "{top}"
        );
        let divider = out.lines().nth(1).unwrap();
        assert!(divider.starts_with("├─ xxx") && divider.ends_with("─┤") && text::width(divider) == 80, "{divider}");
        // Plain: title on its own line, meta right-aligned.
        let s = Section::new("Title", Text::plain("meta"), vec![Block::Line(Text::plain("body"))]);
        let out = render(&[Block::Section(s)], 40, false, false);
        assert_eq!(out, format!("Title{}meta\n  body\n", " ".repeat(31)));
    }

    #[test]
    fn boxes_have_exact_width() {
        let s = Section::new("Title", Text::plain("meta"), vec![Block::Line(Text::plain("body"))]);
        let out = render(&[Block::Section(s)], 80, true, false);
        for line in out.lines() {
            assert_eq!(text::width(line), 80, "{line}");
        }
    }
}
