//! What the text checks need of a string, without holding it.

use crate::node::Node;

/// What the text checks need of a string without holding it: the length of
/// its trimmed text, a hash of that length and its ends (see [`text_hash`]),
/// whether it is blank, and whether it has at least eight characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextDigest {
    pub hash: u64,
    pub blank: bool,
    pub at_least_8_chars: bool,
}

impl TextDigest {
    pub fn of(text: &str) -> TextDigest {
        let t = text.trim();
        TextDigest { hash: text_hash(t), blank: t.is_empty(), at_least_8_chars: t.chars().nth(7).is_some() }
    }

    /// The digest of a string node, without decoding a long raw string whole.
    pub fn of_node(node: Node<'_>) -> Option<TextDigest> {
        if let Some(inner) = node.raw_string_text()
            && memchr::memchr(b'\\', inner).is_some()
        {
            return escaped_digest(inner).or_else(|| node.as_str().map(|t| TextDigest::of(&t)));
        }
        node.as_str().map(|t| TextDigest::of(&t))
    }
}

/// A hash of a text by at most 256 bytes of its ends (a tool output can be
/// megabytes, and the length of an escaped one is known only by reading
/// it all); equal texts hash equal. The two ends are written as a stream,
/// so a text of 256 bytes hashes the same whole or as ends.
pub fn text_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let b = text.as_bytes();
    const END: usize = 128;
    let mut h = std::hash::DefaultHasher::new();
    if b.len() <= 2 * END {
        h.write(b);
    } else {
        h.write(&b[..END]);
        h.write(&b[b.len() - END..]);
    }
    h.finish()
}

/// The [`TextDigest`] of a string's text that has escapes, without decoding
/// it all: only its two ends are decoded, the end from a point between
/// escapes found by looking back from it ([`token_start_at_or_before`](crate::string::token_start_at_or_before)). A
/// short or mostly blank text is decoded whole. The string was checked by
/// the load; `None` for an escape the parse would reject in what is decoded.
pub fn escaped_digest(inner: &[u8]) -> Option<TextDigest> {
    const END: usize = 128;
    // Raw bytes enough for END decoded bytes past any trailing blanks.
    const TAIL_RAW: usize = 12 * (END + 64);
    let whole = || -> Option<TextDigest> {
        let mut text = String::with_capacity(inner.len());
        crate::string::decode_into(inner, 0, inner.len(), &mut text)?;
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
            let (len, c) = crate::string::escape_at(inner, raw)?;
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
    let boundary = crate::string::token_start_at_or_before(inner, inner.len() - TAIL_RAW);
    let mut tail = String::new();
    crate::string::decode_into(inner, boundary, inner.len(), &mut tail)?;
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

#[cfg(test)]
mod tests {
    use super::TextDigest;
    use super::escaped_digest;

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
                b'\\' => crate::string::escape_at(body, i).unwrap().0,
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
                    assert_eq!(crate::string::token_start_at_or_before(body.as_bytes(), at), want, "{at} in {body:?}");
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
