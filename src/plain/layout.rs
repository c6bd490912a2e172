//! Layout primitives of the house style (official-viewer §2): styled text,
//! sections (plain: indented; boxed: rounded boxes with nested dividers),
//! tables (3-column gaps, shrinking, dropping), key–value lines. Widths
//! are taken per grapheme cluster (see `model::text`); drawing, line by
//! line, is in [`draw`].
//!
//! Every string that reaches a [`Text`] from input must already have passed
//! through `text::sanitize`; the helpers here ([`clean`]) do that.

mod draw;
mod row;

use crate::model::text;
pub use crate::view::blocks::{Align, Block, Column, Overflow, Section, Table, kv, kv_lines};
use crate::view::text::Lane;
pub use crate::view::text::{Text, Tone, clean};
pub use draw::{TurnRowsFn, drawn_width, no_turn_rows, render, render_table, render_to};

/// The SGR code of a tone (`None`: no colour).
fn sgr(tone: Tone) -> Option<std::borrow::Cow<'static, str>> {
    let code = match tone {
        Tone::Ansi(style) => return Some(style.codes()).filter(|c| !c.is_empty()).map(Into::into),
        Tone::Plain | Tone::Pending => None,
        Tone::Good | Tone::Added => Some("32"),
        Tone::Bad | Tone::Removed => Some("31"),
        Tone::Warn => Some("33"),
        Tone::Soft => Some("90"),
        Tone::Accent => Some("36"),
        Tone::Bold => Some("1"),
        Tone::Hitl => Some("35"),
        Tone::Series(slot) => Some(["34", "36", "33", "32", "35"][usize::from(slot) % 5]),
        // The viewer's palette in the 16 colours every terminal has.
        Tone::Lane(lane) => Some(match lane {
            Lane::User => "1;34",
            Lane::Assistant => "32",
            Lane::Tool | Lane::Context => "36",
            Lane::Subagent => "34",
            Lane::Hitl => "1;35",
            Lane::Thinking => "3;90",
            Lane::Compaction => "33",
            Lane::Error => "1;31",
            Lane::Unrecognized => "3;31",
        }),
    };
    code.map(Into::into)
}

/// A line as terminal text. The spans are written as they are: a [`Text`]
/// is sanitised when the view makes it, and only the view can make one.
pub fn render_text(line: &Text, color: bool) -> String {
    let mut out = String::with_capacity(line.spans().iter().map(|(s, _)| s.len()).sum::<usize>() + 16);
    for (s, tone) in line.spans() {
        write_span(&mut out, s, *tone, color);
    }
    out
}

/// A span as terminal text, at the end of `out`: in its tone's SGR code
/// when there is colour and the tone has one.
fn write_span(out: &mut String, s: &str, tone: Tone, color: bool) {
    match sgr(tone).filter(|_| color) {
        Some(code) => {
            out.push_str("\u{1b}[");
            out.push_str(&code);
            out.push('m');
            out.push_str(s);
            out.push_str("\u{1b}[0m");
        }
        None => out.push_str(s),
    }
}

/// The width of every cell, a row after another, `table.columns.len()` a
/// row (0 for a missing cell): each cell is measured once for its table.
fn cell_widths(table: &Table) -> Vec<usize> {
    let n = table.columns.len();
    table.rows.iter().flat_map(|row| (0..n).map(|i| row.get(i).map_or(0, Text::width))).collect()
}

/// Column widths after shrinking, and how many columns are dropped.
/// `cells` are the table's [`cell_widths`].
fn fit_columns(table: &Table, cells: &[usize], avail: usize, gap: usize) -> (Vec<usize>, usize) {
    let n = table.columns.len();
    let mut natural: Vec<usize> = table.columns.iter().map(|c| text::width(&c.header)).collect();
    for row in cells.chunks(n.max(1)) {
        for (i, w) in row.iter().enumerate() {
            natural[i] = natural[i].max(*w);
        }
    }
    for (i, f) in table.floor.iter().enumerate().take(n) {
        natural[i] = natural[i].max(*f);
    }
    let mins: Vec<usize> = table.columns.iter().enumerate().map(|(i, c)| c.least_width(natural[i], i)).collect();
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
        let out = render(&[Block::Section(s)], 80, true, false, &no_turn_rows);
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
        let out = render(&[Block::Section(s)], 40, false, false, &no_turn_rows);
        assert_eq!(out, format!("Title{}meta\n  body\n", " ".repeat(31)));
    }

    #[test]
    fn a_short_title_keeps_the_start_of_a_long_meta() {
        let meta = Text::plain("✓ completed · 7 events · 2 tool calls · 1.5k tokens · timing unavailable");
        let s = Section::new("Timeline", Text::new(), vec![Block::Section(Section::new("turn 1", meta, vec![]))]);
        let out = render(&[Block::Section(s)], 80, true, false, &no_turn_rows);
        let divider = out.lines().nth(1).unwrap();
        assert!(divider.starts_with("├─ turn 1 ─ ✓ completed · 7 events") && divider.ends_with("… ─┤"), "{divider}");
        assert_eq!(text::width(divider), 80);
    }

    #[test]
    fn boxes_have_exact_width() {
        let s = Section::new("Title", Text::plain("meta"), vec![Block::Line(Text::plain("body"))]);
        let out = render(&[Block::Section(s)], 80, true, false, &no_turn_rows);
        for line in out.lines() {
            assert_eq!(text::width(line), 80, "{line}");
        }
    }
}
