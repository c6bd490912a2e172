//! Layout on the real render path (issue 38 items 10 and 11): columns sized
//! from the data, one fact said once, raw-event positions, plurals.

mod common;

use niceeval::app::{App, Focus, Intent, Panel, update};
use serde_json::{Value, json};

fn app_of(doc: Value) -> App {
    let doc = niceeval::load::load_bytes("t.json", doc.to_string().as_bytes()).expect("loads");
    App::new(doc, None, niceeval::model::usage::builtin_prices())
}

fn app_for(path: &str) -> App {
    let doc = niceeval::load::load_path(path).expect("fixture loads");
    App::new(doc, Some("claude-sonnet-4-5".into()), niceeval::model::usage::builtin_prices())
}

/// Render like the terminal layer does, the screen as text.
fn screen(app: &mut App, w: u16, h: u16) -> String {
    common::mono_screen(app, w, h)
}

/// One turn whose last two events are a tool call: `1:{n-1}→{n}`.
fn long_turn(messages: usize) -> Value {
    let mut events: Vec<Value> =
        (0..messages).map(|i| json!({"type": "message", "role": "assistant", "text": format!("m{i}")})).collect();
    events.push(
        json!({"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"bash","input":"ls"}}),
    );
    events
        .push(json!({"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":"ok"}));
    json!({"sessions":[{"sessionIndex":1,"turns":[{"input":{"text":"go"},"turn":{"status":"completed","events":events}}]}]})
}

#[test]
fn a_four_digit_event_address_is_whole_in_the_timeline() {
    let mut app = app_of(long_turn(3998));
    screen(&mut app, 120, 30);
    update(&mut app, Intent::Bottom);
    let text = screen(&mut app, 120, 30);
    let row = text.lines().find(|l| l.contains("bash ls")).expect("the tool row is on screen");
    assert!(row.contains("1:3999→4000 "), "the address is cut: {row}");
    // The rows above line up with it: one column for every address.
    let message = text.lines().find(|l| l.contains("m3997")).unwrap();
    let col = |l: &str, what: &str| l.find(what).map(|b| l[..b].chars().count());
    assert_eq!(col(message, "◆"), col(row, "⚙"), "{text}");
    // A short turn keeps the narrow column it had.
    let mut short = app_of(long_turn(1));
    let text = screen(&mut short, 120, 30);
    assert!(text.lines().any(|l| l.contains("│1:2→3    ✓ ⚙ tool")), "{text}");
}

#[test]
fn raw_events_mode_gives_a_start_its_own_position() {
    let mut app = app_of(long_turn(1));
    update(&mut app, Intent::ToggleMerge);
    let text = screen(&mut app, 200, 30);
    assert!(!text.contains("1:2→3"), "a raw start row reads as merged: {text}");
    let start = text.lines().find(|l| l.contains("bash ls")).expect("the start row");
    assert!(start.contains("1:2 ") && start.contains("finished at 1:3"), "{start}");
    assert!(text.lines().any(|l| l.contains("1:3 ") && l.contains("bash → ok")), "{text}");
}

#[test]
fn a_waiting_capture_says_waiting_once_in_the_header() {
    let mut app = app_for("assets/demo/session.json");
    let text = screen(&mut app, 160, 48);
    let header = text.lines().nth(1).unwrap();
    assert_eq!(header.matches("WAITING FOR INPUT (1)").count(), 1, "{header}");
    assert!(!header.to_lowercase().contains("waiting (status)"), "said twice: {header}");
    // Narrow, it still says it (in its short words).
    let text = screen(&mut app, 80, 24);
    let header = text.lines().nth(1).unwrap();
    assert_eq!(header.matches("WAITING").count(), 1, "{header}");
}

#[test]
fn one_tool_is_one_tool_in_the_navigator() {
    let mut app = app_of(long_turn(1));
    update(&mut app, Intent::NavWider);
    update(&mut app, Intent::NavWider);
    update(&mut app, Intent::NavWider);
    let text = screen(&mut app, 160, 30);
    assert!(text.contains(" ev · 1 tool · "), "{text}");
    assert!(!text.contains("1 tools"), "{text}");
}

#[test]
fn the_timing_tab_names_a_turn_by_its_number_beside_its_label() {
    let Some(record) = common::shared_path("samples/niceeval/generated/record-e2e-eval/record") else { return };
    let doc = niceeval::load::load_path(&record).unwrap();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    let at = app.doc().attempts.iter().position(|a| a.sessions.len() > 1).expect("a two-session attempt");
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    for _ in 0..app.nav().len() {
        if app.scope().attempt == at {
            break;
        }
        update(&mut app, Intent::Down);
    }
    assert_eq!(app.scope().attempt, at);
    update(&mut app, Intent::ShowTab(Panel::Timing));
    let text = screen(&mut app, 160, 40);
    assert!(text.contains("turn 1 · session2/turn1"), "{text}");
    assert!(text.contains("turn 3 · session3/turn1"), "{text}");
}

/// The navigator's rows at 120 columns (the attempts list's own panel).
fn nav_rows(record: &std::path::Path) -> Vec<String> {
    let doc = niceeval::load::load_path(record).unwrap();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    let text = screen(&mut app, 120, 40);
    text.lines().skip(4).filter_map(|l| l.split('│').nth(1)).map(|c| c.trim_end().to_string()).collect()
}

#[test]
fn one_eval_under_two_experiments_reads_apart_in_the_attempts_list() {
    let Some(record) = common::shared_path("samples/niceeval/realrun-report/record") else { return };
    let rows = nav_rows(&record);
    let tool_note: Vec<&String> = rows.iter().filter(|r| r.contains("ool-note")).collect();
    assert_eq!(tool_note.len(), 2, "{rows:#?}");
    assert_ne!(tool_note[0], tool_note[1], "two attempts read alike: {rows:#?}");
}

#[test]
fn attempts_of_one_eval_are_listed_in_their_order() {
    let Some(record) = common::shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let rows = nav_rows(&record);
    let wrong: Vec<&String> = rows.iter().filter(|r| r.contains("-wrong") && r.contains("cl")).collect();
    assert_eq!(wrong.len(), 2, "{rows:#?}");
    assert!(!wrong[0].contains("#2") && wrong[1].contains("#2"), "attempt 2 before attempt 1: {rows:#?}");
}

#[test]
fn the_too_small_notice_wraps_whole() {
    let mut app = app_of(long_turn(1));
    let text = screen(&mut app, 40, 10);
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("(needs 60×15); make it larger or press q"), "{text}");
}

#[test]
fn lists_wrap_their_messages_and_keep_short_codes_whole() {
    const ORPHANS: &str = "tests/fixtures/ui/failed-orphans.json";
    let mut app = app_for(ORPHANS);
    update(&mut app, Intent::ShowTab(Panel::Assertions));
    let text = screen(&mut app, 120, 30);
    assert!(text.contains("Record, InvocationSummary or show --json)"), "the empty state is cut: {text}");
    let mut app = app_for(ORPHANS);
    update(&mut app, Intent::ShowTab(Panel::Diagnostics));
    let text = screen(&mut app, 120, 30);
    assert!(text.contains("ambiguous-operation-id "), "{text}");
    // The rule's path breaks after a separator, not inside a word.
    assert!(text.contains("docs/rules.md#command- "), "{text}");
    assert!(!text.contains("#command-unclassif│"), "{text}");
    let mut app = app_for(ORPHANS);
    update(&mut app, Intent::ShowTab(Panel::Usage));
    let text = screen(&mut app, 120, 30);
    let header = text.lines().find(|l| l.contains("scope") && l.contains("input")).unwrap();
    let cell = header.split('│').nth(3).unwrap();
    assert!(cell.contains("more"), "the hidden columns are said: {cell}");
    assert!(cell.split_whitespace().all(|w| !"cache write".starts_with(w) || w == "cache"), "a stub column: {cell}");
}

#[test]
fn a_wrapped_explanation_line_hangs_under_its_own_indent() {
    let Some(record) = common::shared_path("samples/niceeval/realrun-sdk/record") else { return };
    let doc = niceeval::load::load_path(&record).unwrap();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    update(&mut app, Intent::ShowTab(Panel::Assertions));
    let text = screen(&mut app, 120, 48);
    let inspector: Vec<&str> = text.lines().filter_map(|l| l.split('│').nth(5)).collect();
    let at = inspector.iter().position(|l| l.starts_with("    calledTool(")).expect("the message line");
    assert!(
        inspector[at + 1].starts_with("    ") && inspector[at + 1].trim_start().starts_with("satisfy"),
        "{inspector:#?}"
    );
}
