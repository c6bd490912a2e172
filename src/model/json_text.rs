//! JSON string text without a `Value`: the escapes JSON allows, decoding a
//! part of a string's text, and the [`TextDigest`] of a long string read
//! from its ends (for lazy events, see `event::LazyJson`).

use super::event::TextDigest;
use super::json_scan::escape_starts;

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
/// it all: one pass over the escapes (checking each as the parse would, and
/// counting the decoded length), then only the two ends are decoded. A short
/// or mostly blank text is decoded whole. `None` for an escape the parse
/// would reject.
pub fn escaped_digest(inner: &[u8]) -> Option<TextDigest> {
    const END: usize = 128;
    // Raw bytes enough for END decoded bytes past any trailing blanks.
    const TAIL_RAW: usize = 12 * (END + 64);
    let mut tail_from = inner.len().saturating_sub(TAIL_RAW);
    // Not inside a character (continuation bytes are never a backslash).
    while tail_from > 0 && inner[tail_from] & 0xC0 == 0x80 {
        tail_from -= 1;
    }
    let mut boundary = tail_from;
    let mut decoded_len = inner.len();
    let mut escaped_to = 0;
    for at in escape_starts(inner, 0) {
        if at < escaped_to {
            continue;
        }
        // A text has an escape every line: the two-byte ones are told from
        // their second byte alone, only `\u` escapes are decoded.
        let (len, c_len) = match inner.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => (2, 1),
            _ => escape_at(inner, at).map(|(len, c)| (len, c.len_utf8()))?,
        };
        decoded_len = decoded_len - len + c_len;
        if at < tail_from && tail_from < at + len {
            boundary = at;
        }
        escaped_to = at + len;
    }
    let whole = || -> Option<TextDigest> {
        let mut text = String::with_capacity(decoded_len);
        decode_into(inner, 0, inner.len(), &mut text)?;
        Some(TextDigest::of(&text))
    };
    if decoded_len <= 8 * END || tail_from == 0 {
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
    let mut tail = String::new();
    decode_into(inner, boundary, inner.len(), &mut tail)?;
    let kept = tail.trim_end().len();
    let trailing = tail.len() - kept;
    // Blanks that reach past either decoded end, or a short text: decode it all.
    if kept < END || head.len() < leading + END {
        return whole();
    }
    let trimmed_len = decoded_len - leading - trailing;
    if trimmed_len <= 2 * END {
        return whole();
    }
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    h.write_usize(trimmed_len);
    h.write(&head.as_bytes()[leading..leading + END]);
    h.write(&tail.as_bytes()[kept - END..kept]);
    Some(TextDigest { hash: h.finish(), blank: false, at_least_8_chars: true })
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
    use crate::model::event::TextDigest;

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

    #[test]
    fn escapes_the_parse_rejects_are_not_digested() {
        for bad in ["a\\x", "\\u12", "\\ud800", "\\udc00x", "\\ud800\\u0041", "end\\"] {
            assert_eq!(escaped_digest(bad.as_bytes()), None, "{bad}");
        }
        assert!(escaped_digest("\\ud83d\\ude00".as_bytes()).is_some(), "a pair is fine");
    }
}
