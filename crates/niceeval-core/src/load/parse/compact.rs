//! Parse JSON into the same `serde_json::Value` as `serde_json::from_slice`,
//! with objects and arrays allocated at their final size.
//!
//! serde_json's own `Value` visitor grows every object and array as entries
//! arrive, so a five-key object keeps room for seven (about 100 bytes per
//! spare slot with `preserve_order`) and an array up to twice its length.
//! Across a transcript of small events that slack is a tenth of the parsed
//! tree. Here the entries of each container are gathered first and the
//! container is made once, with exactly their count. Errors (messages and
//! positions) are serde_json's own: the same deserializer reads the text.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// `serde_json::from_slice::<Value>`, with containers sized exactly.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = CompactValue.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// `serde_json::from_str::<Value>`, with containers sized exactly.
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    from_slice(text.as_bytes())
}

/// serde_json hands a number kept as written (`arbitrary_precision`) to a
/// visitor as a one-entry map under this key; its `Value` reads it back so.
const NUMBER_KEY: &str = "$serde_json::private::Number";
/// The same protocol for raw values (`raw_value`).
const RAW_VALUE_KEY: &str = "$serde_json::private::RawValue";

#[derive(Clone, Copy)]
struct CompactValue;

impl<'de> DeserializeSeed<'de> for CompactValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(CompactValue)
    }
}

impl<'de> Visitor<'de> for CompactValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(CompactValue)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(CompactValue)? {
            items.push(item);
        }
        // In place for the allocator's usual case; only spare room is given back.
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Value::Object(Map::new()));
        };
        match first.as_str() {
            NUMBER_KEY => {
                let written = map.next_value_seed(MarkedString("string containing a number"))?;
                return written.parse::<Number>().map(Value::Number).map_err(de::Error::custom);
            }
            RAW_VALUE_KEY => {
                let raw = map.next_value_seed(MarkedString("raw value"))?;
                return from_str(&raw).map_err(de::Error::custom);
            }
            _ => {}
        }
        let mut entries = Vec::with_capacity(8);
        entries.push((first, map.next_value_seed(CompactValue)?));
        while let Some(key) = map.next_key::<String>()? {
            entries.push((key, map.next_value_seed(CompactValue)?));
        }
        let mut object = Map::with_capacity(entries.len());
        for (key, value) in entries {
            // A repeated key keeps its first place and takes the last value, as in serde_json.
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// The string under one of serde_json's marker keys, expected with the same
/// words serde_json uses, so that a file holding such a key with another
/// kind of value gets the same error message.
struct MarkedString(&'static str);

impl<'de> DeserializeSeed<'de> for MarkedString {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for MarkedString {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::from_slice;
    use serde_json::Value;

    fn same(text: &str) {
        let want = serde_json::from_str::<Value>(text);
        let got = from_slice(text.as_bytes());
        match (want, got) {
            (Ok(w), Ok(g)) => {
                assert_eq!(g, w, "{text}");
                assert_eq!(g.to_string(), w.to_string(), "key order and numbers as written: {text}");
            }
            (Err(w), Err(g)) => {
                assert_eq!(g.to_string(), w.to_string(), "same error and position: {text}");
            }
            (w, g) => panic!("{text}: serde_json {w:?}, compact {g:?}"),
        }
    }

    #[test]
    fn same_values_and_errors_as_serde_json() {
        for text in [
            r#"{"a":1,"b":[1,2.50,-0,1e400,123456789012345678901234567890],"c":{"d":null,"e":true}}"#,
            r#"{"dup":1,"x":2,"dup":3}"#,
            r#"[]"#,
            r#"{}"#,
            r#""\u00e9\n\"""#,
            r#"  [ {"k" : [ [ ] , { } ] } ]  "#,
            r#"{"$serde_json::private::Number":"12.0"}"#,
            r#"{"$serde_json::private::Number":"x"}"#,
            r#"{"$serde_json::private::Number":12}"#,
            r#"{"$serde_json::private::RawValue":12}"#,
            r#"{"$serde_json::private::RawValue":"[1, 2]"}"#,
            r#"{"a":[1,2}"#,
            r#"{"a":1} x"#,
            r#"{"a":"\ud800"}"#,
            r#"[1,2,"#,
            "",
            "nul",
        ] {
            same(text);
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        same(&deep);
    }

    #[test]
    fn random_documents_match_serde_json() {
        let mut random = crate::model::random_json::RandomJson::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..500 {
            same(&random.document());
        }
    }
}
