//! Folding turns in the timeline (`z`, `-`, `+`) and a resizable navigator
//! (`<`, `>`), through the real update and render paths.

mod common;

use niceeval::app::{Action, App, Intent, Panel, update};
use niceeval::model::timeline::RowKind;
use niceeval::model::usage::PriceTable;

fn demo() -> App {
    let doc = niceeval::load::load_path("assets/demo/session.json").expect("demo loads");
    App::new(doc, None, PriceTable::default())
}

fn draw(app: &mut App, w: u16, h: u16) -> String {
    common::mono_screen(app, w, h)
}

fn kind(app: &App) -> RowKind {
    app.view().unwrap().timeline.rows[app.selected_row().unwrap()].kind
}

#[test]
fn z_folds_the_selected_rows_turn_to_its_header_and_back() {
    let mut app = demo();
    let all = app.visible().len();
    update(&mut app, Intent::Down);
    update(&mut app, Intent::Down);
    assert_ne!(kind(&app), RowKind::TurnHeader);
    update(&mut app, Intent::ToggleFold);
    assert!(app.visible().len() < all);
    assert_eq!(kind(&app), RowKind::TurnHeader, "the selection moves to the folded turn's header");
    let screen = draw(&mut app, 140, 40);
    assert!(screen.contains("▸ turn 1"), "{screen}");
    update(&mut app, Intent::ToggleFold);
    assert_eq!(app.visible().len(), all);
}

#[test]
fn minus_folds_every_turn_plus_unfolds_them() {
    let mut app = demo();
    let all = app.visible().len();
    update(&mut app, Intent::FoldAll);
    let headers =
        app.visible().iter().filter(|&&r| app.view().unwrap().timeline.rows[r as usize].kind == RowKind::TurnHeader);
    assert_eq!(headers.count(), app.visible().len(), "only headers are left");
    assert_eq!(app.flash_text().unwrap(), "8 turns folded (+ unfolds)");
    update(&mut app, Intent::UnfoldAll);
    assert_eq!(app.visible().len(), all);
}

#[test]
fn search_and_jumps_look_inside_folded_turns_and_unfold_where_they_land() {
    let mut app = demo();
    update(&mut app, Intent::FoldAll);
    let folded = app.visible().len();
    update(&mut app, Intent::SearchStart);
    for c in "webfetch".chars() {
        update(&mut app, Action::SearchChar(c));
    }
    update(&mut app, Intent::SearchCommit);
    assert!(!app.search().matches.is_empty(), "a folded turn is still searched");
    assert_ne!(kind(&app), RowKind::TurnHeader);
    assert!(app.visible().len() > folded, "the turn with the hit is unfolded");
    update(&mut app, Intent::FoldAll);
    update(&mut app, Intent::NextFailure);
    assert!(app.view().unwrap().timeline.rows[app.selected_row().unwrap()].is_failure());
    // Turn jumps still step header to header.
    update(&mut app, Intent::FoldAll);
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    update(&mut app, Intent::Top);
    update(&mut app, Intent::NextTurn);
    assert_eq!(kind(&app), RowKind::TurnHeader);
    assert_eq!(app.lists().timeline.selected, 1);
}

#[test]
fn angle_brackets_resize_the_navigator() {
    let mut app = demo();
    let before = draw(&mut app, 150, 30);
    let nav_right = |s: &str| s.lines().nth(4).and_then(|l| l.chars().position(|c| c == '╮')).unwrap();
    let w0 = nav_right(&before);
    update(&mut app, Intent::NavWider);
    update(&mut app, Intent::NavWider);
    let wider = draw(&mut app, 150, 30);
    assert_eq!(nav_right(&wider), w0 + 8, "{wider}");
    for _ in 0..50 {
        update(&mut app, Intent::NavNarrower);
    }
    let narrow = draw(&mut app, 150, 30);
    assert_eq!(nav_right(&narrow) + 1, niceeval::app::layout::NAV_MIN as usize, "{narrow}");
    for _ in 0..50 {
        update(&mut app, Intent::NavWider);
    }
    let widest = draw(&mut app, 150, 30);
    assert_eq!(nav_right(&widest) + 1, 75, "at most half the terminal: {widest}");
    // Stacked panels have no width to change: say so.
    draw(&mut app, 90, 30);
    update(&mut app, Intent::NavWider);
    assert!(app.flash_text().unwrap().contains("110 columns or wider"));
}
