//! Raw loads (what a file of 4 MB or more gets: each event kept as its text
//! in the file, read where it is) must show exactly what plain loads show,
//! and deriving must never need an event parsed whole. Every JSON input the
//! project and ../shared hold is loaded both ways and the two are compared:
//! events, derived JSON (the conformance contract), the full plain report
//! (lint findings, timeline, tools, HITL, assertions) and the rows and
//! searches of the viewer.

mod common;

use niceeval::app::App;
use niceeval::load::{load_bytes, load_bytes_lazy};
use niceeval::model::usage::PriceTable;
use niceeval::model::{Document, derive_document};
use niceeval::plain::PlainOptions;
use niceeval::view::notice::words;
use std::path::{Path, PathBuf};

fn files_ending(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_ending(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// The project's fixtures and ../shared's samples ending in `.ext`.
fn inputs_ending(ext: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_ending(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").as_path(), ext, &mut files);
    if let Some(shared) = common::shared_dir() {
        files_ending(&shared.join("samples"), ext, &mut files);
    }
    files.sort();
    files
}

fn inputs() -> Vec<PathBuf> {
    inputs_ending("json")
}

fn events(doc: &Document) -> impl Iterator<Item = &niceeval::model::Event> {
    doc.attempts.iter().flat_map(|a| &a.sessions).flat_map(|s| &s.turns).flat_map(|t| &t.turn.events)
}

/// Compare a lazy load with the plain one; returns how many events were lazy.
fn compare(name: &str, plain: &Document, lazy: &Document) -> usize {
    let prices = PriceTable::default();
    let (pd, ld) = (derive_document(plain, None, &prices), derive_document(lazy, None, &prices));
    let (pf, lf) = (niceeval::model::lint::lint_document(plain, &pd), niceeval::model::lint::lint_document(lazy, &ld));
    assert_eq!(format!("{pf:?}"), format!("{lf:?}"), "{name}: lint findings");
    let lazy_events = events(lazy).filter(|e| e.json().is_raw()).count();
    assert!(!events(lazy).any(|e| e.parsed_whole()), "{name}: deriving and linting parsed an event whole");
    // The viewer's rows (what the timeline shows and the search reads).
    let (pa, la) = (App::new(plain.clone(), None, PriceTable::default()), App::new(lazy.clone(), None, prices.clone()));
    assert!(!events(la.doc()).any(|e| e.parsed_whole()), "{name}: building the views parsed an event whole");
    for (a, (pv, lv)) in pa.views().iter().zip(la.views()).enumerate() {
        for (ri, row) in pv.timeline.rows.iter().enumerate() {
            let p = niceeval::view::timeline::row_view(&pa.doc().attempts[a], pv, ri);
            let l = niceeval::view::timeline::row_view(&la.doc().attempts[a], lv, ri);
            assert_eq!(p, l, "{name}: row {:?} of attempt {a}", row.addr());
        }
    }
    assert!(!events(la.doc()).any(|e| e.parsed_whole()), "{name}: the rows parsed an event whole");
    for (a, (pa, la)) in plain.attempts.iter().zip(&lazy.attempts).enumerate() {
        assert_eq!(pd[a].to_json(pa), ld[a].to_json(la), "{name}: derived JSON of attempt {a}");
    }
    let opts = PlainOptions { width: 120, ..Default::default() };
    let full = niceeval::plain::Selection { full: true, ..Default::default() };
    let all = niceeval::plain::SectionKind::ALL;
    let (pv, pf) = niceeval::analysis::build_views(plain, None, &prices);
    let (lv, lf) = niceeval::analysis::build_views(lazy, None, &prices);
    let report =
        |doc, views: &[_], findings: &[_]| niceeval::plain::render(doc, views, findings, &all, &full, &opts).text;
    assert_eq!(report(plain, &pv, &pf), report(lazy, &lv, &lf), "{name}: plain report");
    let pe: Vec<_> = events(plain).collect();
    let le: Vec<_> = events(lazy).collect();
    assert_eq!(pe.len(), le.len(), "{name}: event count");
    for (i, (p, l)) in pe.iter().zip(&le).enumerate() {
        assert_eq!(p.kind, l.kind, "{name}: kind of event {i}");
        assert_eq!(p.text(), l.text(), "{name}: text of event {i}");
        assert_eq!(p.output(), l.output(), "{name}: output of event {i}");
        assert_eq!(p.tool_input(), l.tool_input(), "{name}: input of event {i}");
        assert_eq!(p.raw(), l.raw(), "{name}: JSON of event {i}");
        assert_eq!(p.raw().to_string(), l.raw().to_string(), "{name}: key order and numbers of event {i}");
    }
    lazy_events
}

#[test]
fn lazy_loads_show_what_plain_loads_show() {
    let files = inputs();
    assert!(files.len() > 20, "inputs found: {}", files.len());
    let (mut compared, mut lazy_events) = (0usize, 0usize);
    for path in &files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let plain = load_bytes(&name, &bytes);
        // Containers split down to the events, and (64) split by size as well.
        for split_at_least in [usize::MAX, 64] {
            let lazy = load_bytes_lazy(&name, bytes.clone(), split_at_least);
            match (&plain, &lazy) {
                (Ok(p), Ok(l)) => {
                    lazy_events += compare(&name, p, l);
                    compared += 1;
                }
                (Err(p), Err(l)) => assert_eq!(p.to_string(), l.to_string(), "{name}: the error"),
                (p, l) => panic!("{name}: plain {:?}, lazy {:?}", p.as_ref().err(), l.as_ref().err()),
            }
        }
    }
    common::report(&format!("lazy loads: {compared} compared with plain loads, {lazy_events} lazy events"));
    assert!(lazy_events > 100, "the inputs exercise lazy events: {lazy_events}");
}

/// JSONL streams of StreamEvents: the same comparison, line by line.
#[test]
fn lazy_jsonl_streams_show_what_plain_loads_show() {
    let (mut compared, mut lazy_events) = (0usize, 0usize);
    for path in inputs_ending("jsonl") {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let plain = load_bytes(&name, &bytes);
        let Some(lazy) = niceeval::load::load_jsonl_bytes_lazy(&name, bytes.clone()) else { continue };
        match (&plain, &lazy) {
            (Ok(p), Ok(l)) => {
                assert_eq!(p.notices, l.notices, "{name}: notices (bad lines, old vocabulary)");
                lazy_events += compare(&name, p, l);
                compared += 1;
            }
            (Err(p), Err(l)) => assert_eq!(p.to_string(), l.to_string(), "{name}: the error"),
            (p, l) => panic!("{name}: plain {:?}, lazy {:?}", p.as_ref().err(), l.as_ref().err()),
        }
    }
    // And a stream with what a line reader must get right: a BOM, CRLF,
    // blank and bad lines, the old vocabulary, no newline at the end; long
    // enough to be read in several pieces, bad lines in more than one.
    let long = "y\\n".repeat(300);
    let mut stream = String::from("\u{feff}");
    for i in 0..1600 {
        stream.push_str(&format!(
            r#"{{"type":"operation.started","operationId":"t{i}","operation":{{"kind":"tool","name":"Bash","input":{{"command":"ls","description":"{long}"}}}}}}"#
        ));
        stream.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
        stream.push_str(&format!(
            r#"{{"type":"operation.finished","operationId":"t{i}","kind":"tool","status":"completed","output":"{long}{i}"}}"#
        ));
        stream.push_str("\n\n");
        if i % 500 == 7 {
            stream.push_str("{\"type\": \"message\", oops}\n");
            stream.push_str(&format!(
                r#"{{"type":"action.called","callId":"c","name":"Read","input":{{"p":"{long}"}}}}"#
            ));
            stream.push('\n');
        }
    }
    stream.push_str(&format!(r#"{{"type":"message","role":"assistant","text":"{long}"}}"#));
    assert!(stream.len() > 3 << 20, "{} bytes: several pieces", stream.len());
    let name = "made.jsonl";
    let plain = load_bytes(name, stream.as_bytes()).unwrap();
    let lazy = niceeval::load::load_jsonl_bytes_lazy(name, stream.clone().into_bytes()).unwrap().unwrap();
    assert_eq!(plain.notices, lazy.notices, "bad line and old vocabulary notices");
    let made = compare(name, &plain, &lazy);
    assert!(made >= 60, "{made} lazy events in the made stream");
    common::report(&format!("lazy JSONL: {compared} streams compared with plain loads, {lazy_events} lazy events"));
    assert!(compared >= 3 && lazy_events > 5, "the inputs exercise lazy JSONL: {compared} streams, {lazy_events}");
}

/// Lines a lazy JSONL load must treat exactly as the plain one: cut short
/// after a key (a writer stopped mid-line), a valid event followed by other
/// text, a form feed around an event (not JSON whitespace). None of them may
/// make the load give up its lazy events or panic.
#[test]
fn bad_lines_of_a_lazy_jsonl_stream_are_reported_as_in_a_plain_load() {
    let long = "z".repeat(700);
    let event = |i: usize| format!(r#"{{"type":"message","role":"assistant","text":"{long} {i}"}}"#);
    let mut stream = String::new();
    for i in 0..10 {
        stream.push_str(&event(i));
        stream.push('\n');
    }
    stream.push_str("{\"type\":\"thinking\",\"text\": \n");
    stream.push_str(&format!("{} x\n", event(10)));
    stream.push_str(&format!("{}\u{c}\n", event(11)));
    stream.push_str(&format!("\u{c}{}\n", event(12)));
    stream.push_str(&format!("{}\n", event(13)));
    stream.push_str(r#"{"type":"message","role":"assistant","text":"#);
    let plain = load_bytes("bad.jsonl", stream.as_bytes()).unwrap();
    let lazy = niceeval::load::load_jsonl_bytes_lazy("bad.jsonl", stream.clone().into_bytes())
        .expect("the lazy load keeps its events")
        .unwrap();
    let notices = |d: &niceeval::model::Document| d.all_notices().cloned().collect::<Vec<_>>();
    assert_eq!(notices(&plain), notices(&lazy));
    assert!(plain.all_notices().filter(|n| words(n).contains("line")).count() >= 5, "{:?}", notices(&plain));
    assert!(compare("bad.jsonl", &plain, &lazy) == 11, "the eleven good events are lazy");
}

/// The viewer over a lazy document: building the views and drawing does not
/// parse events whole (only the one the inspector shows), and searching
/// finds text that only the file holds.
#[test]
fn the_viewer_reads_lazy_events_without_parsing_them_all() {
    let long = "x".repeat(600);
    let mut events = Vec::new();
    for i in 0..40 {
        events.push(serde_json::json!({"type": "operation.started", "operationId": format!("t{i}"),
            "operation": {"kind": "tool", "name": "Write", "input": {"file_path": format!("f{i}.rs"), "content": format!("{long} needle-{i}")}}}));
        events.push(serde_json::json!({"type": "operation.finished", "operationId": format!("t{i}"), "kind": "tool",
            "status": "completed", "output": format!("{long} out-{i}\n")}));
        events.push(serde_json::json!({"type": "message", "role": "assistant", "text": format!("{long} reply-{i}")}));
    }
    let turn = serde_json::json!({"events": events, "status": "completed"});
    let bytes = serde_json::to_vec(&turn).unwrap();
    let doc = load_bytes_lazy("t.json", bytes, usize::MAX).unwrap();
    let lazy = doc.attempts[0].sessions[0].turns[0].turn.events.iter().filter(|e| e.json().is_raw()).count();
    assert_eq!(lazy, 120, "every event is kept as its text");
    let mut app = App::new(doc, None, PriceTable::default());
    let backend = ratatui::backend::TestBackend::new(160, 50);
    let mut terminal = ratatui::Terminal::new(backend).unwrap();
    let cache = niceeval::ui::Theme::new(niceeval::ui::ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let whole =
        |app: &App| app.doc().attempts[0].sessions[0].turns[0].turn.events.iter().filter(|e| e.parsed_whole()).count();
    assert!(whole(&app) <= 1, "drawing parsed {} events whole", whole(&app));
    let screen = format!("{:?}", terminal.backend().buffer());
    assert!(screen.contains("f0.rs"), "the first tool call's input path is shown");
    // `/needle-37` and Enter, as typed.
    niceeval::app::update(&mut app, niceeval::app::Intent::SearchStart);
    for c in "needle-37".chars() {
        niceeval::app::update(&mut app, niceeval::app::Action::SearchChar(c));
    }
    niceeval::app::update(&mut app, niceeval::app::Intent::SearchCommit);
    while app.search_pending() {
        niceeval::app::update(&mut app, niceeval::app::Action::SearchStep);
    }
    assert_eq!(app.search().matches.len(), 1, "a string left in the file is searched");
    assert!(whole(&app) <= 1, "searching parsed events whole");
}

/// A long `events` array is parsed in many batches on several threads while
/// it is scanned: the events come back in order, and an event that does not
/// parse, deep in the array, is reported where a plain load reports it.
#[test]
fn batches_parsed_during_the_scan_keep_their_order_and_report_bad_events() {
    let event = |i: usize| {
        if i.is_multiple_of(2) {
            format!(
                r#"{{"type":"operation.started","operationId":"op{i}","operation":{{"kind":"tool","name":"Read","tool":"file_read","input":{{"path":"f{i}"}}}}}}"#
            )
        } else {
            format!(
                r#"{{"type":"operation.finished","operationId":"op{}","kind":"tool","status":"completed","output":"o{i}"}}"#,
                i - 1
            )
        }
    };
    let events: Vec<String> = (0..3000).map(event).collect();
    let turn = |events: &[String]| format!(r#"{{"status":"completed","events":[{}]}}"#, events.join(","));
    let good = turn(&events).into_bytes();
    let plain = load_bytes("many.json", &good).unwrap();
    let lazy = load_bytes_lazy("many.json", good.clone(), 64).unwrap();
    assert_eq!(compare("many.json", &plain, &lazy), 3000, "every event raw");
    let mut bad = events.clone();
    bad[2501] = r#"{"type":"thinking","text":tru}"#.to_string();
    let bad = turn(&bad).into_bytes();
    let plain = load_bytes("bad.json", &bad).map(drop).unwrap_err().to_string();
    let lazy = load_bytes_lazy("bad.json", bad, 64).map(drop).unwrap_err().to_string();
    assert_eq!(plain, lazy);
    assert!(plain.contains("bad.json"), "{plain}");
}
