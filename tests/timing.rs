//! Execution timing: every interval NiceEval recorded appears with its
//! label, phase, duration, offset, parent and outcome (compared with the
//! Record's own `timing-data` and with NiceEval's own `show --json` pages),
//! OTel spans nest under the interval they belong to, the waterfall at 80
//! and 160 columns (text and viewer), and what the Timing tab's keys do.
//! The samples under ../shared are skipped with a notice when absent.

mod common;

use niceeval::app::{App, Effect, Intent, Panel, update};
use niceeval::model::document::Document;
use niceeval::model::usage::builtin_prices;
use niceeval::plain::{PlainOptions, SectionKind, Selection};
use niceeval::view::AttemptView;
use niceeval::view::format::duration_ms;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Value;
use std::path::{Path, PathBuf};

const KITCHEN_CODING: &str = "@1H5T13YM0H4DW";

/// The Records NiceEval wrote: the generated ones and the real runs.
fn records() -> Vec<PathBuf> {
    let Some(shared) = common::shared_dir() else { return Vec::new() };
    let s = shared.join("samples/niceeval");
    [
        "generated/record-e2e-cli",
        "generated/record-e2e-eval",
        "generated/record-kitchen",
        "realrun-report",
        "realrun-sdk",
    ]
    .iter()
    .map(|d| s.join(d).join("record"))
    .filter(|p| p.is_dir())
    .collect()
}

fn shared(rel: &str) -> Option<PathBuf> {
    common::shared_path(&format!("samples/niceeval/{rel}"))
}

fn open(path: &Path) -> (Document, Vec<AttemptView>, Value) {
    let doc = niceeval::load::load_path(path).expect("loads");
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &builtin_prices());
    let json = niceeval::view::json::document(&doc, &views, &findings, &Selection::default());
    (doc, views, json)
}

/// `show --timing` of one attempt, plain, at a width (`--full` with `full`).
fn timing_text(doc: &Document, views: &[AttemptView], locator: &str, width: usize, full: bool) -> String {
    let sel = Selection { locator: Some(locator.into()), full, ..Selection::default() };
    let opts = PlainOptions { width, boxed: false, color: false };
    niceeval::plain::render(doc, views, &[], &[SectionKind::Of(Panel::Timing)], &sel, &opts).text
}

/// The Execution timeline section alone (the header names the checkout's path).
fn section_only(text: String) -> String {
    text.find("  Execution timeline").map(|at| text[at..].to_string()).unwrap_or(text)
}

/// One recorded interval against the `timing` entry `show --json` gives for it.
fn same_interval(what: &str, recorded: &Value, listed: &[Value]) {
    let id = &recorded["intervalId"];
    let mine = listed.iter().find(|t| &t["id"] == id).unwrap_or_else(|| panic!("{what}: interval {id} missing"));
    for (theirs, ours) in [
        ("label", "label"),
        ("phase", "phase"),
        ("durationMs", "durationMs"),
        ("startOffsetMs", "startOffsetMs"),
        ("parentIntervalId", "parent"),
        ("outcome", "outcome"),
    ] {
        assert_eq!(recorded[theirs], mine[ours], "{what}: {id} {theirs}");
    }
}

#[test]
fn every_interval_a_record_holds_appears_with_its_label_phase_and_duration() {
    let (mut attempts, mut intervals) = (0, 0);
    for record in records() {
        let (doc, views, json) = open(&record);
        for (i, a) in doc.attempts.iter().enumerate() {
            let (Some(id), Some(run)) =
                (&a.attempt_id, a.review.membership.as_ref().and_then(|m| m.origin_run_id.clone()))
            else {
                continue;
            };
            let payload = record.join("runs").join(run).join("attempts").join(id);
            let payload = payload.join("attachments/niceeval.observability/payload.json");
            let Ok(bytes) = std::fs::read(&payload) else { continue };
            let payload: Value = serde_json::from_slice(&bytes).unwrap();
            let recorded = payload["timing-data"]["intervals"].as_array().cloned().unwrap_or_default();
            let listed = json["attempts"][i]["timing"].as_array().cloned().unwrap_or_default();
            let what = format!("{} {}", record.display(), a.locator.as_deref().unwrap_or("?"));
            let from_timing = listed.iter().filter(|t| t["source"] == "timing").count();
            assert_eq!(from_timing, recorded.len(), "{what}: the intervals listed are the Record's, no more");
            let locator = a.locator.as_deref().unwrap();
            let text = timing_text(&doc, &views, locator, 400, true);
            for r in &recorded {
                same_interval(&what, r, &listed);
                // The text names it with its duration, on one line.
                let label = niceeval::view::clean(r["label"].as_str().unwrap());
                let d = r["durationMs"].as_f64().map(duration_ms).unwrap_or_else(|| "—".into());
                assert!(
                    text.lines().any(|l| l.contains(&label) && l.contains(&d)),
                    "{what}: show --timing --full has no line with {label} and {d}:\n{text}"
                );
                intervals += 1;
            }
            attempts += 1;
        }
    }
    common::report(&format!("timing: {intervals} intervals of {attempts} Record attempts listed as recorded"));
    if common::shared_dir().is_some() {
        assert!(attempts >= 40 && intervals >= 150, "{attempts} attempts, {intervals} intervals");
    }
}

/// The intervals of every NiceEval page: `show @loc --timing --json`
/// (`data.timing[].timing`) and `show @loc --json` (`data.observability`).
fn page_intervals(page: &Value) -> Vec<(String, Vec<Value>)> {
    let data = &page["data"];
    let entries: Vec<(&Value, &Value)> = match data["kind"].as_str() {
        Some("timing") => data["timing"].as_array().into_iter().flatten().map(|e| (e, &e["timing"])).collect(),
        Some("attempt") => data["observability"]["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| (e, &e["detail"]["timing"]))
            .collect(),
        _ => Vec::new(),
    };
    entries
        .into_iter()
        .filter_map(|(e, t)| {
            let locator = e["attempt"]["locator"].as_str()?.to_string();
            Some((locator, t["intervals"].as_array()?.clone()))
        })
        .collect()
}

#[test]
fn timing_equals_niceevals_own_show_timing_pages() {
    let Some(generated) = shared("generated/show-json") else { return };
    let ours: Vec<Value> = records().iter().map(|r| open(r).2).collect();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&generated).unwrap().flatten().map(|e| e.path()).collect();
    if let Some(real) = shared("realrun-sdk/niceeval-show-json") {
        pages.extend(std::fs::read_dir(real).unwrap().flatten().map(|e| e.path()));
    }
    pages.sort();
    let (mut timing_pages, mut compared) = (0, 0);
    for page in pages {
        let v: Value = serde_json::from_slice(&std::fs::read(&page).unwrap()).unwrap();
        for (locator, intervals) in page_intervals(&v) {
            let mine = ours.iter().flat_map(|j| j["attempts"].as_array().unwrap()).find(|a| a["locator"] == locator);
            let mine = mine.unwrap_or_else(|| panic!("{}: {locator} is in no Record", page.display()));
            let listed = mine["timing"].as_array().unwrap();
            for r in &intervals {
                same_interval(&format!("{} {locator}", page.display()), r, listed);
                compared += 1;
            }
            timing_pages += usize::from(v["data"]["kind"] == "timing");
        }
    }
    common::report(&format!(
        "timing vs NiceEval: {compared} intervals equal ({timing_pages} show --timing --json pages)"
    ));
    assert!(timing_pages >= 4 && compared >= 100, "{timing_pages} pages, {compared} intervals");
}

#[test]
fn record_spans_nest_under_their_send_in_order() {
    let Some(record) = shared("generated/record-kitchen/record") else { return };
    let (doc, views, json) = open(&record);
    let i = doc.attempts.iter().position(|a| a.locator.as_deref() == Some(KITCHEN_CODING)).unwrap();
    let timing = json["attempts"][i]["timing"].as_array().unwrap();
    let by_id = |id: &Value| timing.iter().find(|t| &t["id"] == id);
    let sends: Vec<&Value> = timing.iter().filter(|t| t["phase"] == "agent.send").collect();
    let roots: Vec<&Value> = timing
        .iter()
        .filter(|t| t["source"] == "otel-trace" && by_id(&t["parent"]).unwrap()["source"] == "timing")
        .collect();
    assert_eq!(sends.len(), 6);
    assert_eq!(roots.len(), 6, "one trace per send");
    for (send, root) in sends.iter().zip(&roots) {
        assert_eq!(root["parent"], send["id"], "{} under {}", root["label"], send["label"]);
        assert_eq!(root["startOffsetMs"], send["startOffsetMs"], "a trace starts where its send does");
    }
    // Every span sits inside its send's time, and the failed ones are marked.
    let failed: Vec<&str> =
        timing.iter().filter(|t| t["failed"] == true).map(|t| t["label"].as_str().unwrap()).collect();
    assert_eq!(failed, ["claude_code.tool", "turn4", "claude_code.interaction", "claude_code.tool"]);
    let text = timing_text(&doc, &views, KITCHEN_CODING, 120, false);
    assert!(text.contains("24 spans from the OTel trace: each trace starts where its send does"), "{text}");
    assert!(text.contains("9.0s · 34 nodes · ✗ 4 failed"), "{text}");
}

#[test]
fn an_invocation_summary_places_spans_exactly_by_its_start_and_trace_id() {
    let Some(summary) = shared("generated/invocation-summary/summary-kitchen.json") else { return };
    let (doc, views, json) = open(&summary);
    let raw: Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    for (i, result) in raw["results"].as_array().unwrap().iter().enumerate() {
        let timing = json["attempts"][i]["timing"].as_array().unwrap();
        let zero = niceeval::load::format::phases::epoch_ms(result["startedAt"].as_str().unwrap()).unwrap();
        for span in result["trace"].as_array().unwrap() {
            let mine = timing.iter().find(|t| t["id"] == span["spanId"]).expect("every span listed");
            let at = mine["startOffsetMs"].as_f64().unwrap();
            assert_eq!(at, span["startMs"].as_f64().unwrap() - zero, "{}", span["name"]);
            // Up the tree to the agent.turn whose traceId is the span's.
            let mut up = mine.clone();
            while up["source"] == "otel-trace" {
                up = timing.iter().find(|t| t["id"] == up["parent"]).cloned().expect("a parent");
            }
            assert_eq!(up["phase"], "agent.turn");
            let node = doc.attempts[i].review.timing.intervals.iter().find(|x| x.id.as_deref() == up["id"].as_str());
            assert_eq!(node.and_then(|n| n.trace_id.as_deref()), span["traceId"].as_str());
        }
        let locator = doc.attempts[i].locator.clone().unwrap();
        let text = timing_text(&doc, &views, &locator, 120, false);
        assert!(text.contains("from the OTel trace: placed by the attempt's recorded start time"), "{text}");
    }
}

#[test]
fn older_results_name_the_phase_tree_timings() {
    let summary = serde_json::json!({"results": [{"id": "e", "verdict": "passed", "events": [],
        "timings": [{"name": "eval.run", "startOffsetMs": 0, "durationMs": 40, "children": [
            {"id": "n1", "key": "agent.turn", "label": "turn1", "startOffsetMs": 2, "durationMs": 30, "failed": true}]}]}]});
    let doc = niceeval::load::load_bytes("s.json", summary.to_string().as_bytes()).unwrap();
    let iv = &doc.attempts[0].review.timing.intervals;
    assert_eq!(iv.len(), 2);
    assert_eq!(
        (iv[1].label.as_str(), iv[1].parent_index, iv[1].outcome.as_deref()),
        ("turn1", Some(0), Some("failed"))
    );
}

#[test]
fn turn_headers_say_their_duration_or_that_timing_is_unavailable() {
    let capture = niceeval::load::load_path("assets/demo/session.json").unwrap();
    let (views, _) = niceeval::analysis::build_views(&capture, None, &builtin_prices());
    let text = niceeval::plain::render(
        &capture,
        &views,
        &[],
        &[SectionKind::Of(Panel::Timeline)],
        &Selection::default(),
        &Default::default(),
    )
    .text;
    assert!(text.contains("tokens · timing unavailable"), "{text}");
    let Some(record) = shared("generated/record-kitchen/record") else { return };
    let (doc, views, _) = open(&record);
    let sel = Selection { locator: Some(KITCHEN_CODING.into()), ..Selection::default() };
    let opts = PlainOptions { width: 200, ..Default::default() };
    let text = niceeval::plain::render(&doc, &views, &[], &[SectionKind::Of(Panel::Timeline)], &sel, &opts).text;
    let headers: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("turn ")).collect();
    assert_eq!(headers.len(), 6);
    assert!(headers[0].ends_with("· 1.3s"), "{}", headers[0]);
    assert!(headers.iter().all(|h| !h.contains("timing unavailable")), "{headers:?}");
}

#[test]
fn waterfall_text_at_80_and_160_columns() {
    let Some(record) = shared("generated/record-kitchen/record") else { return };
    let (doc, views, _) = open(&record);
    let text = |w| section_only(timing_text(&doc, &views, KITCHEN_CODING, w, false));
    insta::assert_snapshot!("kitchen_coding_timing_80", text(80));
    insta::assert_snapshot!("kitchen_coding_timing_160", text(160));
    let Some(summary) = shared("generated/invocation-summary/summary-eval-assertion-sandbox.json") else { return };
    let (doc, views, _) = open(&summary);
    let locator = doc.attempts[0].locator.clone().unwrap();
    insta::assert_snapshot!("sandbox_timing_full_80", section_only(timing_text(&doc, &views, &locator, 80, true)));
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = niceeval::ui::Theme::new(niceeval::ui::ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string() + "\n").collect()
}

fn kitchen_app() -> Option<App> {
    shared("generated/record-kitchen/record")?;
    // Relative to the crate (cargo's test cwd), so the header is the same in every checkout.
    let doc = niceeval::load::load_path("../shared/samples/niceeval/generated/record-kitchen/record").unwrap();
    let mut app = App::new(doc, None, builtin_prices());
    let i = app.doc().attempts.iter().position(|a| a.locator.as_deref() == Some(KITCHEN_CODING)).unwrap();
    niceeval::app::update(
        &mut app,
        niceeval::app::Action::Scope(niceeval::app::Scope { attempt: i, session: None, turn: None }),
    );
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(niceeval::app::Focus::List));
    update(&mut app, Intent::ShowTab(Panel::Timing));
    Some(app)
}

#[test]
fn the_timing_tab_at_80_and_160_columns() {
    let Some(mut app) = kitchen_app() else { return };
    insta::assert_snapshot!("kitchen_timing_tab_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("kitchen_timing_tab_160x48", screen(&mut app, 160, 48));
}

#[test]
fn enter_opens_and_closes_a_fold_and_y_copies_the_node() {
    let Some(mut app) = kitchen_app() else { return };
    let before = app.timing_rows().len();
    let fold = app.timing_rows().iter().position(|r| r.key.starts_with("fold:")).expect("a fold");
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(fold));
    update(&mut app, Intent::Enter);
    assert_eq!(app.timing_rows().len(), before + 3, "model ×2 · tool ×1 opens on its three members");
    assert!(app.timing_rows()[fold].expanded);
    update(&mut app, Intent::Enter);
    assert_eq!(app.timing_rows().len(), before);
    // A node with children closes on Enter and hides them.
    let eval_run = app.timing_rows().iter().position(|r| r.key == "i1").unwrap();
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(eval_run));
    update(&mut app, Intent::Enter);
    assert_eq!(app.timing_rows().len(), 3 + 1, "the attempt's top level only");
    // y copies the selected node as show --json lists it.
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(0));
    let effects = update(&mut app, Intent::Copy);
    let Some(Effect::Copy(text)) = effects.last() else { panic!("nothing copied") };
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!((v["label"].as_str(), v["phase"].as_str()), (Some("telemetry.configure"), Some("attempt.setup")));
}

#[test]
fn show_timing_prints_the_waterfall_and_its_json_lists_the_nodes() {
    let out = std::process::Command::new(common::bin())
        .args(["show", "assets/demo/record", "@1CS47DRTHZA4K", "--timing"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Execution timeline") && text.contains("10.3s · 5 nodes"), "{text}");
    assert!(text.lines().any(|l| l.contains("─ turn1  agent.send") && l.contains("8.8s") && l.contains('█')), "{text}");
    let command = |l: &&str| l.contains("└─ ✗ pnpm · command 2  sandbox.command") && l.contains("240ms");
    assert!(text.lines().any(|l| command(&l)), "the command's interval names it:\n{text}");
    let out = std::process::Command::new(common::bin())
        .args(["show", "assets/demo/record", "@1CS47DRTHZA4K", "--timing", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let timing = v["attempts"][0]["timing"].as_array().unwrap();
    let labels: Vec<&str> = timing.iter().map(|t| t["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["workspace.prepare", "pnpm", "eval.run", "turn1", "pnpm"]);
    assert_eq!(timing[3]["parent"], timing[2]["id"]);
    // A command's interval names the command, as its card numbers it.
    let commands: Vec<&Value> = timing.iter().map(|t| &t["command"]).collect();
    assert_eq!(commands, [&Value::Null, &Value::from(1), &Value::Null, &Value::Null, &Value::from(2)]);
}
