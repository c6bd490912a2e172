//! `niceeval derive`: the derived facts as JSON (the conformance contract).

use super::{DeriveOpts, price_table, report_error};
use crate::model::derive_attempt;
use serde_json::{Map, Value};
use std::io::Write;

/// File-provided text for stderr, made safe for the terminal.
fn one_line(s: &str) -> String {
    crate::model::text::sanitize(s, crate::model::text::Lines::Single).into_owned()
}

pub fn run(paths: &[std::path::PathBuf], opts: &DeriveOpts) -> i32 {
    let doc = match crate::load::load_paths(paths) {
        Ok(d) => d,
        Err(e) => return report_error(&e),
    };
    let prices = match price_table(opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    say_losses(&doc);
    let mut derived = Vec::new();
    for attempt in &doc.attempts {
        if !attempt.events_exact {
            eprintln!(
                "niceeval: {}: {} has no raw event stream ({}); nothing to derive",
                one_line(&doc.sources.join(", ")),
                one_line(attempt.eval_id.as_deref().unwrap_or("attempt")),
                one_line(&doc.format)
            );
            continue;
        }
        let d = derive_attempt(attempt, opts.model.as_deref(), &prices);
        if let Some(what) = d.not_finite() {
            // An error, not a null: null means "not reported" or "no model or
            // price" to whoever reads this JSON, and JSON has no infinity.
            eprintln!(
                "niceeval: {}: {}: {what} is not a finite number; no JSON is printed, as null would read as \"not reported\" or \"no model or price\" (niceeval check reports it as usage-sum-overflow)",
                one_line(&doc.sources.join(", ")),
                one_line(attempt.eval_id.as_deref().unwrap_or("attempt"))
            );
            return super::EXIT_INPUT;
        }
        derived.push((attempt, d.to_json(attempt)));
    }
    if derived.is_empty() {
        eprintln!("niceeval: {}: no attempt with raw events to derive", one_line(&doc.sources.join(", ")));
        return super::EXIT_INPUT;
    }
    let out = if derived.len() == 1 && doc.attempts.len() == 1 {
        derived.remove(0).1
    } else {
        let attempts = derived
            .into_iter()
            .map(|(a, json)| {
                let mut o = Map::new();
                o.insert("evalId".into(), a.eval_id.clone().map(Value::from).unwrap_or(Value::Null));
                o.insert("attempt".into(), a.attempt_number.map(Value::from).unwrap_or(Value::Null));
                o.insert("locator".into(), a.locator.clone().map(Value::from).unwrap_or(Value::Null));
                o.insert("derived".into(), json);
                Value::Object(o)
            })
            .collect();
        let mut o = Map::new();
        o.insert("format".into(), "niceeval-viewer.derived/1".into());
        o.insert("attempts".into(), Value::Array(attempts));
        Value::Object(o)
    };
    let mut stdout = std::io::stdout().lock();
    let text = serde_json::to_string_pretty(&out).unwrap_or_default();
    // Same JSON value, but no C1, DEL, bidi or zero-width character reaches the terminal.
    let text = crate::model::text::json_terminal_safe(&text);
    match writeln!(stdout, "{text}") {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => report_error(&e),
    }
}

/// The derived facts are only as whole as the input: say on stderr what the
/// load dropped or replaced (`check` reports each as a finding).
fn say_losses(doc: &crate::model::document::Document) {
    const SHOWN: usize = 20;
    for loss in doc.losses.iter().take(SHOWN) {
        let level = match loss.kind {
            crate::model::diagnostics::LossKind::LineSkipped => "error",
            crate::model::diagnostics::LossKind::TextReplaced => "warning",
        };
        eprintln!("niceeval: {level}: {}", one_line(&loss.describe()));
    }
    if doc.losses.len() > SHOWN {
        eprintln!("niceeval: … and {} more (niceeval check lists them all)", doc.losses.len() - SHOWN);
    }
}
