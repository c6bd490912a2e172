//! `/` as people expect it: results as you type, Esc puts back what was
//! there, Ctrl-r for a regular expression (show --grep's semantics), and the
//! panel with focus decides what is searched: the timeline, the inspector's
//! lines, or a filter of the Tools and attempts lists.

use niceeval::app::{Action, App, Focus, Intent, Mode, Panel, update};
use niceeval::model::usage::PriceTable;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn app_for(path: &str) -> App {
    let doc = niceeval::load::load_path(path).expect("fixture loads");
    App::new(doc, None, PriceTable::default())
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, Action::SearchChar(c));
    }
}

/// Draw like the terminal loop: one frame of the app's screen.
fn draw(app: &mut App, w: u16, h: u16) -> String {
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string() + "\n").collect()
}

fn row_text(app: &App) -> String {
    let (Some(attempt), Some(view), Some(row)) = (app.attempt(), app.view(), app.selected_row()) else {
        return String::new();
    };
    niceeval::view::timeline::row_view(attempt, view, row).map(|r| r.plain()).unwrap_or_default()
}

#[test]
fn results_follow_each_key_and_esc_puts_back_the_selection() {
    let mut app = app_for("assets/demo/session.json");
    update(&mut app, Intent::Down);
    let start = app.selected_row();
    update(&mut app, Intent::SearchStart);
    assert_eq!(app.mode(), Mode::Search);
    type_text(&mut app, "webfe");
    // Still typing, and the selection is already on a hit.
    assert_eq!(app.mode(), Mode::Search);
    assert!(!app.search().matches.is_empty());
    assert!(row_text(&app).to_lowercase().contains("webfetch"), "{}", row_text(&app));
    assert_eq!(app.prompt_matches(), Some(app.search().matches.len()));
    // A text that matches nothing puts the selection back where `/` found it.
    type_text(&mut app, "zzz");
    assert_eq!(app.search().matches.len(), 0);
    assert_eq!(app.selected_row(), start);
    for _ in 0..3 {
        update(&mut app, Intent::SearchBackspace);
    }
    assert!(!app.search().matches.is_empty());
    update(&mut app, Intent::SearchCancel);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.selected_row(), start, "Esc puts the selection back");
    assert!(app.search().query.is_none(), "Esc puts the (absent) query back");
}

#[test]
fn enter_keeps_the_results_and_a_later_esc_in_the_prompt_keeps_the_earlier_search() {
    let mut app = app_for("assets/demo/session.json");
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "bash");
    update(&mut app, Intent::SearchCommit);
    let kept = (app.search().matches.clone(), app.selected_row());
    assert!(!kept.0.is_empty());
    assert_eq!(app.flash_text(), Some(format!("{} matches", kept.0.len())));
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "edit");
    assert_ne!(app.search().matches, kept.0);
    update(&mut app, Intent::SearchCancel);
    assert_eq!((app.search().matches.clone(), app.selected_row()), kept);
    assert_eq!(app.search().query.as_ref().map(|q| q.text.as_str()), Some("bash"));
}

#[test]
fn ctrl_r_makes_it_a_case_sensitive_regular_expression_like_show_grep() {
    let mut app = app_for("assets/demo/session.json");
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "BASH");
    let ignoring_case = app.search().matches.len();
    assert!(ignoring_case > 0);
    update(&mut app, Intent::SearchToggleRegex);
    assert!(app.search().regex);
    assert_eq!(app.search().matches.len(), 0, "a regex is case-sensitive, as show --grep is");
    for _ in 0..4 {
        update(&mut app, Intent::SearchBackspace);
    }
    type_text(&mut app, "B[a]sh|(?i)WEBFETCH");
    assert!(app.search().matches.len() > ignoring_case, "{}", app.search().matches.len());
    // A broken pattern says why, matches nothing, and Enter does not leave with it.
    type_text(&mut app, "(");
    let error = app.search().error.clone().expect("an error for an unclosed group");
    assert!(error.starts_with("invalid regular expression"), "{error}");
    update(&mut app, Intent::SearchCommit);
    assert_eq!(app.mode(), Mode::Search);
    let screen = draw(&mut app, 120, 30);
    assert!(screen.contains("regex /B[a]sh|(?i)WEBFETCH(▏  invalid regular expression"), "{screen}");
    update(&mut app, Intent::SearchBackspace);
    update(&mut app, Intent::SearchCommit);
    assert_eq!(app.mode(), Mode::Normal);
    update(&mut app, Intent::Down);
    let screen = draw(&mut app, 120, 30);
    assert!(screen.contains("regex /B[a]sh|(?i)WEBFETCH ("), "{screen}");
    // The choice stays for the next search.
    update(&mut app, Intent::SearchStart);
    assert!(app.search().regex);
}

#[test]
fn in_the_tools_list_slash_filters_the_list() {
    let mut app = app_for("assets/demo/session.json");
    update(&mut app, Intent::ShowTab(Panel::Tools));
    let all = app.tool_rows().len();
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "bash");
    assert_eq!(app.tool_rows().len(), 3, "the three Bash calls");
    assert_eq!(app.prompt_matches(), Some(3));
    update(&mut app, Intent::SearchCommit);
    assert_eq!(app.tab(), Panel::Tools, "a list filter stays in its list");
    update(&mut app, Intent::Down);
    let screen = draw(&mut app, 200, 30);
    assert!(screen.contains("filter all /bash"), "{screen}");
    // Filters combine: none of the Bash calls is pending.
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "deploy");
    assert_eq!(app.tool_rows().len(), 1);
    update(&mut app, Intent::SearchCommit);
    update(&mut app, Intent::Back);
    assert_eq!(app.tool_rows().len(), all, "Esc clears the filter");
    assert!(app.tool_query().is_none());
    // Esc in the prompt puts the list back too.
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "no such tool");
    let screen = draw(&mut app, 140, 30);
    assert!(screen.contains("no tool calls match /no such tool (Esc clears it)"), "{screen}");
    update(&mut app, Intent::SearchCancel);
    assert_eq!(app.tool_rows().len(), all);
}

#[test]
fn in_the_attempts_list_slash_filters_attempts_as_you_type() {
    let mut app = app_for("tests/fixtures/exp/run.ndjson");
    assert!(app.doc().attempts.len() > 1);
    let roots = |app: &App| app.nav().iter().filter(|n| n.depth == 0).count();
    let all = roots(&app);
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "zzz-nothing");
    assert_eq!(roots(&app), 0);
    update(&mut app, Intent::SearchCancel);
    assert_eq!(roots(&app), all);
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "coding");
    let some = roots(&app);
    assert!(some > 0 && some <= all);
    update(&mut app, Intent::SearchCommit);
    assert!(app.nav_query().is_some());
}

#[test]
fn in_the_inspector_slash_finds_lines_and_n_moves_between_them() {
    let mut app = app_for("assets/demo/session.json");
    // A tool row whose input and output fill the inspector.
    update(&mut app, Intent::ShowTab(Panel::Tools));
    update(&mut app, Intent::FocusNext);
    assert_eq!(app.focus(), Focus::Inspector);
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "o");
    let screen = draw(&mut app, 140, 40);
    let search = app.inspector_search().cloned().expect("an inspector search");
    let count = app.inspector_match_count().expect("the inspector counts its matching lines");
    assert!(count >= 2, "{screen}");
    assert_eq!(search.current, Some(0));
    update(&mut app, Intent::SearchCommit);
    let screen = draw(&mut app, 140, 40);
    assert!(screen.contains(&format!("inspector /o (match 1 of {count})")), "{screen}");
    update(&mut app, Intent::SearchNext);
    let screen = draw(&mut app, 140, 40);
    assert!(screen.contains(&format!("inspector /o (match 2 of {count})")), "{screen}");
    update(&mut app, Intent::SearchPrev);
    update(&mut app, Intent::SearchPrev);
    let screen = draw(&mut app, 140, 40);
    assert!(screen.contains(&format!("inspector /o (match {count} of {count})")), "wraps: {screen}");
    // Esc clears the inspector's search before it leaves the inspector.
    update(&mut app, Intent::Back);
    assert!(app.inspector_search().is_none());
    assert_eq!(app.focus(), Focus::Inspector);
}

#[test]
fn an_inspector_match_below_the_fold_is_scrolled_into_view() {
    let mut app = app_for("assets/demo/session.json");
    update(&mut app, Intent::ShowTab(Panel::Tools));
    update(&mut app, Intent::FocusNext);
    // The last line of the content: search for a word of it.
    let screen = draw(&mut app, 100, 16);
    assert!(screen.contains("more line"), "the content must be longer than the panel: {screen}");
    let max = app.inspector_extent();
    update(&mut app, Intent::Bottom);
    let bottom = draw(&mut app, 100, 16);
    update(&mut app, Intent::Top);
    draw(&mut app, 100, 16);
    assert_eq!(app.inspector_scroll(), 0);
    // Any word on the last screen but not the first one.
    let first: std::collections::HashSet<&str> = screen.split_whitespace().collect();
    let word = bottom
        .split_whitespace()
        .filter(|w| w.len() >= 5 && w.chars().all(|c| c.is_ascii_alphanumeric()))
        .find(|w| !first.contains(w))
        .expect("a word only below the fold");
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, word);
    draw(&mut app, 100, 16);
    assert!(
        app.inspector_scroll() > 0 && app.inspector_scroll() <= max,
        "scrolled to {word}: {}",
        app.inspector_scroll()
    );
}

#[test]
fn the_timeline_search_finds_values_not_key_names() {
    // "rm" is inside the key "normalizer" and inside one command: only the command is a match.
    let events = [
        r#"{"type":"message","role":"assistant","text":"plain words","normalizer":"none"}"#,
        r#"{"type":"operation.started","operationId":"a","operation":{"kind":"tool","name":"Bash","input":{"command":"rm -rf build"}}}"#,
        r#"{"type":"operation.finished","operationId":"a","kind":"tool","status":"completed","output":"say \"done\""}"#,
    ];
    let dir = std::env::temp_dir().join(format!("niceeval-search-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.jsonl");
    std::fs::write(&path, events.join("\n") + "\n").unwrap();
    let mut app = app_for(path.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, "rm");
    update(&mut app, Intent::SearchCommit);
    while app.search_pending() {
        update(&mut app, Action::SearchStep);
    }
    let rows: Vec<String> = app
        .search()
        .matches
        .iter()
        .map(|&r| niceeval::view::timeline::row_view(app.attempt().unwrap(), app.view().unwrap(), r).unwrap().plain())
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].contains("rm -rf build"), "{rows:?}");
    // A string is matched as it reads, not as JSON escapes it.
    update(&mut app, Intent::SearchStart);
    type_text(&mut app, r#"say "done""#);
    update(&mut app, Intent::SearchCommit);
    assert_eq!(app.search().matches.len(), 1, "the finish's output is found unescaped");
}
