//! Text from input files, made safe and measurable for a terminal.
//!
//! Nothing from a file reaches the terminal raw: ESC (so every CSI, OSC, DCS
//! sequence, OSC 52 and OSC 8 included), other C0 and C1 controls, DEL, bidi
//! overrides and isolates, and zero-width characters are replaced by visible,
//! distinct placeholders. Widths are display widths (CJK counts 2), taken
//! per grapheme cluster: a ZWJ emoji sequence, a flag or a letter with its
//! accents is one picture, so measuring, cutting, padding and wrapping all
//! count and cut whole clusters, the way ratatui and terminals draw them.

pub mod sgr;
pub mod unicode_cf;

use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How line structure is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// Newlines become `↵`, tabs `␉`: for one-line summaries.
    Single,
    /// Newlines stay (CRLF → LF), tabs expand to 4-column stops.
    Multi,
}

/// Placeholder for a character that must not reach the terminal, or `None` if it may.
pub fn placeholder(c: char) -> Option<Cow<'static, str>> {
    if !unsafe_char(c) {
        return None;
    }
    let code = c as u32;
    Some(match c {
        '\u{1b}' => Cow::Borrowed("␛"),
        '\u{7f}' => Cow::Borrowed("␡"),
        // C0 controls → Control Pictures block (␀ … ␟).
        '\0'..='\u{1f}' => Cow::Owned(char::from_u32(0x2400 + code).unwrap_or('?').to_string()),
        // C1 controls (0x9b is a one-byte CSI on some terminals).
        '\u{80}'..='\u{9f}' => Cow::Owned(format!("‹C1:{code:02X}›")),
        _ => Cow::Owned(format!("‹U+{code:04X}›")),
    })
}

/// The characters that must not reach the terminal: C0 and C1 controls and
/// DEL; bidi marks, overrides and isolates; zero-width characters, the soft
/// hyphen and the BOM; line and paragraph separators; interlinear
/// annotation characters and tags; and every other Unicode format (Cf)
/// character (`unicode_cf`: U+180E, U+206A–U+206F, the Arabic number signs, …).
/// The zero-width joiner is one of them even inside an emoji sequence: the
/// sequence draws as its parts around a visible `‹U+200D›`, each measured
/// as it draws.
fn unsafe_char(c: char) -> bool {
    // Printable ASCII, most of any text, is never unsafe: no table lookup for it.
    if (' '..='~').contains(&c) {
        return false;
    }
    matches!(c,
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}'
        | '\u{2028}' | '\u{2029}'
        | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}')
        || crate::unicode_cf::is_format(c)
}

/// Printable ASCII: one column a character, safe as it is.
fn printable_ascii(b: u8) -> bool {
    (b' '..=b'~').contains(&b)
}

fn needs_work(s: &str, lines: Lines) -> bool {
    // Runs on every span the view makes: printable ASCII is passed over a
    // byte at a time, and only the other characters are decoded (a symbol
    // such as `→` or `✓` in a span does not send the whole span through
    // the char decoder).
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if printable_ascii(x) {
            i += 1;
            continue;
        }
        if x.is_ascii() {
            // A C0 control or DEL: all need work but a newline kept on its own line.
            if x == b'\n' && lines == Lines::Multi {
                i += 1;
                continue;
            }
            return true;
        }
        let Some(c) = s[i..].chars().next() else { return false };
        if unsafe_char(c) {
            return true;
        }
        i += c.len_utf8();
    }
    false
}

/// Make `s` safe to draw. Every unsafe character becomes a visible placeholder.
pub fn sanitize(s: &str, lines: Lines) -> Cow<'_, str> {
    if !needs_work(s, lines) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut column = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, lines) {
            ('\n', Lines::Multi) => {
                out.push('\n');
                column = 0;
            }
            ('\n', Lines::Single) => out.push('↵'),
            ('\r', Lines::Multi) if chars.peek() == Some(&'\n') => {}
            ('\t', Lines::Multi) => {
                let pad = 4 - column % 4;
                out.extend(std::iter::repeat_n(' ', pad));
                column += pad;
            }
            ('\t', Lines::Single) => out.push('␉'),
            _ => match placeholder(c) {
                Some(p) => {
                    column += p.width();
                    out.push_str(&p);
                }
                None => {
                    column += c.width().unwrap_or(0);
                    out.push(c);
                }
            },
        }
    }
    Cow::Owned(out)
}

/// Make serialized JSON safe for a terminal without changing its value:
/// serde_json already escapes C0 controls (ESC included) inside strings;
/// this also escapes DEL, C1 controls (U+009B is a one-byte CSI), bidi
/// overrides and isolates, and zero-width characters as `\uXXXX`. Those can
/// only occur inside JSON strings, where the escape means the same character.
pub fn json_terminal_safe(json: &str) -> Cow<'_, str> {
    let escape = |c: char| c > '\u{1f}' && unsafe_char(c);
    // Up to the first byte that is not ASCII below DEL nothing is escaped
    // (and that byte starts a character: DEL, or a lead byte).
    let Some(from) = json.bytes().position(|b| b >= 0x7f) else { return Cow::Borrowed(json) };
    if !json[from..].chars().any(escape) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 64);
    out.push_str(&json[..from]);
    for c in json[from..].chars() {
        if escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line, safe, cut to `width` display columns with `…` when cut.
pub fn one_line(s: &str, width: usize) -> String {
    truncate(&sanitize(s, Lines::Single), width)
}

/// "4.2 MB" (decimal megabytes, one decimal): file sizes in notices and the loading line.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Display width of one grapheme cluster.
pub fn cluster_width(cluster: &str) -> usize {
    cluster.width()
}

/// Display width: the sum of the widths of the grapheme clusters, the one
/// measure every function here cuts and pads by.
pub fn width(s: &str) -> usize {
    // Printable ASCII is one column a character, and two printable ASCII
    // characters are never one cluster (a character before them may join
    // the first: a Prepend, a CR before LF; one after them may join the
    // second: a combining mark, a variation selector).
    // So the segmenter sees only each stretch of other characters, from the
    // ASCII character before it to the first ASCII character followed by
    // another one (or the end): a cluster boundary on both sides.
    let b = s.as_bytes();
    let mut width = 0;
    let mut i = 0;
    while i < b.len() {
        let run = i;
        while i < b.len() && printable_ascii(b[i]) {
            i += 1;
        }
        if i == b.len() {
            return width + (i - run);
        }
        // Common symbols between printable ASCII characters (`→`, `✓`,
        // `…`, `·`, box lines; `→…` where a summary is cut) are clusters of
        // their own: no segmenter.
        let (symbols_end, symbols_width) = stand_alone_run(s, i);
        if symbols_end > i && b.get(symbols_end).is_none_or(|&n| printable_ascii(n)) {
            width += (i - run) + symbols_width;
            i = symbols_end;
            continue;
        }
        let from = if i > run { i - 1 } else { i };
        width += from - run;
        let mut to = i;
        loop {
            while to < b.len() && !printable_ascii(b[to]) {
                to += 1;
            }
            if to == b.len() {
                break;
            }
            to += 1;
            if to == b.len() || printable_ascii(b[to]) {
                break;
            }
        }
        width += s[from..to].graphemes(true).map(cluster_width).sum::<usize>();
        i = to;
    }
    width
}

/// Symbols that never join the character before or after them into one
/// cluster (no Extend, SpacingMark, ZWJ or Prepend among them: the test
/// `symbols_that_stand_alone_are_clusters_of_their_own` checks every one).
fn stands_alone(c: char) -> bool {
    matches!(c, '\u{b7}' | '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205e}' | '\u{2190}'..='\u{2bff}')
}

/// Where the run of [`stands_alone`] symbols at byte `from` of `s` ends, and
/// its width. Two such symbols never join, so each is a cluster of its own
/// when the character before the run is printable ASCII and the one after it
/// is too (a combining mark after the run would join its last symbol).
fn stand_alone_run(s: &str, from: usize) -> (usize, usize) {
    let mut end = from;
    let mut width = 0;
    while let Some(c) = s[end..].chars().next().filter(|&c| stands_alone(c)) {
        width += cluster_width(&s[end..end + c.len_utf8()]);
        end += c.len_utf8();
    }
    (end, width)
}

/// The grapheme cluster `s` starts with (`s` starts on a cluster boundary).
pub fn first_cluster(s: &str) -> &str {
    let b = s.as_bytes();
    // Two ASCII characters are never one cluster, CR LF aside: skip the segmenter.
    if b.len() >= 2 && b[0].is_ascii() && b[1].is_ascii() && b[0] != b'\r' {
        return &s[..1];
    }
    s.graphemes(true).next().unwrap_or(s)
}

/// The longest run of whole clusters of `s` at most `width` columns wide, and its width.
pub fn head_within(s: &str, width: usize) -> (&str, usize) {
    let b = s.as_bytes();
    let mut used = 0;
    let mut end = 0;
    while end < s.len() {
        // A printable ASCII character before another one (or the end) is a
        // cluster of one column: no segmenter.
        if printable_ascii(b[end]) && b.get(end + 1).is_none_or(|&n| printable_ascii(n)) {
            if used + 1 > width {
                break;
            }
            used += 1;
            end += 1;
            continue;
        }
        let g = first_cluster(&s[end..]);
        let w = cluster_width(g);
        if used + w > width {
            break;
        }
        used += w;
        end += g.len();
    }
    (&s[..end], used)
}

/// Cut to at most `width` columns, ending in `…` when anything was cut.
pub fn truncate(s: &str, width: usize) -> String {
    if self::width(s) <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let (head, _) = head_within(s, width - 1);
    format!("{head}…")
}

/// Pad with spaces (or cut) to exactly `width` columns.
pub fn fit(s: &str, width: usize) -> String {
    let cut = truncate(s, width);
    let w = self::width(&cut);
    format!("{cut}{}", " ".repeat(width.saturating_sub(w)))
}

/// Cut from the middle: `abc…xyz`, for titles and paths.
pub fn middle_ellipsis(s: &str, width: usize) -> String {
    if self::width(s) <= width || width < 5 {
        return truncate(s, width);
    }
    let keep = width - 1;
    let head_w = keep.div_ceil(2);
    let tail_w = keep - head_w;
    let (head, _) = head_within(s, head_w);
    let mut tail_start = s.len();
    let mut used = 0;
    for (at, g) in s.grapheme_indices(true).rev() {
        let w = cluster_width(g);
        if used + w > tail_w || at < head.len() {
            break;
        }
        used += w;
        tail_start = at;
    }
    format!("{head}…{}", &s[tail_start..])
}

/// Cut from the start: `…tool-note`, for names whose ends tell them apart.
pub fn head_ellipsis(s: &str, width: usize) -> String {
    if self::width(s) <= width || width < 2 {
        return truncate(s, width);
    }
    let mut tail_start = s.len();
    let mut used = 0;
    for (at, g) in s.grapheme_indices(true).rev() {
        let w = cluster_width(g);
        if used + w > width - 1 {
            break;
        }
        used += w;
        tail_start = at;
    }
    format!("…{}", &s[tail_start..])
}

/// Wrap sanitized multi-line text to `width` columns (cluster wrap).
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for line in s.split('\n') {
        let mut rest = line;
        loop {
            let (head, _) = head_within(rest, width);
            // A cluster wider than the line still takes a line of its own.
            let head = if head.is_empty() && !rest.is_empty() { first_cluster(rest) } else { head };
            out.push(head.to_string());
            rest = &rest[head.len()..];
            if rest.is_empty() {
                break;
            }
        }
    }
    out
}

/// Whether `next` would continue the last grapheme cluster of `prev` (a skin
/// tone after its emoji, a variation selector, a combining mark). Such a
/// span is joined to the one before it, so that every span boundary is a
/// cluster boundary and a line is as wide as the sum of its spans.
pub fn continues_cluster(prev: &str, next: &str) -> bool {
    let (Some(a), Some(b)) = (prev.chars().next_back(), next.chars().next()) else { return false };
    if a.is_ascii() && b.is_ascii() {
        return a == '\r' && b == '\n';
    }
    // Printable ASCII and the symbols that stand alone join nothing on either side.
    let joins_nothing = |c: char| u8::try_from(c).is_ok_and(printable_ascii) || stands_alone(c);
    if joins_nothing(a) && joins_nothing(b) {
        return false;
    }
    let last = prev.graphemes(true).next_back().unwrap_or_default();
    let mut joined = String::with_capacity(last.len() + 4);
    joined.push_str(last);
    joined.push(b);
    joined.graphemes(true).nth(1).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every symbol the width shortcut takes alone is a cluster of its own
    /// between printable ASCII characters, alone, and before a combining
    /// mark it is measured with that mark (the shortcut is not taken there).
    #[test]
    fn symbols_that_stand_alone_are_clusters_of_their_own() {
        let slow = |s: &str| s.graphemes(true).map(cluster_width).sum::<usize>();
        let mut checked = 0;
        for c in (0..=0x2bffu32).filter_map(char::from_u32).filter(|&c| stands_alone(c)) {
            let between = format!("a{c}b");
            let clusters: Vec<&str> = between.graphemes(true).collect();
            assert_eq!(clusters, ["a", &*c.to_string(), "b"], "U+{:04X}", c as u32);
            for s in [c.to_string(), between, format!("{c}x{c}"), format!("x{c}\u{301}y"), format!("{c}{c}\u{fe0f}a")] {
                assert_eq!(width(&s), slow(&s), "{s:?}");
            }
            checked += 1;
        }
        assert!(checked > 2000, "{checked}");
    }

    /// The ASCII shortcut measures what the segmenter measures.
    #[test]
    fn width_of_an_ascii_start_is_what_clusters_say() {
        let slow = |s: &str| s.graphemes(true).map(cluster_width).sum::<usize>();
        for s in [
            "",
            "abc",
            "event 1 xxx…",
            "e\u{301}",
            "abe\u{301}c",
            "ok ❤️‍🔥 done",
            "a\r\nb",
            "日本語 ok",
            "x\u{200d}y",
            "tab\there",
            "1:2→3 ✓ completed",
            "a\u{600}1b",
            "→\u{301}x→y\u{fe0f}",
        ] {
            assert_eq!(width(s), slow(s), "{s:?}");
        }
        // Random strings of ASCII, marks, joiners, prepends, emoji and wide characters.
        let alphabet = [
            'a',
            ' ',
            '1',
            '\r',
            '\n',
            '\u{301}',
            '\u{200d}',
            '\u{600}',
            '\u{fe0f}',
            '❤',
            '🔥',
            '→',
            '…',
            '✓',
            '日',
            '\u{1f1e6}',
            '\u{1f3fb}',
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let s: String = (0..random() % 9).map(|_| alphabet[(random() % alphabet.len() as u64) as usize]).collect();
            assert_eq!(width(&s), slow(&s), "{s:?}");
            // The cut by whole clusters, and whether one text continues another's last cluster.
            let slow_head = |w: usize| {
                let mut used = 0;
                let end: usize = s
                    .graphemes(true)
                    .take_while(|g| {
                        used += cluster_width(g);
                        used <= w
                    })
                    .map(str::len)
                    .sum();
                &s[..end]
            };
            for w in 0..6 {
                assert_eq!(head_within(&s, w).0, slow_head(w), "{s:?} within {w}");
            }
            let (prev, next) = s.split_at(s.char_indices().nth(s.chars().count() / 2).map_or(0, |(i, _)| i));
            // What the segmenter says of the last cluster of `prev` and the first character of `next`.
            let slow_continues = match (prev.graphemes(true).next_back(), next.chars().next()) {
                (Some(last), Some(b)) => format!("{last}{b}").graphemes(true).nth(1).is_none(),
                _ => false,
            };
            assert_eq!(continues_cluster(prev, next), slow_continues, "{prev:?} + {next:?}");
        }
    }

    /// The fast test of whether a text needs sanitising says what its
    /// definition says, for every character, between ASCII and a symbol.
    #[test]
    fn needs_work_is_its_definition() {
        let by_definition = |s: &str, lines: Lines| {
            s.chars().any(|c| match c {
                '\n' => lines == Lines::Single,
                '\t' => true,
                _ => unsafe_char(c),
            })
        };
        let mut s = String::new();
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            s.clear();
            s.push('a');
            s.push(c);
            s.push_str("→b");
            for lines in [Lines::Single, Lines::Multi] {
                assert_eq!(needs_work(&s, lines), by_definition(&s, lines), "U+{:04X} {lines:?}", c as u32);
            }
        }
    }

    /// Every character the test calls unsafe leaves a one-line text as a visible placeholder.
    #[test]
    fn every_unsafe_character_is_replaced() {
        let mut replaced = 0;
        for c in (0..=0x10ffffu32).filter_map(char::from_u32).filter(|&c| unsafe_char(c)) {
            let text = format!("a{c}b");
            let s = sanitize(&text, Lines::Single);
            assert!(!s.contains(c) && s.chars().count() > 2, "U+{:04X}: {s:?}", c as u32);
            replaced += 1;
        }
        // C0, DEL and C1; bidi; zero-width, BOM and soft hyphen; separators; annotations; tags;
        // the other Cf characters (every one of them, the tags' range counted above).
        let other_format = (0..=0x10ffffu32)
            .filter_map(char::from_u32)
            .filter(|&c| crate::unicode_cf::is_format(c))
            .filter(|&c| !matches!(c, '\u{ad}' | '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}'))
            .count();
        assert!(other_format >= 40, "{other_format}");
        assert_eq!(replaced, 32 + 33 + 12 + 10 + 2 + 3 + 128 + other_format);
    }

    #[test]
    fn escape_sequences_become_visible() {
        let s = sanitize("a\u{1b}[31mred\u{1b}]52;c;aGk=\u{7}b", Lines::Single);
        assert!(!s.contains('\u{1b}'));
        assert!(!s.contains('\u{7}'));
        assert_eq!(s, "a␛[31mred␛]52;c;aGk=␇b");
    }

    #[test]
    fn c1_bidi_and_zero_width_are_distinct() {
        let s = sanitize("x\u{9b}y\u{202e}z\u{200b}w", Lines::Single);
        assert_eq!(s, "x‹C1:9B›y‹U+202E›z‹U+200B›w");
    }

    #[test]
    fn multi_line_keeps_lines_and_expands_tabs() {
        assert_eq!(sanitize("a\tb\r\nc\rd", Lines::Multi), "a   b\nc␍d");
        assert_eq!(sanitize("a\nb", Lines::Single), "a↵b");
    }

    #[test]
    fn truncation_counts_display_width() {
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(width(&fit("日本", 6)), 6);
        assert_eq!(middle_ellipsis("abcdefghijkl", 7), "abc…jkl");
    }

    #[test]
    fn widths_and_cuts_go_by_grapheme_cluster() {
        let fire = "\u{2764}\u{fe0f}\u{200d}\u{1f525}";
        assert_eq!(width(fire), 2);
        assert_eq!(width(&fire.repeat(5)), 10);
        assert_eq!(width("\u{1f44d}\u{1f3fd}"), 2, "a skin tone is part of its emoji");
        assert_eq!(width("e\u{301}\u{301}"), 1);
        let cut = truncate(&fire.repeat(5), 7);
        assert_eq!(cut, format!("{}…", fire.repeat(3)));
        assert_eq!(width(&cut), 7);
        assert_eq!(width(&fit(&fire.repeat(5), 8)), 8);
        let mid = middle_ellipsis(&fire.repeat(10), 11);
        assert!(width(&mid) <= 11, "{mid}");
        assert!(mid.starts_with(fire) && mid.ends_with(fire), "{mid}");
        for w in 1..12 {
            for line in wrap(&fire.repeat(7), w) {
                assert!(width(&line) <= w.max(2), "{w}: {line}");
                assert!(line.is_empty() || line.starts_with('\u{2764}'), "a cluster was split: {line:?}");
            }
        }
        assert_eq!(wrap("abcdef\n\nxy", 4), vec!["abcd", "ef", "", "xy"]);
    }

    #[test]
    fn json_escaping_keeps_the_value_and_hides_controls() {
        let v = serde_json::json!({"k\u{202e}": "a\u{1b}[2J\u{7f}\u{9b}b\u{200b}\u{e0041}\n", "n": 1});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let safe = json_terminal_safe(&text);
        assert!(!safe.chars().any(|c| c.is_control() && c != '\n'), "{safe}");
        assert!(safe.contains("\\u001b") && safe.contains("\\u009b") && safe.contains("\\u202e"));
        assert!(safe.contains("\\udb40\\udc41"), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
        assert!(matches!(json_terminal_safe("{\"a\": 1}"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_placeholder_is_visible_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for code in (0u32..0x20).chain(0x7f..0xa0).chain([0x202a, 0x202e, 0x2066, 0x2069, 0x200b, 0x200d, 0xfeff]) {
            let c = char::from_u32(code).unwrap();
            if c == '\n' || c == '\t' {
                continue;
            }
            let s = sanitize(&c.to_string(), Lines::Single).into_owned();
            assert!(width(&s) > 0, "U+{code:04X} has an invisible placeholder");
            assert!(!s.chars().any(|x| x.is_control()), "U+{code:04X} → {s:?}");
            assert!(seen.insert(s.clone()), "U+{code:04X} placeholder {s} is not distinct");
        }
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(sanitize("plain text", Lines::Single), Cow::Borrowed(_)));
    }
}
