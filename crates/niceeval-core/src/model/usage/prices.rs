//! Price tables and NiceEval's price lookup (spec §4.2): which table an
//! estimate used, which key matched and by which step of the lookup.

use serde_json::{Map, Value};
use std::collections::HashMap;

/// One price record, USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    pub cache_read: Option<f64>,
    pub cache_write: Option<f64>,
}

/// Where a table's catalog came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum TableSource {
    /// NiceEval's vendored `prices.json`, shipped as the viewer's built-in
    /// table: its `$source` (e.g. `models.dev`) and `$asOf` (epoch ms).
    Builtin { source: Option<String>, as_of_ms: Option<f64> },
    /// A `--prices FILE`: a catalog that replaces the built-in one (with
    /// the file's own `$source`/`$asOf` when it has them), or a `pricing`
    /// override map looked up before the built-in catalog.
    File { path: String, replaces_catalog: bool, source: Option<String>, as_of_ms: Option<f64> },
    /// No table (tests, or a table built by hand).
    #[default]
    None,
}

/// A catalog (NiceEval's `prices.json` shape) plus user overrides
/// (`PriceOverride`, `pricing` in `defineConfig`).
#[derive(Debug, Clone, Default)]
pub struct PriceTable {
    pub overrides: Vec<(String, Price)>,
    pub catalog: Vec<(String, Price)>,
    /// Where the table came from, in words (for display).
    pub source: String,
    /// Where the table came from, as data.
    pub provenance: TableSource,
    /// `catalog` by key (the built-in table has ~2.6k keys).
    index: HashMap<String, usize>,
    /// Prices of the file that are not numbers (`"in": "3.00"`), left out; said as warnings.
    pub warnings: Vec<String>,
}

/// Which step of NiceEval's lookup (spec §4.2) found a price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupStep {
    /// (a) an override keyed by the exact model name.
    OverrideExact,
    /// (b) an override `"<provider>/*"`, provider = text before the first `/`.
    OverrideProvider,
    /// (c) the catalog key equal to the model name.
    CatalogExact,
    /// (d) the catalog key equal to the text after the last `/`.
    CatalogBare,
    /// (e) that bare name without a trailing `-YYYYMMDD`, then `-YYYY-MM-DD`.
    CatalogUndated,
}

impl LookupStep {
    /// The step in words, e.g. "exact key" or "name without its date suffix".
    pub fn describe(self) -> &'static str {
        match self {
            LookupStep::OverrideExact => "override, exact model name",
            LookupStep::OverrideProvider => "override, provider wildcard",
            LookupStep::CatalogExact => "exact model name",
            LookupStep::CatalogBare => "model name without its provider prefix",
            LookupStep::CatalogUndated => "model name without provider prefix and date suffix",
        }
    }
}

/// Where a price was found.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceHit {
    pub key: String,
    pub price: Price,
    pub from_override: bool,
    pub step: LookupStep,
}

fn lookup<'a>(list: &'a [(String, Price)], key: &str) -> Option<&'a (String, Price)> {
    list.iter().find(|(k, _)| k == key)
}

pub(super) fn strip_date_suffix(name: &str) -> &str {
    // Trailing -YYYYMMDD, then trailing -YYYY-MM-DD.
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mut out = name;
    // A cut inside a multi-byte character cannot be a date suffix (and would panic).
    if out.len() > 9 && out.is_char_boundary(out.len() - 9) {
        let (head, tail) = out.split_at(out.len() - 9);
        if tail.starts_with('-') && digits(&tail[1..]) {
            out = head;
        }
    }
    if out.len() > 11 && out.is_char_boundary(out.len() - 11) {
        let (head, tail) = out.split_at(out.len() - 11);
        let t = tail.as_bytes();
        if t[0] == b'-'
            && t[5] == b'-'
            && t[8] == b'-'
            && digits(&tail[1..5])
            && digits(&tail[6..8])
            && digits(&tail[9..])
        {
            out = head;
        }
    }
    out
}

fn num(o: &Value, k: &str) -> Option<f64> {
    o.get(k).and_then(Value::as_f64)
}

/// Every price given as a number is finite and not negative: a negative
/// price would lower the estimate, an infinite one make it infinite.
fn check_prices(models: &Map<String, Value>, fields: &[&str]) -> Result<(), String> {
    for (model, p) in models {
        for field in fields {
            let Some(Value::Number(n)) = p.get(*field) else { continue };
            let fine = n.as_f64().is_some_and(|x| x.is_finite() && x >= 0.0);
            if !fine {
                let shown = n.to_string();
                let shown = if shown.len() > 40 { format!("{}…", &shown[..40]) } else { shown };
                return Err(format!(
                    "price {}: \"{field}\" is {shown}; a price must be a finite number ≥ 0 (USD per million tokens)",
                    serde_json::to_string(model).unwrap_or_default()
                ));
            }
        }
    }
    Ok(())
}

/// A warning for every price field that is there but not a JSON number
/// (null is absent): such a price is left out, and with it the whole entry
/// when it is one of `required`.
fn non_numbers(models: &Map<String, Value>, fields: &[&str], required: &[&str], out: &mut Vec<String>) {
    for (model, p) in models {
        for field in fields {
            let what = match p.get(*field) {
                None | Some(Value::Null | Value::Number(_)) => continue,
                Some(Value::String(s)) => {
                    let s: String = s.chars().take(40).collect();
                    format!("the string {}", serde_json::to_string(&s).unwrap_or_default())
                }
                Some(Value::Bool(b)) => format!("{b}"),
                Some(Value::Array(_)) => "an array".into(),
                Some(Value::Object(_)) => "an object".into(),
            };
            let left_out = if required.contains(field) { "the entry" } else { "that price" };
            out.push(format!(
                "price {}: \"{field}\" is {what}, not a number; {left_out} is left out (prices are JSON numbers, USD per million tokens)",
                serde_json::to_string(model).unwrap_or_default()
            ));
        }
    }
}

/// `$source` and `$asOf` of a catalog file.
fn catalog_meta(v: &Value) -> (Option<String>, Option<f64>) {
    (v.get("$source").and_then(Value::as_str).map(str::to_string), num(v, "$asOf"))
}

impl PriceTable {
    /// Parse either a catalog `{"prices": {model: {in, out, cacheRead?, cacheWrite?}}}`
    /// or an override map `{model: {inputPerMTok, outputPerMTok, ...}}`.
    pub fn from_value(v: &Value, source: &str) -> Result<PriceTable, String> {
        let mut table = PriceTable { source: source.to_string(), ..Default::default() };
        let prices = v.get("prices").and_then(Value::as_object);
        check_prices(prices.unwrap_or(&Map::new()), &["in", "out", "cacheRead", "cacheWrite"])?;
        if let Some(prices) = prices {
            non_numbers(prices, &["in", "out", "cacheRead", "cacheWrite"], &["in", "out"], &mut table.warnings);
            for (model, p) in prices {
                if let (Some(input), Some(output)) = (num(p, "in"), num(p, "out")) {
                    let price =
                        Price { input, output, cache_read: num(p, "cacheRead"), cache_write: num(p, "cacheWrite") };
                    table.catalog.push((model.clone(), price));
                }
            }
            table.reindex();
            return Ok(table);
        }
        let Some(map) = v.as_object() else {
            return Err("a price table must be a JSON object".into());
        };
        let map = v.get("pricing").and_then(Value::as_object).unwrap_or(map);
        check_prices(map, &["inputPerMTok", "outputPerMTok", "cacheReadPerMTok", "cacheWritePerMTok"])?;
        // A string in/out price is refused below; a string cache price would be dropped unsaid.
        non_numbers(map, &["cacheReadPerMTok", "cacheWritePerMTok"], &[], &mut table.warnings);
        for (model, p) in map {
            match (num(p, "inputPerMTok"), num(p, "outputPerMTok")) {
                (Some(input), Some(output)) => table.overrides.push((
                    model.clone(),
                    Price {
                        input,
                        output,
                        cache_read: num(p, "cacheReadPerMTok"),
                        cache_write: num(p, "cacheWritePerMTok"),
                    },
                )),
                _ if model.starts_with('$') => {}
                _ => {
                    return Err(format!(
                        "price entry \"{model}\" needs numeric inputPerMTok and outputPerMTok (or use the {{\"prices\": {{…}}}} catalog shape)"
                    ));
                }
            }
        }
        Ok(table)
    }

    /// The table for `--prices FILE` (`value` is its JSON): a catalog
    /// replaces the built-in catalog; an override map (NiceEval's `pricing`)
    /// is looked up first and the built-in catalog after it, as NiceEval does.
    pub fn from_file(value: &Value, path: &str, builtin: PriceTable) -> Result<PriceTable, String> {
        let mut table = PriceTable::from_value(value, path)?;
        let replaces_catalog = table.overrides.is_empty() && value.get("prices").is_some();
        let (source, as_of_ms) = catalog_meta(value);
        if replaces_catalog {
            table.source = format!("{path} (catalog{})", described_origin(source.as_deref(), as_of_ms));
        } else {
            table.catalog = builtin.catalog;
            table.reindex();
            table.source = format!("{path} (overrides), then {}", builtin.source);
        }
        table.provenance = TableSource::File { path: path.to_string(), replaces_catalog, source, as_of_ms };
        Ok(table)
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, (k, _)) in self.catalog.iter().enumerate() {
            self.index.entry(k.clone()).or_insert(i);
        }
    }

    fn catalog_entry(&self, key: &str) -> Option<&(String, Price)> {
        match self.index.get(key) {
            Some(&i) => self.catalog.get(i),
            // A table whose catalog was filled without `reindex`.
            None if self.index.is_empty() => lookup(&self.catalog, key),
            None => None,
        }
    }

    /// The lookup order of spec §4.2; the hit says which step found it.
    pub fn find(&self, model: &str) -> Option<PriceHit> {
        if model.is_empty() {
            return None;
        }
        let hit = |(k, p): &(String, Price), step| PriceHit {
            key: k.clone(),
            price: *p,
            from_override: matches!(step, LookupStep::OverrideExact | LookupStep::OverrideProvider),
            step,
        };
        if let Some(e) = lookup(&self.overrides, model) {
            return Some(hit(e, LookupStep::OverrideExact));
        }
        if let Some((provider, _)) = model.split_once('/')
            && let Some(e) = lookup(&self.overrides, &format!("{provider}/*"))
        {
            return Some(hit(e, LookupStep::OverrideProvider));
        }
        if let Some(e) = self.catalog_entry(model) {
            return Some(hit(e, LookupStep::CatalogExact));
        }
        let bare = model.rsplit('/').next().unwrap_or(model);
        if let Some(e) = self.catalog_entry(bare) {
            return Some(hit(e, LookupStep::CatalogBare));
        }
        self.catalog_entry(strip_date_suffix(bare)).map(|e| hit(e, LookupStep::CatalogUndated))
    }
}

/// ` from models.dev as of 2026-08-17` (whatever of it is known).
fn described_origin(source: Option<&str>, as_of_ms: Option<f64>) -> String {
    let mut out = String::new();
    if let Some(s) = source {
        out.push_str(&format!(" from {s}"));
    }
    if let Some(date) = as_of_ms.and_then(utc_date) {
        out.push_str(&format!(" as of {date}"));
    }
    out
}

/// `YYYY-MM-DD` (UTC) of an epoch time in milliseconds.
pub fn utc_date(epoch_ms: f64) -> Option<String> {
    if !epoch_ms.is_finite() || epoch_ms.abs() > 8.64e15 {
        return None;
    }
    let days = (epoch_ms / 86_400_000.0).floor() as i64;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

/// NiceEval's own price table (`packages/niceeval/src/o11y/prices.json`,
/// vendored from models.dev), shipped as `assets/prices/niceeval-prices.json`:
/// without `--prices`, an estimate is the one NiceEval computes.
pub fn builtin_prices() -> PriceTable {
    let v: Value =
        serde_json::from_str(include_str!("../../../../../assets/prices/niceeval-prices.json")).unwrap_or(Value::Null);
    let mut table = PriceTable::from_value(&v, "built-in table").unwrap_or_default();
    let (source, as_of_ms) = catalog_meta(&v);
    table.source = format!("NiceEval's built-in table{}", described_origin(source.as_deref(), as_of_ms));
    table.provenance = TableSource::Builtin { source, as_of_ms };
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn builtin_table_is_niceevals_with_its_origin() {
        let t = builtin_prices();
        assert!(t.catalog.len() > 2000, "the vendored models.dev snapshot, not a hand-written list");
        assert_eq!(
            t.provenance,
            TableSource::Builtin { source: Some("models.dev".into()), as_of_ms: Some(1786948001963.0) }
        );
        assert_eq!(t.source, "NiceEval's built-in table from models.dev as of 2026-08-17");
        // A key only the vendored table has, found through the undated step.
        let hit = t.find("openai/gpt-5-2025-08-07").unwrap();
        assert_eq!((hit.key.as_str(), hit.step), ("gpt-5", LookupStep::CatalogUndated));
        let hit = t.find("anthropic/claude-opus-4-1").unwrap();
        assert_eq!((hit.key.as_str(), hit.step), ("claude-opus-4-1", LookupStep::CatalogBare));
        assert_eq!(t.find("claude-sonnet-4").unwrap().price.input, 2.898);
    }

    #[test]
    fn lookup_steps_follow_niceevals_order() {
        let builtin = PriceTable::from_value(
            &json!({"prices": {"gpt-5": {"in": 1.25, "out": 10}, "vendor/x": {"in": 1, "out": 1}}}),
            "b",
        )
        .unwrap();
        let overrides = json!({"gpt-5": {"inputPerMTok": 2, "outputPerMTok": 2}, "host/*": {"inputPerMTok": 0, "outputPerMTok": 0}});
        let t = PriceTable::from_file(&overrides, "p.json", builtin).unwrap();
        let step = |m: &str| t.find(m).map(|h| (h.key, h.step));
        assert_eq!(step("gpt-5"), Some(("gpt-5".into(), LookupStep::OverrideExact)));
        assert_eq!(step("host/gpt-5"), Some(("host/*".into(), LookupStep::OverrideProvider)));
        assert_eq!(step("vendor/x"), Some(("vendor/x".into(), LookupStep::CatalogExact)));
        assert_eq!(step("openai/gpt-5-2025-08-07"), Some(("gpt-5".into(), LookupStep::CatalogUndated)));
        assert_eq!(step("a/b/gpt-5"), Some(("gpt-5".into(), LookupStep::CatalogBare)));
        assert!(matches!(t.provenance, TableSource::File { replaces_catalog: false, .. }));
    }

    #[test]
    fn a_catalog_file_replaces_the_builtin_catalog() {
        let file = json!({"$source": "mine", "$asOf": 0, "prices": {"m": {"in": 1, "out": 2}}});
        let t = PriceTable::from_file(&file, "p.json", builtin_prices()).unwrap();
        assert!(t.find("gpt-5").is_none());
        assert_eq!(t.find("m").map(|h| h.step), Some(LookupStep::CatalogExact));
        assert_eq!(t.source, "p.json (catalog from mine as of 1970-01-01)");
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_date(0.0).as_deref(), Some("1970-01-01"));
        assert_eq!(utc_date(1786948001963.0).as_deref(), Some("2026-08-17"));
        assert_eq!(utc_date(951_782_400_000.0).as_deref(), Some("2000-02-29"));
        assert_eq!(utc_date(f64::NAN), None);
    }
}
