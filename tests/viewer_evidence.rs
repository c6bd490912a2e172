//! The viewer's evidence of a failed attempt: the Source tab (the eval file
//! whole, its gutter, Enter from a send line to its turn and from an
//! assertion line to its assertion, `t` back, Ctrl-o / Ctrl-i across the
//! jumps), the Commands tab (a card per command, Enter to its interval in
//! the Timing tab), where the failure began (above the fix prompt, each
//! link a jump), the header's time and evidence line, and the assertions'
//! severity and points. On the bundled demo Record, and on the shared
//! Records where they hold what the demo does not.

mod common;

use niceeval::app::{Action, App, Focus, Intent, Panel, update};
use niceeval::model::timeline::RowKind;
use niceeval::view::first_failure::BeganRow;
use niceeval::view::inspect::Selected;

const RECORD: &str = "assets/demo/record";
const W: u16 = 160;
const H: u16 = 48;

/// The demo Record's failed attempt, opened as Enter in the attempts list opens it.
fn failed() -> App {
    let doc = niceeval::load::load_path(RECORD).expect("the demo Record loads");
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    update(&mut app, Action::Resize { width: W, height: H });
    update(&mut app, Intent::Enter);
    app
}

/// One attempt of a Record, alone (as `view RECORD @LOC` opens it).
fn attempt_of(record: &std::path::Path, locator: &str) -> App {
    let mut doc = niceeval::load::load_path(record).expect("the Record loads");
    doc.attempts.retain(|a| a.locator.as_deref() == Some(locator));
    assert_eq!(doc.attempts.len(), 1, "{locator} is in {}", record.display());
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    update(&mut app, Action::Resize { width: W, height: H });
    app
}

fn screen(app: &mut App) -> String {
    common::mono_screen(app, W, H)
}

fn selected_kind(app: &App) -> Option<RowKind> {
    let row = app.selected_row()?;
    Some(app.view()?.timeline.rows[row].kind)
}

#[test]
fn the_source_tab_shows_the_eval_file_whole_with_its_gutter() {
    let mut app = failed();
    update(&mut app, Intent::ShowTab(Panel::Source));
    assert_eq!(app.tab(), Panel::Source);
    let text = screen(&mut app);
    assert!(text.contains("0 Source"), "the tab is in the bar:\n{text}");
    assert!(text.contains("evals/export.eval.ts"), "{text}");
    let line = |n: &str| text.lines().find(|l| l.contains(&format!("{n} │"))).unwrap_or_default().to_string();
    assert!(line("   6").contains("→ turn 1") && line("   6").contains("t.send("), "the send line: {}", line("   6"));
    assert!(line("   7").contains('✗') && line("   7").contains("t.check(turn.data"), "{}", line("   7"));
    assert!(line("  10").contains('?'), "the judge could not decide: {}", line("  10"));
    assert!(line("   4").contains("id: \"export/keep"), "an unmarked line is there too: {}", line("   4"));
}

#[test]
fn enter_on_a_send_line_opens_its_turn_and_ctrl_o_ctrl_i_go_back_and_forth() {
    let mut app = failed();
    update(&mut app, Intent::ShowTab(Panel::Source));
    // Row 0 is the file's header; line N is row N.
    update(&mut app, Action::SelectRow(6));
    let text = screen(&mut app);
    assert!(text.contains("evals/export.eval.ts:6"), "the inspector names the line:\n{text}");
    update(&mut app, Intent::Enter);
    assert_eq!((app.tab(), app.focus()), (Panel::Timeline, Focus::List));
    assert_eq!(selected_kind(&app), Some(RowKind::TurnHeader), "the turn the send made");
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().source.selected), (Panel::Source, 6), "Ctrl-o: back on the send line");
    update(&mut app, Intent::JumpForward);
    assert_eq!(
        (app.tab(), selected_kind(&app)),
        (Panel::Timeline, Some(RowKind::TurnHeader)),
        "Ctrl-i: the turn again"
    );
}

#[test]
fn an_assertion_line_leads_to_its_assertion_and_on_to_its_evidence() {
    let mut app = failed();
    update(&mut app, Intent::ShowTab(Panel::Source));
    // Line 8: `turn.calledTool(toolMatch("shell", …))`, the list's second assertion.
    update(&mut app, Action::SelectRow(8));
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Assertions);
    assert_eq!(app.selected(), Some(Selected::Assertion(1)));
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timeline, "Enter on the assertion: its evidence row, as before");
    let row = app.selected_row().unwrap();
    assert_eq!(app.view().unwrap().timeline.rows[row].position(), "1:2");
    update(&mut app, Intent::JumpBack);
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().source.selected), (Panel::Source, 8), "two Ctrl-o: the source line");
}

#[test]
fn t_goes_from_a_turn_or_an_assertion_to_its_line() {
    let mut app = failed();
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    update(&mut app, Intent::Top);
    assert_eq!(selected_kind(&app), Some(RowKind::TurnHeader));
    update(&mut app, Intent::ToSource);
    assert_eq!((app.tab(), app.lists().source.selected), (Panel::Source, 6), "the turn's send");
    update(&mut app, Intent::JumpBack);
    assert_eq!(app.tab(), Panel::Timeline);
    // The first failing assertion, selected when the attempt opens, is declared on line 7.
    update(&mut app, Intent::ShowTab(Panel::Assertions));
    assert_eq!(app.selected(), Some(Selected::Assertion(0)));
    update(&mut app, Intent::ToSource);
    assert_eq!((app.tab(), app.lists().source.selected), (Panel::Source, 7));
}

#[test]
fn the_source_is_coloured_by_its_syntax_except_without_colour() {
    let doc = niceeval::load::load_path(RECORD).unwrap();
    let app = App::new(doc, None, niceeval::model::usage::builtin_prices())
        .with_options(niceeval::app::Options { theme: niceeval::styled::ThemeName::Dark, ..Default::default() });
    let coloured = app.source_colours(0);
    let lines = coloured.as_ref().as_ref().expect("TypeScript is parsed");
    assert!(lines.iter().flatten().any(|(piece, c)| piece.contains("export") && c.is_some()), "a keyword has colour");
    let doc = niceeval::load::load_path(RECORD).unwrap();
    let mono = App::new(doc, None, niceeval::model::usage::builtin_prices())
        .with_options(niceeval::app::Options { theme: niceeval::styled::ThemeName::Mono, ..Default::default() });
    assert!(mono.source_colours(0).is_none(), "no colour: the code is drawn plain");
}

#[test]
fn the_commands_tab_lists_each_command_and_enter_opens_its_interval() {
    let mut app = failed();
    update(&mut app, Intent::ShowTab(Panel::Commands));
    assert_eq!(app.tab(), Panel::Commands);
    let text = screen(&mut app);
    assert!(text.contains("Commands · 2 commands · ✗ 1 failed"), "{text}");
    assert!(text.contains("attempt.setup") && text.contains("before turn 1") && text.contains("✓ exit 0"), "{text}");
    assert!(text.contains("✗ exit 1") && text.contains("after turn 1") && text.contains("240ms"), "{text}");
    update(&mut app, Intent::Down);
    let text = screen(&mut app);
    assert!(text.contains("command 2 · eval.run · after tu"), "the card's title:\n{text}");
    assert!(text.contains("AssertionError: expected 2 to be 3"), "its stderr:\n{text}");
    assert!(text.contains("… 12 lines not shown (o opens all in $PAGER)"), "its stdout folded:\n{text}");
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timing, "Enter: its interval");
    let text = screen(&mut app);
    assert!(text.contains("command 2 · eval.run"), "the interval's inspector names its command:\n{text}");
    assert!(matches!(app.selected(), Some(Selected::Timing { .. })));
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().commands.selected), (Panel::Commands, 1), "Ctrl-o: back on the command");
}

#[test]
fn a_failed_attempt_opens_with_where_it_began_above_the_fix_prompt() {
    let mut app = failed();
    assert_eq!(app.tab(), Panel::Assertions);
    assert_eq!(app.selected(), Some(Selected::Assertion(0)), "on its first failing assertion, as before");
    let text = screen(&mut app);
    let began = text.lines().position(|l| l.contains("⚑ where it began  1:2  failed: shell")).expect(&text);
    let prompt = text.lines().position(|l| l.contains("Fix prompt for a coding agent")).expect(&text);
    assert!(began < prompt, "where it began is first:\n{text}");
    assert!(text.contains("→ 1:2  ✗ export › two completed shell calls"), "{text}");
    // Each link is a jump.
    update(&mut app, Action::SelectRow(0));
    assert_eq!(app.selected(), Some(Selected::Began(BeganRow::Link(0))));
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timeline);
    assert_eq!(app.view().unwrap().timeline.rows[app.selected_row().unwrap()].position(), "1:2");
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().assertions.selected), (Panel::Assertions, 0));
    update(&mut app, Action::SelectRow(2));
    update(&mut app, Intent::Enter);
    assert_eq!(app.selected(), Some(Selected::Assertion(0)), "a chain's assertion: that assertion");
}

#[test]
fn the_header_says_how_long_it_took_when_it_started_and_its_evidence() {
    let mut app = failed();
    let text = screen(&mut app);
    let line = text.lines().nth(2).unwrap();
    assert!(line.contains("took 9.1s (eval.run) · ours 10.3s"), "{line}");
    assert!(line.contains("started 2026-11-30 00:53:20 UTC"), "{line}");
    assert!(line.contains("evidence source · execution · timing · diff"), "{line}");
}

#[test]
fn an_errored_attempt_opens_on_where_it_began_and_its_link_leads_to_the_diagnostic() {
    let Some(record) = common::shared_path("samples/niceeval/realrun-report/record") else { return };
    let mut app = attempt_of(&record, "@1TG23FZ5BJDB0");
    assert_eq!(app.tab(), Panel::Assertions, "no assertion failed, but where it began is there");
    assert_eq!(app.selected(), Some(Selected::Began(BeganRow::Link(0))));
    let text = screen(&mut app);
    assert!(text.contains("⚑ where it began  eval.run  error in eval.run"), "{text}");
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Diagnostics);
    assert!(matches!(app.selected(), Some(Selected::Diagnostic(0))), "{:?}", app.selected());
}

#[test]
fn assertion_rows_say_their_severity_and_points() {
    let Some(record) = common::shared_path("samples/niceeval/generated/record-e2e-eval/record") else { return };
    let mut app = attempt_of(&record, "@1072G4VHQ3SV6");
    update(&mut app, Intent::ShowTab(Panel::Assertions));
    let text = screen(&mut app);
    for points in ["soft 0/5", "soft 1/1", "soft 2/2"] {
        assert!(text.contains(points), "{points}:\n{text}");
    }
}

#[test]
fn enter_on_a_command_opens_the_node_its_interval_is_folded_under() {
    let Some(record) = common::shared_path("samples/niceeval/generated/record-e2e-eval/record") else { return };
    let mut app = attempt_of(&record, "@14R83JM9GP1Z2");
    // Close agent.ensure, which holds the first two commands' intervals.
    update(&mut app, Intent::ShowTab(Panel::Timing));
    let ensure = app.timing_rows().iter().position(|r| r.line.label.as_plain().starts_with("agent.ensure")).unwrap();
    update(&mut app, Action::SelectRow(ensure));
    update(&mut app, Intent::Enter);
    assert!(!app.timing_rows()[ensure].expanded, "agent.ensure is closed");
    let before = app.timing_rows().len();
    update(&mut app, Intent::ShowTab(Panel::Commands));
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timing, "{:?}", app.flash_text());
    assert_eq!(app.timing_rows().len(), before + 2, "agent.ensure is open again");
    let row = &app.timing_rows()[app.lists().timing.selected];
    assert!(row.line.label.as_plain().contains("printf · command 1"), "{:?}", row.line.label.as_plain());
}
