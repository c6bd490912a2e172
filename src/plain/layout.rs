//! Layout primitives of the house style (official-viewer §2): styled text,
//! sections (plain: indented; boxed: rounded boxes with nested dividers),
//! tables (3-column gaps, shrinking, dropping), key–value lines.
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through `text::sanitize`; the helpers here ([`clean`]) do that.

use crate::model::text::{self, Lines};
use crate::model::timeline::RowKind;
pub use crate::view::blocks::{Align, Block, Column, Overflow, Section, Table, kv, kv_lines};
pub use crate::view::text::{Text, Tone, clean};

/// The SGR code of a tone (`None`: no colour).
fn sgr(tone: Tone) -> Option<&'static str> {
    match tone {
        Tone::Plain | Tone::Pending => None,
        Tone::Good => Some("32"),
        Tone::Bad => Some("31"),
        Tone::Warn => Some("33"),
        Tone::Soft => Some("90"),
        Tone::Accent => Some("36"),
        Tone::Bold => Some("1"),
        Tone::Hitl => Some("35"),
        Tone::Series(slot) => Some(["34", "36", "33", "32", "35"][usize::from(slot) % 5]),
        Tone::Kind(kind) => match kind {
            RowKind::InputRequest => Some("35"),
            RowKind::Thinking => Some("90"),
            RowKind::Error => Some("31"),
            RowKind::Unrecognized => Some("33"),
            _ => None,
        },
    }
}

/// A line as terminal text. Every span is sanitized again here as a
/// safety net, so no input byte can reach the terminal raw.
pub fn render_text(line: &Text, color: bool) -> String {
    let mut out = String::new();
    for (s, tone) in &line.spans {
        let s = &text::sanitize(s, Lines::Single);
        match (color, sgr(*tone)) {
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
                        Out::Body(t) => lines.push(render_text(&t.truncate(width), color)),
                        Out::Divider(title, meta) => lines.push(render_text(&rule_line(&title, &meta, width), color)),
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
    let mut lines = vec![render_text(&border_line('╭', '╮', &s.title, &s.meta, box_w), color)];
    let mut body = Vec::new();
    for b in &s.body {
        body.extend(render_block(b, content_w, true));
    }
    for o in body {
        match o {
            Out::Body(t) => {
                let t = t.truncate(content_w).pad_to(content_w);
                lines.push(format!("│ {} │", render_text(&t, color)));
            }
            Out::Divider(title, meta) => lines.push(render_text(&border_line('├', '┤', &title, &meta, box_w), color)),
        }
    }
    lines.push(format!("╰{}╯", "─".repeat(box_w - 2)));
    lines
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
        let fill = inner - text::width(&title) - 6 - meta_w;
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta.clone());
        t.push(" ─", Tone::Plain);
    } else if !meta.is_empty() && title_w <= 24 && inner >= title_w + 7 + 16 {
        // A short title and a long meta: the meta's end is cut rather than
        // the whole meta dropped (a turn's status comes first in it).
        let meta = meta.truncate(inner - title_w - 7);
        let fill = inner - title_w - 6 - meta.width();
        t.push(format!("─ {title} {} ", "─".repeat(fill)), Tone::Plain);
        t.append(meta);
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
        Block::Body(s, tone) => multi_line(s, *tone, width),
        Block::Json(v) => multi_line(&serde_json::to_string_pretty(v).unwrap_or_default(), Tone::Plain, width),
        Block::Field { label, lead, value } => {
            let lw = label.width();
            let mut out: Vec<Out> = vec![Out::Body(label.clone().with_text(lead.clone()).truncate(width))];
            let pad = Text::plain(" ".repeat(lw));
            for b in crate::view::payload::blocks(value) {
                for o in render_block(&b, width.saturating_sub(lw).max(10), boxed) {
                    out.push(match o {
                        Out::Body(t) if t.is_empty() => Out::Body(t),
                        Out::Body(t) => Out::Body(pad.clone().with_text(t)),
                        d => d,
                    });
                }
            }
            out
        }
        Block::Diff { expected, received } | Block::Patch { before: expected, after: received } => {
            diff_lines(expected, received).into_iter().flat_map(|t| t.wrap(width)).map(Out::Body).collect()
        }
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
        Block::Waterfall(w) => crate::view::waterfall::layout(w, width).into_iter().map(Out::Body).collect(),
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

/// Text from a file on its own lines, each wrapped at words.
fn multi_line(s: &str, tone: Tone, width: usize) -> Vec<Out> {
    text::sanitize(s, Lines::Multi)
        .split('\n')
        .flat_map(|line| Text::toned(line, tone).wrap(width))
        .map(Out::Body)
        .collect()
}

/// Expected against received, line by line: `- expected`, `+ received`.
fn diff_lines(expected: &str, received: &str) -> Vec<Text> {
    let diff = similar::TextDiff::from_lines(expected, received);
    let mut out = Vec::new();
    for change in diff.iter_all_changes() {
        let line = text::sanitize(change.value().trim_end_matches('\n'), Lines::Single).into_owned();
        out.push(match change.tag() {
            similar::ChangeTag::Delete => Text::toned(format!("- {line}"), Tone::Bad),
            similar::ChangeTag::Insert => Text::toned(format!("+ {line}"), Tone::Good),
            similar::ChangeTag::Equal => Text::toned(format!("  {line}"), Tone::Soft),
        });
    }
    out
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
    fn a_short_title_keeps_the_start_of_a_long_meta() {
        let meta = Text::plain("✓ completed · 7 events · 2 tool calls · 1.5k tokens · timing unavailable");
        let s = Section::new("Timeline", Text::new(), vec![Block::Section(Section::new("turn 1", meta, vec![]))]);
        let out = render(&[Block::Section(s)], 80, true, false);
        let divider = out.lines().nth(1).unwrap();
        assert!(divider.starts_with("├─ turn 1 ─ ✓ completed · 7 events") && divider.ends_with("… ─┤"), "{divider}");
        assert_eq!(text::width(divider), 80);
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
