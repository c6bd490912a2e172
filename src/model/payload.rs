//! Payloads (tool inputs and outputs) shared between the derived views
//! instead of deep-copied into each of them.

use serde_json::Value;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// A payload value, shared by the derived facts, occurrences and summaries.
pub type Payload = Arc<Value>;

/// One copy per payload for a whole derivation: the same `&'a Value` (by
/// address) always gives the same [`Payload`]. The values are borrowed for
/// `'a`, so an address cannot be reused for another value while the cache lives.
#[derive(Default)]
pub struct PayloadCache<'a> {
    shared: HashMap<*const Value, Payload>,
    _borrow: PhantomData<&'a Value>,
}

impl<'a> PayloadCache<'a> {
    pub fn new() -> PayloadCache<'a> {
        PayloadCache { shared: HashMap::new(), _borrow: PhantomData }
    }

    pub fn share(&mut self, value: &'a Value) -> Payload {
        self.shared.entry(value as *const Value).or_insert_with(|| Arc::new(value.clone())).clone()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_same_value_is_copied_once() {
        let v: serde_json::Value = serde_json::from_str(r#"{"a":[1,2.50,"x"]}"#).unwrap();
        let w = v.clone();
        let mut cache = super::PayloadCache::new();
        let (a, b, c) = (cache.share(&v), cache.share(&v), cache.share(&w));
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        assert!(!std::sync::Arc::ptr_eq(&a, &c));
        assert_eq!(*a, v);
        assert_eq!(a.to_string(), r#"{"a":[1,2.50,"x"]}"#);
    }
}
