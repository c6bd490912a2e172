//! Every number a user reads is written here, once: counts, tokens, USD,
//! percentages, durations and scores. Missing is "—", never 0.

/// What an absent value reads as.
pub const MISSING: &str = "—";

/// Integers with thousands separators ("1,234,567"); other numbers with at
/// most two decimals ("34.11"); beyond 10^15 in scientific form ("1.0e308"),
/// because such a count is a defect in the input, not a quantity to read.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "not a number".into()
        } else if x > 0.0 {
            "∞".into()
        } else {
            "-∞".into()
        };
    }
    if x.abs() >= 1e15 {
        return format!("{x:.1e}");
    }
    let rounded = (x * 100.0).round() / 100.0;
    if rounded.fract() != 0.0 {
        let s = format!("{rounded:.2}");
        let s = s.trim_end_matches('0');
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        return format!("{}.{frac}", grouped_int(int));
    }
    grouped_int(&format!("{rounded:.0}"))
}

/// Thousands separators on an integer written in decimal (with an optional `-`).
fn grouped_int(digits: &str) -> String {
    let (sign, digits) = digits.strip_prefix('-').map(|d| ("-", d)).unwrap_or(("", digits));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if sign.is_empty() || out.chars().all(|c| c == '0') { out } else { format!("-{out}") }
}

/// [`number`], or "—" when absent.
pub fn opt_number(x: Option<f64>) -> String {
    x.map(number).unwrap_or_else(|| MISSING.into())
}

/// A short form for dense rows: "950", "1.2k", "88k", "1.2M", "3.4B".
pub fn compact(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() || a >= 1e15 {
        number(x)
    } else if a >= 1e9 {
        format!("{:.1}B", x / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", x / 1e3)
    } else if a >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        number(x)
    }
}

/// USD, one rule everywhere: "$0" for zero; two decimals from a dollar up
/// ("$12.40", "$1,234.56"); four under a dollar ("$0.0196"); and under a
/// cent, as many as it takes to show two significant digits ("$0.0042",
/// "$0.00002"), so a non-zero amount never reads "$0.0000".
pub fn usd(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        return format!("${}", number(x));
    }
    if x == 0.0 {
        return "$0".into();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    let decimals = if a >= 1.0 {
        2
    } else if a >= 0.01 {
        4
    } else {
        // Two significant digits: the first non-zero digit sits at 10^-k.
        let k = (-a.log10()).ceil() as usize;
        (k + 1).max(4)
    };
    let s = format!("{a:.decimals$}");
    let s = if a < 0.01 { s.trim_end_matches('0').to_string() } else { s };
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    if frac.is_empty() { format!("{sign}${}", grouped_int(int)) } else { format!("{sign}${}.{frac}", grouped_int(int)) }
}

/// [`usd`], or "—" when absent.
pub fn opt_usd(x: Option<f64>) -> String {
    x.map(usd).unwrap_or_else(|| MISSING.into())
}

/// A price per million tokens: "$3/MTok", "$0.3/MTok", "$3.75/MTok".
pub fn rate(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("${s}/MTok")
}

/// A ratio as a percentage with at most one decimal: "87%", "87.5%".
pub fn percent(r: f64) -> String {
    if !r.is_finite() {
        return MISSING.into();
    }
    let p = (r * 1000.0).round() / 10.0;
    if p.fract() == 0.0 { format!("{p:.0}%") } else { format!("{p:.1}%") }
}

/// Milliseconds as a person reads them (the official `formatDurationMs`):
/// "850ms", "1.2s", "12.0s", "4m 20s", "1h 4m".
pub fn duration_ms(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return MISSING.into();
    }
    if ms < 1000.0 {
        return format!("{}ms", ms.round() as u64);
    }
    let s = ms / 1000.0;
    if s < 60.0 {
        return format!("{s:.1}s");
    }
    let total = s.round() as u64;
    if total < 3600 {
        return format!("{}m {}s", total / 60, total % 60);
    }
    format!("{}h {}m", total / 3600, (total % 3600) / 60)
}

/// "1 turn", "3 turns", "1,024 events".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", number(n as f64), if n == 1 { one } else { many })
}

/// Sorted numbers as runs, "1–4, 7, 9–1,000", at most `cap` runs; past the
/// cap the rest is "…" (`check` names the turns of a rule's findings with
/// it) or, given `in_all`, "… (N in all)" (the attempt header's turns).
pub fn number_runs(sorted: &[u64], cap: usize, in_all: bool) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &n in sorted {
        match runs.last_mut() {
            Some((_, end)) if *end == n => {}
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let mut words: Vec<String> = runs
        .iter()
        .take(cap)
        .map(|&(a, b)| if a == b { number(a as f64) } else { format!("{}–{}", number(a as f64), number(b as f64)) })
        .collect();
    if runs.len() > cap {
        words.push(if in_all { format!("… ({} in all)", number(sorted.len() as f64)) } else { "…".into() });
    }
    words.join(", ")
}

/// "4.2 MB": the loaders' notices say sizes with the same function.
pub use crate::model::text::megabytes;

/// A score or a points total: at most two decimals ("34.11", "2").
pub fn score(x: f64) -> String {
    number(x)
}

/// "37 rows · 8 turns": a timeline's size, as `show` and the viewer's title
/// count it (a turn's header line is not one of its rows).
pub fn timeline_counts(rows: usize, turns: usize) -> String {
    format!("{} · {}", count(rows, "row", "rows"), count(turns, "turn", "turns"))
}

/// "5 errors · 2,001 warnings": how every surface counts findings (the
/// viewer's title and header, `show --diagnostics`, `check`).
pub fn finding_counts(errors: usize, warnings: usize) -> String {
    format!("{} · {}", count(errors, "error", "errors"), count(warnings, "warning", "warnings"))
}

/// [`finding_counts`], or "not checked" when the lint did not read the
/// attempt's events and found nothing else: no findings there is not a
/// clean stream.
pub fn finding_tally(errors: usize, warnings: usize, checked: bool) -> String {
    if checked || errors + warnings > 0 { finding_counts(errors, warnings) } else { "not checked".into() }
}

/// "group › label", the one title of an assertion on every surface. An
/// unlabelled one (the loader gives it its entry id) is titled by where the
/// eval declares it, "classic.eval.ts:35 turn.calledTool(…)", when the
/// Record keeps that site: an id like `ae_27ba…` names no check a reader knows.
/// Here because the assertion views and the errored reason (`view::errored`)
/// both name assertions.
pub fn assertion_title(attempt: &crate::model::document::Attempt, a: &crate::model::document::Assertion) -> String {
    use super::text::clean;
    let mut parts: Vec<String> = a.group_path.iter().map(|g| clean(g)).collect();
    let unlabelled = a.label.is_empty() || a.entry_id.as_deref() == Some(a.label.as_str());
    let site = if unlabelled { assertion_declared_at(attempt, a) } else { None };
    parts.push(match site {
        Some(site) => site,
        None if a.label.is_empty() => "(unlabelled)".into(),
        None => clean(&a.label),
    });
    parts.join(" › ")
}

/// "classic.eval.ts:35 turn.calledTool(…)": the file, line and code of the
/// assertion's declaration, when the Record keeps its site.
pub fn assertion_declared_at(
    attempt: &crate::model::document::Attempt,
    a: &crate::model::document::Assertion,
) -> Option<String> {
    let review = &attempt.review;
    let site = review.source_sites.iter().find(|s| s.entry_id.is_some() && s.entry_id == a.entry_id)?;
    let file = review.sources.iter().find(|f| f.id.is_some() && f.id == site.source_id);
    let name = file.map(|f| f.path.rsplit('/').next().unwrap_or(&f.path).to_string()).unwrap_or_default();
    let code = file
        .and_then(|f| f.content.as_deref())
        .and_then(|c| c.lines().nth((site.line as usize).saturating_sub(1)))
        .map(|l| l.trim().to_string())
        .unwrap_or_default();
    Some(super::text::clean(format!("{name}:{} {code}", site.line).trim_end()))
}

/// What an assertion's matcher said, when it said something.
pub fn assertion_message(a: &crate::model::document::Assertion) -> Option<String> {
    a.diagnostic().and_then(|d| d.message).map(|m| super::text::clean(&m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number(1234567.0), "1,234,567");
        assert_eq!(number(12.0), "12");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-1234.0), "-1,234");
        assert_eq!(number(34.111111111111114), "34.11");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(1e308), "1.0e308");
        assert_eq!(number(f64::INFINITY), "∞");
        assert_eq!(opt_number(None), "—");
        assert_eq!(compact(88_000.0), "88k");
        assert_eq!(compact(1234.0), "1.2k");
        assert_eq!(compact(950.0), "950");
        assert_eq!(compact(2_500_000.0), "2.5M");
    }

    #[test]
    fn usd_never_reads_zero_for_a_non_zero_amount() {
        assert_eq!(usd(0.0), "$0");
        assert_eq!(usd(0.00002), "$0.00002");
        assert_eq!(usd(0.0042), "$0.0042");
        assert_eq!(usd(0.0196), "$0.0196");
        assert_eq!(usd(0.08663), "$0.0866");
        assert_eq!(usd(12.4), "$12.40");
        assert_eq!(usd(1234.567), "$1,234.57");
        assert_eq!(usd(-0.5), "-$0.5000");
        assert_eq!(usd(0.000_001_234), "$0.0000012");
        for x in [1e-12, 3e-9, 0.000_49, 0.009_99, 0.5, 7.0] {
            assert!(usd(x).chars().any(|c| c.is_ascii_digit() && c != '0'), "{x} → {}", usd(x));
        }
        assert_eq!(usd(1e308), "$1.0e308");
        assert_eq!(rate(3.0), "$3/MTok");
        assert_eq!(rate(3.75), "$3.75/MTok");
    }

    #[test]
    fn durations_and_percentages() {
        assert_eq!(duration_ms(850.0), "850ms");
        assert_eq!(duration_ms(1234.0), "1.2s");
        assert_eq!(duration_ms(12_000.0), "12.0s");
        assert_eq!(duration_ms(260_000.0), "4m 20s");
        assert_eq!(duration_ms(3_840_000.0), "1h 4m");
        assert_eq!(percent(0.875), "87.5%");
        assert_eq!(percent(0.87), "87%");
        assert_eq!(count(1, "turn", "turns"), "1 turn");
        assert_eq!(count(1024, "event", "events"), "1,024 events");
    }

    #[test]
    fn number_runs_fold_and_cap() {
        assert_eq!(number_runs(&[1, 2, 3, 4, 7, 9, 10], 8, true), "1–4, 7, 9–10");
        assert_eq!(number_runs(&[5], 8, true), "5");
        assert_eq!(number_runs(&[0, 0, 1], 8, true), "0–1");
        assert_eq!(number_runs(&[1, 1000, 1001], 8, false), "1, 1,000–1,001");
        let even: Vec<u64> = (1..=500).map(|i| i * 2).collect();
        assert_eq!(number_runs(&even, 3, true), "2, 4, 6, … (500 in all)");
        assert_eq!(number_runs(&even, 3, false), "2, 4, 6, …");
    }
}
