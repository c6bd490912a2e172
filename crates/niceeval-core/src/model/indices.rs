//! `sessionIndex` and turn `ordinal` values as a file writes them: read as JS
//! reads a JSON number (`2.0` is 2), and what is outside the contract.

use serde_json::Value;

/// A JSON number read as JS reads an index or ordinal: `2.0` is 2. `None`
/// for anything that is not a non-negative safe integer.
pub fn js_index(v: &Value) -> Option<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match v {
        Value::Number(n) => n.as_u64().filter(|&i| i as f64 <= MAX_SAFE).or_else(|| {
            let x = n.as_f64()?;
            (x >= 0.0 && x.fract() == 0.0 && x <= MAX_SAFE).then_some(x as u64)
        }),
        _ => None,
    }
}

/// A written `sessionIndex` or `ordinal` outside the contract, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexMisfit {
    /// An integer with a fraction part (`2.0`): read as the integer.
    WrittenAsFloat(String),
    /// Not a non-negative integer at all.
    Invalid(String),
}

/// The misfit of a written `sessionIndex` or `ordinal` (`key`), if it is not
/// a plain integer. `otherwise` says what becomes of a value that is no index.
pub fn index_misfit(key: &str, v: &Value, otherwise: &str) -> Option<IndexMisfit> {
    if matches!(v, Value::Number(n) if n.is_u64()) && js_index(v).is_some() {
        return None;
    }
    Some(match js_index(v) {
        Some(i) => IndexMisfit::WrittenAsFloat(format!(
            "`{key}` is written {v}, not as an integer; NiceEval reads it as {i}, and so does the viewer"
        )),
        None => IndexMisfit::Invalid(format!("`{key}` is {v}, not a non-negative integer; {otherwise}")),
    })
}
