//! Cutting and wrapping styled lines by grapheme cluster. Wrapped lines are
//! made one at a time ([`WrapLines`]), so a payload of many megabytes is
//! wrapped without a copy of it per character.

use super::text::{Text, Tone};
use crate::model::text::{self, cluster_width, first_cluster};

impl Text {
    /// Cut to `width` columns with `…` when anything was cut.
    /// [`Text::truncate`] of an owned text: one that fits is kept, not copied.
    pub fn truncate_into(self, width: usize) -> Text {
        let own = self.width();
        if own <= width { self } else { self.cut_measured(width, own).0 }
    }

    pub fn truncate(&self, width: usize) -> Text {
        self.cut_measured(width, self.width()).0
    }

    /// [`Text::truncate`] of a text `own` columns wide (measured already),
    /// and the width of the result. The spans are drawable, and so is every
    /// head of one: nothing is sanitised again.
    pub fn cut_measured(&self, width: usize, own: usize) -> (Text, usize) {
        if own <= width {
            return (self.clone(), own);
        }
        let mut out = Text::new();
        if width == 0 {
            return (out, 0);
        }
        let mut left = width - 1;
        let mut last_tone = Tone::Plain;
        for (s, tone) in &self.spans {
            last_tone = *tone;
            let w = text::width(s);
            if w <= left {
                out.push_drawable(s.clone(), *tone);
                left -= w;
                continue;
            }
            out.push_drawable(text::head_within(s, left).0.to_string(), *tone);
            break;
        }
        out.push_drawable("…".to_string(), last_tone);
        // Measured, not summed: `…` may join the cluster before it (after a Prepend character).
        let w = out.width();
        (out, w)
    }

    /// Wrap at spaces to `width` columns; overlong words break between clusters.
    pub fn wrap(&self, width: usize) -> Vec<Text> {
        self.wrap_lines(width).collect()
    }

    /// The lines of [`Text::wrap`], one at a time.
    pub fn wrap_lines(&self, width: usize) -> WrapLines<'_> {
        let width = width.max(4);
        let whole = (self.width() <= width).then(|| self.clone());
        WrapLines { spans: &self.spans, width, at: (0, 0), word_end: (0, 0), done: whole.is_some(), whole }
    }

    /// Add one cluster in `tone` (to the last span when it has that tone).
    fn push_cluster(&mut self, cluster: &str, tone: Tone) {
        match self.spans.last_mut() {
            Some((s, t)) if *t == tone => s.push_str(cluster),
            _ => self.spans.push((cluster.to_string(), tone)),
        }
    }

    fn trim_end_spaces(&mut self) {
        while let Some((s, _)) = self.spans.last_mut() {
            let kept = s.trim_end_matches(' ').len();
            s.truncate(kept);
            if !s.is_empty() {
                break;
            }
            self.spans.pop();
        }
    }
}

/// Lines of a wrapped [`Text`]: a word (up to and with its space) that does
/// not fit on the line starts the next one; a word wider than a line breaks
/// between clusters; the space at a break is dropped.
pub struct WrapLines<'a> {
    spans: &'a [(String, Tone)],
    width: usize,
    /// Where the next cluster is: span index and byte offset in that span.
    at: (usize, usize),
    /// Where the word being placed ends.
    word_end: (usize, usize),
    /// The whole text, when it fits on one line.
    whole: Option<Text>,
    done: bool,
}

impl WrapLines<'_> {
    /// `p`, moved past the ends of spans.
    fn norm(&self, mut p: (usize, usize)) -> (usize, usize) {
        while p.0 < self.spans.len() && p.1 >= self.spans[p.0].0.len() {
            p = (p.0 + 1, 0);
        }
        p
    }

    /// The end of the word that starts at `p`, and its width without spaces.
    fn word_from(&self, mut p: (usize, usize)) -> ((usize, usize), usize) {
        let mut width = 0;
        loop {
            p = self.norm(p);
            let Some((s, _)) = self.spans.get(p.0) else { return (p, width) };
            let g = first_cluster(&s[p.1..]);
            p.1 += g.len();
            if g == " " {
                return (self.norm(p), width);
            }
            width += cluster_width(g);
        }
    }
}

impl Iterator for WrapLines<'_> {
    type Item = Text;

    fn next(&mut self) -> Option<Text> {
        if let Some(t) = self.whole.take() {
            return Some(t);
        }
        if self.done {
            return None;
        }
        let mut line = Text::new();
        let mut used = 0;
        // Where the word being placed starts, and the last place inside it
        // after a path or name separator (`/`, `#`, `-`, …): a word too long
        // for a line breaks there rather than between any two letters.
        let mut word_start = self.at;
        let mut soft: Option<SoftBreak> = None;
        loop {
            self.at = self.norm(self.at);
            let Some((s, tone)) = self.spans.get(self.at.0) else {
                self.done = true;
                break;
            };
            if self.at >= self.word_end {
                let (end, word_w) = self.word_from(self.at);
                self.word_end = end;
                word_start = self.at;
                soft = None;
                if used > 0 && used + word_w > self.width {
                    break;
                }
            }
            // A run of printable ASCII inside the word that fits goes in at
            // once (each such byte is a cluster one column wide).
            let rest = &s.as_bytes()[self.at.1..];
            // A cluster wider than the line may have filled it past its width.
            let room = self.width.saturating_sub(used);
            let limit = if self.word_end.0 == self.at.0 { self.word_end.1 - self.at.1 } else { rest.len() };
            let run = rest[..limit.min(room)].iter().take_while(|b| (b'!'..=b'~').contains(b)).count();
            if run > 1 && rest.get(run).is_none_or(u8::is_ascii) {
                let piece = &s[self.at.1..self.at.1 + run];
                line.push_cluster(piece, *tone);
                if let Some(k) = piece.rfind(|c: char| SEPARATORS.contains(c)) {
                    let back = run - (k + 1);
                    soft = Some(SoftBreak::at(&line, (self.at.0, self.at.1 + k + 1), used + k + 1, back));
                }
                used += run;
                self.at.1 += run;
                continue;
            }
            let g = first_cluster(&s[self.at.1..]);
            let w = cluster_width(g);
            if used + w > self.width && used > 0 {
                if g == " " {
                    self.at.1 += g.len();
                    continue;
                }
                // Mid-word: back to the word's last separator when that keeps half the line.
                if let Some(b) = soft.take().filter(|b| b.at > word_start && b.used * 2 >= self.width) {
                    b.cut(&mut line);
                    self.at = b.at;
                }
                break;
            }
            line.push_cluster(g, *tone);
            used += w;
            self.at.1 += g.len();
            if g.len() == 1 && SEPARATORS.contains(g) {
                soft = Some(SoftBreak::at(&line, self.at, used, 0));
            }
        }
        line.trim_end_spaces();
        Some(line)
    }
}

/// Characters after which a long path, URL or name may break.
const SEPARATORS: &str = "/#-_.,:;&?=";

/// A place a line may end inside a word: where the next line starts, the
/// columns used before it, and how long the line's spans were there.
struct SoftBreak {
    at: (usize, usize),
    used: usize,
    spans: usize,
    last_len: usize,
}

impl SoftBreak {
    /// The break `back` bytes before the end of `line` (all ASCII there).
    fn at(line: &Text, at: (usize, usize), used: usize, back: usize) -> SoftBreak {
        let last_len = line.spans.last().map_or(0, |(s, _)| s.len() - back);
        SoftBreak { at, used, spans: line.spans.len(), last_len }
    }

    /// `line` as it was at the break.
    fn cut(&self, line: &mut Text) {
        line.spans.truncate(self.spans);
        if let Some((s, _)) = line.spans.last_mut() {
            s.truncate(self.last_len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_path_breaks_after_a_separator_not_inside_a_word() {
        let t = Text::plain("rule docs/rules.md#command-unclassified — NiceEval §1.7");
        let lines: Vec<String> = t.wrap(30).iter().map(Text::as_plain).collect();
        assert_eq!(lines, ["rule", "docs/rules.md#command-", "unclassified — NiceEval §1.7"]);
        // Nothing is lost or added, whatever the width.
        for w in 4..40 {
            let joined: String = t.wrap(w).iter().map(Text::as_plain).collect::<Vec<_>>().join(" ");
            assert_eq!(joined.replace(' ', ""), t.as_plain().replace(' ', ""), "at {w}");
            assert!(t.wrap(w).iter().all(|l| l.width() <= w), "at {w}");
        }
    }

    #[test]
    fn spans_that_continue_a_cluster_join_the_span_before() {
        let mut t = Text::plain("\u{1f44d}");
        t.push("\u{1f3fd} ok", Tone::Bad);
        assert_eq!(t.spans.len(), 1, "{t:?}");
        assert_eq!(t.width(), text::width(&t.as_plain()));
        let mut t = Text::plain("a");
        t.push("b", Tone::Bad);
        assert_eq!(t.spans.len(), 2);
    }

    #[test]
    fn wrapping_keeps_clusters_whole_and_tones() {
        let fire = "\u{2764}\u{fe0f}\u{200d}\u{1f525}";
        let mut t = Text::plain(format!("{} x", fire.repeat(9)));
        t.push(" tail words", Tone::Soft);
        for w in 4..14 {
            let lines = t.wrap(w);
            assert_eq!(
                lines.iter().map(Text::as_plain).collect::<String>().replace(' ', ""),
                t.as_plain().replace(' ', "")
            );
            for l in &lines {
                assert!(l.width() <= w, "{w}: {l:?}");
                assert_eq!(l.width(), text::width(&l.as_plain()));
            }
            assert_eq!(lines.last().unwrap().spans.last().unwrap().1, Tone::Soft);
        }
        // One cluster wider than the line (leading Hangul jamo join each other), then ASCII.
        // (Prepended concatenation marks such as U+0600 are format characters: placeholders.)
        let wide = "\u{1100}".repeat(3);
        let lines = Text::plain(format!("{wide}abcdef")).wrap(4);
        assert_eq!(
            lines.iter().map(Text::as_plain).collect::<Vec<_>>(),
            vec![wide.clone(), "abcd".into(), "ef".into()]
        );
        let t = Text::plain("one two three");
        assert_eq!(t.wrap(8).iter().map(Text::as_plain).collect::<Vec<_>>(), vec!["one two", "three"]);
        assert_eq!(
            Text::plain("abcdefghij").wrap(4).iter().map(Text::as_plain).collect::<Vec<_>>(),
            vec!["abcd", "efgh", "ij"]
        );
    }
}
