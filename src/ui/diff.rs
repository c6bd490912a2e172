//! Expected vs received, as a diff: word-level for one-line text, line-level
//! otherwise; side by side when there is room, stacked when there is not.

use super::theme::Theme;
use crate::model::text::{Lines, fit, sanitize, wrap};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use similar::{ChangeTag, TextDiff};

/// Width from which the diff is drawn side by side.
pub const SIDE_BY_SIDE: usize = 90;

pub fn diff_lines(expected: &str, received: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let expected = sanitize(expected, Lines::Multi).into_owned();
    let received = sanitize(received, Lines::Multi).into_owned();
    let removed = theme.err.add_modifier(Modifier::CROSSED_OUT);
    let added = theme.ok.add_modifier(Modifier::UNDERLINED);
    if !expected.contains('\n') && !received.contains('\n') {
        // Word level: one line per side, changed words marked.
        let diff = TextDiff::from_words(&expected, &received);
        let mut exp = vec![Span::styled("- expected  ", theme.dim)];
        let mut rec = vec![Span::styled("+ received  ", theme.dim)];
        for change in diff.iter_all_changes() {
            let text = change.value().to_string();
            match change.tag() {
                ChangeTag::Equal => {
                    exp.push(Span::raw(text.clone()));
                    rec.push(Span::raw(text));
                }
                ChangeTag::Delete => exp.push(Span::styled(text, removed)),
                ChangeTag::Insert => rec.push(Span::styled(text, added)),
            }
        }
        return vec![Line::from(exp), Line::from(rec)];
    }
    let diff = TextDiff::from_lines(&expected, &received);
    if width >= SIDE_BY_SIDE {
        let half = (width - 3) / 2;
        let mut out = vec![Line::from(vec![
            Span::styled(fit("expected", half), theme.dim),
            Span::styled(" │ ", theme.dim),
            Span::styled("received", theme.dim),
        ])];
        for op in diff.ops() {
            let changes: Vec<_> = diff.iter_changes(op).collect();
            let left: Vec<_> = changes.iter().filter(|c| c.tag() != ChangeTag::Insert).collect();
            let right: Vec<_> = changes.iter().filter(|c| c.tag() != ChangeTag::Delete).collect();
            for i in 0..left.len().max(right.len()) {
                let cell = |c: &&similar::Change<&str>| (c.value().trim_end_matches('\n').to_string(), c.tag());
                let (l, lt) = left.get(i).map(cell).unwrap_or((String::new(), ChangeTag::Equal));
                let (r, rt) = right.get(i).map(cell).unwrap_or((String::new(), ChangeTag::Equal));
                let ls = if lt == ChangeTag::Delete { theme.err } else { theme.text };
                let rs = if rt == ChangeTag::Insert { theme.ok } else { theme.text };
                out.push(Line::from(vec![
                    Span::styled(fit(&l, half), ls),
                    Span::styled(" │ ", theme.dim),
                    Span::styled(fit(&r, half), rs),
                ]));
            }
        }
        return out;
    }
    let mut out = Vec::new();
    for change in diff.iter_all_changes() {
        let (sign, style) = match change.tag() {
            ChangeTag::Equal => (" ", theme.text),
            ChangeTag::Delete => ("-", theme.err),
            ChangeTag::Insert => ("+", theme.ok),
        };
        for piece in wrap(change.value().trim_end_matches('\n'), width.saturating_sub(2).max(8)) {
            out.push(Line::styled(format!("{sign} {piece}"), style));
        }
    }
    out
}

/// A unified diff of a file change (`before` → `after`), with line numbers.
pub fn unified(before: &str, after: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let before = sanitize(before, Lines::Multi).into_owned();
    let after = sanitize(after, Lines::Multi).into_owned();
    let diff = TextDiff::from_lines(&before, &after);
    let mut out = Vec::new();
    for group in diff.grouped_ops(3) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let old = first.old_range().start..last.old_range().end;
        let new = first.new_range().start..last.new_range().end;
        out.push(Line::styled(
            format!("@@ -{},{} +{},{} @@", old.start + 1, old.len(), new.start + 1, new.len()),
            theme.accent,
        ));
        for op in &group {
            for change in diff.iter_changes(op) {
                let (sign, style) = match change.tag() {
                    ChangeTag::Equal => (" ", theme.text),
                    ChangeTag::Delete => ("-", theme.err),
                    ChangeTag::Insert => ("+", theme.ok),
                };
                let old_no = change.old_index().map(|i| format!("{:>4}", i + 1)).unwrap_or_else(|| "    ".into());
                let new_no = change.new_index().map(|i| format!("{:>4}", i + 1)).unwrap_or_else(|| "    ".into());
                let text = change.value().trim_end_matches('\n');
                for (k, piece) in wrap(text, width.saturating_sub(12).max(8)).into_iter().enumerate() {
                    let numbers = if k == 0 { format!("{old_no} {new_no} ") } else { " ".repeat(10) };
                    out.push(Line::from(vec![
                        Span::styled(numbers, theme.dim),
                        Span::styled(format!("{sign}{piece}"), style),
                    ]));
                }
            }
        }
    }
    if out.is_empty() {
        out.push(Line::styled("(no textual difference)", theme.dim));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::{Theme, ThemeName};

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn one_line_values_diff_by_word() {
        let t = Theme::new(ThemeName::Mono);
        let lines = diff_lines("answer is 42", "answer is 41", 80, &t);
        assert_eq!(text(&lines), "- expected  answer is 42\n+ received  answer is 41");
        let changed: Vec<_> = lines[1].spans.iter().filter(|s| s.style != t.text && s.content == "41").collect();
        assert_eq!(changed.len(), 1);
    }

    #[test]
    fn multi_line_values_stack_or_sit_side_by_side() {
        let t = Theme::new(ThemeName::Mono);
        let stacked = text(&diff_lines("a\nb\nc", "a\nB\nc", 40, &t));
        assert!(stacked.contains("- b") && stacked.contains("+ B"), "{stacked}");
        let wide = text(&diff_lines("a\nb\nc", "a\nB\nc", 100, &t));
        assert!(wide.lines().any(|l| l.starts_with('b') && l.contains("│ B")), "{wide}");
    }

    #[test]
    fn unified_has_hunk_headers_and_numbers() {
        let t = Theme::new(ThemeName::Mono);
        let u = text(&unified("one\ntwo\nthree\n", "one\n2\nthree\n", 80, &t));
        assert!(u.starts_with("@@ -1,3 +1,3 @@"), "{u}");
        assert!(u.contains("   2      -two") && u.contains("        2 +2"), "{u}");
    }
}
