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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Repairs {
    pub invalid_utf8: usize,
    pub lone_surrogates: usize,
    /// 1-based line and column of the first repair.
    pub first: Option<(usize, usize)>,
    /// The first [`LISTED`] repairs in file order: 1-based line and byte
    /// column in the input as it was, and what was replaced there.
    pub places: Vec<(usize, usize, Repair)>,
}

/// One replaced piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repair {
    InvalidUtf8,
    /// The escape as written, e.g. `\ud800`.
    LoneSurrogate(String),
}

impl Repair {
    pub fn describe(&self) -> String {
        match self {
            Repair::InvalidUtf8 => "invalid UTF-8 replaced by U+FFFD (\u{fffd})".into(),
            Repair::LoneSurrogate(e) => format!("unpaired UTF-16 surrogate escape {e} replaced by U+FFFD (\u{fffd})"),
        }
    }
}

/// How many repairs are listed with their place (the counts cover them all).
pub const LISTED: usize = 100;

impl Repairs {
    pub fn any(&self) -> bool {
        self.invalid_utf8 + self.lone_surrogates > 0
    }
}

/// Line and column of increasing byte offsets, counted once through the text.
struct Positions<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    line_start: usize,
}

impl Positions<'_> {
    fn of(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.bytes.len());
        for i in memchr::memchr_iter(b'\n', &self.bytes[self.at.min(offset)..offset]) {
            self.line += 1;
            self.line_start = self.at + i + 1;
        }
        self.at = offset;
        (self.line, offset - self.line_start + 1)
    }
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

/// Offsets of the `\` of every unpaired surrogate escape. Every `\` starts
/// a two-byte escape (or is a syntax error the parser reports anyway), so
/// `\\ud800` is left alone. Escapes are ASCII: the same escapes are found
/// before and after invalid UTF-8 is replaced.
fn lone_surrogates(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let Some(found) = memchr_backslash(&bytes[i..]) else { break };
        let at = i + found;
        let next = bytes.get(at + 1).copied();
        if next != Some(b'u') {
            i = at + 2;
            continue;
        }
        let Some(unit) = hex4(&bytes[at + 2..]) else {
            i = at + 2;
            continue;
        };
        match unit {
            0xD800..=0xDBFF => {
                let low = (bytes.get(at + 6..at + 8) == Some(b"\\u")).then(|| hex4(&bytes[at + 8..])).flatten();
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
        out.push(at);
        i = at + 6;
    }
    out
}

/// Repair a buffer. Borrowed when nothing needed repair (the common case).
pub fn repair(bytes: &[u8]) -> (Cow<'_, [u8]>, Repairs) {
    let mut repairs = Repairs::default();
    let mut out: Cow<'_, [u8]> = Cow::Borrowed(bytes);
    // (offset in `bytes`, what) of each repair, in file order within each kind.
    let mut places: Vec<(usize, Repair)> = Vec::new();
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
                    if places.len() < LISTED {
                        places.push((bytes.len() - rest.len() + good, Repair::InvalidUtf8));
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
    let found = lone_surrogates(&out);
    if !found.is_empty() {
        repairs.lone_surrogates = found.len();
        let in_input = if matches!(out, Cow::Borrowed(_)) { found.clone() } else { lone_surrogates(bytes) };
        for at in in_input.into_iter().take(LISTED) {
            places.push((at, Repair::LoneSurrogate(String::from_utf8_lossy(&bytes[at..at + 6]).into_owned())));
        }
        let out = out.to_mut();
        for at in found {
            out[at + 2..at + 6].copy_from_slice(b"FFFD");
        }
    }
    places.sort_by_key(|(at, _)| *at);
    places.truncate(LISTED);
    let mut positions = Positions { bytes, at: 0, line: 1, line_start: 0 };
    repairs.places = places
        .into_iter()
        .map(|(at, what)| {
            let (line, column) = positions.of(at);
            (line, column, what)
        })
        .collect();
    repairs.first = repairs.places.first().map(|(l, c, _)| (*l, *c));
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
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let (s, r) = fixed(b"{\"a\":\n\"x\xffy\xed\xa0\x80z\xc3\"}");
        assert_eq!(s, "{\"a\":\n\"x\u{fffd}y\u{fffd}\u{fffd}\u{fffd}z\u{fffd}\"}");
        assert_eq!(r.first, Some((2, 3)));
        assert!(r.invalid_utf8 >= 3);
    }

    #[test]
    fn every_repair_is_placed_in_the_input_as_it_was() {
        // The surrogate comes after an invalid byte that grows by two bytes
        // when replaced: its column is still the one in the input.
        let (_, r) = repair(b"{\"a\":\n\"x\xffy \\ud800 z\xfe\"}");
        let places: Vec<(usize, usize)> = r.places.iter().map(|(l, c, _)| (*l, *c)).collect();
        assert_eq!(places, vec![(2, 3), (2, 6), (2, 14)]);
        assert_eq!(r.places[1].2, Repair::LoneSurrogate("\\ud800".into()));
        assert_eq!(r.first, Some((2, 3)));
        let many = b"\xff\n".repeat(LISTED + 5);
        let (_, r) = repair(&many);
        assert_eq!((r.invalid_utf8, r.places.len()), (LISTED + 5, LISTED));
        assert_eq!(r.places[LISTED - 1].0, LISTED);
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
