//! JSON string text without a `Value`: the escapes JSON allows, decoding a
//! part of a string's text, and where a character or escape starts (for
//! the digest of a long string read from its ends, `digest`).

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

/// A point at or before `at` (`< inner.len()`) where a character or an
/// escape starts. An escape starts with a backslash and is at most 12
/// bytes (a surrogate pair); in a run of backslashes escapes start at every
/// other one from the run's first, so the run before `at` tells whether an
/// escape covers it.
pub fn token_start_at_or_before(inner: &[u8], mut at: usize) -> usize {
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
