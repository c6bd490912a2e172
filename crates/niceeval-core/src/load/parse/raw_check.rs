//! Whether an event's text can be kept raw: one pass over it that accepts
//! exactly what `serde_json::from_slice` accepts and reads the same way in
//! place (distinct, unescaped keys; no marker keys), and says where it ends.

use crate::model::json_scan::{is_ws, valid_string_end};

/// Nesting deeper than this is parsed whole (serde_json's own limit is 128).
const MAX_DEPTH: usize = 100;

/// Whether `text` is one JSON object a raw event can be kept as: what
/// `serde_json::from_slice` accepts (UTF-8, escapes, surrogates in pairs,
/// numbers, nesting), with distinct keys in every object, none escaped and
/// none of serde_json's marker keys (so reading it in place gives what its
/// `Value` would hold).
pub fn raw_event_ok(text: &[u8]) -> bool {
    raw_event_end(text) == Some(text.len())
}

/// The end of the object `text` starts with, when it is one a raw event can
/// be kept as (see [`raw_event_ok`]); what follows it is not looked at.
pub fn raw_event_end(text: &[u8]) -> Option<usize> {
    with_raw_check(|check| check.event_end(text))
}

/// This thread's [`RawCheck`]: kept from one event to the next, as new
/// lists per event cost a tenth of the check.
pub fn with_raw_check<R>(f: impl FnOnce(&mut RawCheck) -> R) -> R {
    thread_local! {
        static CHECK: std::cell::RefCell<RawCheck> = std::cell::RefCell::default();
    }
    CHECK.with(|check| f(&mut check.borrow_mut()))
}

/// The check of raw events, keeping what it found of the last one: its
/// top-level members, so that reading them needs no second walk.
#[derive(Default)]
pub struct RawCheck {
    keys: Vec<(usize, usize)>,
    /// Key start, key end (without quotes), value start, value end.
    top: Vec<(usize, usize, usize, usize)>,
}

impl RawCheck {
    /// [`raw_event_end`], noting the event's top-level members.
    pub fn event_end(&mut self, text: &[u8]) -> Option<usize> {
        self.keys.clear();
        self.top.clear();
        if text.first() != Some(&b'{') {
            return None;
        }
        let end = Check { b: text, keys: &mut self.keys, top: &mut self.top }.value(0, 0)?;
        simdutf8::basic::from_utf8(&text[..end]).ok()?;
        Some(end)
    }

    /// The top-level members (key text without quotes, value text) of the
    /// event [`RawCheck::event_end`] last accepted in `text`.
    pub fn members<'t>(&self, text: &'t [u8]) -> impl Iterator<Item = (&'t [u8], &'t [u8])> {
        self.top.iter().map(move |&(ks, ke, vs, ve)| (&text[ks..ke], &text[vs..ve]))
    }
}

struct Check<'a, 'k> {
    b: &'a [u8],
    /// The keys of the objects being checked (a stack: each object's above its parent's).
    keys: &'k mut Vec<(usize, usize)>,
    /// The members of the outermost object.
    top: &'k mut Vec<(usize, usize, usize, usize)>,
}

impl<'a> Check<'a, '_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.b.len() && is_ws(self.b[i]) {
            i += 1;
        }
        i
    }

    /// End of the value at `i`, when it is valid.
    fn value(&mut self, i: usize, depth: usize) -> Option<usize> {
        match *self.b.get(i)? {
            b'"' => valid_string_end(self.b, i),
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
            let ke = valid_string_end(self.b, j)?;
            let key = &self.b[j + 1..ke - 1];
            let escaped = key.contains(&b'\\');
            let seen = self.keys[mark..].iter().any(|&(s, e)| &self.b[s..e] == key);
            if escaped || key.starts_with(b"$serde_json::private::") || seen {
                return None;
            }
            self.keys.push((j + 1, ke - 1));
            let colon = self.ws(ke);
            if self.b.get(colon) != Some(&b':') {
                return None;
            }
            let start = self.ws(colon + 1);
            let end = self.value(start, depth)?;
            if depth == 1 {
                self.top.push((j + 1, ke - 1, start, end));
            }
            j = self.ws(end);
            match *self.b.get(j)? {
                b',' => j = self.ws(j + 1),
                b'}' => return Some(j + 1),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::raw_event_ok;

    #[test]
    fn raw_events_are_what_serde_json_reads_the_same_way() {
        let ok = [
            r#"{"type":"message","role":"assistant","text":"a \" } ] \\ \u00e9 \ud83d\ude00"}"#,
            r#"{ "a" : [ 1 , -0.5e+3 , true , false , null , { } , [ ] ] , "b" : { "c" : { "a" : 1 } } }"#,
            r#"{"n":0,"m":-0,"x":1E5,"y":12345678901234567890123}"#,
        ];
        for t in ok {
            assert!(raw_event_ok(t.as_bytes()), "{t}");
            assert!(serde_json::from_str::<serde_json::Value>(t).is_ok());
        }
        let not = [
            r#"{"a":1,"a":2}"#,
            r#"{"k\u0065y":1}"#,
            r#"{"$serde_json::private::Number":"1"}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"x" "b":1}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} "#,
            r#"["not an object"]"#,
            "{\"a\":\"\u{1}\"}",
        ];
        for t in not {
            assert!(!raw_event_ok(t.as_bytes()), "{t}");
        }
        assert!(!raw_event_ok(b"{\"a\":\"\xff\"}"), "not UTF-8");
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(120), "]".repeat(120));
        assert!(!raw_event_ok(deep.as_bytes()), "deeper than the raw limit");
        // Keys repeat across objects without harm; only within one they are a duplicate.
        assert!(raw_event_ok(br#"{"a":{"a":1,"b":{"a":2}},"b":[{"a":1},{"a":2}]}"#));
    }

    #[test]
    fn raw_checks_agree_with_serde_json_on_random_documents() {
        let mut random = crate::model::random_json::RandomJson::distinct_keys(7);
        let mut corrupt = crate::model::random_json::RandomJson::new(11);
        let (mut accepted, mut rejected) = (0, 0);
        for _ in 0..3000 {
            let text = format!("{{\"x\":{}}}", random.document());
            assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
            assert!(raw_event_ok(text.as_bytes()), "valid, distinct unescaped keys: {text}");
            // Cut, doubled or dropped bytes: what the check accepts must parse.
            for _ in 0..4 {
                let mut bytes = text.clone().into_bytes();
                let at = corrupt.below(bytes.len() as u64) as usize;
                match corrupt.below(3) {
                    0 => bytes.truncate(at),
                    1 => bytes.insert(at, bytes[at]),
                    _ => drop(bytes.remove(at)),
                }
                if raw_event_ok(&bytes) {
                    accepted += 1;
                    assert!(
                        serde_json::from_slice::<serde_json::Value>(&bytes).is_ok(),
                        "{}",
                        String::from_utf8_lossy(&bytes)
                    );
                } else {
                    rejected += 1;
                }
            }
        }
        assert!(accepted > 100 && rejected > 100, "{accepted} accepted, {rejected} rejected");
    }
}
