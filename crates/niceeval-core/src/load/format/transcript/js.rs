//! The few JavaScript semantics NiceEval's transcript parsers lean on, so
//! that a port reads the same lines the same way: `String.prototype.trim`,
//! `String(x)`, truthiness, `??`, and numbers as doubles (`JSON.parse`
//! reads every number as the nearest double; `JSON.stringify` writes a
//! non-finite one as `null`).
//!
//! A JS value is an `Option<&Value>`: `None` is `undefined`.

use serde_json::{Map, Value};

/// JS `String.prototype.trim`: its whitespace and line terminators, which
/// are not Rust's (`\u{feff}` is one, `\u{85}` is not).
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// A character `trim` removes.
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// A JSON number as the double `JSON.parse` makes of it: one too large
/// for a double is `Infinity` (serde_json's `as_f64` gives none then).
pub fn number(v: &Value) -> Option<f64> {
    let n = v.as_number()?;
    Some(n.as_f64().unwrap_or_else(|| n.to_string().parse().unwrap_or(f64::NAN)))
}

/// `typeof v === "number" && Number.isFinite(v)`.
pub fn finite(v: Option<&Value>) -> Option<f64> {
    v.and_then(number).filter(|x| x.is_finite())
}

/// `v === 0` (a number equal to zero, `-0` too).
pub fn is_zero(v: Option<&Value>) -> bool {
    v.and_then(number) == Some(0.0)
}

/// `a ?? b`: `a` unless it is `null` or `undefined`.
pub fn or<'a>(a: Option<&'a Value>, b: Option<&'a Value>) -> Option<&'a Value> {
    match a {
        Some(v) if !v.is_null() => a,
        _ => b,
    }
}

/// `v == null`: `null` or `undefined`.
pub fn nullish(v: Option<&Value>) -> bool {
    v.is_none_or(Value::is_null)
}

/// `obj[key]` for a JSON object (`get` in the parsers: `undefined` for
/// anything that is not an object, and for arrays, whose named keys JSON
/// cannot set).
pub fn get<'a>(obj: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    obj?.as_object()?.get(key)
}

/// `v === "s"`.
pub fn is_str(v: Option<&Value>, s: &str) -> bool {
    v.and_then(Value::as_str) == Some(s)
}

/// `!!v`.
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(_)) => v.and_then(number).is_some_and(|x| x != 0.0 && !x.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(_) | Value::Object(_)) => true,
    }
}

/// `String(v)` would throw: an object with its own `toString` key (a JSON
/// value there is never callable, and the inherited `valueOf` gives no
/// primitive), directly or inside an array being joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throws;

/// `String(v)`.
pub fn string(v: Option<&Value>) -> Result<String, Throws> {
    Ok(match v {
        None => "undefined".into(),
        Some(Value::Null) => "null".into(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(_)) => number_text(v.and_then(number).unwrap_or(f64::NAN)),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(if item.is_null() { String::new() } else { string(Some(item))? });
            }
            parts.join(",")
        }
        Some(Value::Object(o)) => {
            if o.contains_key("toString") {
                return Err(Throws);
            }
            "[object Object]".into()
        }
    })
}

/// `Number.prototype.toString()` of a double: the shortest digits that read
/// back as it, fixed between 1e-7 and 1e21, exponential outside.
pub fn number_text(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    // Rust's `{:e}` is the shortest round-trip form: `d.ddde±n`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let e: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = e + 1; // the decimal point sits after n digits
    let sign = if x < 0.0 { "-" } else { "" };
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let exp_sign = if n - 1 < 0 { "-" } else { "+" };
        let rest = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
        format!("{}{rest}e{exp_sign}{}", &digits[..1], (n - 1).abs())
    };
    format!("{sign}{body}")
}

/// A value as `JSON.stringify` writes what `JSON.parse` read: every number
/// the double it became (`null` when it is not finite), in JS's digits.
pub fn as_written(v: Value) -> Value {
    match v {
        Value::Number(ref n) => match number(&v) {
            Some(x) if x.is_finite() => {
                serde_json::from_str(&number_text(x)).map(Value::Number).unwrap_or_else(|_| Value::Number(n.clone()))
            }
            _ => Value::Null,
        },
        Value::Array(items) => Value::Array(items.into_iter().map(as_written).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, as_written(v))).collect()),
        other => other,
    }
}

/// A double as a JSON number in JS's digits (`null` when not finite).
pub fn double(x: f64) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    serde_json::from_str(&number_text(x)).unwrap_or(Value::Null)
}

/// `table[key]` of a plain JS object literal: the keys of
/// `Object.prototype` answer too. Its methods are functions, which
/// `JSON.stringify` leaves out (`None` here); `__proto__` is the prototype
/// itself, written `{}`.
pub enum Lookup<T> {
    Own(T),
    Function,
    Prototype,
    Missing,
}

pub fn lookup<T: Copy>(table: &[(&str, T)], key: &str) -> Lookup<T> {
    if let Some((_, v)) = table.iter().find(|(k, _)| *k == key) {
        return Lookup::Own(*v);
    }
    const METHODS: [&str; 11] = [
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toString",
        "valueOf",
        "toLocaleString",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    ];
    if METHODS.contains(&key) {
        Lookup::Function
    } else if key == "__proto__" {
        Lookup::Prototype
    } else {
        Lookup::Missing
    }
}

/// A parser's usage as it writes it: input and output once any request
/// counted, each of `buckets` only when above 0, then the request count.
pub fn usage_written(requests: u64, input: f64, output: f64, buckets: &[(&str, f64)]) -> Map<String, Value> {
    let mut u = Map::new();
    if requests > 0 {
        u.insert("inputTokens".into(), double(input));
        u.insert("outputTokens".into(), double(output));
    }
    for &(key, value) in buckets {
        if value > 0.0 {
            u.insert(key.into(), double(value));
        }
    }
    if requests > 0 {
        u.insert("requests".into(), requests.into());
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        let cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (0.5, "0.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123.456, "123.456"),
            (9007199254740993.0, "9007199254740992"),
            (-2.5e-10, "-2.5e-10"),
            (f64::INFINITY, "Infinity"),
        ];
        for (x, s) in cases {
            assert_eq!(number_text(x), s, "{x}");
        }
    }

    #[test]
    fn string_follows_js_conversion() {
        assert_eq!(string(Some(&json!([1, null, [2, "a"], {}]))).unwrap(), "1,,2,a,[object Object]");
        assert_eq!(string(Some(&json!(true))).unwrap(), "true");
        assert_eq!(string(Some(&json!({"toString": 1}))), Err(Throws));
        assert_eq!(string(None).unwrap(), "undefined");
    }

    #[test]
    fn trim_is_javascripts() {
        assert_eq!(trim("\u{feff} x\r"), "x");
        assert_eq!(trim("\u{85}x"), "\u{85}x");
    }

    #[test]
    fn written_numbers_are_doubles() {
        let v: Value = serde_json::from_str(r#"{"a":[12345678901234567891, 1e400, 2.50]}"#).unwrap();
        assert_eq!(as_written(v).to_string(), r#"{"a":[12345678901234567000,null,2.5]}"#);
    }
}
