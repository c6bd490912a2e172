//! Screens of the real render path on the project's own fixtures, at
//! 80×24 and 160×48, for every tab. Text snapshots (insta, committed).

use niceeval::app::{Action, App, Focus, Intent, Panel, update};
use niceeval::model::usage::PriceTable;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Paths are relative to the crate root (cargo's test cwd) so snapshots do not depend on the checkout folder.
fn app_for(path: &str) -> App {
    let doc = niceeval::load::load_path(path).expect("fixture loads");
    App::new(doc, Some("claude-sonnet-4-5".into()), niceeval::model::usage::builtin_prices())
}

fn demo() -> App {
    app_for("assets/demo/session.json")
}

/// Render like the terminal layer does: set the viewport from the layout, then draw.
fn screen(app: &mut App, w: u16, h: u16) -> String {
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The whole screen as text.
fn text_of(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let area = buffer.area;
    (0..area.height)
        .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string() + "\n")
        .collect()
}

#[test]
fn inspector_follows_the_tool_sort_and_filter() {
    // The inspector caches its lines per selection: after `s` or `f` the same
    // position holds another occurrence, so the cached screen must match a fresh one.
    let mut app = app_for("tests/fixtures/check/clean-complex.json");
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 160, height: 48 });
    update(&mut app, Intent::ShowTab(Panel::Tools));
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let before = text_of(&terminal);
    for action in
        [Intent::CycleSort, Intent::CycleFilter, Intent::CycleFilter, Intent::CycleFilter, Intent::CycleFilter]
    {
        update(&mut app, action);
        terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
        let cached = text_of(&terminal);
        terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &Theme::new(ThemeName::Mono))).unwrap();
        assert_eq!(cached, text_of(&terminal), "after {action:?}");
    }
    assert_ne!(before, text_of(&terminal), "sorting by name changed the first tool");
}

#[test]
fn demo_every_tab_at_two_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        for tab in Panel::ALL {
            let mut app = demo();
            update(&mut app, Intent::ShowTab(tab));
            // Put a meaningful row under the inspector.
            match tab {
                Panel::Timeline => drop(update(&mut app, Intent::NextFailure)),
                Panel::Hitl => drop(update(&mut app, Intent::Down)),
                _ => {}
            }
            let text = screen(&mut app, w, h);
            insta::assert_snapshot!(format!("demo_{}_{w}x{h}", tab.title().to_lowercase()), text);
        }
    }
}

#[test]
fn waiting_turn_is_unmistakable() {
    let mut app = app_for("tests/fixtures/ui/waiting-hitl.json");
    update(&mut app, Intent::ShowTab(Panel::Hitl));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("WAITING"), "{text}");
    insta::assert_snapshot!("waiting_hitl_80x24", text);
    let mut app = app_for("tests/fixtures/ui/waiting-hitl.json");
    update(&mut app, Intent::NextWaiting);
    insta::assert_snapshot!("waiting_timeline_160x48", screen(&mut app, 160, 48));
}

#[test]
fn orphans_and_ambiguity_are_listed() {
    let mut app = app_for("tests/fixtures/ui/failed-orphans.json");
    update(&mut app, Intent::ShowTab(Panel::Tools));
    let text = screen(&mut app, 160, 48);
    assert!(text.contains("ambiguous"), "{text}");
    assert!(text.contains("orphan"), "{text}");
    insta::assert_snapshot!("orphans_tools_160x48", text);
    let mut app = app_for("tests/fixtures/ui/failed-orphans.json");
    insta::assert_snapshot!("orphans_timeline_80x24", screen(&mut app, 80, 24));
}

#[test]
fn absent_usage_is_a_dash_and_zero_is_zero() {
    let mut app = app_for("tests/fixtures/ui/usage-absent-zero.json");
    update(&mut app, Intent::ShowTab(Panel::Usage));
    let text = screen(&mut app, 160, 48);
    // The Usage list is the middle panel of each screen line.
    let usage_row = |label: &str| {
        let line = text.lines().find(|l| l.split('│').any(|cell| cell.starts_with(label))).unwrap();
        line.split('│').find(|cell| cell.starts_with(label)).unwrap().to_string()
    };
    let (turn1, turn2) = (usage_row("turn 1 "), usage_row("turn 2 "));
    assert!(turn1.contains(" 0 "), "zero stays zero: {turn1}");
    assert!(!turn2.contains(" 0 ") && turn2.contains('—'), "absent is a dash: {turn2}");
    insta::assert_snapshot!("usage_absent_zero_160x48", text);
}

#[test]
fn tiny_terminal_does_not_break() {
    for (w, h) in [(60, 15), (40, 12), (20, 6), (1, 1)] {
        let mut app = demo();
        for tab in Panel::ALL {
            update(&mut app, Intent::ShowTab(tab));
            let _ = screen(&mut app, w, h);
        }
        niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
        let _ = screen(&mut app, w, h);
    }
    let mut app = demo();
    insta::assert_snapshot!("demo_timeline_60x15", screen(&mut app, 60, 15));
    assert!(screen(&mut app, 59, 15).contains("terminal too small: 59×15"));
    assert!(screen(&mut app, 80, 14).contains("terminal too small"));
}

#[test]
fn help_is_generated_from_the_key_table() {
    let mut app = demo();
    update(&mut app, Intent::Help);
    let text = screen(&mut app, 100, 90);
    // Descriptions may wrap: compare the words.
    // The popup is 76 columns wide, centred in 100: read only its inside.
    let inside: Vec<String> = text.lines().map(|l| l.chars().skip(13).take(74).collect()).collect();
    let words = inside.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
    for (keys, what) in niceeval::app::keymap::help_rows(niceeval::app::Mode::Normal) {
        let what = what.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains(&what), "help lacks {keys} {what}:\n{text}");
    }
}

#[test]
fn no_color_theme_keeps_marks_and_words() {
    let mut app = app_for("tests/fixtures/ui/failed-orphans.json");
    let text = screen(&mut app, 120, 30);
    for word in ["✗", "failed", "?"] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
    let _ = PriceTable::default();
}

#[test]
fn failed_eval_review_attempts_list_and_assertions() {
    // Opens on the failed attempt's first failing assertion.
    let mut app = app_for("assets/demo/record");
    assert_eq!(app.tab(), Panel::Assertions);
    let text = screen(&mut app, 160, 48);
    assert!(text.contains("Attempts · 2 of 2") && text.contains("Diff (expected → received)"), "{text}");
    insta::assert_snapshot!("record_assertions_160x48", text);
    insta::assert_snapshot!("record_assertions_80x24", screen(&mut app, 80, 24));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    insta::assert_snapshot!("record_attempts_list_160x48", screen(&mut app, 160, 48));
}

#[test]
fn failed_eval_review_source_and_commands() {
    let mut app = app_for("assets/demo/record");
    update(&mut app, Intent::ShowTab(Panel::Source));
    // The first failing assertion's line.
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(7));
    insta::assert_snapshot!("record_source_160x48", screen(&mut app, 160, 48));
    insta::assert_snapshot!("record_source_80x24", screen(&mut app, 80, 24));
    update(&mut app, Intent::ShowTab(Panel::Commands));
    update(&mut app, Intent::Down);
    insta::assert_snapshot!("record_commands_160x48", screen(&mut app, 160, 48));
    insta::assert_snapshot!("record_commands_80x24", screen(&mut app, 80, 24));
}

#[test]
fn assertion_locator_jumps_to_the_exact_event() {
    let mut app = app_for("assets/demo/record");
    // The second failing assertion points at the failed shell call (occurrence 1:2).
    update(&mut app, Intent::Down);
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timeline);
    let view = app.view().unwrap();
    let row = &view.timeline.rows[app.selected_row().unwrap()];
    assert_eq!(niceeval::view::address::event_address(row.turn_ordinal, row.event()), "1:2");
    assert_eq!(row.kind, niceeval::model::timeline::RowKind::ToolStart);
    // Every part of the id matched (session, turn, ordinal, a tool start at the event): not approximate.
    assert!(
        !app.flash_text().is_some_and(|f| f.contains("approximate")),
        "an exact match does not say approximate: {:?}",
        app.flash()
    );
    // The row carries a badge back to the assertion.
    assert_eq!(view.badges.get(&(row.addr(), row.event())).map(Vec::len), Some(1));
}

#[test]
fn a_preview_says_how_far_the_whole_load_has_got() {
    let mut app = demo();
    let loading = niceeval::app::Loading {
        preview_bytes: 4_194_304,
        total_bytes: 1_000_044_051,
        parsed_bytes: 312_400_000,
        parsed_lines: 53_210,
        building: false,
        elapsed_ms: 2_300,
    };
    update(&mut app, niceeval::app::Action::LoadStarted(loading));
    let text = screen(&mut app, 200, 15);
    assert!(text.contains("preview of the first 4.2 MB · loading 312.4 of 1000.0 MB, 53,210 events · 2.3 s"), "{text}");
    insta::assert_snapshot!("preview_loading_200x15", text);
    update(&mut app, niceeval::app::Action::LoadStarted(niceeval::app::Loading { building: true, ..loading }));
    let text = screen(&mut app, 200, 15);
    assert!(text.contains("building the views of 53,210 events"), "{text}");
    // A JSON document reports bytes only: it has no lines to count.
    let bytes_only = niceeval::app::Loading { building: false, parsed_lines: 0, ..loading };
    update(&mut app, niceeval::app::Action::LoadStarted(bytes_only));
    let text = screen(&mut app, 200, 15);
    assert!(text.contains("loading 312.4 of 1000.0 MB · 2.3 s"), "{text}");
}

#[test]
fn the_highlighted_attempt_is_the_attempt_shown() {
    // Failed attempts are listed first, so the first row is not attempt 0.
    let Some(shared) = std::env::var_os("CARGO_MANIFEST_DIR").map(|d| std::path::PathBuf::from(d).join("../shared"))
    else {
        return;
    };
    let record = shared.join("samples/niceeval/generated/record-e2e-cli/record");
    if !record.is_dir() {
        eprintln!("skipped: {} is absent", record.display());
        return;
    }
    let mut app = app_for(record.to_str().unwrap());
    let highlighted = app.nav()[app.nav_state().selected].scope;
    assert_eq!(highlighted, app.scope(), "the navigator highlights the attempt the panels show");
    // j moves to the next attempt, not two down.
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    update(&mut app, Intent::Down);
    assert_eq!(app.nav_state().selected, 1);
}

#[test]
fn the_inspector_scrolls_back_from_its_last_line() {
    // A failed attempt opens on its first failing assertion: a long detail.
    let mut app = app_for("assets/demo/record");
    let draw = |app: &mut App| {
        niceeval::app::update(app, niceeval::app::Action::Resize { width: 160, height: 30 });
        let mut terminal = Terminal::new(TestBackend::new(160, 30)).unwrap();
        let cache = Theme::new(ThemeName::Mono);
        terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
        app.inspector_extent()
    };
    let max = draw(&mut app);
    assert!(max > 0, "the assertion's detail is longer than the panel");
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
    update(&mut app, Intent::Bottom);
    assert_eq!(app.inspector_scroll(), max, "G lands on the last line");
    update(&mut app, Intent::Up);
    assert_eq!(app.inspector_scroll(), max - 1, "k moves up at once");
    for _ in 0..5 {
        update(&mut app, Intent::Down);
    }
    update(&mut app, Intent::Top);
    assert_eq!(app.inspector_scroll(), 0, "g lands on the first line");
}

#[test]
fn several_files_name_their_attempts_and_count_their_own_findings() {
    let paths =
        ["tests/fixtures/ui/failed-orphans.json".to_string(), "tests/fixtures/ui/waiting-hitl.json".to_string()];
    let doc = niceeval::load::load_paths(&paths).expect("fixtures load");
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    let text = screen(&mut app, 200, 30);
    assert!(text.contains("failed-orphans.json") && text.contains("waiting-hitl.json"), "{text}");
    // The header counts the findings of the attempt shown, as its Diagnostics tab lists them.
    let shown = app.scoped_finding_count();
    let header = text.lines().nth(1).unwrap();
    assert!(shown == 0 || header.contains(&format!("⚑ {shown} ")) || header.contains("⚑"), "{header}");
    let summary = &app.view().unwrap().summary;
    assert_eq!(
        summary.errors + summary.warnings,
        app.findings().iter().filter(|f| f.location.attempt() == app.scope().attempt).count()
    );
}

#[test]
fn help_scrolls_to_its_legend_and_says_more_is_below() {
    let mut app = demo();
    update(&mut app, Intent::Help);
    let frame = |app: &mut App| {
        niceeval::app::update(app, niceeval::app::Action::Resize { width: 100, height: 24 });
        let mut terminal = Terminal::new(TestBackend::new(100, 24)).unwrap();
        let cache = Theme::new(ThemeName::Mono);
        terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
        text_of(&terminal)
    };
    let top = frame(&mut app);
    assert!(top.contains("more lines (j/k, PgDn, G)"), "{top}");
    assert!(!top.contains("N assertions point at this row"), "the legend is below the fold at first");
    update(&mut app, Intent::Bottom);
    let bottom = frame(&mut app);
    assert!(bottom.contains("N assertions point at this row"), "G reaches the legend:\n{bottom}");
    assert!(!bottom.contains("more lines"));
    update(&mut app, Intent::PageUp);
    assert!(frame(&mut app).contains("more lines"), "PgUp scrolls back");
}

#[test]
fn a_narrow_footer_keeps_help() {
    for w in [60u16, 80] {
        let mut app = demo();
        let text = screen(&mut app, w, 24);
        let footer = text.lines().last().unwrap();
        assert!(footer.contains("? help"), "{w} columns: {footer}");
    }
}

#[test]
fn identical_findings_share_a_row_with_a_count() {
    // Fifty finishes with no start: fifty orphan-finish findings of one code.
    let mut events: Vec<String> = (0..50)
        .map(|i| {
            format!(r#"{{"type":"operation.finished","operationId":"ghost{i}","kind":"tool","status":"completed"}}"#)
        })
        .collect();
    events.push(r#"{"type":"message","role":"assistant","text":"done"}"#.into());
    let dir = std::env::temp_dir().join(format!("niceeval-group-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ghosts.jsonl");
    std::fs::write(&path, events.join("\n") + "\n").unwrap();
    let mut app = app_for(path.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    update(&mut app, Intent::ShowTab(Panel::Diagnostics));
    let orphan_rows = app.finding_rows().iter().filter(|(i, _)| app.findings()[*i].code == "orphan-finish").count();
    assert_eq!(orphan_rows, 1, "one row for the code");
    let text = screen(&mut app, 200, 40);
    assert!(text.contains("50× "), "{text}");
    assert!(text.contains("Every orphan-finish in this attempt"), "the inspector lists every place:\n{text}");
}

#[test]
fn ctrl_o_goes_back_from_a_jump_and_ctrl_i_forward() {
    // The record opens on its first failing assertion; Enter follows its evidence to the timeline.
    let mut app = app_for("assets/demo/record");
    update(&mut app, Intent::Down);
    let (tab, selected) = (app.tab(), app.lists().assertions.selected);
    update(&mut app, Intent::Enter);
    assert_eq!(app.tab(), Panel::Timeline, "Enter jumped to the evidence row");
    let evidence_row = app.selected_row();
    update(&mut app, Intent::JumpBack);
    assert_eq!((app.tab(), app.lists().assertions.selected), (tab, selected), "Ctrl-o: back on the assertion");
    update(&mut app, Intent::JumpForward);
    assert_eq!((app.tab(), app.selected_row()), (Panel::Timeline, evidence_row), "Ctrl-i: forward to the row");
    update(&mut app, Intent::JumpForward);
    assert!(app.flash_text().is_some_and(|f| f.contains("no later place")));
}

#[test]
fn at_80_columns_the_header_keeps_verdict_waiting_tokens_and_cost_and_every_tab_shows() {
    let mut app = demo();
    let text = screen(&mut app, 80, 24);
    let header = text.lines().nth(1).unwrap();
    // Both costs stay: the observed one and the estimate, never mixed.
    for fact in ["⏸ WAITING", "cost $0.0654", "est $0.0866"] {
        assert!(header.contains(fact), "{fact} missing from {header:?}");
    }
    assert!(header.contains("7,872 tokens") || header.contains("7.9k tok"), "tokens missing from {header:?}");
    let tabs = text.lines().nth(3).unwrap();
    assert!(tabs.contains("7 Changes") && tabs.contains("8 Timing"), "{tabs:?}");
    // Narrower still: every tab's key stays, the open tab keeps its name.
    let tabs = screen(&mut app, 60, 20).lines().nth(3).unwrap().to_string();
    assert!(tabs.starts_with("1 Timeline 2 3 4 5 6 7 8"), "{tabs:?}");
    // A click on a compact tab opens it.
    let areas = niceeval::app::layout::areas(60, 20, &app);
    update(&mut app, Action::ClickAt { column: areas.tab_spans[7].0, row: areas.tabs.y });
    assert_eq!(app.tab(), Panel::Timing);
}

#[test]
fn the_selected_timing_row_keeps_its_bar_visible() {
    let mut app = app_for("assets/demo/record");
    update(&mut app, Intent::ShowTab(Panel::Timing));
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 160, height: 30 });
    let mut terminal = Terminal::new(TestBackend::new(160, 30)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    let row = (0..30).find(|&y| {
        let line: String = (0..160).map(|x| buffer[(x, y)].symbol()).collect();
        line.contains("workspace.prepare") && !line.contains("Timing")
    });
    let y = row.expect("the first row is drawn");
    let bar: Vec<_> = (0..160).filter(|&x| buffer[(x, y)].symbol() == "█").map(|x| buffer[(x, y)].style()).collect();
    assert!(!bar.is_empty(), "the selected row draws its bar");
    for style in bar {
        assert!(!style.add_modifier.contains(ratatui::style::Modifier::REVERSED), "a reversed bar is invisible");
        assert!(style.fg.is_some(), "the bar keeps its colour");
    }
}
