//! `niceeval exp --json` NDJSON streams (`format: niceeval.exp`, formats.md §5).
//!
//! `failure`, `error` and `eval` lines become attempts keyed by locator
//! (eval id, experiment id, verdict, one Assertion per `failure` line,
//! an execution-error Diagnostic per `error` line). The stream has no
//! conversation: every attempt's events are `NotRecorded`. Progress
//! heartbeats are skipped; `warning`/`notice` lines and other known
//! events become document notices; unknown kinds are kept as notices.
//!
//! A `failure` line does not say whether the assertion mismatched or could
//! not be decided. For verdict `failed` the assertion is shown as a failed
//! gate (`mismatched`/`failed`: a failed verdict needs one); for other
//! verdicts result and gate stay unknown (None).

use crate::load::error::LoadError;
use crate::model::document::{Assertion, Attempt, Completeness, Diagnostic, Document, Fact, Notice, NoticeLevel};
use crate::model::notice::ExpNotice;
use crate::model::verdict::Verdict;
use serde_json::Value;

/// First line of an exp stream.
pub fn looks_like_first_line(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some("niceeval.exp") || v.get("event").is_some()
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

fn notice(level: NoticeLevel, fact: ExpNotice) -> Notice {
    Notice::new(level, fact)
}

fn attempt_for<'a>(attempts: &'a mut Vec<Attempt>, line: &Value) -> &'a mut Attempt {
    let locator = s(line.get("locator"));
    let pos = attempts.iter().position(|a| locator.is_some() && a.locator == locator);
    let i = match pos {
        Some(i) => i,
        None => {
            attempts.push(Attempt {
                locator,
                eval_id: s(line.get("evalId")),
                experiment_id: s(line.get("experimentId")),
                events: Some(Completeness::NotRecorded),
                events_exact: false,
                ..Default::default()
            });
            attempts.len() - 1
        }
    };
    &mut attempts[i]
}

pub fn load(path: &str, bytes: &[u8]) -> Result<Document, LoadError> {
    let text = String::from_utf8_lossy(crate::load::input::strip_bom(bytes));
    let mut doc =
        Document { format: "niceeval exp --json".into(), sources: vec![path.to_string()], ..Default::default() };
    let mut attempts: Vec<Attempt> = Vec::new();
    let mut saw_any = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                let bad = ExpNotice::BadLine((&LoadError::json(path, &e, n)).into());
                doc.notices.push(notice(NoticeLevel::Warning, bad));
                continue;
            }
        };
        saw_any = true;
        read_line(&mut doc, &mut attempts, n, &v);
    }
    if !saw_any {
        return Err(LoadError::new(path, "the exp stream has no JSON lines"));
    }
    doc.notices.push(notice(NoticeLevel::Info, ExpNotice::NoConversation));
    doc.attempts = attempts;
    Ok(doc)
}

/// One line of the stream (the `n`th, from 0): into the attempt it names,
/// or a notice of the document.
fn read_line(doc: &mut Document, attempts: &mut Vec<Attempt>, n: usize, v: &Value) {
    let event = v.get("event").and_then(Value::as_str);
    match (event, v.get("type").and_then(Value::as_str)) {
        (Some("start"), _) => {
            if let Some(ver) = v.get("schemaVersion").and_then(Value::as_u64).filter(|x| *x > 1) {
                doc.notices.push(notice(NoticeLevel::Warning, ExpNotice::NewerSchema { version: ver }));
            }
        }
        (Some("progress"), _) => {}
        (Some("failure"), _) => read_failure(attempt_for(attempts, v), v),
        (Some("error"), _) => read_error(attempt_for(attempts, v), v),
        (Some("eval"), _) => read_eval(attempt_for(attempts, v), v),
        (Some(kind @ ("warning" | "notice")), _) => {
            let level = match v.get("level").and_then(Value::as_str) {
                Some("error") => NoticeLevel::Error,
                Some("info") => NoticeLevel::Info,
                _ if kind == "notice" => NoticeLevel::Info,
                _ => NoticeLevel::Warning,
            };
            let code = v.get("code").and_then(Value::as_str).unwrap_or(kind).to_string();
            let message = v.get("message").and_then(Value::as_str).unwrap_or("").to_string();
            doc.notices.push(notice(level, ExpNotice::StreamSays { code, message }));
        }
        (
            Some(
                kind @ ("kept"
                | "budget_exhausted"
                | "reporter_error"
                | "interrupted"
                | "judge_precheck"
                | "experiment_setup"
                | "experiment_teardown"
                | "lock_wait"),
            ),
            _,
        ) => {
            let level = if matches!(kind, "reporter_error" | "budget_exhausted" | "interrupted") {
                NoticeLevel::Warning
            } else {
                NoticeLevel::Info
            };
            let detail = v.get("message").or_else(|| v.get("reason")).and_then(Value::as_str).unwrap_or("").to_string();
            doc.notices.push(notice(level, ExpNotice::Lifecycle { event: kind.to_string(), detail }));
        }
        (None, Some("receipt")) => doc.notices.push(receipt_notice(v)),
        (other, ty) => {
            let event = other.or(ty).map(str::to_string);
            doc.notices.push(notice(NoticeLevel::Info, ExpNotice::UnknownEvent { line: n + 1, event }));
        }
    }
}

/// A `failure` line: the attempt's verdict and its first failing assertion.
fn read_failure(a: &mut Attempt, v: &Value) {
    a.verdict = super::assertions::read_verdict(v.get("verdict"), &mut a.notices).or(a.verdict.take());
    let failed = a.verdict == Some(Verdict::Failed);
    // An errored attempt's failure line is an assertion that could not decide.
    let errored = a.verdict == Some(Verdict::Errored);
    let mut explanation = Vec::new();
    if let Some(m) = v.get("matcher") {
        explanation.push(("message".to_string(), Fact::Value(m.clone())));
    }
    for k in ["expected", "received"] {
        if let Some(x) = v.get(k) {
            explanation.push((k.to_string(), Fact::Value(x.clone())));
        }
    }
    let assertion = Assertion {
        label: s(v.get("fact")).unwrap_or_else(|| "(unnamed assertion)".into()),
        result: if failed { Some("mismatched".into()) } else { errored.then(|| "errored".into()) },
        gate: if failed { Some("failed".into()) } else { errored.then(|| "unavailable".into()) },
        expected: v.get("expected").cloned().map(Fact::Value),
        observed: v.get("received").cloned().map(Fact::Value),
        explanation: (!explanation.is_empty()).then_some(Fact::Fields(explanation)),
        raw: v.clone(),
        ..Default::default()
    };
    a.review.assertions.get_or_insert_with(Vec::new).push(assertion);
    a.review.assertions_state =
        Some(Completeness::Partial(vec!["exp --json lists only the first failing assertion of each attempt".into()]));
}

/// An `error` line: an execution error of the attempt.
fn read_error(a: &mut Attempt, v: &Value) {
    a.review.diagnostics.push(Diagnostic {
        kind: "execution-error".into(),
        code: s(v.get("code")).unwrap_or_default(),
        phase: s(v.get("phase")),
        message: s(v.get("reason")).unwrap_or_default(),
        causes: Vec::new(),
    });
    if a.verdict.is_none() {
        a.verdict = Some(Verdict::Errored);
    }
}

/// An `eval` line: the eval's verdict and tally.
fn read_eval(a: &mut Attempt, v: &Value) {
    a.verdict = super::assertions::read_verdict(v.get("verdict"), &mut a.notices).or(a.verdict.take());
    let attempts_n = v.get("attempts").and_then(Value::as_u64);
    let passed = v.get("passed").and_then(Value::as_u64);
    a.eval_tally = passed.zip(attempts_n);
    if let (Some(n), Some(p)) = (attempts_n, passed)
        && n > 1
    {
        a.notices.push(notice(NoticeLevel::Info, ExpNotice::EvalTally { passed: p, attempts: n }));
    }
    if v.get("reason").and_then(Value::as_str) == Some("early_exit") {
        let written = |key: &str| v.get(key).cloned().map(Box::new);
        let (planned, unstarted) = (written("planned"), written("unstarted"));
        a.notices.push(notice(NoticeLevel::Info, ExpNotice::EarlyExit { planned, unstarted }));
    }
}

/// The invocation's receipt line.
fn receipt_notice(v: &Value) -> Notice {
    let r = v.get("receipt");
    let completion = r.and_then(|r| r.get("completion")).and_then(Value::as_str).map(str::to_string);
    let runs = r
        .and_then(|r| r.get("runIds"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let level = if completion.as_deref() == Some("completed") { NoticeLevel::Info } else { NoticeLevel::Warning };
    notice(level, ExpNotice::Receipt { completion, runs })
}
