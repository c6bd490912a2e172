//! `raw_event_ok`'s check written on serde_json instead of by hand (not in
//! the library; measured beside it): serde_json reads the text, a visitor
//! makes nothing and checks what serde_json's skip does not: distinct keys
//! in every object, no escaped key, no marker key, and every string decoded
//! (so an unpaired surrogate escape is an error, as in `from_slice::<Value>`).
//! UTF-8 is checked by serde_json on every string it reads.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// serde_json (`arbitrary_precision`) hands a number to a visitor as a
/// one-entry map under this key.
const NUMBER_KEY: &str = "$serde_json::private::Number";
const MARKER: &[u8] = b"$serde_json::private::";

pub fn raw_event_ok_serde(text: &[u8]) -> bool {
    if text.first() != Some(&b'{') || memchr::memmem::find(text, MARKER).is_some() {
        return false;
    }
    let mut keys = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(text);
    Checked { keys: &mut keys }.deserialize(&mut de).is_ok() && de.end().is_ok()
}

struct Checked<'k, 'de> {
    /// The keys of the objects being read (a stack).
    keys: &'k mut Vec<&'de str>,
}

impl<'de> DeserializeSeed<'de> for Checked<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_borrowed_str<E>(self, _: &'de str) -> Result<(), E> {
        Ok(())
    }
    fn visit_string<E>(self, _: String) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Checked { keys: &mut *self.keys })?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mark = self.keys.len();
        let mut first = true;
        while let Some(key) = map.next_key_seed(Key)? {
            if first && key == NUMBER_KEY {
                // A number kept as written: its text is the value.
                map.next_value::<de::IgnoredAny>()?;
                self.keys.truncate(mark);
                return Ok(());
            }
            first = false;
            if self.keys[mark..].contains(&key) {
                self.keys.truncate(mark);
                return Err(de::Error::custom("duplicate key"));
            }
            self.keys.push(key);
            map.next_value_seed(Checked { keys: &mut *self.keys })?;
        }
        self.keys.truncate(mark);
        Ok(())
    }
}

/// A key as it is in the text: one with an escape (which serde_json hands
/// over decoded, not borrowed) is refused.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = &'de str;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'de str, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = &'de str;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key without escapes")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<&'de str, E> {
        Ok(v)
    }
}
