//! `niceeval.assertions` entries (Record v1 and v2, and `show --json`
//! evidence entries) → [`Assertion`], the FactValue → [`Fact`] reading, the
//! verdict fold and the score sum (formats.md §2.2, §2.5, §4).
//!
//! Where the Record lacks `check`/`expected`/`observed` they are derived as
//! `show --json` does (official-viewer.md §1.6): `check` is the criterion
//! value as a fields tree, `expected` the policy condition, `observed` the
//! evaluation's observed FactValue, `explanation` the retained explanation.

use crate::model::document::{Assertion, Fact, JudgeResult, Notice, NoticeLevel};
use crate::model::verdict::Verdict;
use serde_json::Value;

/// A FactValue (`{kind: value|text|list|fields|unavailable, …}`) → [`Fact`].
/// Anything that is not a FactValue is kept as [`Fact::Value`].
pub fn fact_from_value(v: &Value) -> Fact {
    match v.get("kind").and_then(Value::as_str) {
        Some("value") if v.get("value").is_some() => Fact::Value(v.get("value").cloned().unwrap_or(Value::Null)),
        Some("text") => match v.get("text").and_then(Value::as_str) {
            Some(t) => Fact::Text(t.to_string()),
            None => Fact::Value(v.clone()),
        },
        Some("list") => match v.get("items").and_then(Value::as_array) {
            Some(items) => Fact::List(items.iter().map(fact_from_value).collect()),
            None => Fact::Value(v.clone()),
        },
        Some("fields") => match v.get("fields").and_then(Value::as_array) {
            Some(fields) => Fact::Fields(
                fields
                    .iter()
                    .map(|f| {
                        let label = f.get("label").and_then(Value::as_str).unwrap_or("?").to_string();
                        (label, f.get("value").map(fact_from_value).unwrap_or(Fact::Value(Value::Null)))
                    })
                    .collect(),
            ),
            None => Fact::Value(v.clone()),
        },
        Some("unavailable") => {
            Fact::Unavailable(v.get("reason").and_then(Value::as_str).unwrap_or("unavailable").to_string())
        }
        _ => Fact::Value(v.clone()),
    }
}

/// Plain JSON → [`Fact`] the way `show --json` projects a criterion or a
/// policy: objects become `fields` with keys in sorted order, arrays
/// `list`, scalars `value`.
pub fn fact_from_json(v: &Value) -> Fact {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Fact::Fields(keys.into_iter().map(|k| (k.clone(), fact_from_json(&o[k]))).collect())
        }
        Value::Array(a) => Fact::List(a.iter().map(fact_from_json).collect()),
        other => Fact::Value(other.clone()),
    }
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// `{state:"available", value}` → Ok(value); `{state:"unavailable", reason}` → Err(reason);
/// anything else (a bare value, as in v1) → Ok(itself).
fn wrapped(v: &Value) -> Result<&Value, String> {
    match v.get("state").and_then(Value::as_str) {
        Some("available") => Ok(v.get("value").unwrap_or(&Value::Null)),
        Some("unavailable") => Err(v.get("reason").and_then(Value::as_str).unwrap_or("unavailable").to_string()),
        _ => Ok(v),
    }
}

/// `value-match/v1` → `value-match`.
pub fn criterion_name(id: &str) -> String {
    match id.rsplit_once("/v") {
        Some((base, ver)) if !ver.is_empty() && ver.bytes().all(|b| b.is_ascii_digit()) => base.to_string(),
        _ => id.to_string(),
    }
}

/// The criterion (builtin id or third-party name) of a criterion value.
fn criterion_of(value: &Value) -> Option<String> {
    if let Some(id) = value.get("id").and_then(Value::as_str) {
        return Some(criterion_name(id));
    }
    s(value.get("name"))
}

fn display(entry: &Value, a: &mut Assertion) {
    let d = entry.get("display");
    let label = d.and_then(|d| d.get("label")).and_then(Value::as_str).filter(|l| !l.is_empty());
    let key = d.and_then(|d| d.get("key")).and_then(Value::as_str).filter(|l| !l.is_empty());
    a.label = label.or(key).or(a.entry_id.as_deref()).unwrap_or("(unnamed assertion)").to_string();
    a.group_path = d
        .and_then(|d| d.get("groupPath"))
        .and_then(Value::as_array)
        .map(|g| g.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
}

/// Resolves `materials.source` when it is a blob (Record only).
pub type BlobText<'a> = &'a mut dyn FnMut(&Value) -> Option<String>;

fn material_value(m: &Value, blob: &mut Option<BlobText<'_>>) -> Option<Value> {
    match m.get("kind").and_then(Value::as_str) {
        Some("snapshot") => m.get("value").cloned(),
        Some("blob") => {
            let text = blob.as_mut().and_then(|f| f(m))?;
            // JSON-encoded blobs hold the value; plain text stays a string.
            if m.get("encoding").and_then(Value::as_str).is_some_and(|e| e.contains("json")) {
                serde_json::from_str(&text).ok().or(Some(Value::String(text)))
            } else {
                Some(Value::String(text))
            }
        }
        _ => None,
    }
}

/// The criterion of a v1 or v2 entry: its name and Check; returns the criterion value for the judge.
fn read_criterion(entry: &Value, a: &mut Assertion) -> Option<Value> {
    match wrapped(entry.get("criterion")?) {
        Ok(value) => {
            a.criterion = criterion_of(value);
            a.check = Some(fact_from_json(value));
            Some(value.clone())
        }
        Err(reason) => {
            a.check = Some(Fact::Unavailable(reason));
            None
        }
    }
}

/// A v2 Record entry.
pub fn from_v2(entry: &Value, mut blob: Option<BlobText<'_>>) -> Assertion {
    let mut a = Assertion { entry_id: s(entry.get("entryId")), raw: entry.clone(), ..Default::default() };
    display(entry, &mut a);
    let criterion_value = read_criterion(entry, &mut a);
    if let Some(d) = entry.get("decision") {
        a.result = s(d.get("result"));
        a.reason = s(d.get("reason"));
        a.gate = s(d.get("gate"));
    }
    let mut threshold = None;
    if let Some(p) = entry.get("policy") {
        if let Some(r) = p.get("requirement") {
            a.requirement = wrapped(r).ok().and_then(Value::as_str).map(str::to_string);
        }
        if let Some(c) = p.get("condition") {
            match wrapped(c) {
                Ok(value) => {
                    threshold = value.get("threshold").and_then(Value::as_f64);
                    a.expected = Some(fact_from_json(value));
                }
                Err(reason) => a.expected = Some(Fact::Unavailable(reason)),
            }
        }
    }
    if let Some(m) = entry.get("materials") {
        if let Some(src) = m.get("source") {
            a.checked_value = material_value(src, &mut blob);
        }
        a.coverage = m.get("coverage").cloned();
        a.limitations = crate::model::review::Limitation::list(m.get("limitations"));
    }
    if let Some(e) = entry.get("evaluation") {
        a.observed = e.get("observed").map(fact_from_value);
        a.receipt = e.get("receipt").cloned();
    }
    a.explanation = entry.get("explanationRetention").map(|r| match r.get("state").and_then(Value::as_str) {
        Some("retained") => r.get("value").map(fact_from_value).unwrap_or(Fact::Unavailable("not-recorded".into())),
        _ => Fact::Unavailable(r.get("reason").and_then(Value::as_str).unwrap_or("not-recorded").to_string()),
    });
    a.contribution = entry.get("contribution").cloned();
    a.judge = judge(&a, criterion_value.as_ref(), threshold);
    a
}

/// A v1 (historical) Record entry:
/// `{entryId, display, criterion, subject, evidence, coverage, limitations, result:{state, gate, score, diagnostic?, receipt?}}`.
pub fn from_v1(entry: &Value, mut blob: Option<BlobText<'_>>) -> Assertion {
    let mut a = Assertion { entry_id: s(entry.get("entryId")), raw: entry.clone(), ..Default::default() };
    display(entry, &mut a);
    let criterion_value = read_criterion(entry, &mut a);
    if let Some(subject) = entry.get("subject") {
        a.checked_value = material_value(subject, &mut blob);
    }
    a.coverage = entry.get("coverage").cloned();
    a.limitations = crate::model::review::Limitation::list(entry.get("limitations"));
    if let Some(r) = entry.get("result") {
        a.result = s(r.get("state"));
        a.reason = s(r.get("reason"));
        a.gate = s(r.get("gate"));
        a.contribution = r.get("score").cloned();
        a.receipt = r.get("receipt").cloned();
        a.explanation = r.get("diagnostic").map(|d| {
            // v1 may hold the diagnostic as a FactValue or as plain JSON.
            if d.get("kind").is_some_and(|k| k.is_string()) && d.get("code").is_none() {
                fact_from_value(d)
            } else {
                fact_from_json_diagnostic(d)
            }
        });
    }
    a.judge = judge(&a, criterion_value.as_ref(), None);
    a
}

/// A plain-JSON MatchDiagnostic → Fact, keeping the label order the
/// persisted FactValue encoding uses (code, message, path, expected, received, reason, locator, children, …).
fn fact_from_json_diagnostic(d: &Value) -> Fact {
    let Some(o) = d.as_object() else { return fact_from_json(d) };
    let order = ["code", "message", "path", "expected", "received", "reason", "locator", "children", "truncation"];
    let mut fields = Vec::new();
    for k in order {
        if let Some(v) = o.get(k) {
            let f = if k == "children" {
                match v.as_array() {
                    Some(items) => Fact::List(
                        items
                            .iter()
                            .map(|c| match c.as_object() {
                                Some(co) => Fact::Fields(
                                    co.iter()
                                        .map(|(ck, cv)| {
                                            let f = if ck == "diagnostic" {
                                                fact_from_json_diagnostic(cv)
                                            } else {
                                                fact_from_json(cv)
                                            };
                                            (ck.clone(), f)
                                        })
                                        .collect(),
                                ),
                                None => fact_from_json(c),
                            })
                            .collect(),
                    ),
                    None => fact_from_json(v),
                }
            } else {
                fact_from_json(v)
            };
            fields.push((k.to_string(), f));
        }
    }
    for (k, v) in o {
        if !order.contains(&k.as_str()) {
            fields.push((k.clone(), fact_from_json(v)));
        }
    }
    Fact::Fields(fields)
}

/// A `show --json` evidence entry (`data.evidence.entries[].detail.entries[]`):
/// check/expected/observed/explanation are already derived there.
pub fn from_show(entry: &Value) -> Assertion {
    let mut a = Assertion { entry_id: s(entry.get("entryId")), raw: entry.clone(), ..Default::default() };
    display(entry, &mut a);
    a.check = entry.get("check").map(fact_from_value);
    a.expected = entry.get("expected").map(fact_from_value);
    a.observed = entry.get("observed").map(fact_from_value);
    a.explanation = entry.get("explanation").map(fact_from_value);
    a.receipt = entry.get("observed").and_then(|o| o.get("receipt")).cloned();
    // `check` is the criterion value as fields: {data, id, kind} or {name, schemaId, data}.
    if let Some(Fact::Fields(_)) = &a.check {
        let c = a.check.as_ref();
        a.criterion = c
            .and_then(|c| c.get("id"))
            .and_then(Fact::as_str)
            .map(criterion_name)
            .or_else(|| c.and_then(|c| c.get("name")).and_then(Fact::as_str).map(str::to_string));
    }
    let mut threshold = None;
    if let Some(d) = entry.get("decision") {
        a.result = s(d.get("result"));
        a.reason = s(d.get("reason"));
        a.gate = s(d.get("gate"));
        a.contribution = d.get("contribution").cloned();
        if let Some(p) = d.get("policy") {
            if let Some(r) = p.get("requirement") {
                a.requirement = wrapped(r).ok().and_then(Value::as_str).map(str::to_string);
            }
            if let Some(c) = p.get("condition") {
                threshold = wrapped(c).ok().and_then(|v| v.get("threshold")).and_then(Value::as_f64);
            }
        }
    }
    if let Some(src) = entry.get("source") {
        a.coverage = src.get("coverage").cloned();
        a.limitations = crate::model::review::Limitation::list(src.get("limitations"));
        // `source.fields[label = input]` holds the checked value as a FactValue.
        a.checked_value = src
            .get("fields")
            .and_then(Value::as_array)
            .and_then(|f| f.iter().find(|x| x.get("label").and_then(Value::as_str) == Some("input")))
            .and_then(|x| x.get("value"))
            .map(fact_to_json);
    }
    a.judge = judge(&a, None, threshold);
    a
}

/// A FactValue back to plain JSON (for the checked value of `show --json`).
fn fact_to_json(v: &Value) -> Value {
    match fact_from_value(v) {
        Fact::Value(x) => x,
        f => fact_json(&f),
    }
}

fn fact_json(f: &Fact) -> Value {
    match f {
        Fact::Value(v) => v.clone(),
        Fact::Text(t) => Value::String(t.clone()),
        Fact::List(items) => Value::Array(items.iter().map(fact_json).collect()),
        Fact::Fields(fields) => Value::Object(fields.iter().map(|(k, v)| (k.clone(), fact_json(v))).collect()),
        Fact::Unavailable(reason) => serde_json::json!({ "unavailable": reason }),
    }
}

fn judge(a: &Assertion, criterion: Option<&Value>, threshold: Option<f64>) -> Option<JudgeResult> {
    if a.criterion.as_deref() != Some("judge-measurement") {
        return None;
    }
    let recipe = criterion
        .and_then(|c| c.get("data"))
        .and_then(|d| d.get("recipe"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            a.check
                .as_ref()
                .and_then(|c| c.get("data"))
                .and_then(|d| d.get("recipe"))
                .and_then(Fact::as_str)
                .map(str::to_string)
        });
    // A measured judge puts its score in `observed` (a `value`, or a
    // numeric `score`/`value` field); an unavailable one has `state: unavailable`.
    let score = a.observed.as_ref().and_then(|o| {
        o.as_f64().or_else(|| ["score", "value", "measurement"].iter().find_map(|l| o.get(l).and_then(Fact::as_f64)))
    });
    let available = |f: Option<&Fact>| -> Option<Fact> {
        let f = f?;
        match f.get("state").and_then(Fact::as_str) {
            Some("unavailable") => {
                Some(Fact::Unavailable(f.get("reason").and_then(Fact::as_str).unwrap_or("unavailable").to_string()))
            }
            Some("available") => Some(f.get("value").cloned().unwrap_or_else(|| f.clone())),
            _ => Some(f.clone()),
        }
    };
    let ex = a.explanation.as_ref();
    Some(JudgeResult {
        score,
        threshold,
        recipe,
        rationale: available(ex.and_then(|e| e.get("rationale"))),
        citations: available(ex.and_then(|e| e.get("citations"))),
        unavailable_reason: ex.and_then(|e| e.get("failureDetail")).and_then(Fact::as_str).map(str::to_string),
    })
}

pub use crate::model::verdict::{fold_verdict, is_required, sum_score};

/// A `verdict` as a file writes it: one of NiceEval's words, or a notice
/// saying the word is unknown (shown as not recorded, never guessed).
pub fn read_verdict(v: Option<&Value>, notices: &mut Vec<Notice>) -> Option<Verdict> {
    let word = v?.as_str()?;
    let verdict = Verdict::parse(word);
    if verdict.is_none() {
        let unknown = crate::model::notice::NoticeKind::UnknownVerdict { word: word.to_string() };
        notices.push(Notice::new(NoticeLevel::Warning, unknown));
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_names() {
        assert_eq!(criterion_name("value-match/v1"), "value-match");
        assert_eq!(criterion_name("judge-measurement/v12"), "judge-measurement");
        assert_eq!(criterion_name("acme/vibes"), "acme/vibes");
    }
}
