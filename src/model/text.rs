//! Text from input files, made safe and measurable for a terminal.
//!
//! Nothing from a file reaches the terminal raw: ESC (so every CSI, OSC, DCS
//! sequence, OSC 52 and OSC 8 included), other C0 and C1 controls, DEL, bidi
//! overrides and isolates, and zero-width characters are replaced by visible,
//! distinct placeholders. Widths are display widths (CJK counts 2).

use std::borrow::Cow;
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
fn placeholder(c: char) -> Option<Cow<'static, str>> {
    let code = c as u32;
    Some(match c {
        '\u{1b}' => Cow::Borrowed("␛"),
        '\u{7f}' => Cow::Borrowed("␡"),
        // C0 controls → Control Pictures block (␀ … ␟).
        '\0'..='\u{1f}' => Cow::Owned(char::from_u32(0x2400 + code).unwrap_or('?').to_string()),
        // C1 controls (0x9b is a one-byte CSI on some terminals).
        '\u{80}'..='\u{9f}' => Cow::Owned(format!("‹C1:{code:02X}›")),
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}' => {
            Cow::Owned(format!("‹U+{code:04X}›"))
        }
        '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}' => {
            Cow::Owned(format!("‹U+{code:04X}›"))
        }
        '\u{2028}' | '\u{2029}' => Cow::Owned(format!("‹U+{code:04X}›")),
        '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}' => Cow::Owned(format!("‹U+{code:04X}›")),
        _ => return None,
    })
}

fn needs_work(s: &str, lines: Lines) -> bool {
    s.chars().any(|c| match c {
        '\n' => lines == Lines::Single,
        '\t' => true,
        _ => placeholder(c).is_some(),
    })
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
    let escape = |c: char| c > '\u{1f}' && placeholder(c).is_some();
    if !json.chars().any(escape) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
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

/// Display width of already-sanitized text.
pub fn width(s: &str) -> usize {
    s.width()
}

/// Cut to at most `width` columns, ending in `…` when anything was cut.
pub fn truncate(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// Pad with spaces (or cut) to exactly `width` columns.
pub fn fit(s: &str, width: usize) -> String {
    let cut = truncate(s, width);
    let w = cut.width();
    format!("{cut}{}", " ".repeat(width.saturating_sub(w)))
}

/// Cut from the middle: `abc…xyz`, for titles and paths.
pub fn middle_ellipsis(s: &str, width: usize) -> String {
    if s.width() <= width || width < 5 {
        return truncate(s, width);
    }
    let keep = width - 1;
    let head_w = keep.div_ceil(2);
    let tail_w = keep - head_w;
    let mut head = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > head_w {
            break;
        }
        used += w;
        head.push(c);
    }
    let mut tail: Vec<char> = Vec::new();
    used = 0;
    for c in s.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > tail_w {
            break;
        }
        used += w;
        tail.push(c);
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// Wrap sanitized multi-line text to `width` columns (character wrap).
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for line in s.split('\n') {
        if line.is_empty() {
            out.push(String::new());
            continue;
        }
        let mut current = String::new();
        let mut used = 0;
        for c in line.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width && !current.is_empty() {
                out.push(std::mem::take(&mut current));
                used = 0;
            }
            used += w;
            current.push(c);
        }
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
