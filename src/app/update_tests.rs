use super::*;
use crate::model::timeline::RowKind;
use crate::model::usage::PriceTable;
use serde_json::Value;
use serde_json::json;

fn app(v: Value) -> App {
    let doc = crate::load::load_bytes("t.json", v.to_string().as_bytes()).unwrap();
    App::new(doc, None, PriceTable::default())
}

fn two_turns() -> App {
    app(json!({"sessions":[{"sessionIndex":1,"turns":[
        {"input":{"text":"go"},"turn":{"status":"waiting","events":[
            {"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"rm","input":{}}},
            {"type":"input.requested","request":{"id":"r1","prompt":"Delete?","options":[{"id":"approve"},{"id":"deny"}]}}]}},
        {"input":{"text":"approve","responses":[{"requestId":"r1","optionId":"approve"}]},"turn":{"status":"completed","events":[
            {"type":"operation.finished","operationId":"c1","kind":"tool","status":"failed","output":"boom"},
            {"type":"error","message":"it broke"}]}}]}]}))
}

#[test]
fn movement_clamps_at_both_ends() {
    let mut a = two_turns();
    update(&mut a, Intent::Up);
    assert_eq!(a.lists.timeline.selected, 0);
    update(&mut a, Intent::Bottom);
    assert_eq!(a.lists.timeline.selected, a.visible().len() - 1);
    update(&mut a, Intent::Down);
    assert_eq!(a.lists.timeline.selected, a.visible().len() - 1);
}

#[test]
fn turn_jumps_land_on_headers() {
    let mut a = two_turns();
    update(&mut a, Intent::NextTurn);
    let view = a.view().unwrap();
    let row = &view.timeline.rows[a.selected_row().unwrap()];
    assert_eq!(row.kind, RowKind::TurnHeader);
    assert_eq!(row.addr().turn, 1);
}

#[test]
fn failure_jump_finds_failed_tool_and_error() {
    let mut a = two_turns();
    update(&mut a, Intent::NextFailure);
    let first = a.selected_row().unwrap();
    let view = a.view().unwrap();
    assert!(view.timeline.rows[first].is_failure());
    update(&mut a, Intent::NextFailure);
    let second = a.selected_row().unwrap();
    assert_ne!(first, second);
}

#[test]
fn search_is_case_insensitive_and_cycles() {
    let mut a = two_turns();
    update(&mut a, Intent::SearchStart);
    for c in "BOOM".to_lowercase().chars() {
        update(&mut a, Action::SearchChar(c));
    }
    update(&mut a, Intent::SearchCommit);
    assert_eq!(a.mode, Mode::Normal);
    assert!(!a.search.matches.is_empty());
    let at = a.selected_row().unwrap();
    assert!(a.search.matches.contains(&at));
    update(&mut a, Intent::Back);
    assert!(a.search.query.is_none());
}

#[test]
fn help_opens_and_closes() {
    let mut a = two_turns();
    update(&mut a, Intent::Help);
    assert_eq!(a.mode, Mode::Help);
    update(&mut a, Intent::Back);
    assert_eq!(a.mode, Mode::Normal);
    update(&mut a, Intent::Quit);
    assert!(a.should_quit);
}

#[test]
fn nav_selection_scopes_the_timeline() {
    let mut a = two_turns();
    let all = a.visible().len();
    a.focus = Focus::Nav;
    update(&mut a, Intent::Bottom);
    assert_eq!(a.scope.turn, Some(1));
    assert!(a.visible().len() < all);
    update(&mut a, Intent::Back);
    assert_eq!(a.scope.turn, None);
}

#[test]
fn mouse_click_selects_the_row_under_the_pointer() {
    let mut a = two_turns();
    a.viewport = crate::app::Viewport { width: 140, height: 40, list_rows: 33, inspector_rows: 33, nav_rows: 33 };
    let areas = crate::app::layout::areas(140, 40, &a);
    // Third content row of the timeline panel.
    update(&mut a, Action::ClickAt { column: areas.list.x + 3, row: areas.list.y + 3 });
    assert_eq!(a.focus, Focus::List);
    assert_eq!(a.lists.timeline.selected, 2);
    update(&mut a, Action::ScrollAt { column: areas.list.x + 3, row: areas.list.y + 3, down: true });
    assert_eq!(a.lists.timeline.selected, 5);
    update(&mut a, Action::ClickAt { column: areas.tab_spans[2].0 + 1, row: areas.tabs.y });
    assert_eq!(a.tab, Panel::Hitl);
}

#[test]
fn waiting_jump_and_copy() {
    let mut a =
        app(json!({"events":[{"type":"input.requested","request":{"id":"r","prompt":"ok?"}}],"status":"waiting"}));
    update(&mut a, Intent::NextWaiting);
    let row = a.selected_row().unwrap();
    assert_eq!(a.view().unwrap().timeline.rows[row].kind, RowKind::InputRequest);
    update(&mut a, Intent::ToggleRaw);
    let effects = update(&mut a, Intent::Copy);
    assert!(matches!(effects.last(), Some(Effect::Copy(t)) if t.contains("ok?")));
}

#[test]
fn documents_from_sources_arrive_as_actions() {
    let mut a = two_turns();
    update(&mut a, Intent::Down);
    a.say(crate::view::note::Note::Reloaded);
    // Progress is not a key: the flash stays.
    update(&mut a, Action::LoadProgress { bytes: 1, lines: 1, building: false, elapsed_ms: 5 });
    assert_eq!(a.flash_text().as_deref(), Some("reloaded"));
    let before = a.doc.event_count();
    let grown = crate::load::load_bytes(
        "t.json",
        json!({"events":[{"type":"message","role":"assistant","text":"a"},{"type":"message","role":"assistant","text":"b"},
            {"type":"message","role":"assistant","text":"c"},{"type":"message","role":"assistant","text":"d"},
            {"type":"message","role":"assistant","text":"e"}],"status":"completed"})
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    let action = super::super::sources::reloaded(grown, super::super::sources::ReloadNote::NewEvents);
    update(&mut a, action.clone());
    assert_eq!(a.doc.event_count(), 5);
    assert_eq!(a.flash_text(), Some(format!("+{}", crate::view::format::count(5 - before.min(5), "event", "events"))));
    // The same action applied again finds its document already taken.
    update(&mut a, action);
    assert_eq!(a.doc.event_count(), 5);
    update(&mut a, Action::SourceSays(crate::view::note::Note::Disappeared("t.json".into())));
    assert!(a.flash.as_ref().is_some_and(|f| f.is_error()));
    assert_eq!(a.flash_text().as_deref(), Some("t.json disappeared; keeping the last good view"));
}

#[test]
fn a_followed_file_that_gains_a_bad_line_says_so_and_counts_it() {
    let first = "{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"a\"}\n";
    let mut a = App::new(crate::load::load_bytes("f.jsonl", first.as_bytes()).unwrap(), None, PriceTable::default());
    assert_eq!(a.finding_counts().0, 0);
    let grown = format!("{first}not json\n{first}");
    let doc = crate::load::load_bytes("f.jsonl", grown.as_bytes()).unwrap();
    update(&mut a, super::super::sources::reloaded(doc, super::super::sources::ReloadNote::NewEvents));
    let text = a.flash_text().unwrap();
    assert!(a.flash.as_ref().unwrap().is_error(), "{text}");
    assert!(text.starts_with("+1 event · line 2 skipped: an input-line-skipped error (Diagnostics, 6) — "), "{text}");
    // The header and the Diagnostics list count it, as check does.
    assert_eq!(a.finding_counts().0, 1);
    let codes: Vec<&str> = a.scoped_findings().map(|i| a.findings[i].code).collect();
    assert_eq!(codes, ["input-line-skipped"]);
    // The same line skipped again on the next reload is not news.
    let doc = crate::load::load_bytes("f.jsonl", format!("{grown}{first}").as_bytes()).unwrap();
    update(&mut a, super::super::sources::reloaded(doc, super::super::sources::ReloadNote::NewEvents));
    assert_eq!(a.flash_text().as_deref(), Some("+1 event"));
    assert!(!a.flash.as_ref().unwrap().is_error());
}

#[test]
fn d_alone_goes_to_the_next_finding_and_its_help_asks_for_no_bracket() {
    let mut a = app(json!({"sessions":[{"sessionIndex":1,"turns":[
        {"input":{"text":"go"},"turn":{"status":"completed","events":[
            {"type":"message","role":"assistant","text":"hi"},
            {"type":"operation.finished","operationId":"nobody","kind":"tool","status":"completed","output":"x"}]}}]}]}));
    let before = a.selected_row();
    update(&mut a, Intent::NextFinding);
    let at = a.selected_row().unwrap();
    assert_ne!(Some(at), before, "d moved without a bracket first");
    let view = a.view().unwrap();
    assert_eq!(view.timeline.rows[at].kind, RowKind::ToolFinish, "on the orphan finish");
    // The help says what the key does: it needs no `]` before it.
    let help = Intent::NextFinding.describe(crate::app::keymap::key_for);
    assert!(!help.contains("after"), "{help}");
}

#[test]
fn f_on_a_file_read_once_goes_to_the_end_and_says_it_cannot_follow() {
    let mut a = two_turns();
    update(&mut a, Intent::FollowBottom);
    assert!(!a.follow, "a static file is not followed");
    assert_eq!(a.lists.timeline.selected, a.visible().len() - 1);
    let flash = a.flash_text().unwrap_or_default();
    assert!(flash.contains("not following"), "{flash}");
    // A growing input is followed.
    let mut live = two_turns();
    live.live = true;
    update(&mut live, Intent::FollowBottom);
    assert!(live.follow);
}

#[test]
fn o_on_a_string_output_pages_its_text_not_its_json() {
    let mut a = app(json!({"sessions":[{"sessionIndex":1,"turns":[
        {"input":{"text":"go"},"turn":{"status":"completed","events":[
            {"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"bash","input":"ls -l"}},
            {"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":"line \"one\"\nline two"}]}}]}]}));
    let start =
        a.visible().iter().position(|&ri| a.view().unwrap().timeline.rows[ri as usize].kind == RowKind::ToolStart);
    a.lists.timeline.selected = start.expect("a tool row");
    let effects = update(&mut a, Intent::OpenPager);
    let paged: Vec<&String> =
        effects.iter().filter_map(|e| if let Effect::Page(t) = e { Some(t) } else { None }).collect();
    assert_eq!(paged.len(), 1);
    assert!(paged[0].contains("ls -l\n\nline \"one\"\nline two"), "{:?}", paged[0]);
    // Raw mode (`r`) still pages the events as written.
    update(&mut a, Intent::ToggleRaw);
    let effects = update(&mut a, Intent::OpenPager);
    let raw = effects.iter().find_map(|e| if let Effect::Page(t) = e { Some(t.clone()) } else { None }).unwrap();
    assert!(raw.contains("\"output\": \"line \\\"one\\\"\\nline two\""), "{raw}");
}
