//! JSON string text without a `Value`: the escapes JSON allows, decoding a
//! part of a string's text, and the [`TextDigest`] of a long string read
//! from its ends (for lazy events, see `node::Node`).

use crate::digest::TextDigest;
use crate::scan::escape_starts;

/// What one escape of a string's text is: how many bytes it takes there and
/// the character it stands for. `None` for an escape JSON does not allow or
/// an unpaired surrogate.
pub fn escape_at(inner: &[u8], at: usize) -> Option<(usize, char)> {
    let hex = |from: usize| -> Option<u32> {
        let digits = inner.get(from..from + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16)
            .ok()
            .filter(|_| digits.iter().all(u8::is_ascii_hexdigit))
    };
    let simple = |c: char| Some((2, c));
    match inner.get(at + 1)? {
        b'"' => simple('"'),
        b'\\' => simple('\\'),
        b'/' => simple('/'),
        b'b' => simple('\u{8}'),
        b'f' => simple('\u{c}'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'u' => {
            let unit = hex(at + 2)?;
            match unit {
                0xD800..=0xDBFF => {
                    if inner.get(at + 6..at + 8)? != b"\\u" {
                        return None;
                    }
                    let low = hex(at + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return None;
                    }
                    Some((12, char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?))
                }
                0xDC00..=0xDFFF => None,
                _ => Some((6, char::from_u32(unit)?)),
            }
        }
        _ => None,
    }
}

/// Decode `inner[from..to]` (whole escapes only) onto `out`.
pub fn decode_into(inner: &[u8], from: usize, to: usize, out: &mut String) -> Option<()> {
    let mut i = from;
    for at in escape_starts(&inner[..to], from) {
        if at < i {
            continue;
        }
        out.push_str(std::str::from_utf8(&inner[i..at]).ok()?);
        let (len, c) = escape_at(inner, at)?;
        out.push(c);
        i = at + len;
    }
    out.push_str(std::str::from_utf8(inner.get(i..to)?).ok()?);
    Some(())
}

/// The first `max_chars` characters of a string's text, decoded (all of it
/// when shorter). `None` for an escape the parse would reject.
pub fn decode_prefix(inner: &[u8], max_chars: usize) -> Option<String> {
    let mut out = String::new();
    let (mut i, mut chars) = (0, 0);
    while i < inner.len() && chars < max_chars {
        // Up to the next escape, or as many bytes as could still be wanted.
        let next = memchr::memchr(b'\\', &inner[i..]).map_or(inner.len(), |k| i + k);
        if next > i {
            let mut end = next.min(i + 4 * (max_chars - chars));
            while end < next && inner[end] & 0xC0 == 0x80 {
                end += 1;
            }
            let text = std::str::from_utf8(&inner[i..end]).ok()?;
            for c in text.chars().take(max_chars - chars) {
                out.push(c);
                chars += 1;
            }
            i = end;
            if end < next {
                continue;
            }
        }
        if i < inner.len() && chars < max_chars {
            let (len, c) = escape_at(inner, i)?;
            out.push(c);
            chars += 1;
            i += len;
        }
    }
    Some(out)
}

/// The [`TextDigest`] of a string's text that has escapes, without decoding
/// it all: only its two ends are decoded, the end from a point between
/// escapes found by looking back from it ([`token_start_at_or_before`]). A
/// short or mostly blank text is decoded whole. The string was checked by
/// the load; `None` for an escape the parse would reject in what is decoded.
pub fn escaped_digest(inner: &[u8]) -> Option<TextDigest> {
    const END: usize = 128;
    // Raw bytes enough for END decoded bytes past any trailing blanks.
    const TAIL_RAW: usize = 12 * (END + 64);
    let whole = || -> Option<TextDigest> {
        let mut text = String::with_capacity(inner.len());
        decode_into(inner, 0, inner.len(), &mut text)?;
        Some(TextDigest::of(&text))
    };
    if inner.len() <= TAIL_RAW {
        return whole();
    }
    // The start: blanks, then at least END bytes of text.
    let mut head = String::new();
    let mut raw = 0;
    let mut leading = 0;
    while raw < inner.len() && head.len() < leading + END {
        let before = head.len();
        let step = if inner[raw] == b'\\' {
            let (len, c) = escape_at(inner, raw)?;
            head.push(c);
            len
        } else {
            let c = std::str::from_utf8(&inner[raw..(raw + 4).min(inner.len())])
                .or_else(|e| std::str::from_utf8(&inner[raw..raw + e.valid_up_to().max(1)]))
                .ok()?
                .chars()
                .next()?;
            head.push(c);
            c.len_utf8()
        };
        if leading == before && head[before..].chars().all(char::is_whitespace) {
            leading = head.len();
        }
        raw += step;
    }
    // The end, from a point between escapes.
    let boundary = token_start_at_or_before(inner, inner.len() - TAIL_RAW);
    let mut tail = String::new();
    decode_into(inner, boundary, inner.len(), &mut tail)?;
    let kept = tail.trim_end().len();
    // Blanks that reach past either decoded end, or ends that meet: decode it all.
    if kept < END || head.len() < leading + END || raw > boundary {
        return whole();
    }
    // The trimmed text is at least the two ends, 2 × END bytes, apart: its
    // hash is of them ([`text_hash`](crate::digest::text_hash)).
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    h.write(&head.as_bytes()[leading..leading + END]);
    h.write(&tail.as_bytes()[kept - END..kept]);
    Some(TextDigest { hash: h.finish(), blank: false, at_least_8_chars: true })
}

/// A point at or before `at` (`< inner.len()`) where a character or an
/// escape starts. An escape starts with a backslash and is at most 12
/// bytes (a surrogate pair); in a run of backslashes escapes start at every
/// other one from the run's first, so the run before `at` tells whether an
/// escape covers it.
fn token_start_at_or_before(inner: &[u8], mut at: usize) -> usize {
    // Not inside a character (continuation bytes are never a backslash).
    while at > 0 && inner[at] & 0xC0 == 0x80 {
        at -= 1;
    }
    let run_start = |mut i: usize| {
        while i > 0 && inner[i - 1] == b'\\' {
            i -= 1;
        }
        i
    };
    let starts_escape = |i: usize| inner[i] == b'\\' && (i - run_start(i)).is_multiple_of(2);
    // The escape starting at `i`, or the pair it is the low half of.
    let whole_escape = |i: usize| {
        let pair = i >= 6 && starts_escape(i - 6) && escape_at(inner, i - 6).is_some_and(|(len, _)| len == 12);
        if pair { i - 6 } else { i }
    };
    if inner[at] == b'\\' {
        // In a run: an escape starts at `at`, or at the backslash before it.
        return if starts_escape(at) { whole_escape(at) } else { at - 1 };
    }
    let Some(last) = (at.saturating_sub(12)..at).rev().find(|&i| inner[i] == b'\\') else { return at };
    if !starts_escape(last) {
        // The second of a pair of backslashes: nothing after it is escaped.
        return at;
    }
    let start = whole_escape(last);
    let len = escape_at(inner, start).map_or(2, |(len, _)| len);
    if start + len > at { start } else { at }
}

#[cfg(test)]
mod prefix_tests {
    use super::decode_prefix;

    #[test]
    fn a_prefix_is_the_start_of_the_decoded_text() {
        let texts = ["", "abc", "café\n日本語\t😀 \"q\" \\ end", &"é\nx".repeat(500)];
        for text in texts {
            let json = serde_json::to_string(text).unwrap();
            let inner = &json.as_bytes()[1..json.len() - 1];
            for n in [0, 1, 2, 5, 13, 100, 10_000] {
                let want: String = text.chars().take(n).collect();
                assert_eq!(decode_prefix(inner, n).as_deref(), Some(want.as_str()), "{n} of {text:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escaped_digest;
    use crate::digest::TextDigest;

    /// A JSON string body for `text`, escaping with every form JSON allows
    /// (chosen by `seed`), so the digest sees all of them.
    fn encode(text: &str, seed: &mut u64) -> String {
        let mut out = String::new();
        for c in text.chars() {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = (*seed >> 33) % 5;
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' if pick < 4 => out.push_str("\\n"),
                '\t' if pick < 4 => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c if pick == 0 => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{:04X}", u));
                    }
                }
                '/' if pick == 1 => out.push_str("\\/"),
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn digest_without_decoding_agrees_with_decoding() {
        let pieces = [
            "fn main() {\n",
            "    println!(\"hi\");\n",
            "}",
            " ",
            "\t",
            "\n",
            "\r\n",
            "café ",
            "日本語",
            "😀",
            "\u{a0}",
            "\u{3000}",
            "a",
            "\\",
            "/",
            "\u{1}",
            "x".repeat(300).leak(),
            " ".repeat(200).leak(),
        ];
        let mut seed = 7u64;
        for case in 0..3000 {
            let mut text = String::new();
            let parts = [1, 3, 20, 200, 900][case % 5];
            for _ in 0..parts {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let body = encode(&text, &mut seed);
            let decoded: String = serde_json::from_str(&format!("\"{body}\"")).unwrap();
            assert_eq!(decoded, text);
            if !body.contains('\\') {
                continue;
            }
            assert_eq!(escaped_digest(body.as_bytes()), Some(TextDigest::of(&text)), "case {case}: {body:?}");
        }
    }

    /// Where each character or escape of a string body starts, read from its start.
    fn token_starts(body: &[u8]) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut i = 0;
        while i < body.len() {
            starts.push(i);
            i += match body[i] {
                b'\\' => super::escape_at(body, i).unwrap().0,
                b => [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4][usize::from(b >> 4)].max(1),
            };
        }
        starts
    }

    #[test]
    fn the_token_start_before_a_point_is_the_last_one_read_from_the_start() {
        let texts = ["a\\\\\\b\n\"x", "😀 é 日本 \\ / \u{1}", &"\\\\\n😀\u{1f}x".repeat(9)];
        let mut seed = 3u64;
        for text in texts {
            for _ in 0..40 {
                let body = encode(text, &mut seed);
                let starts = token_starts(body.as_bytes());
                for at in 0..body.len() {
                    let want = *starts.iter().rev().find(|&&s| s <= at).unwrap();
                    assert_eq!(super::token_start_at_or_before(body.as_bytes(), at), want, "{at} in {body:?}");
                }
            }
        }
    }

    #[test]
    fn escapes_the_parse_rejects_are_not_digested() {
        for bad in ["a\\x", "\\u12", "\\ud800", "\\udc00x", "\\ud800\\u0041", "end\\"] {
            assert_eq!(escaped_digest(bad.as_bytes()), None, "{bad}");
        }
        assert!(escaped_digest("\\ud83d\\ude00".as_bytes()).is_some(), "a pair is fine");
    }
}
