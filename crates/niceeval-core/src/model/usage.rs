//! Usage (spec §1.5), sums where absent stays absent (§4.1), and the cost
//! estimate from a price table (§4.2). Observed `costUSD` and the estimate
//! are separate facts: neither ever fills in for the other.

mod prices;

pub use prices::{LookupStep, Price, PriceHit, PriceTable, TableSource, builtin_prices};
use serde_json::{Map, Value};

/// The usage fields in NiceEval's order.
pub const USAGE_FIELDS: [&str; 7] =
    ["inputTokens", "outputTokens", "cacheReadTokens", "cacheCreationTokens", "reasoningTokens", "requests", "costUSD"];

/// Usage with every field optional. `None` means "not reported", never 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    pub input_tokens: Option<f64>,
    pub output_tokens: Option<f64>,
    pub cache_read_tokens: Option<f64>,
    pub cache_creation_tokens: Option<f64>,
    pub reasoning_tokens: Option<f64>,
    pub requests: Option<f64>,
    pub cost_usd: Option<f64>,
}

impl Usage {
    /// Read the numeric fields of a usage object; anything else is ignored
    /// (and reported by `check`).
    pub fn from_value(v: &Value) -> Usage {
        let f = |k: &str| v.get(k).and_then(Value::as_f64);
        Usage {
            input_tokens: f("inputTokens"),
            output_tokens: f("outputTokens"),
            cache_read_tokens: f("cacheReadTokens"),
            cache_creation_tokens: f("cacheCreationTokens"),
            reasoning_tokens: f("reasoningTokens"),
            requests: f("requests"),
            cost_usd: f("costUSD"),
        }
    }

    /// What `accumulateUsage` adds for a usage object: it adds every field
    /// the object has, and JS adds a `null` as 0 (a misfit `check` reports).
    /// [`Usage::from_value`] keeps such a field absent: it was not reported.
    pub fn summand(v: &Value) -> Usage {
        let mut usage = Usage::from_value(v);
        for field in USAGE_FIELDS {
            if v.get(field).is_some_and(Value::is_null)
                && let Some(slot) = usage.slot(field)
            {
                *slot = Some(0.0);
            }
        }
        usage
    }

    pub fn get(&self, field: &str) -> Option<f64> {
        match field {
            "inputTokens" => self.input_tokens,
            "outputTokens" => self.output_tokens,
            "cacheReadTokens" => self.cache_read_tokens,
            "cacheCreationTokens" => self.cache_creation_tokens,
            "reasoningTokens" => self.reasoning_tokens,
            "requests" => self.requests,
            "costUSD" => self.cost_usd,
            _ => None,
        }
    }

    fn slot(&mut self, field: &str) -> Option<&mut Option<f64>> {
        Some(match field {
            "inputTokens" => &mut self.input_tokens,
            "outputTokens" => &mut self.output_tokens,
            "cacheReadTokens" => &mut self.cache_read_tokens,
            "cacheCreationTokens" => &mut self.cache_creation_tokens,
            "reasoningTokens" => &mut self.reasoning_tokens,
            "requests" => &mut self.requests,
            "costUSD" => &mut self.cost_usd,
            _ => return None,
        })
    }

    /// `accumulateUsage`: add only the fields `other` has.
    pub fn add(&mut self, other: &Usage) {
        for field in USAGE_FIELDS {
            if let Some(x) = other.get(field)
                && let Some(slot) = self.slot(field)
            {
                *slot = Some(slot.unwrap_or(0.0) + x);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        USAGE_FIELDS.iter().all(|f| self.get(f).is_none())
    }

    /// Input + output tokens, the figure `maxTokens` compares (absent as 0),
    /// or `None` when neither is reported.
    pub fn billable_tokens(&self) -> Option<f64> {
        if self.input_tokens.is_none() && self.output_tokens.is_none() {
            return None;
        }
        Some(self.input_tokens.unwrap_or(0.0) + self.output_tokens.unwrap_or(0.0))
    }

    /// All token buckets that a person thinks of as "tokens" (input, output,
    /// cache read, cache creation), or `None` when none is reported.
    pub fn total_tokens(&self) -> Option<f64> {
        let parts = [self.input_tokens, self.output_tokens, self.cache_read_tokens, self.cache_creation_tokens];
        parts.iter().any(Option::is_some).then(|| parts.iter().flatten().sum())
    }

    /// Whether any token bucket is negative (the `usage-negative` error):
    /// a sum over it is not a real figure.
    pub fn has_negative_tokens(&self) -> bool {
        [
            self.input_tokens,
            self.output_tokens,
            self.cache_read_tokens,
            self.cache_creation_tokens,
            self.reasoning_tokens,
        ]
        .iter()
        .flatten()
        .any(|n| *n < 0.0)
    }

    /// Share of input served from cache: cacheRead / (input + cacheRead + cacheCreation).
    pub fn cache_hit_ratio(&self) -> Option<f64> {
        let read = self.cache_read_tokens?;
        let total = self.input_tokens.unwrap_or(0.0) + read + self.cache_creation_tokens.unwrap_or(0.0);
        (total > 0.0).then(|| read / total)
    }

    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        for field in USAGE_FIELDS {
            if let Some(x) = self.get(field) {
                o.insert(field.into(), number(x));
            }
        }
        Value::Object(o)
    }
}

/// The largest count a JavaScript number (what NiceEval sums in) holds
/// exactly: 2^53 − 1, `Number.MAX_SAFE_INTEGER`.
pub const MAX_EXACT: f64 = 9_007_199_254_740_991.0;

/// A JSON number that prints integers without a fraction.
pub fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// One line of the estimate ledger: tokens × rate = amount.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerLine {
    pub bucket: &'static str,
    pub tokens: f64,
    /// USD per million tokens.
    pub rate: f64,
    /// True when a cache bucket had no own price and used the input price.
    pub rate_from_input: bool,
    pub amount: f64,
}

/// The estimate with its ledger, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Estimate {
    Priced { total: f64, hit: PriceHit, lines: Vec<LedgerLine> },
    NoModel,
    NoPrice { model: String },
    NoTokens,
}

impl Estimate {
    pub fn total(&self) -> Option<f64> {
        match self {
            Estimate::Priced { total, .. } => Some(*total),
            _ => None,
        }
    }
}

/// `estimateCost(model, usage, overrides)`.
pub fn estimate_cost(model: Option<&str>, usage: &Usage, prices: &PriceTable) -> Estimate {
    let Some(model) = model.filter(|m| !m.is_empty()) else {
        return Estimate::NoModel;
    };
    let Some(hit) = prices.find(model) else {
        return Estimate::NoPrice { model: model.to_string() };
    };
    let buckets = [
        ("input", usage.input_tokens, hit.price.input, false),
        ("output", usage.output_tokens, hit.price.output, false),
        (
            "cache read",
            usage.cache_read_tokens,
            hit.price.cache_read.unwrap_or(hit.price.input),
            hit.price.cache_read.is_none(),
        ),
        (
            "cache write",
            usage.cache_creation_tokens,
            hit.price.cache_write.unwrap_or(hit.price.input),
            hit.price.cache_write.is_none(),
        ),
    ];
    if buckets.iter().all(|(_, t, _, _)| t.is_none()) {
        return Estimate::NoTokens;
    }
    let mut lines = Vec::new();
    let mut sum = 0.0;
    for (bucket, tokens, rate, rate_from_input) in buckets {
        if let Some(tokens) = tokens {
            let product = tokens * rate;
            sum += product;
            lines.push(LedgerLine { bucket, tokens, rate, rate_from_input, amount: product / 1e6 });
        }
    }
    Estimate::Priced { total: sum / 1e6, hit, lines }
}

#[cfg(test)]
mod tests {
    use super::prices::strip_date_suffix;
    use super::*;
    use serde_json::json;

    #[test]
    fn date_suffix_with_multibyte_model_names_does_not_panic() {
        // Found by fuzzing (tui target): the cut fell inside U+FFFD.
        assert_eq!(strip_date_suffix("model\u{fffd}\u{fffd}\u{fffd}abcd"), "model\u{fffd}\u{fffd}\u{fffd}abcd");
        assert_eq!(strip_date_suffix("日本語のモデル名"), "日本語のモデル名");
        assert_eq!(strip_date_suffix("ü-20250101"), "ü");
        assert_eq!(strip_date_suffix("é-2025-01-01"), "é");
        assert_eq!(strip_date_suffix("claude-x-20250101"), "claude-x");
    }

    fn catalog() -> PriceTable {
        PriceTable::from_value(
            &json!({"prices": {
                "claude-sonnet-4-5": {"in": 3, "out": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
                "gpt-5": {"in": 1.25, "out": 10, "cacheRead": 0.125}
            }}),
            "test",
        )
        .unwrap()
    }

    #[test]
    fn absent_stays_absent_in_sums() {
        let mut acc = Usage::default();
        acc.add(&Usage::from_value(&json!({"inputTokens": 10, "outputTokens": 5})));
        acc.add(&Usage::from_value(&json!({"outputTokens": 3, "cacheReadTokens": 100, "costUSD": 0.01})));
        acc.add(&Usage::default());
        assert_eq!(
            acc.to_json(),
            json!({"inputTokens": 10, "outputTokens": 8, "cacheReadTokens": 100, "costUSD": 0.01})
        );
        assert_eq!(acc.requests, None);
    }

    #[test]
    fn estimate_examples_from_the_spec() {
        let m = 1_000_000.0;
        let all = Usage {
            input_tokens: Some(m),
            output_tokens: Some(m),
            cache_read_tokens: Some(m),
            cache_creation_tokens: Some(m),
            ..Default::default()
        };
        let t = catalog();
        assert!((estimate_cost(Some("claude-sonnet-4-5"), &all, &t).total().unwrap() - 22.05).abs() < 1e-9);
        let cc = Usage { cache_creation_tokens: Some(m), ..Default::default() };
        assert_eq!(estimate_cost(Some("openai/gpt-5-2025-08-07"), &cc, &t).total(), Some(1.25));
        assert_eq!(estimate_cost(Some("nope"), &all, &t), Estimate::NoPrice { model: "nope".into() });
        assert_eq!(estimate_cost(None, &all, &t), Estimate::NoModel);
        assert_eq!(
            estimate_cost(Some("gpt-5"), &Usage { cost_usd: Some(1.0), ..Default::default() }, &t),
            Estimate::NoTokens
        );
    }

    #[test]
    fn overrides_beat_wildcards_beat_catalog() {
        let mut t = catalog();
        let o = PriceTable::from_value(
            &json!({"my-host/*": {"inputPerMTok": 0, "outputPerMTok": 0}, "claude-sonnet-4-5": {"inputPerMTok": 1, "outputPerMTok": 1}}),
            "o",
        )
        .unwrap();
        t.overrides = o.overrides;
        let u = Usage { input_tokens: Some(1e6), ..Default::default() };
        assert_eq!(estimate_cost(Some("my-host/x"), &u, &t).total(), Some(0.0));
        assert_eq!(estimate_cost(Some("claude-sonnet-4-5"), &u, &t).total(), Some(1.0));
        // An override table hides the catalog entirely only when it hits.
        assert_eq!(estimate_cost(Some("gpt-5"), &u, &t).total(), Some(1.25));
    }

    #[test]
    fn prices_must_be_finite_and_not_negative() {
        let bad = [
            json!({"m": {"inputPerMTok": -5, "outputPerMTok": 1}}),
            json!({"pricing": {"m": {"inputPerMTok": 1, "outputPerMTok": 1, "cacheReadPerMTok": -0.1}}}),
            json!({"prices": {"m": {"in": 1, "out": -2}}}),
            serde_json::from_str::<Value>(r#"{"prices": {"m": {"in": 1e400, "out": 2}}}"#).unwrap(),
        ];
        for v in bad {
            let err = PriceTable::from_value(&v, "p.json").expect_err("refused");
            assert!(err.starts_with("price \"m\": \"") && err.contains("finite number ≥ 0"), "{err}");
        }
        assert!(PriceTable::from_value(&json!({"m": {"inputPerMTok": 0, "outputPerMTok": 0}}), "p").is_ok());
        assert!(
            PriceTable::from_value(&json!({"$note": "x", "prices": {"m": {"in": 0.5, "out": "n/a"}}}), "p").is_ok()
        );
    }

    #[test]
    fn date_suffixes() {
        assert_eq!(strip_date_suffix("gpt-5-2025-08-07"), "gpt-5");
        assert_eq!(strip_date_suffix("claude-3-5-sonnet-20241022"), "claude-3-5-sonnet");
        assert_eq!(strip_date_suffix("gpt-5"), "gpt-5");
    }
}
