//! The code paths each fuzz target drives. Shared (via `#[path]`) by the
//! cargo-fuzz targets in fuzz/fuzz_targets and by tests/hostile.rs, which
//! replays tests/fixtures/fuzz-regressions through the same functions.
#![allow(dead_code)]

use niceeval::app::{Action, App, Focus, Mode, Tab, update};
use niceeval::plain::{PlainOptions, SectionKind, Selection};
use niceeval::ui::{RenderCache, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A character that must never be in a drawn cell or in uncoloured output.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}' | '\u{061c}'
            | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}'
            | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}')
}

/// Format detection and parsing.
pub fn load(data: &[u8]) {
    match niceeval::load::load_bytes("fuzz.json", data) {
        Err(e) => {
            let text = e.to_string();
            assert!(!text.chars().any(is_unsafe), "unsafe character in a load error: {text:?}");
        }
        Ok(doc) => {
            let _ = niceeval::load::has_errors(&doc);
        }
    }
}

/// Load, derive, lint, the derived JSON, and the viewer's own derivations (App::new).
pub fn derive(data: &[u8]) {
    let Ok(doc) = niceeval::load::load_bytes("fuzz.json", data) else { return };
    let prices = niceeval::model::usage::builtin_prices();
    let derived = niceeval::model::derive_document(&doc, None, &prices);
    let _ = niceeval::model::lint::lint_document(&doc, &derived);
    for (attempt, d) in doc.attempts.iter().zip(&derived) {
        let json = serde_json::to_string_pretty(&d.to_json(attempt)).expect("derived JSON serializes");
        let safe = niceeval::model::text::json_terminal_safe(&json);
        assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'), "unsafe character in derived JSON");
        // The derived JSON nests the payloads a little deeper than the input,
        // so it can pass serde_json's default recursion limit.
        match serde_json::from_str::<serde_json::Value>(&safe) {
            Ok(back) => assert_eq!(back, d.to_json(attempt), "escaping changed the JSON value"),
            Err(e) => assert!(e.to_string().starts_with("recursion limit"), "escaped JSON does not parse: {e}"),
        }
    }
    let _app = App::new(doc, Some("claude-sonnet-4-5".into()), prices);
}

/// Plain output on whatever loads, at several widths.
pub fn plain(data: &[u8]) {
    let Ok(doc) = niceeval::load::load_bytes("fuzz.json", data) else { return };
    let prices = niceeval::model::usage::builtin_prices();
    let (views, findings) = niceeval::view::build_views(&doc, None, &prices);
    let all = SectionKind::ALL;
    for (opts, full) in [
        (PlainOptions::default(), false),
        (PlainOptions { width: 20, boxed: true, color: false }, true),
        (PlainOptions { width: 200, boxed: false, color: true }, false),
    ] {
        let sel = Selection { full, ..Default::default() };
        let text = niceeval::plain::render(&doc, &views, &findings, &all, &sel, &opts).text;
        if !opts.color {
            assert!(!text.contains('\u{1b}'), "ESC in uncoloured plain output");
        }
        // Colour adds SGR sequences only: no other control characters.
        assert!(
            !text.chars().any(|c| is_unsafe(c) && c != '\u{1b}' && c != '\n'),
            "control, bidi or zero-width character in plain output"
        );
    }
}

/// What the terminal layer does on start and resize.
pub fn set_viewport(app: &mut App, width: u16, height: u16) {
    app.viewport.width = width;
    app.viewport.height = height;
    let areas = niceeval::app::layout::areas(width, height, app);
    let (list, inspector, nav) = areas.content_rows();
    app.viewport.list_rows = list.max(1);
    app.viewport.inspector_rows = inspector.max(1);
    app.viewport.nav_rows = nav.max(1);
}

/// Draw and check that no cell holds a control, bidi or zero-width character.
/// Returns the screen as text (one line per row).
pub fn draw(terminal: &mut Terminal<TestBackend>, app: &App, cache: &mut RenderCache) -> String {
    terminal.draw(|f| niceeval::ui::render(f, app, cache)).expect("draw");
    let buffer = terminal.backend().buffer();
    let mut screen = String::new();
    for (i, cell) in buffer.content().iter().enumerate() {
        let s = cell.symbol();
        assert!(!s.chars().any(is_unsafe), "unsafe character in a cell: {s:?}");
        if i > 0 && i % usize::from(buffer.area.width) == 0 {
            screen.push('\n');
        }
        screen.push_str(s);
    }
    screen
}

/// App::new, every tab rendered into a TestBackend, a script of actions.
/// The first byte picks the size and script; the rest is the file.
pub fn tui(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else { return };
    let Ok(doc) = niceeval::load::load_bytes("fuzz.json", file) else { return };
    let prices = niceeval::model::usage::builtin_prices();
    let mut app = App::new(doc, None, prices);
    let (w, h) = [(80, 24), (40, 10), (160, 48), (20, 5)][usize::from(pick & 3)];
    set_viewport(&mut app, w, h);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let mut cache = RenderCache::new(ThemeName::Dark);
    draw(&mut terminal, &app, &mut cache);
    let script: &[Action] = &[
        Action::Down,
        Action::Enter,
        Action::ToggleRaw,
        Action::PageDown,
        Action::Back,
        Action::NextFailure,
        Action::NextWaiting,
        Action::NextTurn,
        Action::ToggleMerge,
        Action::Bottom,
        Action::Copy,
        Action::OpenPager,
        Action::FocusNext,
        Action::Down,
        Action::Enter,
        Action::SearchStart,
        Action::SearchChar('e'),
        Action::SearchCommit,
        Action::SearchNext,
        Action::NextFinding,
        Action::Help,
        Action::PageDown,
        Action::Back,
    ];
    let heavy = pick & 4 != 0;
    for tab in Tab::ALL {
        update(&mut app, Action::ShowTab(tab));
        draw(&mut terminal, &app, &mut cache);
        let actions = if heavy { script } else { &script[..4] };
        for &a in actions {
            update(&mut app, a);
            app.effects.clear();
            if heavy {
                draw(&mut terminal, &app, &mut cache);
            }
        }
        draw(&mut terminal, &app, &mut cache);
        app.focus = Focus::List;
        app.mode = Mode::Normal;
    }
    for i in 0..4u16 {
        update(&mut app, Action::ClickAt { column: w / 2, row: i * h / 4 });
        update(&mut app, Action::ScrollAt { column: w / 3, row: i * h / 4, down: i % 2 == 0 });
    }
    draw(&mut terminal, &app, &mut cache);
}
