//! The phase tree of an `EvalResult` (InvocationSummary `phases`, a legacy
//! result's `phases` or `timings`) as timing intervals, and the instant its
//! offsets count from.

use crate::model::timing::Interval;
use serde_json::Value;

fn s(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn f(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// Flatten `phases[]` (`{name, startOffsetMs, durationMs, failed?,
/// children?}`) and their TimingActivity children (`{id, key, label, …,
/// traceId?}`) into intervals that keep their parent by index. A phase's
/// kind is its name, an activity's its key; `failed: true` is the only
/// outcome this format states.
pub fn flatten(nodes: &Value, parent: Option<usize>, out: &mut Vec<Interval>) {
    for n in nodes.as_array().into_iter().flatten() {
        let phase = s(n, "name").or_else(|| s(n, "key"));
        let failed = n.get("failed").and_then(Value::as_bool) == Some(true);
        out.push(Interval {
            id: s(n, "id"),
            label: s(n, "label").or_else(|| phase.clone()).unwrap_or_default(),
            phase,
            start_ms: f(n, "startOffsetMs").filter(|x| x.is_finite()),
            duration_ms: f(n, "durationMs").filter(|x| x.is_finite() && *x >= 0.0),
            parent_id: None,
            parent_index: parent,
            outcome: failed.then(|| "failed".to_string()),
            trace_id: s(n, "traceId"),
        });
        let me = out.len() - 1;
        if let Some(c) = n.get("children") {
            flatten(c, Some(me), out);
        }
    }
}

/// `2026-11-30T05:00:46.754Z` (UTC, as NiceEval writes `startedAt`) as epoch
/// milliseconds; `None` for any other form.
pub fn epoch_ms(iso: &str) -> Option<f64> {
    let b = iso.as_bytes();
    let num = |r: std::ops::Range<usize>| iso.get(r)?.parse::<i64>().ok();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let rest = &iso[19..];
    let (frac, zone) = match rest.strip_prefix('.') {
        Some(r) => {
            let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            (format!("0.{}", &r[..digits]).parse::<f64>().ok()?, &r[digits..])
        }
        None => (0.0, rest),
    };
    if zone != "Z" || !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hh * 3600 + mm * 60 + ss) as f64 + frac) * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn started_at_reads_as_epoch_milliseconds() {
        assert_eq!(epoch_ms("2026-11-30T05:00:46.754Z"), Some(1_796_014_846_754.0));
        assert_eq!(epoch_ms("2000-02-29T00:00:00Z"), Some(951_782_400_000.0));
        assert_eq!(epoch_ms("2026-11-30 05:00:46"), None);
        assert_eq!(epoch_ms("2026-11-30T05:00:46.754+02:00"), None);
    }

    #[test]
    fn phases_keep_their_parent_and_only_failed_is_an_outcome() {
        let phases = json!([{"name":"eval.run","startOffsetMs":2,"durationMs":10,"children":[
            {"id":"n1","key":"agent.turn","label":"turn1","startOffsetMs":3,"durationMs":4,"failed":true,"traceId":"t"}]}]);
        let mut out = Vec::new();
        flatten(&phases, None, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(
            (out[0].label.as_str(), out[0].phase.as_deref(), out[0].outcome.as_deref()),
            ("eval.run", Some("eval.run"), None)
        );
        assert_eq!((out[1].label.as_str(), out[1].phase.as_deref()), ("turn1", Some("agent.turn")));
        assert_eq!(
            (out[1].parent_index, out[1].outcome.as_deref(), out[1].trace_id.as_deref()),
            (Some(0), Some("failed"), Some("t"))
        );
    }
}
