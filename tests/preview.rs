//! A large file opens on a preview of its start while the whole file loads
//! on another thread; the preview is then replaced, keeping the selection.

use niceeval::app::App;
use niceeval::load::parse::prefix::close_prefix;
use niceeval::load::preview::load_preview;
use niceeval::model::usage::PriceTable;
use niceeval::runtime::term::Source;
use niceeval::view::notice::words;
use std::path::Path;
use std::time::{Duration, Instant};

fn stream(lines: usize) -> String {
    (1..=lines).map(|i| format!("{{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"event {i}\"}}\n")).collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-preview-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn texts(doc: &niceeval::model::document::Document) -> Vec<String> {
    doc.attempts[0].sessions[0].turns[0]
        .turn
        .events
        .iter()
        .map(|e| e.raw()["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_jsonl_preview_is_the_whole_lines_of_its_first_bytes() {
    let dir = tempdir("jsonl");
    let text = stream(1000);
    let path = write(&dir, "s.jsonl", &text);
    let preview = load_preview(&path, 0, 4096).expect("a preview");
    assert!(preview.bytes <= 4096 && preview.bytes > 3000, "{}", preview.bytes);
    assert_eq!(text.as_bytes()[preview.bytes as usize - 1], b'\n', "cut at a line end");
    assert_eq!(preview.total, text.len() as u64);
    let shown = texts(&preview.doc);
    let whole = texts(&niceeval::load::load_path(&path).unwrap());
    assert!(shown.len() < whole.len());
    assert_eq!(shown[..], whole[..shown.len()], "the preview is a prefix of the whole stream");
    assert!(preview.doc.attempts[0].sessions[0].turns[0].turn.events.iter().all(|e| e.json().is_raw()));
    let notice = &words(&preview.doc.notices[0]);
    assert!(notice.contains("preview of the first") && notice.ends_with("the rest is loading"), "{notice}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_json_document_preview_holds_its_first_whole_turns() {
    let dir = tempdir("json");
    let demo = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/session.json")).unwrap();
    let path = write(&dir, "s.json", std::str::from_utf8(&demo).unwrap());
    let whole = niceeval::load::load_path(&path).unwrap();
    let budget = demo.len() * 2 / 3;
    let preview = load_preview(&path, 0, budget).expect("a preview");
    assert_eq!(preview.doc.format, whole.format);
    let turns = |d: &niceeval::model::document::Document| -> usize {
        d.attempts[0].sessions.iter().map(|s| s.turns.len()).sum()
    };
    assert!(turns(&preview.doc) >= 1 && turns(&preview.doc) <= turns(&whole));
    assert!(preview.doc.event_count() < whole.event_count());
    // Its events are raw, as in the whole load: parsed ones cost several times their text.
    let events = preview.doc.attempts[0].sessions.iter().flat_map(|s| &s.turns).flat_map(|t| &t.turn.events);
    assert!(events.clone().count() > 0 && events.clone().all(|e| e.json().is_raw()));
    // Every event the preview shows is the whole file's event at that place.
    for (ps, ws) in preview.doc.attempts[0].sessions.iter().zip(&whole.attempts[0].sessions) {
        for (pt, wt) in ps.turns.iter().zip(&ws.turns) {
            for (pe, we) in pt.turn.events.iter().zip(&wt.turn.events) {
                assert_eq!(pe.raw(), we.raw());
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn small_files_and_directories_get_no_preview() {
    let dir = tempdir("small");
    let path = write(&dir, "s.jsonl", &stream(10));
    assert!(load_preview(&path, 1 << 20, 4096).is_none(), "below the threshold");
    assert!(load_preview(&dir, 0, 4096).is_none(), "a directory");
    assert!(load_preview("/nonexistent/file.json", 0, 4096).is_none());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_prefix_that_never_closes_anything_gives_no_preview() {
    assert!(close_prefix(br#"{"sessions":[{"turns":[{"events":[{"type":"mess"#).is_none());
}

/// Poll the background source like the event loop does, until it is done.
fn poll_until_loaded(app: &mut App, source: &mut dyn Source) {
    // A hang, not a slow load: speed is in BENCHMARKS.md.
    let deadline = Instant::now() + Duration::from_secs(180);
    while app.loading().is_some() {
        assert!(Instant::now() < deadline, "the background load did not finish");
        for action in source.poll() {
            niceeval::app::update(app, action);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_whole_file_replaces_the_preview_and_keeps_the_selection() {
    let dir = tempdir("install");
    let path = write(&dir, "s.jsonl", &stream(5000));
    let preview = load_preview(&path, 0, 8192).unwrap();
    let preview_events = preview.doc.event_count();
    let (bytes, total) = (preview.bytes, preview.total);
    let mut app = App::new(preview.doc, None, PriceTable::default());
    let generation = app.generation();
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(7));
    let before = app.selected_row().and_then(|r| app.view().unwrap().timeline.rows.get(r).map(|row| row.event()));
    let mut source = niceeval::runtime::background::start(
        &mut app,
        (bytes, total),
        path,
        None,
        PriceTable::default(),
        Instant::now(),
    );
    assert!(app.loading().is_some(), "the header says the file is still loading");
    poll_until_loaded(&mut app, &mut source);
    assert_eq!(app.doc().event_count(), 5000);
    assert!(preview_events < 5000);
    assert!(app.generation() > generation, "render caches start over");
    let after = app.selected_row().and_then(|r| app.view().unwrap().timeline.rows.get(r).map(|row| row.event()));
    assert_eq!(before, after, "the same event stays selected");
    let flash = app.flash_text().unwrap();
    assert!(!app.flash().unwrap().is_error(), "{flash}");
    assert!(flash.starts_with("loaded all") && flash.contains("5,000 events"), "{flash}");
    assert!(!app.doc().notices.iter().any(|n| words(n).contains("preview")), "the preview notice is gone");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_failed_whole_load_keeps_the_preview_and_says_so() {
    let dir = tempdir("fail");
    let path = write(&dir, "s.jsonl", &stream(500));
    let preview = load_preview(&path, 0, 2048).unwrap();
    let (bytes, total) = (preview.bytes, preview.total);
    let events = preview.doc.event_count();
    let mut app = App::new(preview.doc, None, PriceTable::default());
    std::fs::remove_file(&path).unwrap();
    let mut source = niceeval::runtime::background::start(
        &mut app,
        (bytes, total),
        path,
        None,
        PriceTable::default(),
        Instant::now(),
    );
    poll_until_loaded(&mut app, &mut source);
    assert_eq!(app.doc().event_count(), events, "the preview stays");
    assert!(app.flash().is_some_and(|f| f.is_error()));
    assert!(app.flash_text().is_some_and(|f| f.contains("preview only")));
    let notice = &app.doc().notices[0];
    assert!(words(notice).contains("loading the whole file failed"), "{}", words(notice));
    assert!(!words(notice).contains("the rest is loading"));
    // Once the flash is gone the header still says that only the preview is shown.
    // Any key clears it: Ctrl-l (redraw).
    niceeval::app::update(&mut app, niceeval::app::Intent::Redraw);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(160, 30)).unwrap();
    let cache = niceeval::ui::Theme::new(niceeval::ui::ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let top: String = (0..160).map(|x| terminal.backend().buffer()[(x, 0)].symbol().to_string()).collect();
    assert!(top.contains("⚠ preview only: the first") && top.contains("could not be read"), "{top}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Every event of every turn, as JSON text, in document order.
fn all_events(doc: &niceeval::model::document::Document) -> Vec<String> {
    doc.attempts
        .iter()
        .flat_map(|a| &a.sessions)
        .flat_map(|s| &s.turns)
        .flat_map(|t| &t.turn.events)
        .map(|e| e.raw().to_string())
        .collect()
}

#[test]
fn a_large_json_document_parsed_in_pieces_loads_the_same_as_a_whole_parse() {
    let dir = tempdir("split");
    let demo: serde_json::Value = serde_json::from_slice(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/session.json")).unwrap(),
    )
    .unwrap();
    // Past the 8 MB split threshold: the demo's sessions many times over, with
    // a large payload, numbers as written and escapes.
    let mut doc = demo.clone();
    let sessions = doc["sessions"].as_array_mut().unwrap();
    let template = sessions.clone();
    let filler = "line with \"quotes\" and ]} brackets\n".repeat(2000);
    for i in 0..120 {
        for s in &template {
            let mut s = s.clone();
            s["sessionId"] = serde_json::json!(format!("copy-{i}"));
            s["note"] = serde_json::json!(filler);
            sessions.push(s);
        }
    }
    let text = doc.to_string().replace("\"note\":", "\"ratio\":1.50,\"note\":");
    assert!(text.len() > 9 << 20, "{} bytes", text.len());
    let path = write(&dir, "big.json", &text);
    let pieces = niceeval::load::load_path(&path).unwrap();
    let whole = niceeval::load::load_bytes(&path, text.as_bytes()).unwrap();
    assert_eq!(pieces.format, whole.format);
    assert_eq!(all_events(&pieces), all_events(&whole));
    assert_eq!(
        pieces.notices.iter().map(words).collect::<Vec<_>>(),
        whole.notices.iter().map(words).collect::<Vec<_>>()
    );
    let sessions = |d: &niceeval::model::document::Document| -> Vec<usize> {
        d.attempts.iter().map(|a| a.sessions.len()).collect()
    };
    assert_eq!(sessions(&pieces), sessions(&whole));
    // A syntax error deep inside still names its line and column (the whole parse reports it).
    let broken = text.replacen("\"ratio\":1.50", "\"ratio\":1.5.0", 1);
    let path = write(&dir, "broken.json", &broken);
    let err = niceeval::load::load_path(&path).unwrap_err().to_string();
    let want = niceeval::load::load_bytes(&path, broken.as_bytes()).unwrap_err().to_string();
    assert_eq!(err, want);
    assert!(err.contains("big.json") || err.contains("broken.json"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_document_cut_inside_an_escape_is_a_positioned_error_not_a_crash() {
    let dir = tempdir("escape");
    // Mapped (4 MB and more) and cut mid-write right after a backslash.
    let text = format!("{{\"pad\":\"{}\",\"b\":\"xyz\\", "x".repeat(5 << 20));
    let path = write(&dir, "cut.json", &text);
    let err = niceeval::load::load_path(&path).unwrap_err().to_string();
    assert!(err.contains("cut.json:1:"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn attempts_the_whole_file_adds_to_a_preview_are_listed_collapsed() {
    let dir = tempdir("attempts");
    let result = |id: &str, verdict: &str| {
        format!(
            r#"{{"id":"{id}","verdict":"{verdict}","events":[{{"type":"message","role":"user","text":"go","loc":{{"line":1}}}},{{"type":"message","role":"assistant","text":"{id} done"}}]}}"#
        )
    };
    let one = write(&dir, "one.json", &format!(r#"{{"results":[{}]}}"#, result("e1", "passed")));
    let three = write(
        &dir,
        "three.json",
        &format!(r#"{{"results":[{},{},{}]}}"#, result("e1", "passed"), result("e2", "failed"), result("e3", "failed")),
    );
    let preview = niceeval::load::load_path(&one).unwrap();
    let mut app = App::new(preview, None, PriceTable::default());
    assert_eq!(app.scope().attempt, 0);
    let reload = niceeval::app::sources::ReloadNote::NewEvents;
    niceeval::app::update(
        &mut app,
        niceeval::app::sources::reloaded(niceeval::load::load_path(&three).unwrap(), reload),
    );
    let attempt_rows: Vec<usize> =
        app.nav().iter().filter(|n| n.scope.session.is_none()).map(|n| n.scope.attempt).collect();
    assert_eq!(attempt_rows, vec![1, 2, 0], "failed attempts first, every attempt listed");
    let open: Vec<usize> = app.nav().iter().filter(|n| n.scope.session.is_some()).map(|n| n.scope.attempt).collect();
    assert!(!open.is_empty() && open.iter().all(|&a| a == 0), "only the attempt being read is open: {open:?}");
    assert_eq!(app.scope().attempt, 0, "the reader stays on the attempt they were reading");

    // A preview that already held two attempts (listed collapsed): the new ones come collapsed too.
    let two =
        write(&dir, "two.json", &format!(r#"{{"results":[{},{}]}}"#, result("e1", "passed"), result("e2", "failed")));
    let four = write(
        &dir,
        "four.json",
        &format!(
            r#"{{"results":[{},{},{},{}]}}"#,
            result("e1", "passed"),
            result("e2", "failed"),
            result("e3", "failed"),
            result("e4", "passed")
        ),
    );
    let mut app = App::new(niceeval::load::load_path(&two).unwrap(), None, PriceTable::default());
    let reload = niceeval::app::sources::ReloadNote::NewEvents;
    niceeval::app::update(
        &mut app,
        niceeval::app::sources::reloaded(niceeval::load::load_path(&four).unwrap(), reload),
    );
    let open: Vec<usize> = app.nav().iter().filter(|n| n.scope.session.is_some()).map(|n| n.scope.attempt).collect();
    assert!(open.is_empty(), "new attempts listed expanded: {open:?}");
    assert_eq!(app.nav().len(), 4, "the four attempts");
    let _ = std::fs::remove_dir_all(&dir);
}
