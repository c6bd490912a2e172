//! A copy of `raw_event_ok` and its `Check` from `src/load/lazy.rs` (commit
//! 5276f4f), so that two changes can be measured beside the library's own
//! function. The copy keeps its key stack as offsets (so that it can outlive
//! one text). With `SHORT_STRINGS`, a string is first walked a byte at a time
//! for up to 48 bytes (as `json_scan::string_end` already does), and only a
//! string with an escape, or a longer one, goes to the 64-byte blocks of
//! `json_scan::valid_string_end`. `raw_event_ok_reused` also keeps the key
//! stack from one event to the next instead of allocating it per event.
//! `raw_event_ok::<false>` is the library's code.

use niceeval::model::json_scan::valid_string_end;

/// `json_scan::valid_string_end`, with a byte-at-a-time walk of the first
/// 48 bytes: a quote there ends the string, a control character makes it
/// invalid, a backslash (or no end) hands the string to the block scan.
#[inline]
pub fn valid_string_end_short(b: &[u8], i: usize) -> Option<usize> {
    let limit = b.len().min(i + 1 + 48);
    let mut j = i + 1;
    while j < limit {
        match b[j] {
            b'"' => return Some(j + 1),
            b'\\' => break,
            c if c < 0x20 => return None,
            _ => j += 1,
        }
    }
    valid_string_end(b, i)
}

#[inline(always)]
fn string_end<const SHORT_STRINGS: bool>(b: &[u8], i: usize) -> Option<usize> {
    if SHORT_STRINGS { valid_string_end_short(b, i) } else { valid_string_end(b, i) }
}

/// JSON whitespace.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Nesting deeper than this is parsed whole (serde_json's own limit is 128).
const MAX_DEPTH: usize = 100;

/// Whether `text` is one JSON object a raw event can be kept as: what
/// `serde_json::from_slice` accepts (UTF-8, escapes, surrogates in pairs,
/// numbers, nesting), with distinct keys in every object, none escaped and
/// none of serde_json's marker keys (so reading it in place gives what its
/// `Value` would hold).
pub fn raw_event_ok<const SHORT_STRINGS: bool>(text: &[u8]) -> bool {
    if text.first() != Some(&b'{') || simdutf8::basic::from_utf8(text).is_err() {
        return false;
    }
    let mut keys = Vec::new();
    Check::<SHORT_STRINGS> { b: text, keys: &mut keys, _text: std::marker::PhantomData }.value(0, 0) == Some(text.len())
}

thread_local! {
    /// The key stack, kept from one event to the next (as offsets: it
    /// outlives the text).
    static KEYS: std::cell::RefCell<Vec<(usize, usize)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`raw_event_ok`] with short strings walked and the key stack reused
/// (one allocation per thread instead of one per event with a key).
pub fn raw_event_ok_reused(text: &[u8]) -> bool {
    if text.first() != Some(&b'{') || simdutf8::basic::from_utf8(text).is_err() {
        return false;
    }
    KEYS.with_borrow_mut(|offsets| {
        offsets.clear();
        Check::<true> { b: text, keys: offsets, _text: std::marker::PhantomData }.value(0, 0) == Some(text.len())
    })
}

struct Check<'a, 'k, const SHORT_STRINGS: bool> {
    b: &'a [u8],
    /// The keys of the objects being checked (a stack: each object's above its parent's).
    keys: &'k mut Vec<(usize, usize)>,
    _text: std::marker::PhantomData<&'a ()>,
}

impl<'a, const SHORT_STRINGS: bool> Check<'a, '_, SHORT_STRINGS> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.b.len() && is_ws(self.b[i]) {
            i += 1;
        }
        i
    }

    /// End of the value at `i`, when it is valid.
    fn value(&mut self, i: usize, depth: usize) -> Option<usize> {
        match *self.b.get(i)? {
            b'"' => string_end::<SHORT_STRINGS>(self.b, i),
            b'{' if depth < MAX_DEPTH => self.object(i, depth + 1),
            b'[' if depth < MAX_DEPTH => self.array(i, depth + 1),
            b't' => self.literal(i, b"true"),
            b'f' => self.literal(i, b"false"),
            b'n' => self.literal(i, b"null"),
            b'-' | b'0'..=b'9' => self.number(i),
            _ => None,
        }
    }

    fn literal(&self, i: usize, word: &[u8]) -> Option<usize> {
        (self.b.get(i..i + word.len())? == word).then_some(i + word.len())
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&self, mut i: usize) -> Option<usize> {
        let b = self.b;
        let digits = |mut j: usize| {
            let from = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            (j > from).then_some(j)
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        i = match b.get(i)? {
            b'0' => i + 1,
            b'1'..=b'9' => digits(i)?,
            _ => return None,
        };
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1)?;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = digits(i)?;
        }
        Some(i)
    }

    fn array(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mut j = self.ws(i + 1);
        if self.b.get(j) == Some(&b']') {
            return Some(j + 1);
        }
        loop {
            let end = self.value(j, depth)?;
            j = self.ws(end);
            match *self.b.get(j)? {
                b',' => j = self.ws(j + 1),
                b']' => return Some(j + 1),
                _ => return None,
            }
        }
    }

    fn object(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mark = self.keys.len();
        let end = self.members(i, depth);
        self.keys.truncate(mark);
        end
    }

    fn members(&mut self, i: usize, depth: usize) -> Option<usize> {
        let mark = self.keys.len();
        let mut j = self.ws(i + 1);
        if self.b.get(j) == Some(&b'}') {
            return Some(j + 1);
        }
        loop {
            if self.b.get(j) != Some(&b'"') {
                return None;
            }
            let ke = string_end::<SHORT_STRINGS>(self.b, j)?;
            let key = &self.b[j + 1..ke - 1];
            let escaped = key.contains(&b'\\');
            if escaped
                || key.starts_with(b"$serde_json::private::")
                || self.keys[mark..].iter().any(|&(s, e)| &self.b[s..e] == key)
            {
                return None;
            }
            self.keys.push((j + 1, ke - 1));
            let colon = self.ws(ke);
            if self.b.get(colon) != Some(&b':') {
                return None;
            }
            let start = self.ws(colon + 1);
            let end = self.value(start, depth)?;
            j = self.ws(end);
            match *self.b.get(j)? {
                b',' => j = self.ws(j + 1),
                b'}' => return Some(j + 1),
                _ => return None,
            }
        }
    }
}
