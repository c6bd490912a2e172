//! Layout primitives of the house style (official-viewer §2): styled text,
//! sections (plain: indented; boxed: rounded boxes with nested dividers),
//! tables (3-column gaps, shrinking, dropping), key–value lines.
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through `text::sanitize`; the helpers here ([`clean`]) do that.

use crate::model::text::{self, Lines};
pub use crate::model::timeline::grouped;

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
        Text { spans: vec![(s.into(), Tone::Plain)] }
    }

    pub fn toned(s: impl Into<String>, tone: Tone) -> Text {
        Text { spans: vec![(s.into(), tone)] }
    }

    pub fn push(&mut self, s: impl Into<String>, tone: Tone) -> &mut Self {
        let s = s.into();
        if !s.is_empty() {
            self.spans.push((s, tone));
        }
        self
    }

    pub fn with(mut self, s: impl Into<String>, tone: Tone) -> Text {
        self.push(s, tone);
        self
    }

    pub fn append(&mut self, other: Text) {
        self.spans.extend(other.spans);
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

    /// Cut to `width` columns with `…` when anything was cut.
    pub fn truncate(&self, width: usize) -> Text {
        if self.width() <= width {
            return self.clone();
        }
        let mut out = Text::new();
        if width == 0 {
            return out;
        }
        let mut left = width - 1;
        let mut last_tone = Tone::Plain;
        for (s, tone) in &self.spans {
            last_tone = *tone;
            let w = text::width(s);
            if w <= left {
                out.push(s.clone(), *tone);
                left -= w;
                continue;
            }
            let mut cut = String::new();
            let mut used = 0;
            for c in s.chars() {
                let cw = text::width(c.encode_utf8(&mut [0u8; 4]));
                if used + cw > left {
                    break;
                }
                used += cw;
                cut.push(c);
            }
            out.push(cut, *tone);
            break;
        }
        out.push("…", last_tone);
        out
    }

    /// Wrap at spaces to `width` columns; overlong words break by characters.
    pub fn wrap(&self, width: usize) -> Vec<Text> {
        let width = width.max(4);
        if self.width() <= width {
            return vec![self.clone()];
        }
        // Words keep their tone per character.
        let chars: Vec<(char, Tone)> = self.spans.iter().flat_map(|(s, t)| s.chars().map(move |c| (c, *t))).collect();
        let mut words: Vec<Vec<(char, Tone)>> = Vec::new();
        let mut current = Vec::new();
        for &(c, t) in &chars {
            current.push((c, t));
            if c == ' ' {
                words.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
        let cw = |c: char| text::width(c.encode_utf8(&mut [0u8; 4]));
        let mut lines: Vec<Vec<(char, Tone)>> = vec![Vec::new()];
        let mut used = 0usize;
        for word in words {
            let trimmed_w: usize = word.iter().filter(|(c, _)| *c != ' ').map(|(c, _)| cw(*c)).sum();
            let word_w: usize = word.iter().map(|(c, _)| cw(*c)).sum();
            if used > 0 && used + trimmed_w > width {
                lines.push(Vec::new());
                used = 0;
            }
            for (c, t) in word {
                let w = cw(c);
                if used + w > width && used > 0 {
                    if c == ' ' {
                        continue;
                    }
                    lines.push(Vec::new());
                    used = 0;
                }
                if let Some(line) = lines.last_mut() {
                    line.push((c, t));
                }
                used += w;
            }
            let _ = word_w;
        }
        lines
            .into_iter()
            .map(|line| {
                let mut t = Text::new();
                let mut buf = String::new();
                let mut tone = None;
                for (c, tn) in line {
                    if tone.is_some_and(|x| x != tn) {
                        t.push(std::mem::take(&mut buf), tone.unwrap_or_default());
                    }
                    tone = Some(tn);
                    buf.push(c);
                }
                t.push(buf.trim_end().to_string(), tone.unwrap_or_default());
                t
            })
            .collect()
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

/// A line of rendered output before it goes into a box.
enum Out {
    Body(Text),
    Divider(String, Text),
}

/// Render top-level blocks to a string ending in a newline.
pub fn render(blocks: &[Block], width: usize, boxed: bool, color: bool) -> String {
    let width = width.max(20);
    let boxed = boxed && width >= 60;
    let mut lines: Vec<String> = Vec::new();
    for block in blocks {
        match (block, boxed) {
            (Block::Section(s), true) => lines.extend(render_box(s, width, color)),
            (b, _) => {
                for o in render_block(b, width, boxed) {
                    match o {
                        Out::Body(t) => lines.push(t.truncate(width).render(color)),
                        Out::Divider(title, meta) => lines.push(rule_line(&title, &meta, width).render(color)),
                    }
                }
            }
        }
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

fn render_box(s: &Section, width: usize, color: bool) -> Vec<String> {
    let box_w = width.min(100);
    let content_w = box_w - 4;
    let mut lines = vec![border_line('╭', '╮', &s.title, &s.meta, box_w).render(color)];
    let mut body = Vec::new();
    for b in &s.body {
        body.extend(render_block(b, content_w, true));
    }
    for o in body {
        match o {
            Out::Body(t) => {
                let t = t.truncate(content_w).pad_to(content_w);
                lines.push(format!("│ {} │", t.render(color)));
            }
            Out::Divider(title, meta) => lines.push(border_line('├', '┤', &title, &meta, box_w).render(color)),
        }
    }
    lines.push(format!("╰{}╯", "─".repeat(box_w - 2)));
    lines
}

/// "╭─ Title ───── meta ─╮" at exactly `w` columns: shorten the fill, then
/// the title (middle ellipsis), then drop the meta.
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
        let fill = inner - text::width(&title) - 6 - meta_w;
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta.clone());
        t.push(" ─", Tone::Plain);
    } else {
        let title = text::middle_ellipsis(title, inner.saturating_sub(4));
        let fill = inner.saturating_sub(text::width(&title) + 3);
        t.push(format!("─ {title} {}", "─".repeat(fill)), Tone::Plain);
    }
    t.push(right.to_string(), Tone::Plain);
    t
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

fn render_block(block: &Block, width: usize, boxed: bool) -> Vec<Out> {
    match block {
        Block::Line(t) => t.wrap(width).into_iter().map(Out::Body).collect(),
        Block::Kv(label, value) => {
            let lw = label.width();
            if lw + 12 > width {
                let mut t = label.clone();
                t.append(value.clone());
                return t.wrap(width).into_iter().map(Out::Body).collect();
            }
            value
                .wrap(width - lw)
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let lead = if i == 0 { label.clone() } else { Text::plain(" ".repeat(lw)) };
                    Out::Body(lead.with_text(v))
                })
                .collect()
        }
        Block::Blank => vec![Out::Body(Text::new())],
        Block::Table(t) => render_table(t, width, boxed).into_iter().map(Out::Body).collect(),
        Block::Section(s) if boxed => {
            let mut out = vec![Out::Divider(s.title.clone(), s.meta.clone())];
            for b in &s.body {
                out.extend(render_block(b, width, boxed));
            }
            out
        }
        Block::Section(s) => {
            let mut out = Vec::new();
            let title = Text::toned(text::middle_ellipsis(&s.title, width), Tone::Bold);
            let tw = title.width();
            let mw = s.meta.width();
            if s.meta.is_empty() {
                out.push(Out::Body(title));
            } else if tw + 3 + mw <= width {
                let mut line = title;
                line.push(" ".repeat(width - tw - mw), Tone::Plain);
                line.append(s.meta.clone());
                out.push(Out::Body(line));
            } else {
                out.push(Out::Body(title));
                for l in s.meta.wrap(width.saturating_sub(2)) {
                    out.push(Out::Body(Text::plain("  ").with_text(l)));
                }
            }
            let inner = width.saturating_sub(2).max(10);
            for b in &s.body {
                for o in render_block(b, inner, boxed) {
                    match o {
                        Out::Body(t) => {
                            out.push(Out::Body(if t.is_empty() { t } else { Text::plain("  ").with_text(t) }))
                        }
                        d => out.push(d),
                    }
                }
            }
            out
        }
    }
}

impl Text {
    pub fn with_text(mut self, other: Text) -> Text {
        self.append(other);
        self
    }
}

/// Column widths after shrinking; `None` entries are dropped columns.
fn fit_columns(table: &Table, avail: usize, gap: usize) -> (Vec<usize>, usize) {
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

/// Render a table at most `avail` columns wide.
pub fn render_table(table: &Table, avail: usize, boxed: bool) -> Vec<Text> {
    let sep = if boxed { " │ " } else { "   " };
    let (widths, dropped) = fit_columns(table, avail, 3);
    let shown = widths.len();
    let mut out = Vec::new();
    let line_of = |cells: &[Vec<Text>], cols: &[Column]| -> Vec<Text> {
        let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
        (0..height)
            .map(|r| {
                let mut line = Text::new();
                for (i, w) in widths.iter().enumerate() {
                    if i > 0 {
                        line.push(sep, Tone::Soft);
                    }
                    let cell = cells.get(i).and_then(|c| c.get(r)).cloned().unwrap_or_default();
                    let cw = cell.width();
                    match cols[i].align {
                        Align::Right => {
                            line.push(" ".repeat(w.saturating_sub(cw)), Tone::Plain);
                            line.append(cell);
                        }
                        Align::Left => line.append(cell.pad_to(*w)),
                    }
                }
                line
            })
            .collect()
    };
    let header: Vec<Vec<Text>> = table.columns[..shown]
        .iter()
        .zip(&widths)
        .map(|(c, w)| vec![Text::toned(text::truncate(&c.header, *w), Tone::Bold)])
        .collect();
    out.extend(line_of(&header, &table.columns));
    if boxed {
        let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        out.push(Text::toned(rule.join("─┼─"), Tone::Soft));
    }
    for row in &table.rows {
        let cells: Vec<Vec<Text>> = (0..shown)
            .map(|i| {
                let cell = row.get(i).cloned().unwrap_or_default();
                let w = widths[i];
                match table.columns[i].overflow {
                    _ if cell.width() <= w => vec![cell],
                    Overflow::Cut => vec![cell.truncate(w)],
                    Overflow::Wrap => cell.wrap(w).into_iter().map(|l| l.truncate(w)).collect(),
                }
            })
            .collect();
        out.extend(line_of(&cells, &table.columns));
    }
    if dropped > 0 {
        let s = if dropped == 1 { "column" } else { "columns" };
        out.push(Text::toned(format!("({dropped} more {s} not shown)"), Tone::Soft));
    }
    out
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
