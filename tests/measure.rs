//! `show --timeline` measures row summaries only as far as their widths can
//! change the layout (`Selection::widest`). Drawn that way or with every
//! summary measured, the text must be the same, to the character.

use niceeval::model::usage::builtin_prices;
use niceeval::plain::layout::{self, Table};
use niceeval::plain::{PlainOptions, SectionKind, Selection};
use niceeval::view::blocks::TurnRows;
use niceeval::view::panel::Panel;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            fixtures(&path, out);
        } else if path.extension().is_some_and(|e| e == "json" || e == "jsonl") {
            out.push(path);
        }
    }
}

fn message(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "text": text})
}

/// Turns of several parts (a part is drawn with its own cells and the
/// widths measured over all of them) written for the purpose: a wide
/// summary first and, parts later, a status wider than its column can stay
/// (so the summary's width matters to the end); a first wide summary late;
/// none.
fn made(dir: &Path) -> Vec<PathBuf> {
    let long = "word ".repeat(60);
    let many = |wide_at: Option<usize>, wide_status_at: Option<usize>| {
        let mut events = Vec::new();
        for i in 0..10_000 {
            if wide_at == Some(i) {
                events.push(message(&long));
            } else if wide_status_at == Some(i) {
                events.push(json!({"type": "operation.started", "operationId": "a",
                    "operation": {"kind": "tool", "name": "lookup", "input": {"path": "src/a.rs"}, "command": {"kind": "not-command"}}}));
                events.push(json!({"type": "operation.finished", "operationId": "a", "kind": "tool",
                    "status": "a_status_nobody_has_heard_of_at_all", "output": "ok"}));
            } else {
                events.push(message(&format!("step {i}")));
            }
        }
        json!({"events": events, "status": "completed"})
    };
    let files = [
        ("wide-status.json", many(Some(0), Some(9_000))),
        ("wide-late.json", many(Some(9_000), None)),
        ("never-wide.json", many(None, None)),
    ];
    files
        .into_iter()
        .map(|(name, value)| {
            let path = dir.join(name);
            std::fs::write(&path, value.to_string()).unwrap();
            path
        })
        .collect()
}

#[test]
fn measuring_summaries_part_way_draws_what_measuring_all_draws() {
    let dir = std::env::temp_dir().join(format!("niceeval-measure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = made(&dir);
    fixtures(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").as_path(), &mut files);
    let prices = builtin_prices();
    let mut compared = 0;
    for path in &files {
        let Ok(doc) = niceeval::load::load_path(path) else { continue };
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        for full in [false, true] {
            // Every summary measured: the selection does not say how wide text is drawn.
            let sel = Selection { full, widest: None, ..Selection::default() };
            let sections = [SectionKind::Of(Panel::Timeline)];
            for (width, boxed) in [(20, false), (47, false), (80, false), (80, true), (200, false), (1000, false)] {
                let opts = PlainOptions { width, boxed, color: false };
                let part_way = niceeval::plain::render(&doc, &views, &findings, &sections, &sel, &opts).text;
                let report = niceeval::view::report::build(&doc, &views, &findings, &sections, &sel);
                let rows = |t: &TurnRows, lend: &mut dyn FnMut(&Table)| {
                    lend(&niceeval::view::report::turn_rows_table(&doc, &views, &findings, &sel, t))
                };
                let all = layout::render(&report.blocks, width, boxed, false, &rows);
                assert_eq!(part_way, all, "{} at width {width}, boxed {boxed}, full {full}", path.display());
                compared += 1;
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(compared > 100, "only {compared} drawings compared");
    println!("{compared} drawings compared");
}
