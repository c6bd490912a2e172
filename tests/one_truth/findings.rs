//! Findings and their counts: `check`, `show`, `show --json`, the viewer's
//! header and its Diagnostics tab list the same findings, a skipped input
//! line among them, and count them alike.

use super::{samples, screen};
use niceeval::app::{App, Focus, Panel, Scope};
use niceeval::model::usage::builtin_prices;
use niceeval::view::format::finding_counts;
use serde_json::Value;
use std::path::PathBuf;

/// The samples, and inputs whose findings are about the file itself.
fn inputs() -> Vec<PathBuf> {
    let mut items = samples();
    for f in ["check/input-line-skipped.json", "check/input-text-replaced.json", "load/jsonl/bad-line.jsonl"] {
        items.push(PathBuf::from("tests/fixtures").join(f));
    }
    items.push(PathBuf::from("tests/fixtures/check/orphan-finish.json"));
    items
}

fn severities(list: &[&Value]) -> (usize, usize) {
    let errors = list.iter().filter(|f| f["severity"] == "error").count();
    (errors, list.len() - errors)
}

#[test]
fn findings_and_their_counts_are_the_same_on_every_surface() {
    let prices = builtin_prices();
    let (mut files, mut findings_seen, mut input_seen) = (0, 0, 0);
    for path in inputs() {
        let p = path.display().to_string();
        let Ok(doc) = niceeval::load::load_path(&p) else { continue };
        if doc.attempts.is_empty() {
            continue;
        }
        let out = std::process::Command::new(super::common::bin()).args(["check", &p, "--format", "json"]).output();
        let Ok(check) = serde_json::from_slice::<Value>(&out.unwrap().stdout) else { continue };
        files += 1;
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let attempts = json["attempts"].as_array().unwrap();
        // The same findings, by code and severity, in check and in show --json.
        let key = |f: &&Value| (f["code"].as_str().unwrap().to_string(), f["severity"].as_str().unwrap().to_string());
        let shown: Vec<&Value> = attempts.iter().flat_map(|a| a["findings"].as_array().unwrap()).collect();
        let checked: Vec<&Value> = check["findings"].as_array().unwrap().iter().collect();
        let mut a: Vec<_> = shown.iter().map(key).collect();
        let mut b: Vec<_> = checked.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{p}: show --json and check list different findings");
        let (e, w) = severities(&shown);
        assert_eq!((check["errors"].as_u64(), check["warnings"].as_u64()), (Some(e as u64), Some(w as u64)), "{p}");
        // A finding about the file says the same line in both.
        let lines = |l: &[&Value]| -> Vec<(String, u64)> {
            let mut v: Vec<_> = l
                .iter()
                .filter(|f| f["line"].is_u64())
                .map(|f| (f["path"].as_str().unwrap().to_string(), f["line"].as_u64().unwrap()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(lines(&shown), lines(&checked), "{p}: input lines");
        input_seen += lines(&shown).len();
        findings_seen += shown.len();
        let mut app = App::new(doc.clone(), None, prices.clone());
        for (i, a) in attempts.iter().enumerate().take(40) {
            let mine: Vec<&Value> = a["findings"].as_array().unwrap().iter().collect();
            let (errors, warnings) = severities(&mine);
            let what = format!("{p} attempt {i}");
            let sel =
                niceeval::plain::Selection { locator: a["locator"].as_str().map(str::to_string), ..Default::default() };
            let opts = niceeval::plain::PlainOptions { width: 400, ..Default::default() };
            let sections = [niceeval::plain::SectionKind::Of(Panel::Diagnostics)];
            let text = niceeval::plain::render(&doc, &views, &findings, &sections, &sel, &opts).text;
            niceeval::app::update(
                &mut app,
                niceeval::app::Action::Scope(Scope { attempt: i, session: None, turn: None }),
            );
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            niceeval::app::update::update(&mut app, niceeval::app::Intent::ShowTab(Panel::Diagnostics));
            let s = screen(&mut app, 400, 40);
            let tally = format!("⚑ {}", finding_counts(errors, warnings));
            if errors + warnings > 0 {
                assert!(s[1].contains(&tally), "{what}: the viewer's header lacks {tally:?}:\n{}", s[1]);
                if a["locator"].is_string() || attempts.len() == 1 {
                    let said = text.lines().any(|l| l.trim_start().starts_with("findings ") && l.contains(&tally));
                    assert!(said, "{what}: show lacks {tally:?}:\n{text}");
                }
                let title = format!("Diagnostics · {}", finding_counts(errors, warnings));
                let in_show =
                    text.lines().any(|l| l.contains("Diagnostics") && l.contains(&finding_counts(errors, warnings)));
                assert!(in_show, "{what}: show --diagnostics lacks {title:?}:\n{text}");
                assert!(s.iter().any(|l| l.contains(&title)), "{what}: the Diagnostics tab lacks {title:?}");
                // The Diagnostics list holds the same findings (its rows group them by code).
                let listed: Vec<&str> = app.scoped_findings().map(|f| app.findings()[f].code).collect();
                let codes: Vec<&str> = mine.iter().map(|f| f["code"].as_str().unwrap()).collect();
                assert_eq!(listed, codes, "{what}: the Diagnostics tab lists other findings");
            } else {
                assert!(!s[1].contains('⚑'), "{what}: the viewer counts findings show --json does not have");
            }
        }
    }
    super::common::report(&format!(
        "findings: {files} files, {findings_seen} findings ({input_seen} about the input file) counted alike"
    ));
    assert!(files >= 5 && input_seen >= 2, "{files} files, {input_seen} input findings");
}
