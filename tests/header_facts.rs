//! The header's started time and evidence line (NiceEval's capabilities:
//! source · execution · timing · diff), the assertions' severity words and
//! points, and the commands: the same in `show` and `show --json`, on every
//! shared Record (issue 36).

mod common;

use serde_json::Value;

/// `show` wide enough that no line wraps.
fn show(path: &std::path::Path, args: &[&str]) -> String {
    common::show_at(path, args, 400)
}

fn attempt(path: &std::path::Path, locator: &str) -> Value {
    let doc: Value = serde_json::from_str(&show(path, &[locator, "--json"])).unwrap();
    doc["attempts"][0].clone()
}

#[test]
fn started_and_the_evidence_line_say_whose_start_and_which_views_there_are() {
    let Some(shared) = common::shared_dir() else { return };
    let kitchen = shared.join("samples/niceeval/generated/record-kitchen/record");
    let text = show(&kitchen, &["@1H5T13YM0H4DW"]);
    assert!(
        text.contains(
            "  started     2026-11-30 05:00:46 UTC (the run's start: a Record keeps no start time per attempt)\n"
        ),
        "{text}"
    );
    assert!(text.contains("  evidence    source · execution · timing · no diff\n"), "{text}");
    let a = attempt(&kitchen, "@1H5T13YM0H4DW");
    assert!(a["startedAt"].as_str().is_some_and(|s| s.starts_with("2026-11-30T05:00:46")), "{}", a["startedAt"]);
    assert_eq!(a["startedAtOf"], "run");
    assert_eq!(
        a["capabilities"],
        serde_json::json!({"source": true, "execution": true, "timing": true, "diff": false})
    );
    let sandbox = shared.join("samples/niceeval/generated/record-e2e-eval/record");
    assert_eq!(attempt(&sandbox, "@14R83JM9GP1Z2")["capabilities"]["diff"], true);
    let summary = shared.join("samples/niceeval/generated/invocation-summary/summary-eval-assertion-sandbox.json");
    let doc: Value = serde_json::from_str(&show(&summary, &["--json"])).unwrap();
    assert_eq!(doc["attempts"][0]["startedAtOf"], "attempt");
    // Missing is not recorded, never a made-up time.
    let session = shared.join("samples/handmade/sessions/session-02-coding-multiturn.json");
    assert!(show(&session, &[]).contains("  started    — (not recorded)\n"));
    let doc: Value = serde_json::from_str(&show(&session, &["--json"])).unwrap();
    assert!(doc["attempts"][0]["startedAt"].is_null() && doc["attempts"][0]["startedAtOf"].is_null());
}

#[test]
fn severity_points_and_commands_are_the_same_in_show_and_show_json_on_every_shared_record() {
    let Some(shared) = common::shared_dir() else { return };
    let (mut scored, mut severities, mut commands) = (0, 0, 0);
    for record in [
        "samples/niceeval/generated/record-e2e-cli/record",
        "samples/niceeval/generated/record-e2e-eval/record",
        "samples/niceeval/generated/record-kitchen/record",
        "samples/niceeval/realrun-report/record",
        "samples/niceeval/realrun-sdk/record",
        "samples/niceeval/generated/invocation-summary/summary-eval-assertion-sandbox.json",
    ] {
        let path = shared.join(record);
        let doc: Value = serde_json::from_str(&show(&path, &["--json"])).unwrap();
        for a in doc["attempts"].as_array().unwrap() {
            let Some(locator) = a["locator"].as_str() else { continue };
            let text = show(&path, &[locator, "--assertions", "--commands"]);
            for x in a["assertions"].as_array().into_iter().flatten() {
                let title = x["title"].as_str().unwrap();
                let line =
                    text.lines().find(|l| l.trim_start().starts_with(title)).unwrap_or_else(|| panic!("{title}"));
                if let Some(word) = x["severity"].as_str() {
                    assert!(line.contains(&format!(" · {word}")), "{locator} {title}: {line}");
                    severities += 1;
                }
                if let Some(p) = x["points"].as_object() {
                    // The text rounds to two decimals: "0.11/1" for 0.1111….
                    let words = line.trim_end().rsplit(" · ").next().unwrap();
                    let (earned, points) = words.split_once('/').unwrap_or_else(|| panic!("{line}"));
                    assert_eq!(points.parse::<f64>().ok(), p["points"].as_f64(), "{line}");
                    match p["earned"].as_f64() {
                        Some(e) => assert!((earned.parse::<f64>().unwrap() - e).abs() < 0.006, "{line} / {e}"),
                        None => assert_eq!(earned, "—", "{line}"),
                    }
                    scored += 1;
                }
            }
            let cards = a["commands"].as_array().unwrap();
            for c in cards {
                let head = format!("    command {} · {}", c["command"], c["phase"].as_str().unwrap());
                let line = text.lines().find(|l| l.starts_with(&head)).unwrap_or_else(|| panic!("{locator}: {head}"));
                assert!(line.contains(c["outcomeWords"].as_str().unwrap()), "{line}");
                if let Some(when) = c["when"].as_str() {
                    assert!(line.contains(when), "{line}");
                }
                commands += 1;
            }
        }
    }
    common::report(&format!("checked: {severities} severities, {scored} points, {commands} commands"));
    assert!(scored > 10 && severities > 100 && commands >= 17 + 9, "{severities} {scored} {commands}");
}
