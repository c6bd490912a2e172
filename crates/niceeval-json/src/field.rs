//! A field of a parsed JSON object by its key.

use serde_json::Value;

/// A field of a JSON object by its key. The objects the derivations read
/// (events, operations, payloads) have a handful of keys, and comparing them
/// in order is faster than hashing the key, which `Map::get` does.
pub trait Field {
    fn field(&self, key: &str) -> Option<&Value>;
}

impl Field for serde_json::Map<String, Value> {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= 12 { self.iter().find_map(|(k, v)| (k == key).then_some(v)) } else { self.get(key) }
    }
}

impl Field for Value {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object()?.field(key)
    }
}
