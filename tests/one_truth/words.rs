//! The same fact in the same words: a turn's tool calls (a call finished in
//! a later turn is no orphan), the timeline's size, durations and offsets,
//! costs in JSON, an assertion's title, and a preview's figures.

use super::{samples, screen};
use niceeval::app::{App, Focus, Intent, Panel, Scope, update::update};
use niceeval::model::usage::builtin_prices;
use niceeval::view::format::{count, duration_ms, timeline_counts};
use serde_json::Value;

/// "1 occurrence · 1 call from an earlier turn finished here · 0 orphan
/// finishes", from `show --json`'s tools (where each started and finished).
fn tool_words(a: &Value, turn: u64) -> String {
    let turn_of = |at: &Value| at.as_str().and_then(|s| s.split(':').next()).and_then(|n| n.parse::<u64>().ok());
    let tools = a["tools"].as_array().unwrap();
    let started = tools.iter().filter(|t| turn_of(&t["at"]) == Some(turn)).count();
    let carried =
        tools.iter().filter(|t| turn_of(&t["at"]) != Some(turn) && turn_of(&t["finishedAt"]) == Some(turn)).count();
    let orphans = a["orphanFinishes"].as_array().unwrap().iter().filter(|o| turn_of(&o["at"]) == Some(turn)).count();
    let carried = match carried {
        0 => String::new(),
        1 => " · 1 call from an earlier turn finished here".into(),
        n => format!(" · {n} calls from earlier turns finished here"),
    };
    format!(
        "{}{carried} · {}",
        count(started, "occurrence", "occurrences"),
        count(orphans, "orphan finish", "orphan finishes")
    )
}

#[test]
fn a_turn_counts_its_tool_calls_alike_in_the_inspector_the_tools_tab_and_show() {
    let prices = builtin_prices();
    let (mut turns, mut carried) = (0, 0);
    for path in samples() {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let mut app = App::new(doc.clone(), None, prices.clone());
        for (i, a) in json["attempts"].as_array().unwrap().iter().enumerate().take(10) {
            if a["locator"].is_null() && doc.attempts.len() > 1 {
                continue;
            }
            for (ti, d) in views[i].derived.turns.iter().enumerate().take(12) {
                let number = d.turn_ordinal;
                let want = tool_words(a, number);
                let what = format!("{} attempt {i} turn {number}", path.display());
                // The viewer: the turn scoped, its Tools tab's title; the turn's header row in the inspector.
                niceeval::app::update(
                    &mut app,
                    niceeval::app::Action::Scope(Scope {
                        attempt: i,
                        session: Some(d.addr.session),
                        turn: Some(d.addr.turn),
                    }),
                );
                niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
                update(&mut app, Intent::ShowTab(Panel::Tools));
                let s = screen(&mut app, 400, 30).join("\n");
                assert!(s.contains(&format!("Tools · {want} · filter")), "{what}: the Tools tab does not say {want:?}");
                update(&mut app, Intent::ShowTab(Panel::Timeline));
                niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(0));
                let s = screen(&mut app, 400, 30).join("\n");
                assert!(s.contains(&format!("tools      {want}")), "{what}: the inspector does not say {want:?}\n{s}");
                // show --turn N --tools.
                let sel = niceeval::plain::Selection {
                    locator: a["locator"].as_str().map(str::to_string),
                    turn: Some(niceeval::view::report::TurnSelector::Number(number)),
                    ..Default::default()
                };
                let opts = niceeval::plain::PlainOptions { width: 400, ..Default::default() };
                let sections = [niceeval::plain::SectionKind::Of(Panel::Tools)];
                let text = niceeval::plain::render(&doc, &views, &findings, &sections, &sel, &opts).text;
                assert!(
                    text.lines().any(|l| l.trim_start().starts_with("Tools ") && l.trim_end().ends_with(&want)),
                    "{what}: show --tools does not say {want:?}:\n{text}"
                );
                turns += 1;
                carried += usize::from(want.contains("earlier turn"));
                let _ = ti;
            }
        }
    }
    super::common::report(&format!("tools: {turns} turns counted alike, {carried} finishing an earlier turn's call"));
    assert!(turns >= 20 && carried >= 1, "{turns} turns, {carried} carried");
}

/// The demo's turn 3 finishes the HITL-gated call started at 2:6: no orphan.
#[test]
fn the_demo_call_answered_in_turn_3_is_no_orphan() {
    let doc = niceeval::load::load_path("assets/demo/session.json").unwrap();
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &builtin_prices());
    let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
    let words = tool_words(&json["attempts"][0], 3);
    assert_eq!(words, "0 occurrences · 1 call from an earlier turn finished here · 0 orphan finishes");
}

#[test]
fn the_timeline_has_as_many_rows_in_the_viewer_as_in_show() {
    let prices = builtin_prices();
    let mut files = 0;
    for path in samples() {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        if doc.attempts.len() != 1 {
            continue;
        }
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let a = &json["attempts"][0];
        let turns = a["turns"].as_array().unwrap();
        let rows: usize = turns.iter().map(|t| t["rows"].as_array().unwrap().len()).sum();
        let want = timeline_counts(rows, turns.len());
        let opts = niceeval::plain::PlainOptions { width: 400, ..Default::default() };
        let sections = [niceeval::plain::SectionKind::Of(Panel::Timeline)];
        let text = niceeval::plain::render(&doc, &views, &findings, &sections, &Default::default(), &opts).text;
        let what = path.display();
        assert!(
            text.lines().any(|l| l.trim_start().starts_with("Timeline ") && l.trim_end().ends_with(&want)),
            "{what}: show's timeline is not {want:?}"
        );
        let mut app = App::new(doc.clone(), None, prices.clone());
        update(&mut app, Intent::ShowTab(Panel::Timeline));
        let s = screen(&mut app, 300, 24).join("\n");
        assert!(
            s.contains(&format!("Timeline · {want} · merged")),
            "{what}: the viewer's timeline is not {want:?}\n{s}"
        );
        files += 1;
    }
    super::common::report(&format!("timeline size: {files} files alike"));
    assert!(files >= 10);
}

#[test]
fn numbers_read_alike_counts_offsets_and_costs() {
    // A turn of 1,000 events: the navigator's count is written as show writes it.
    let lines: String =
        (0..1000).map(|i| format!("{{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"m{i}\"}}\n")).collect();
    let doc = niceeval::load::load_bytes("big.jsonl", lines.as_bytes()).unwrap();
    let mut app = App::new(doc, None, builtin_prices());
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    let s = screen(&mut app, 200, 20).join("\n");
    assert!(s.contains("1,000 ev"), "the navigator:\n{s}");
    // A timing node's start and end read as its duration does ("27ms", not "27 ms").
    let Some(shared) = super::common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-sdk/record");
    let doc = niceeval::load::load_path(&record).unwrap();
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &builtin_prices());
    let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
    let mut app = App::new(doc.clone(), None, builtin_prices());
    niceeval::app::update(&mut app, niceeval::app::Action::Scope(Scope { attempt: 0, session: None, turn: None }));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    update(&mut app, Intent::ShowTab(Panel::Timing));
    let nodes = json["attempts"][0]["timing"].as_array().unwrap();
    let at = |k: &str| -> Vec<String> { nodes.iter().filter_map(|n| n[k].as_f64()).map(duration_ms).collect() };
    let (starts, durations) = (at("startOffsetMs"), at("durationMs"));
    for row in 0..nodes.len().min(3) {
        niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(row));
        let s = screen(&mut app, 200, 40).join("\n");
        let says = |key: &str, values: &[String]| {
            s.lines().any(|l| {
                l.split('│').any(|cell| {
                    let mut words = cell.split_whitespace();
                    words.next() == Some(key) && words.next().is_some_and(|v| values.iter().any(|x| x == v))
                })
            })
        };
        assert!(says("start", &starts), "start of row {row}:\n{s}");
        assert!(says("duration", &durations), "duration of row {row}:\n{s}");
    }
    // Costs in JSON carry no float noise (at most the 9 decimals NiceEval can print).
    let compared =
        niceeval::view::compare::Compared::one(niceeval::analysis::build_source(doc, None, &builtin_prices()), &[])
            .unwrap();
    let texts = [
        serde_json::to_string(&niceeval::view::compare::json::document(&compared.view())).unwrap(),
        serde_json::to_string(&json).unwrap(),
    ];
    let mut costs = 0;
    for text in texts {
        let v: Value = serde_json::from_str(&text).unwrap();
        let mut stack = vec![&v];
        while let Some(x) = stack.pop() {
            match x {
                Value::Object(o) => {
                    for (k, v) in o {
                        if (k.ends_with("CostUSD") || k == "costUSD")
                            && let Some(n) = v.as_f64()
                        {
                            costs += 1;
                            let rounded: f64 = format!("{n:.9}").parse().unwrap();
                            assert_eq!(n, rounded, "{k}: {n} carries float noise");
                        }
                        stack.push(v);
                    }
                }
                Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    }
    assert!(costs >= 10, "{costs} costs");
}

/// An assertion has one title: the Assertions tab's row, show --json and the
/// compare split's cell (an unlabelled one by where it is declared).
#[test]
fn an_assertion_has_one_title_everywhere() {
    let Some(shared) = super::common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-sdk/record");
    let prices = builtin_prices();
    let doc = niceeval::load::load_path(&record).unwrap();
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
    let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
    let title_of = |ai: usize, id: &str| -> String {
        let list = json["attempts"][ai]["assertions"].as_array().unwrap();
        list.iter().find(|a| a["id"] == id).unwrap()["title"].as_str().unwrap().to_string()
    };
    let (mut declared, mut rows) = (0, 0);
    let mut app = App::new(doc.clone(), None, prices.clone());
    for (ai, attempt) in doc.attempts.iter().enumerate() {
        let Some(list) = &attempt.review.assertions else { continue };
        niceeval::app::update(&mut app, niceeval::app::Action::Scope(Scope { attempt: ai, session: None, turn: None }));
        niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
        update(&mut app, Intent::ShowTab(Panel::Assertions));
        let s = screen(&mut app, 400, 60).join("\n");
        for a in list {
            let title = title_of(ai, a.entry_id.as_deref().unwrap());
            assert!(!title.starts_with("ae_"), "{title}: an id is no title");
            // The list cuts a long title: its first 30 characters are on screen.
            let head: String = title.chars().take(30).collect();
            assert!(s.contains(&head), "attempt {ai}: the Assertions tab lacks {head:?}");
            declared += usize::from(title.contains(".ts:"));
            rows += 1;
        }
    }
    let compared =
        niceeval::view::compare::Compared::one(niceeval::analysis::build_source(doc, None, &prices), &[]).unwrap();
    let c = compared.view();
    let mut cells = 0;
    for (before, after) in [(0, 1), (1, 2), (3, 4)] {
        let split = niceeval::view::compare::split::Split::new(&c, before, after);
        for (line, pair) in split.assertions.iter().enumerate() {
            for side in 0..2 {
                let ai = split.attempts[side];
                let Some(i) = pair.sides[side] else { continue };
                let a = &c.doc.attempts[ai].review.assertions.as_ref().unwrap()[i];
                let cell = niceeval::view::compare::split::assertion_cell(&c, &split, line, side).as_plain();
                let title = title_of(ai, a.entry_id.as_deref().unwrap());
                assert!(cell.contains(&title), "split {before}/{after} line {line}: {cell:?} lacks {title:?}");
                cells += 1;
            }
        }
    }
    super::common::report(&format!("assertion titles: {rows} rows ({declared} by declaration), {cells} split cells"));
    assert!(declared >= 5 && cells >= 5, "{declared} declared, {cells} cells");
}

/// While a preview is shown, its tokens, costs and counts say they are so far.
#[test]
fn a_preview_header_marks_its_figures_as_so_far() {
    let dir = std::env::temp_dir().join(format!("niceeval-one-truth-preview-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.jsonl");
    let lines: String =
        (0..3000).map(|i| format!("{{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"m{i}\"}}\n")).collect();
    std::fs::write(&path, lines).unwrap();
    let preview = niceeval::load::preview::load_preview(&path, 0, 8192).unwrap();
    let (bytes, total) = (preview.bytes, preview.total);
    let prices = niceeval::model::usage::PriceTable::default();
    let mut app = App::new(preview.doc, None, prices.clone());
    let mut source = niceeval::runtime::background::start(
        &mut app,
        (bytes, total),
        path.display().to_string(),
        None,
        prices,
        std::time::Instant::now(),
    );
    let mark = niceeval::view::header::PREVIEW_MARK;
    let s = screen(&mut app, 300, 24);
    for fact in ["tokens", "cost —", "est —", "0 tool calls"] {
        assert!(s[1].contains(&format!("{fact}{mark}")), "the preview's {fact:?} is not marked:\n{}", s[1]);
    }
    let deadline = std::time::Instant::now() + super::common::HANG_LIMIT;
    while app.loading().is_some() {
        assert!(std::time::Instant::now() < deadline, "the whole load did not finish");
        for action in niceeval::runtime::term::Source::poll(&mut source) {
            update(&mut app, action);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let s = screen(&mut app, 300, 24);
    assert!(!s[1].contains(mark), "the whole file's header is final:\n{}", s[1]);
    assert!(s[1].contains("3,000 events"), "{}", s[1]);
    let _ = std::fs::remove_dir_all(dir);
}

/// A failed → errored pair says "changed" in the matrix row, the pair list
/// and compare --json, as the README says (it is failing on both sides, but
/// not the same).
#[test]
fn a_failed_then_errored_pair_is_changed_everywhere() {
    let Some(sample) = super::common::shared_path("samples/niceeval/generated/exp-json/exp-cli-deliberate-fail.ndjson")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("niceeval-one-truth-errored-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(sample).unwrap();
    assert!(text.contains("\"verdict\":\"failed\""));
    let (before, after) = (dir.join("before.ndjson"), dir.join("after.ndjson"));
    std::fs::write(&before, &text).unwrap();
    std::fs::write(&after, text.replace("\"verdict\":\"failed\"", "\"verdict\":\"errored\"")).unwrap();
    let run = |json: bool| {
        let mut cmd = std::process::Command::new(super::common::bin());
        cmd.arg("compare").arg(&before).arg(&after);
        if json {
            cmd.arg("--json");
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    let doc: Value = serde_json::from_str(&run(true)).unwrap();
    assert_eq!(doc["rows"][0]["change"], "changed");
    assert_eq!(doc["pairs"][0]["change"], "changed");
    let text = run(false);
    let changed = text.lines().filter(|l| l.contains("≠ changed") && l.contains("deliberate-fail/broken")).count();
    assert_eq!(changed, 2, "the row and the pair:\n{text}");
    assert!(!text.contains("still failing"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}
