//! Byte-level repairs made before JSON parsing, so that a file an adapter or
//! a model wrote with broken text still opens. Each repair is counted and
//! reported as a notice; nothing is dropped silently.
//!
//! - Invalid UTF-8 sequences become U+FFFD (`�`).
//! - `\uD800`–`\uDFFF` escapes that are not part of a high+low pair (which
//!   serde_json rejects) become `\uFFFD`. The escape has the same length, so
//!   line and column numbers of later errors do not move.

use std::borrow::Cow;

/// What [`repair`] changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repairs {
    pub invalid_utf8: usize,
    pub lone_surrogates: usize,
    /// 1-based line and column of the first repair.
    pub first: Option<(usize, usize)>,
}

impl Repairs {
    pub fn any(&self) -> bool {
        self.invalid_utf8 + self.lone_surrogates > 0
    }

    /// One sentence for a notice, or `None` when nothing was repaired.
    pub fn message(&self) -> Option<String> {
        if !self.any() {
            return None;
        }
        let mut parts = Vec::new();
        if self.invalid_utf8 > 0 {
            parts.push(format!("{} invalid UTF-8 sequence(s)", self.invalid_utf8));
        }
        if self.lone_surrogates > 0 {
            parts.push(format!("{} unpaired UTF-16 surrogate escape(s) (\\uD800–\\uDFFF)", self.lone_surrogates));
        }
        let at = self.first.map(|(l, c)| format!(", first at line {l} column {c}")).unwrap_or_default();
        Some(format!("{} replaced by U+FFFD (\u{fffd}){at}", parts.join(" and ")))
    }
}

fn position(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    (line, offset - line_start + 1)
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

/// Repair a buffer. Borrowed when nothing needed repair (the common case).
pub fn repair(bytes: &[u8]) -> (Cow<'_, [u8]>, Repairs) {
    let mut repairs = Repairs::default();
    let mut out: Cow<'_, [u8]> = Cow::Borrowed(bytes);
    if std::str::from_utf8(bytes).is_err() {
        let mut fixed = Vec::with_capacity(bytes.len() + 16);
        let mut rest = bytes;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    fixed.extend_from_slice(s.as_bytes());
                    break;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    fixed.extend_from_slice(&rest[..good]);
                    if repairs.first.is_none() {
                        repairs.first = Some(position(bytes, bytes.len() - rest.len() + good));
                    }
                    repairs.invalid_utf8 += 1;
                    fixed.extend_from_slice("\u{fffd}".as_bytes());
                    let bad = e.error_len().unwrap_or(rest.len() - good);
                    rest = &rest[good + bad..];
                }
            }
        }
        out = Cow::Owned(fixed);
    }
    // Lone surrogate escapes. Every `\` starts a two-byte escape (or is a
    // syntax error the parser reports anyway), so `\\ud800` is left alone.
    let mut i = 0;
    let mut first_surrogate = None;
    while i < out.len() {
        let Some(found) = memchr_backslash(&out[i..]) else { break };
        let at = i + found;
        let next = out.get(at + 1).copied();
        if next != Some(b'u') {
            i = at + 2;
            continue;
        }
        let Some(unit) = hex4(&out[at + 2..]) else {
            i = at + 2;
            continue;
        };
        match unit {
            0xD800..=0xDBFF => {
                let low = (out.get(at + 6..at + 8) == Some(b"\\u")).then(|| hex4(&out[at + 8..])).flatten();
                if low.is_some_and(|l| (0xDC00..=0xDFFF).contains(&l)) {
                    i = at + 12;
                    continue;
                }
            }
            0xDC00..=0xDFFF => {}
            _ => {
                i = at + 6;
                continue;
            }
        }
        out.to_mut()[at + 2..at + 6].copy_from_slice(b"FFFD");
        repairs.lone_surrogates += 1;
        first_surrogate.get_or_insert(at);
        i = at + 6;
    }
    if repairs.first.is_none()
        && let Some(at) = first_surrogate
    {
        repairs.first = Some(position(&out, at));
    }
    (out, repairs)
}

fn memchr_backslash(b: &[u8]) -> Option<usize> {
    b.iter().position(|c| *c == b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(s: &[u8]) -> (String, Repairs) {
        let (b, r) = repair(s);
        (String::from_utf8(b.into_owned()).unwrap(), r)
    }

    #[test]
    fn lone_surrogates_become_replacement_escapes() {
        let (s, r) = fixed(br#"{"a":"x\ud800y\uDFFFz\ud800\u0041","b":"\udbff"}"#);
        assert_eq!(s, r#"{"a":"x\uFFFDy\uFFFDz\uFFFD\u0041","b":"\uFFFD"}"#);
        assert_eq!(r.lone_surrogates, 4);
        assert_eq!(r.first, Some((1, 8)));
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a"], "x\u{fffd}y\u{fffd}z\u{fffd}A");
        assert!(r.message().unwrap().contains("4 unpaired UTF-16 surrogate escape(s)"));
    }

    #[test]
    fn valid_pairs_and_escaped_backslashes_are_kept() {
        let input = br#"["\ud83d\ude00","\\ud800","\\\ud800"]"#;
        let (s, r) = fixed(input);
        assert_eq!(s, r#"["\ud83d\ude00","\\ud800","\\\uFFFD"]"#);
        assert_eq!(r.lone_surrogates, 1);
        let clean = br#"{"a":"\u001b[31m \ud83d\ude00"}"#;
        let (b, r) = repair(clean);
        assert!(matches!(b, Cow::Borrowed(_)));
        assert!(!r.any());
        assert_eq!(r.message(), None);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let (s, r) = fixed(b"{\"a\":\n\"x\xffy\xed\xa0\x80z\xc3\"}");
        assert_eq!(s, "{\"a\":\n\"x\u{fffd}y\u{fffd}\u{fffd}\u{fffd}z\u{fffd}\"}");
        assert_eq!(r.first, Some((2, 3)));
        assert!(r.invalid_utf8 >= 3);
    }

    #[test]
    fn truncated_escapes_do_not_panic() {
        for input in
            [&b"\\"[..], b"\\u", b"\\ud8", b"\\ud800\\", b"\\ud800\\u", b"\\ud800\\udc", b"\"\\u\xff\xff\xff\xff\""]
        {
            let _ = repair(input);
        }
    }
}
