//! `view --compare`: the matrix and the split view, drawn by the real render
//! path into a TestBackend (text snapshots, committed), and what the keys do
//! there: Enter on a changed row opens its two attempts, Tab switches side,
//! `v` opens the side in the viewer and Esc comes back, Space marks a cell.
//! The split's content (timelines aligned by turn, tool calls diffed,
//! assertions paired) is checked on two constructed attempts; the real
//! realrun-report Record is used when ../shared is there.

mod common;

use niceeval::app::compare::Screen;
use niceeval::app::{App, Intent, update};
use niceeval::model::document::{Assertion, Attempt, Document, Session, Turn, TurnRecord};
use niceeval::model::usage::builtin_prices;
use niceeval::model::verdict::Verdict;
use niceeval::ui::{Theme, ThemeName};
use niceeval::view::compare::Compared;
use niceeval::view::compare::split::{AssertionChange, Slot, ToolChange};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

fn screen(app: &mut App, w: u16, h: u16) -> String {
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string() + "\n").collect()
}

fn tool(id: &str, name: &str, input: Value, status: &str, output: &str) -> [Value; 2] {
    [
        json!({"type": "operation.started", "operationId": id, "operation": {"kind": "tool", "name": name, "input": input}}),
        json!({"type": "operation.finished", "operationId": id, "kind": "tool", "status": status, "output": output}),
    ]
}

fn turn(input: &str, events: Vec<Value>, status: &str, tokens: (u64, u64)) -> TurnRecord {
    let v = json!({"events": events, "status": status, "usage": {"inputTokens": tokens.0, "outputTokens": tokens.1}});
    TurnRecord { input: Some(json!({ "text": input })), turn: Turn::from_value(&v).0, ..Default::default() }
}

fn assertion(label: &str, passed: bool) -> Assertion {
    Assertion {
        entry_id: Some(format!("ae_{label}")),
        label: label.into(),
        criterion: Some("value-match".into()),
        result: Some(if passed { "matched" } else { "mismatched" }.into()),
        gate: Some(if passed { "satisfied" } else { "failed" }.into()),
        requirement: Some("required".into()),
        ..Default::default()
    }
}

fn attempt(locator: &str, verdict: Verdict, turns: Vec<TurnRecord>, assertions: Vec<Assertion>) -> Document {
    let mut a = Attempt {
        eval_id: Some("export/keeps-last-row".into()),
        experiment_id: Some("main".into()),
        attempt_number: Some(1),
        locator: Some(locator.into()),
        verdict: Some(verdict),
        outcome: Some("completed".into()),
        model: Some("claude-sonnet-4-5".into()),
        sessions: vec![Session { index: 1, turns, ..Default::default() }],
        events_exact: true,
        ..Default::default()
    };
    a.review.assertions = Some(assertions);
    Document {
        format: "constructed".into(),
        sources: vec![format!("{locator}.json")],
        attempts: vec![a],
        ..Default::default()
    }
}

/// Passed on main; fails on the branch: the test command changed and failed, a Write
/// was added, the second turn is gone.
/// Two documents compared as before and after, priced with the built-in table.
fn compare_two(before: Document, after: Document) -> Compared {
    let prices = builtin_prices();
    Compared::two(
        niceeval::analysis::build_source(before, None, &prices),
        niceeval::analysis::build_source(after, None, &prices),
        &[],
    )
    .unwrap()
}

fn pair() -> Compared {
    let mut before_events: Vec<Value> =
        vec![json!({"type": "message", "role": "assistant", "text": "Reading the exporter."})];
    before_events.extend(tool(
        "t1",
        "Read",
        json!({"file_path": "src/export/csv.ts"}),
        "completed",
        "export function…",
    ));
    before_events.extend(tool("t2", "Bash", json!({"command": "pnpm test"}), "completed", "41 passed"));
    let before = attempt(
        "@1BEFORE000001",
        Verdict::Passed,
        vec![
            turn("Fix the CSV export.", before_events, "completed", (1200, 300)),
            turn(
                "Now the JSON one.",
                vec![json!({"type": "message", "role": "assistant", "text": "Done."})],
                "completed",
                (400, 20),
            ),
        ],
        vec![assertion("tests pass", true), assertion("no new files", true)],
    );
    let mut after_events: Vec<Value> =
        vec![json!({"type": "message", "role": "assistant", "text": "Reading the exporter."})];
    after_events.extend(tool("t1", "Read", json!({"file_path": "src/export/csv.ts"}), "completed", "export function…"));
    after_events.extend(tool("t2", "Bash", json!({"command": "pnpm test -- --bail"}), "failed", "1 failed"));
    after_events.extend(tool("t3", "Write", json!({"file_path": "src/export/tmp.ts"}), "completed", "written"));
    let after = attempt(
        "@1AFTER0000001",
        Verdict::Failed,
        vec![turn("Fix the CSV export.", after_events, "completed", (1500, 420))],
        vec![assertion("tests pass", false), assertion("no new files", false), assertion("lint clean", true)],
    );
    compare_two(before, after)
}

fn app_of(c: Compared) -> App {
    App::for_compare(c, None, builtin_prices())
}

fn split_of(app: &App) -> &niceeval::app::compare::SplitState {
    app.compare().and_then(|c| c.split.as_ref()).expect("the split view is open")
}

#[test]
fn the_split_view_aligns_turns_diffs_tools_and_pairs_assertions() {
    let compared = pair();
    let c = compared.view();
    let (_, pairs) = c.comparison.pairs.as_ref().unwrap();
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].class, niceeval::model::compare::PairClass::Broken);
    let split = niceeval::view::compare::split::Split::new(&c, 0, 1);
    // Tool calls: Read the same, Bash's input and status changed, Write added.
    let changes: Vec<ToolChange> = split.tools.iter().map(|r| r.change).collect();
    assert_eq!(changes, [ToolChange::Same, ToolChange::StatusAndInputChanged, ToolChange::Added]);
    assert_eq!(split.tools[2].sides, [None, Some(2)]);
    // Assertions: the two that broke first, then the one only after.
    let changes: Vec<AssertionChange> = split.assertions.iter().map(|p| p.change).collect();
    assert_eq!(changes, [AssertionChange::Broken, AssertionChange::Broken, AssertionChange::OnlyAfter]);
    // Timelines: turn 1 on both sides, header with header; turn 2 only before.
    let turn2: Vec<_> = split.timeline.iter().filter(|l| l.turn == 2).collect();
    assert!(turn2[0].header && turn2[0].sides[1] == Slot::NoTurn(2), "{turn2:?}");
    assert!(turn2[1..].iter().all(|l| l.sides[1] == Slot::Blank));
    let views = &compared.views;
    for line in &split.timeline {
        for (side, slot) in line.sides.iter().enumerate() {
            if let Slot::Row(r) = slot {
                let row = &views[side].timeline.rows[*r];
                assert_eq!(niceeval::view::timeline::row_turn(&views[side], row), line.turn, "{line:?}");
                assert_eq!(row.kind == niceeval::model::timeline::RowKind::TurnHeader, line.header, "{line:?}");
            }
        }
    }
    // Within turn 1 the Write has a blank before it on the left (rows aligned by kind and tool).
    let write = split.timeline.iter().find(|l| matches!(l.sides[0], Slot::Blank) && l.turn == 1);
    assert!(write.is_some(), "the added call stands against a blank");
}

#[test]
fn split_view_snapshots() {
    let mut app = app_of(pair());
    insta::assert_snapshot!("pair_matrix_100x24", screen(&mut app, 100, 24));
    update(&mut app, Intent::Enter);
    assert_eq!(app.compare_screen(), Some(Screen::Split));
    insta::assert_snapshot!("pair_split_timeline_100x30", screen(&mut app, 100, 30));
    update(&mut app, Intent::ShowTab(niceeval::app::Panel::Tools));
    update(&mut app, Intent::Down);
    update(&mut app, Intent::Enter);
    insta::assert_snapshot!("pair_split_tools_inspector_100x40", screen(&mut app, 100, 40));
    update(&mut app, Intent::Back);
    update(&mut app, Intent::ShowTab(niceeval::app::Panel::Assertions));
    insta::assert_snapshot!("pair_split_assertions_100x24", screen(&mut app, 100, 24));
    update(&mut app, Intent::ShowTab(niceeval::app::Panel::Usage));
    insta::assert_snapshot!("pair_split_usage_80x24", screen(&mut app, 80, 24));
}

#[test]
fn tab_switches_side_and_v_opens_it_in_the_viewer_and_esc_comes_back() {
    let mut app = app_of(pair());
    screen(&mut app, 100, 30);
    update(&mut app, Intent::Enter);
    assert_eq!(split_of(&app).side, 1, "the split starts on the after side");
    update(&mut app, Intent::FocusNext);
    assert_eq!(split_of(&app).side, 0);
    // The before side's Bash row, then the viewer on it.
    update(&mut app, Intent::ShowTab(niceeval::app::Panel::Tools));
    update(&mut app, Intent::Down);
    update(&mut app, Intent::ViewAttempt);
    assert_eq!(app.compare().unwrap().screen, Screen::Viewer);
    assert_eq!(app.attempt().unwrap().locator.as_deref(), Some("@1BEFORE000001"));
    assert_eq!(app.tab(), niceeval::app::Panel::Tools);
    // Both sides' attempts read alike in the viewer: the footer says which side this is.
    let flash = app.flash_text().unwrap_or_default();
    assert_eq!(flash, "Esc (at the top) goes back to the comparison · before: @1BEFORE000001.json");
    let shown = screen(&mut app, 100, 30);
    assert!(shown.contains("pnpm test"), "the viewer shows the before side's call:\n{shown}");
    // Esc backs out of the viewer (list, navigator), then to the split it came from.
    let mut presses = 0;
    while app.compare_screen().is_none() {
        update(&mut app, Intent::Back);
        presses += 1;
        assert!(presses <= 3, "Esc never led back to the comparison");
    }
    assert_eq!(presses, 2);
    assert_eq!(app.compare_screen(), Some(Screen::Split));
    update(&mut app, Intent::Back);
    assert_eq!(app.compare_screen(), Some(Screen::Matrix));
}

#[test]
fn the_usual_moves_act_on_the_focused_side() {
    let mut app = app_of(pair());
    screen(&mut app, 100, 30);
    update(&mut app, Intent::Enter);
    // On the after side, j skips the lines where it has no row (turn 2 is before's only).
    let lines = split_of(&app).split.timeline.clone();
    for _ in 0..20 {
        update(&mut app, Intent::Down);
    }
    let at = split_of(&app).list().selected;
    assert!(matches!(lines[at].sides[1], Slot::Row(_)), "the after side has a row at its last stop");
    assert_eq!(lines[at].turn, 1);
    update(&mut app, Intent::FocusNext);
    update(&mut app, Intent::Bottom);
    let at = split_of(&app).list().selected;
    assert_eq!(lines[at].turn, 2, "the before side goes on into turn 2");
    update(&mut app, Intent::Top);
    update(&mut app, Intent::NextTurn);
    assert!(lines[split_of(&app).list().selected].header);
    // e: the next failing row of the after side's timeline (the Bash call).
    update(&mut app, Intent::FocusNext);
    update(&mut app, Intent::Top);
    update(&mut app, Intent::NextFailure);
    let Slot::Row(r) = lines[split_of(&app).list().selected].sides[1] else { panic!("a row") };
    assert!(app.views()[1].timeline.rows[r].is_failure());
    // y copies the side's selection as JSON.
    let effects = update(&mut app, Intent::Copy);
    assert!(matches!(effects.last(), Some(niceeval::app::Effect::Copy(t)) if t.contains("pnpm test -- --bail")));
}

#[test]
fn a_marked_cell_and_another_open_side_by_side() {
    let Some(shared) = common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-report/record");
    let compared = niceeval::cli::compare::load(&[record], &Default::default(), &Default::default()).unwrap();
    let mut app = app_of(compared);
    screen(&mut app, 120, 35);
    // Mark tool-note in baseline, then deliberate-fail in main.
    let rows = app.compare().unwrap().comparing.comparison.rows.clone();
    let row = |eval: &str| rows.iter().position(|r| r.eval.as_deref() == Some(eval)).unwrap();
    for _ in 0..row("classic/tool-note") {
        update(&mut app, Intent::Down);
    }
    update(&mut app, Intent::Mark);
    assert_eq!(app.compare().unwrap().mark, Some((row("classic/tool-note"), 0)));
    for _ in row("classic/tool-note")..row("deliberate-fail") {
        update(&mut app, Intent::Down);
    }
    assert_eq!(app.compare().unwrap().column, 2, "the cursor moves to the cell the row has");
    update(&mut app, Intent::Enter);
    let attempts = split_of(&app).split.attempts;
    let locators = attempts.map(|i| app.doc().attempts[i].locator.clone().unwrap());
    assert_eq!(locators, ["@1P9ZFFNSF2297".to_string(), "@18V0DGH4VPDV4".to_string()]);
}

#[test]
fn realrun_report_matrix_and_split() {
    let Some(shared) = common::shared_dir() else { return };
    let record = std::path::PathBuf::from("../shared/samples/niceeval/realrun-report/record");
    assert!(shared.join("samples/niceeval/realrun-report/record").is_dir());
    let compared = niceeval::cli::compare::load(&[record], &Default::default(), &Default::default()).unwrap();
    let mut app = app_of(compared);
    insta::assert_snapshot!("realrun_report_matrix_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("realrun_report_matrix_160x48", screen(&mut app, 160, 48));
    // At 80×24 the last rows are below; G brings the last one on screen, selected.
    let small = screen(&mut app, 80, 24);
    assert!(small.contains("↓ 3 more rows") && !small.contains("tool-call"), "{small}");
    update(&mut app, Intent::Bottom);
    let small = screen(&mut app, 80, 24);
    assert!(small.contains("tool-call") && !small.contains("more rows"), "{small}");
    update(&mut app, Intent::Top);
    // The first row is a changed one: Enter opens baseline against memory-b.
    update(&mut app, Intent::Enter);
    let attempts = split_of(&app).split.attempts;
    let locators = attempts.map(|i| app.doc().attempts[i].locator.clone().unwrap());
    assert_eq!(locators, ["@1CJ2NTSS6T1XA".to_string(), "@1JKJTH22H75S5".to_string()], "recall-constraint");
    insta::assert_snapshot!("realrun_report_split_160x48", screen(&mut app, 160, 48));
    update(&mut app, Intent::ShowTab(niceeval::app::Panel::Assertions));
    insta::assert_snapshot!("realrun_report_split_assertions_80x24", screen(&mut app, 80, 24));
}

#[test]
fn a_cell_of_several_attempts_opens_its_first_against_its_last() {
    let Some(shared) = common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-sdk/record");
    let compared = niceeval::cli::compare::load(&[record], &Default::default(), &Default::default()).unwrap();
    let mut app = app_of(compared);
    screen(&mut app, 120, 35);
    let rows = app.compare().unwrap().comparing.comparison.rows.clone();
    let at = rows.iter().position(|r| r.eval.as_deref() == Some("realrun/claude-wrong")).unwrap();
    for _ in 0..at {
        update(&mut app, Intent::Down);
    }
    let shown = screen(&mut app, 120, 35);
    assert!(shown.contains("✗ 0/2"), "two attempts, none passed:\n{shown}");
    update(&mut app, Intent::Enter);
    let attempts = split_of(&app).split.attempts;
    let numbers = attempts.map(|i| app.views()[i].summary.attempt_number);
    assert_eq!(numbers, [Some(1), Some(2)]);
    let locators = attempts.map(|i| app.doc().attempts[i].locator.clone().unwrap());
    assert_eq!(locators, ["@1HYSEVB1Y6BX6".to_string(), "@1YVAP5X8K33CP".to_string()]);
}

#[test]
fn enter_on_either_row_of_the_only_pair_opens_its_two_attempts() {
    // Two sources of one attempt each, of different evals (a Record attempt against a session
    // file): they pair whatever their names, one row each; Enter on either row opens the two.
    let compared = || {
        let one = |locator: &str, verdict| {
            attempt(locator, verdict, vec![turn("Fix it.", vec![], "completed", (10, 2))], vec![])
        };
        let before = one("@1BEFORE000001", Verdict::Passed);
        let mut after = one("@1AFTER0000001", Verdict::Failed);
        after.attempts[0].eval_id = Some("coding/fix-add".into());
        compare_two(before, after)
    };
    for row in 0..2 {
        let mut app = app_of(compared());
        screen(&mut app, 100, 30);
        for _ in 0..row {
            update(&mut app, Intent::Down);
        }
        update(&mut app, Intent::Enter);
        let flash = app.flash_text();
        assert_eq!(app.compare_screen(), Some(Screen::Split), "row {row}: {flash:?}");
        let locators = split_of(&app).split.attempts.map(|i| app.doc().attempts[i].locator.clone().unwrap());
        assert_eq!(locators, ["@1BEFORE000001".to_string(), "@1AFTER0000001".to_string()], "row {row}");
    }
}

#[test]
fn an_observed_cost_of_only_some_turns_says_so_as_the_viewer_header_does() {
    // Two turns, only the first reports costUSD: the viewer header says "cost $0.0100 (1 of 2 turns)";
    // the split's figures, its Usage tab, the column's sum and compare --json say so too.
    let costed = |locator: &str, verdict| {
        let v = json!({"events": [], "status": "completed", "usage": {"inputTokens": 10, "outputTokens": 2, "costUSD": 0.01}});
        let first =
            TurnRecord { input: Some(json!({"text": "Fix it."})), turn: Turn::from_value(&v).0, ..Default::default() };
        attempt(locator, verdict, vec![first, turn("Again.", vec![], "completed", (10, 2))], vec![])
    };
    let compared = compare_two(costed("@1BEFORE000001", Verdict::Passed), costed("@1AFTER0000001", Verdict::Failed));
    let header = niceeval::view::header::header_parts(&compared.views[0].summary, 0);
    let words: Vec<String> = header.iter().map(|p| p.full.as_plain()).collect();
    assert!(words.iter().any(|w| w == "cost $0.0100 (1 of 2 turns)"), "the viewer header's words: {words:?}");
    let c = compared.view();
    let split = niceeval::view::compare::split::Split::new(&c, 0, 1);
    let figures = niceeval::view::compare::split::side_figures(&c, 0).as_plain();
    assert!(figures.contains("observed $0.0100 (1 of 2 turns)"), "{figures}");
    let usage = niceeval::view::compare::split::usage_table(&c, &split);
    let observed = usage.rows.iter().find(|r| r[0].as_plain() == "observed cost").unwrap();
    assert_eq!(observed[1].as_plain(), "$0.0100 (1 of 2 turns)");
    let stats = niceeval::view::compare::column_stats(&c);
    assert_eq!(stats[0].observed.text(niceeval::view::compare::money).as_plain(), "$0.0100*");
    let note = niceeval::view::compare::partial_note(&stats).unwrap().as_plain();
    assert!(note.contains("observed A 1 of 1 (1 for only some of its turns)"), "{note}");
    let doc = niceeval::view::compare::json::document(&c);
    let cell = &doc["rows"][0]["cells"]["before:main"];
    assert_eq!(cell["observedCostTurns"], json!({"reporting": 1, "of": 2}), "{cell}");
}

#[test]
fn columns_that_do_not_fit_say_how_many_and_which_keys_reach_them() {
    let Some(shared) = common::shared_dir() else { return };
    let record = shared.join("samples/niceeval/realrun-sdk/record");
    let compared = niceeval::cli::compare::load(&[record], &Default::default(), &Default::default()).unwrap();
    let mut app = app_of(compared);
    let shown = screen(&mut app, 60, 30);
    let header = shown.lines().find(|l| l.starts_with("change")).unwrap();
    assert!(header.ends_with("→ h/l)") && header.contains("(+"), "the hidden columns' note is cut:\n{shown}");
    assert!(shown.lines().all(|l| niceeval::model::text::width(l) <= 60));
}

/// Two attempts whose events were not recorded (`exp --json` lines): the
/// split's deltas and usage rows say the turn and tool-call counts are
/// missing, not `±0`, and the timeline's title does not count "0 turns".
#[test]
fn a_split_of_two_unrecorded_attempts_counts_nothing_as_zero() {
    let unrecorded = |locator: &str, verdict| {
        let mut d = attempt(locator, verdict, vec![], vec![assertion("tests pass", verdict == Verdict::Passed)]);
        d.attempts[0].sessions.clear();
        d.attempts[0].events = Some(niceeval::model::completeness::Completeness::NotRecorded);
        d
    };
    let compared =
        compare_two(unrecorded("@1BEFORE000001", Verdict::Passed), unrecorded("@1AFTER0000001", Verdict::Failed));
    let c = compared.view();
    let split = niceeval::view::compare::split::Split::new(&c, 0, 1);
    let deltas = niceeval::view::compare::split::deltas(&c, &split).as_plain();
    assert!(deltas.contains("turns — · tool calls —"), "{deltas}");
    let meta = niceeval::view::compare::split::tab_meta(&split, niceeval::view::compare::split::Panel::Timeline);
    assert!(!meta.as_plain().contains("0 turns"), "{}", meta.as_plain());
    let table = niceeval::view::compare::split::usage_table(&c, &split);
    for label in ["turns", "tool calls"] {
        let row = table.rows.iter().find(|r| r[0].as_plain() == label).unwrap();
        assert!(row[1..].iter().all(|cell| cell.as_plain() == "—"), "{label}: {row:?}");
    }
}
