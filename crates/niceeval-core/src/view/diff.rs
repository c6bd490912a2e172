//! Diffs, decided once for every surface: expected against received (an
//! assertion's values: word level for one-line text, line level otherwise)
//! and a file's content before and after (a unified diff with hunk headers
//! and line numbers). Both renderers draw these lines; only where they go
//! (stacked, or side by side on a wide screen) is the renderer's choice.

use super::text::{Text, Tone};
use crate::model::text::{Lines, fit, sanitize, wrap};
use similar::{ChangeTag, TextDiff};

/// Width from which a renderer may draw a multi-line diff side by side.
pub const SIDE_BY_SIDE: usize = 90;

/// What a file change whose before and after are the same text reads.
pub const NO_DIFFERENCE: &str = "(no textual difference)";

/// Expected against received, as lines `width` columns wide: one-line
/// values word by word ("- expected  …" and "+ received  …", the changed
/// words toned), others line by line, stacked ("- ", "+ ", "  ") or, with
/// `side_by_side`, in two columns under "expected │ received".
pub fn value_lines(expected: &str, received: &str, width: usize, side_by_side: bool) -> Vec<Text> {
    let expected = sanitize(expected, Lines::Multi).into_owned();
    let received = sanitize(received, Lines::Multi).into_owned();
    if !expected.contains('\n') && !received.contains('\n') {
        let diff = TextDiff::from_words(&expected, &received);
        let mut exp = Text::toned("- expected  ", Tone::Soft);
        let mut rec = Text::toned("+ received  ", Tone::Soft);
        for change in diff.iter_all_changes() {
            let text = change.value();
            match change.tag() {
                ChangeTag::Equal => {
                    exp.push(text, Tone::Plain);
                    rec.push(text, Tone::Plain);
                }
                ChangeTag::Delete => {
                    exp.push(text, Tone::Removed);
                }
                ChangeTag::Insert => {
                    rec.push(text, Tone::Added);
                }
            }
        }
        return vec![exp, rec];
    }
    let diff = TextDiff::from_lines(&expected, &received);
    if side_by_side {
        let half = width.saturating_sub(3) / 2;
        let bar = " │ ";
        let mut out =
            vec![Text::toned(fit("expected", half), Tone::Soft).with(bar, Tone::Soft).with("received", Tone::Soft)];
        for op in diff.ops() {
            let changes: Vec<_> = diff.iter_changes(op).collect();
            let left: Vec<_> = changes.iter().filter(|c| c.tag() != ChangeTag::Insert).collect();
            let right: Vec<_> = changes.iter().filter(|c| c.tag() != ChangeTag::Delete).collect();
            for i in 0..left.len().max(right.len()) {
                let cell = |c: Option<&&similar::Change<&str>>, changed: ChangeTag, tone: Tone| match c {
                    Some(c) => {
                        let t = if c.tag() == changed { tone } else { Tone::Plain };
                        (fit(c.value().trim_end_matches('\n'), half), t)
                    }
                    None => (fit("", half), Tone::Plain),
                };
                let (l, lt) = cell(left.get(i), ChangeTag::Delete, Tone::Bad);
                let (r, rt) = cell(right.get(i), ChangeTag::Insert, Tone::Good);
                out.push(Text::toned(l, lt).with(bar, Tone::Soft).with(r, rt));
            }
        }
        return out;
    }
    let mut out = Vec::new();
    for change in diff.iter_all_changes() {
        let (sign, tone) = sign_and_tone(change.tag());
        for piece in wrap(change.value().trim_end_matches('\n'), width.saturating_sub(2).max(8)) {
            out.push(Text::toned(format!("{sign} {piece}"), tone));
        }
    }
    out
}

/// A file change (`before` → `after`) as a unified diff `width` columns
/// wide: "@@ -a,b +c,d @@" hunks with three lines of context, the old and
/// new line numbers beside each line.
pub fn patch_lines(before: &str, after: &str, width: usize) -> Vec<Text> {
    let before = sanitize(before, Lines::Multi).into_owned();
    let after = sanitize(after, Lines::Multi).into_owned();
    let diff = TextDiff::from_lines(&before, &after);
    let mut out = Vec::new();
    for group in diff.grouped_ops(3) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let old = first.old_range().start..last.old_range().end;
        let new = first.new_range().start..last.new_range().end;
        out.push(Text::toned(
            format!("@@ -{},{} +{},{} @@", old.start + 1, old.len(), new.start + 1, new.len()),
            Tone::Accent,
        ));
        for op in &group {
            for change in diff.iter_changes(op) {
                let (sign, tone) = sign_and_tone(change.tag());
                let no = |i: Option<usize>| i.map(|i| format!("{:>4}", i + 1)).unwrap_or_else(|| " ".repeat(4));
                let numbers = format!("{} {} ", no(change.old_index()), no(change.new_index()));
                let text = change.value().trim_end_matches('\n');
                for (k, piece) in wrap(text, width.saturating_sub(12).max(8)).into_iter().enumerate() {
                    let lead = if k == 0 { numbers.clone() } else { " ".repeat(numbers.len()) };
                    out.push(Text::toned(lead, Tone::Soft).with(format!("{sign}{piece}"), tone));
                }
            }
        }
    }
    if out.is_empty() {
        out.push(Text::toned(NO_DIFFERENCE, Tone::Soft));
    }
    out
}

fn sign_and_tone(tag: ChangeTag) -> (&'static str, Tone) {
    match tag {
        ChangeTag::Equal => (" ", Tone::Plain),
        ChangeTag::Delete => ("-", Tone::Bad),
        ChangeTag::Insert => ("+", Tone::Good),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Text]) -> String {
        lines.iter().map(Text::as_plain).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn one_line_values_diff_by_word() {
        let lines = value_lines("answer is 42", "answer is 41", 80, false);
        assert_eq!(text(&lines), "- expected  answer is 42\n+ received  answer is 41");
        let changed: Vec<_> = lines[1].spans.iter().filter(|(s, t)| *t == Tone::Added && s == "41").collect();
        assert_eq!(changed.len(), 1);
    }

    #[test]
    fn multi_line_values_stack_or_sit_side_by_side() {
        let stacked = text(&value_lines("a\nb\nc", "a\nB\nc", 40, false));
        assert!(stacked.contains("- b") && stacked.contains("+ B"), "{stacked}");
        let wide = text(&value_lines("a\nb\nc", "a\nB\nc", 100, true));
        assert!(wide.lines().any(|l| l.starts_with('b') && l.contains("│ B")), "{wide}");
    }

    #[test]
    fn patches_have_hunk_headers_and_numbers() {
        let u = text(&patch_lines("one\ntwo\nthree\n", "one\n2\nthree\n", 80));
        assert!(u.starts_with("@@ -1,3 +1,3 @@"), "{u}");
        assert!(u.contains("   2      -two") && u.contains("        2 +2"), "{u}");
        assert_eq!(text(&patch_lines("same\n", "same\n", 80)), NO_DIFFERENCE);
    }
}
