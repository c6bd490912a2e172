//! The Translation tab on a small native log of the project's own
//! (tests/fixtures/translation-small.jsonl): its screen at 120×30 (an insta
//! snapshot), and the jumps between a native line and its events.

mod common;

use niceeval::app::{App, Focus, Intent, Panel, update};

/// Relative to the crate root, so the snapshot does not depend on the checkout folder.
const LOG: &str = "tests/fixtures/translation-small.jsonl";

fn app_for(path: &str) -> App {
    let doc = niceeval::load::load_path(path).expect("fixture loads");
    App::new(doc, None, niceeval::model::usage::builtin_prices())
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    common::mono_screen(app, w, h)
}

#[test]
fn translation_tab_at_120x30() {
    let mut app = app_for(LOG);
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 120, height: 30 });
    update(&mut app, Intent::ShowTab(Panel::Translation));
    // Line 4: an assistant line that became two events.
    for _ in 0..3 {
        update(&mut app, Intent::Down);
    }
    let text = screen(&mut app, 120, 30);
    assert!(text.contains("9 Translation"), "the tab is in the bar for a native log:\n{text}");
    assert!(text.contains("dropped: not JSON"), "{text}");
    assert!(text.contains("line 4 · assistant"), "the inspector shows the selected line:\n{text}");
    insta::assert_snapshot!("translation_small_120x30", text);
}

#[test]
fn enter_goes_to_the_events_t_comes_back_and_ctrl_o_returns() {
    let mut app = app_for(LOG);
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 120, height: 30 });
    update(&mut app, Intent::ShowTab(Panel::Translation));
    for _ in 0..3 {
        update(&mut app, Intent::Down);
    }
    update(&mut app, Intent::Enter);
    assert_eq!((app.tab(), app.focus()), (Panel::Timeline, Focus::List), "Enter opens the timeline");
    let row = app.selected_row().expect("a row is selected");
    let r = &app.view().unwrap().timeline.rows[row];
    assert_eq!(r.event(), Some(2), "the line's first event (1:3) is selected");
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().translation.selected), (Panel::Translation, 3), "Ctrl-o: back on line 4");
    // From a timeline row to its line: the last assistant message came from line 7.
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    update(&mut app, Intent::Bottom);
    update(&mut app, Intent::ToSource);
    assert_eq!((app.tab(), app.lists().translation.selected), (Panel::Translation, 6));
    update(&mut app, Intent::JumpBack);
    assert_eq!(app.tab(), Panel::Timeline, "Ctrl-o: back on the row");
}

#[test]
fn a_dropped_line_says_why_and_an_input_without_lines_has_no_tab() {
    let mut app = app_for(LOG);
    update(&mut app, Intent::ShowTab(Panel::Translation));
    update(&mut app, Intent::Down);
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Translation, "a dropped line has no event to go to");
    let flash = app.flash_text().unwrap_or_default();
    assert!(flash.contains("became no event") && flash.contains("metadata"), "{flash}");

    let mut bare = app_for("tests/fixtures/translation-none.json");
    assert!(!bare.shown_tabs().contains(&Panel::Translation));
    update(&mut bare, Intent::ShowTab(Panel::Translation));
    assert_eq!(bare.tab(), Panel::Timeline);
    assert!(bare.flash_text().is_some_and(|f| f.contains("no native lines")));
    let text = screen(&mut bare, 120, 30);
    assert!(!text.contains("Translation"), "no Translation tab without native lines:\n{text}");
}
