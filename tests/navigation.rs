//! Where the viewer stays when its document is replaced (the whole file
//! after its preview, a `--watch` / `--follow` reload), driven as the event
//! loop drives it: actions through `update`. And the Diagnostics tab keeps
//! every reason of findings that share a row.

use niceeval::app::sources::{ReloadNote, loaded, reloaded};
use niceeval::app::{App, Focus, Intent, Panel, Prepared, update};
use niceeval::model::usage::PriceTable;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn doc_of(lines: &[String]) -> niceeval::model::document::Document {
    let dir = std::env::temp_dir().join(format!("niceeval-nav-{}-{}", std::process::id(), lines.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    // Read whole into memory: the file is removed and rewritten by the next call.
    let doc = niceeval::load::load_path(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    doc
}

fn message(text: &str) -> String {
    format!(r#"{{"type":"message","role":"assistant","text":"{text}"}}"#)
}

fn call(i: usize) -> [String; 2] {
    [
        format!(
            r#"{{"type":"operation.started","operationId":"op{i}","operation":{{"kind":"tool","name":"Read","input":{{"path":"f{i}"}}}}}}"#
        ),
        format!(
            r#"{{"type":"operation.finished","operationId":"op{i}","kind":"tool","status":"completed","output":"ok"}}"#
        ),
    ]
}

/// The text of the selected timeline row's event.
fn selected_text(app: &App) -> Option<String> {
    let row = app.view()?.timeline.rows.get(app.selected_row()?)?;
    let (addr, e) = (row.addr(), row.event()?);
    let event = app.attempt()?.sessions[addr.session].turns[addr.turn].turn.events.get(e)?;
    Some(event.raw()["text"].as_str().unwrap_or_default().to_string())
}

fn select_event_text(app: &mut App, text: &str) {
    let view = app.view().unwrap();
    let attempt = app.attempt().unwrap();
    let ri = (0..view.timeline.rows.len())
        .find(|&r| {
            let row = &view.timeline.rows[r];
            row.event().is_some_and(|e| {
                attempt.sessions[row.addr().session].turns[row.addr().turn].turn.events[e].raw()["text"] == text
            })
        })
        .expect("the row");
    niceeval::app::update(app, niceeval::app::Action::ShowRow(ri));
}

#[test]
fn the_whole_file_keeps_the_tab_and_the_list_selection_of_its_preview() {
    let calls: Vec<String> = (0..40).flat_map(call).collect();
    let preview = doc_of(&calls[..20]);
    let mut app = App::new(preview, None, PriceTable::default());
    update(&mut app, Intent::ShowTab(Panel::Tools));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    for _ in 0..4 {
        update(&mut app, Intent::Down);
    }
    assert_eq!(app.lists().tools.selected, 4);
    let whole = Prepared::new(doc_of(&calls), None, &PriceTable::default());
    update(&mut app, loaded(whole, 0));
    assert_eq!(app.doc().event_count(), 80, "the whole file is shown");
    assert_eq!(app.tab(), Panel::Tools, "the tab stays");
    assert_eq!(app.focus(), Focus::List);
    assert_eq!(app.lists().tools.selected, 4, "the Tools list keeps its selection");
}

#[test]
fn a_reload_keeps_the_selection_on_the_same_event_when_one_is_inserted_before_it() {
    let before: Vec<String> = ["one", "two", "three", "four"].iter().map(|t| message(t)).collect();
    let mut app = App::new(doc_of(&before), None, PriceTable::default());
    select_event_text(&mut app, "three");
    assert_eq!(selected_text(&app).as_deref(), Some("three"));
    // --watch: an event is inserted before the selected one.
    let after: Vec<String> = ["one", "inserted", "two", "three", "four"].iter().map(|t| message(t)).collect();
    update(&mut app, reloaded(doc_of(&after), ReloadNote::Reloaded));
    assert_eq!(selected_text(&app).as_deref(), Some("three"), "the same event, not the one now at its address");
    // An event appended after it changes nothing; one removed before it moves it back.
    let appended: Vec<String> =
        ["one", "inserted", "two", "three", "four", "five"].iter().map(|t| message(t)).collect();
    update(&mut app, reloaded(doc_of(&appended), ReloadNote::NewEvents));
    assert_eq!(selected_text(&app).as_deref(), Some("three"));
    update(&mut app, reloaded(doc_of(&before), ReloadNote::Reloaded));
    assert_eq!(selected_text(&app).as_deref(), Some("three"));
    // Gone altogether: its address, as before.
    let gone: Vec<String> = ["one", "two", "four", "five"].iter().map(|t| message(t)).collect();
    update(&mut app, reloaded(doc_of(&gone), ReloadNote::Reloaded));
    assert_eq!(selected_text(&app).as_deref(), Some("four"), "the third event of the turn, as addressed");
}

#[test]
fn two_findings_of_one_code_at_one_place_both_say_why() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/hostile/hostile-turn.json");
    let doc = niceeval::load::load_path(path).unwrap();
    let mut app = App::new(doc, None, PriceTable::default());
    update(&mut app, Intent::ShowTab(Panel::Diagnostics));
    let row = app.finding_rows().iter().position(|&(i, _)| app.findings()[i].code == "limit-path-unmatched");
    let (row, n) = (row.expect("the row"), app.finding_rows()[row.unwrap()].1);
    assert_eq!(n, 2, "two findings share the row");
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(row));
    let (w, h) = (200, 60);
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    let text: String = (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n").collect();
    assert!(text.contains("`truncated` path"), "the first reason:\n{text}");
    assert!(text.contains("`redacted` path"), "the second reason, at the same place:\n{text}");
}
