//! A Record attempt's events are rebuilt from the conversation, so the lint
//! (and `check`) does not read them. Every surface says "not checked" with
//! the reason `check` gives, never "0 errors · 0 warnings" or "the event
//! stream follows the contract"; a Turn file that was checked still says so.

#[path = "../fuzz/harness.rs"]
mod harness;

use niceeval::app::{App, Intent, Panel, update};
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::process::Command;

const RECORD: &str = "assets/demo/record";
const TURNS: &str = "assets/demo/session.json";
const REASON: &str = "its events were rebuilt from a lossy record";

fn show_diagnostics(path: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_niceeval"))
        .args(["show", path, "--diagnostics", "--width", "400", "--color", "never"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn diagnostics_screen(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let doc = niceeval::load::load_path(path.to_str().unwrap()).expect("the demo opens");
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    harness::set_viewport(&mut app, 200, 40);
    update(&mut app, Intent::ShowTab(Panel::Diagnostics));
    let mut terminal = Terminal::new(TestBackend::new(200, 40)).unwrap();
    harness::draw(&mut terminal, &app, &Theme::new(ThemeName::Dark))
}

#[test]
fn a_record_attempt_is_not_checked_on_every_surface() {
    let shown = show_diagnostics(RECORD);
    assert!(shown.contains(&format!("Not checked: {REASON}")), "{shown}");
    assert!(!shown.contains("0 errors · 0 warnings") && !shown.contains("No lint findings"), "{shown}");
    let screen = diagnostics_screen(RECORD);
    assert!(screen.contains("Diagnostics · not checked"), "{screen}");
    assert!(screen.contains(&format!("not checked: {REASON}")), "{screen}");
    assert!(!screen.contains("follows the contract"), "{screen}");
}

#[test]
fn a_checked_turn_file_still_counts_its_findings() {
    let shown = show_diagnostics(TURNS);
    assert!(shown.contains("0 errors · 0 warnings") && shown.contains("No lint findings"), "{shown}");
    let screen = diagnostics_screen(TURNS);
    assert!(screen.contains("Diagnostics · 0 errors · 0 warnings"), "{screen}");
    assert!(!screen.contains("not checked"), "{screen}");
}
