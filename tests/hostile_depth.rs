//! Input cannot drive a recursion past a fixed depth: a chain of 20,000
//! OTel spans (InvocationSummary) or timing intervals (a Record's
//! `timing-data`), each the parent of the next, shows in `show --timing`,
//! `show --all`, `show --json` and the Timing tab, with the levels past the
//! drawn depth folded into one row that says how many; parent loops are cut
//! with a notice. The inputs are made here, not kept as fixtures.

mod common;

#[path = "../fuzz/harness.rs"]
mod harness;

use common::{bin, fixture};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

const CHAIN: usize = 20_000;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-depth-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An InvocationSummary whose trace is `n` spans, each the parent of the next
/// (`parent_of(i)` names span i's parent; `None` for a root).
fn summary_with_spans(dir: &Path, n: usize, parent_of: impl Fn(usize) -> Option<usize>) -> PathBuf {
    let spans: Vec<Value> = (0..n)
        .map(|i| {
            json!({"traceId": "t", "spanId": format!("s{i}"), "parentSpanId": parent_of(i).map(|p| format!("s{p}")),
                   "name": format!("span{i}"), "kind": "other", "startMs": 1000 + i, "endMs": 1000 + 2 * n - i})
        })
        .collect();
    let events = [json!({"type": "message", "role": "assistant", "text": "hi"})];
    let doc = json!({"results": [{"evalId": "deep", "verdict": "passed", "events": events, "trace": spans}]});
    let path = dir.join("summary.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// The test Record with attempt …0001's `timing-data` replaced by `intervals`.
fn record_with_intervals(dir: &Path, intervals: Vec<Value>) -> PathBuf {
    let project = dir.join("project");
    copy_dir(&fixture("record").join("project"), &project);
    let payload = project.join(
        ".niceeval/record/runs/11111111-1111-4111-8111-111111111111/attempts/aaaaaaaa-0000-4000-8000-000000000001/attachments/niceeval.observability/payload.json",
    );
    let mut value: Value = serde_json::from_slice(&std::fs::read(&payload).unwrap()).unwrap();
    value["timing-data"]["intervals"] = Value::Array(intervals);
    std::fs::write(&payload, value.to_string()).unwrap();
    project
}

fn chained_intervals(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"intervalId": format!("iv{i}"), "parentIntervalId": if i == 0 { Value::Null } else { format!("iv{}", i - 1).into() },
                   "label": format!("step{i}"), "phase": "step", "outcome": "completed",
                   "startOffsetMs": i, "durationMs": 2 * n - 2 * i})
        })
        .collect()
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Ran {
    let out = Command::new(bin()).args(args).env("NO_COLOR", "1").env("COLUMNS", "120").output().expect("run niceeval");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The row that stands for the levels not drawn: "… 19,960 deeper nodes folded".
fn folded_count(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.contains("deeper nodes folded"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "deeper")?;
    words[at - 1].replace(',', "").parse().ok()
}

fn assert_shows_the_chain_folded(what: &str, path: &str) {
    for args in [vec!["show", "--timing", path], vec!["show", "--all", path], vec!["show", "--timing", "--full", path]]
    {
        let r = run(&args);
        assert_eq!(r.code, Some(0), "{what} {args:?}: exit {:?}\n{}", r.code, r.stderr);
        let folded = folded_count(&r.stdout).unwrap_or_else(|| panic!("{what} {args:?}: no fold row:\n{}", r.stdout));
        let drawn = r.stdout.lines().filter(|l| l.contains("step") || l.contains("span")).count();
        assert!(folded > CHAIN - 100 && folded < CHAIN, "{what} {args:?}: {folded} folded");
        assert!(drawn < 100, "{what} {args:?}: {drawn} rows drawn");
    }
    let r = run(&["show", "--json", path]);
    assert_eq!(r.code, Some(0), "{what} show --json: {}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let timing = v["attempts"].as_array().unwrap().iter().map(|a| a["timing"].as_array().map_or(0, Vec::len)).max();
    assert!(timing >= Some(CHAIN), "{what}: show --json lists {timing:?} timing nodes");
}

#[test]
fn a_chain_of_20000_spans_is_shown_with_the_deep_levels_folded() {
    let dir = temp("spans");
    let path = summary_with_spans(&dir, CHAIN, |i| i.checked_sub(1));
    assert_shows_the_chain_folded("spans", path.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_timing_chain_of_20000_intervals_is_shown_with_the_deep_levels_folded() {
    let dir = temp("intervals");
    let project = record_with_intervals(&dir, chained_intervals(CHAIN));
    assert_shows_the_chain_folded("intervals", project.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Timing tab on a 20,000-deep chain: draws, moves, opens and closes rows.
#[test]
fn the_timing_tab_draws_a_deep_chain() {
    use niceeval::app::{App, Focus, Intent, Panel, update};
    use niceeval::ui::{Theme, ThemeName};
    let dir = temp("tab");
    let path = summary_with_spans(&dir, CHAIN, |i| i.checked_sub(1));
    let doc = niceeval::load::load_path(path.to_str().unwrap()).unwrap();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    harness::set_viewport(&mut app, 120, 40);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    update(&mut app, Intent::ShowTab(Panel::Timing));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    let rows = app.timing_rows().len();
    assert!(rows < 100, "{rows} rows");
    let mut seen = String::new();
    update(&mut app, Intent::Bottom);
    seen.push_str(&harness::draw(&mut terminal, &app, &cache));
    update(&mut app, Intent::Top);
    for _ in 0..rows {
        seen.push_str(&harness::draw(&mut terminal, &app, &cache));
        // Enter opens the row's node and Enter closes it again.
        update(&mut app, Intent::Enter);
        update(&mut app, Intent::Enter);
        update(&mut app, Intent::Down);
    }
    assert!(folded_count(&seen).is_some_and(|n| n > CHAIN - 100), "no fold row on screen");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Spans and intervals whose parents loop: the loops are cut and a notice says so.
#[test]
fn timing_parent_loops_are_cut_with_a_notice() {
    let dir = temp("loops");
    // The parent of s1 is s0, of s2 s1, of s0 s2 (a loop); s3 is under s2.
    let path = summary_with_spans(&dir, 4, |i| Some(if i == 0 || i == 3 { 2 } else { i - 1 }));
    let r = run(&["show", "--timing", path.to_str().unwrap()]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("1 timing parent loop cut"), "no loop notice:\n{}", r.stdout);
    for i in 0..4 {
        assert!(r.stdout.contains(&format!("span{i}")), "span{i} lost:\n{}", r.stdout);
    }
    // The Timing tab says so in its title.
    let doc = niceeval::load::load_path(path.to_str().unwrap()).unwrap();
    let mut app = niceeval::app::App::new(doc, None, niceeval::model::usage::builtin_prices());
    harness::set_viewport(&mut app, 120, 30);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
    let cache = niceeval::ui::Theme::new(niceeval::ui::ThemeName::Dark);
    niceeval::app::update(&mut app, niceeval::app::Intent::ShowTab(niceeval::app::Panel::Timing));
    let screen = harness::draw(&mut terminal, &app, &cache);
    assert!(screen.contains("1 parent loop cut"), "the Timing tab does not say a loop was cut:\n{screen}");
    let mut intervals = chained_intervals(3);
    intervals[0]["parentIntervalId"] = "iv2".into();
    let project = record_with_intervals(&dir, intervals);
    let r = run(&["show", "--timing", project.to_str().unwrap()]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("1 timing parent loop cut"), "no loop notice:\n{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
