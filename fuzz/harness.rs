//! The code paths each fuzz target drives. Shared (via `#[path]`) by the
//! cargo-fuzz targets in fuzz/fuzz_targets and by tests/hostile.rs, which
//! replays tests/fixtures/fuzz-regressions through the same functions.
#![allow(dead_code)]

use niceeval::app::{Action, App, Focus, Intent, Mode, Panel, update};
use niceeval::plain::{PlainOptions, SectionKind, Selection};
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The built-in price table, parsed once: parsing its 240 KB on every run
/// took most of a run's time and left the fuzzer a few executions a second.
fn prices() -> &'static niceeval::model::usage::PriceTable {
    static PRICES: std::sync::OnceLock<niceeval::model::usage::PriceTable> = std::sync::OnceLock::new();
    PRICES.get_or_init(niceeval::model::usage::builtin_prices)
}

/// A character that must never be in a drawn cell or in uncoloured output.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}' | '\u{061c}'
            | '\u{2028}' | '\u{2029}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}'
            | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}')
        || niceeval::model::text::unicode_cf::is_format(c)
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
    let prices = prices().clone();
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
    let (views, findings) = niceeval::analysis::build_views(&doc, None, prices());
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
    niceeval::app::update(app, niceeval::app::Action::Resize { width, height });
}

/// Draw and check that no cell holds a control, bidi or zero-width character.
/// Returns the screen as text (one line per row).
pub fn draw(terminal: &mut Terminal<TestBackend>, app: &App, cache: &Theme) -> String {
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, cache)).expect("draw");
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
    let mut app = App::new(doc, None, prices().clone());
    let (w, h) = [(80, 24), (40, 10), (160, 48), (20, 5)][usize::from(pick & 3)];
    set_viewport(&mut app, w, h);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let cache = Theme::new(ThemeName::Dark);
    draw(&mut terminal, &app, &cache);
    let script: &[Action] = &[
        Intent::Down.into(),
        Intent::Enter.into(),
        Intent::ToggleRaw.into(),
        Intent::PageDown.into(),
        Intent::Back.into(),
        Intent::NextFailure.into(),
        Intent::NextWaiting.into(),
        Intent::NextTurn.into(),
        Intent::ToggleMerge.into(),
        Intent::Bottom.into(),
        Intent::Copy.into(),
        Intent::OpenPager.into(),
        Intent::FocusNext.into(),
        Intent::Down.into(),
        Intent::Enter.into(),
        Intent::SearchStart.into(),
        Action::SearchChar('e'),
        Intent::SearchCommit.into(),
        Intent::SearchNext.into(),
        Intent::NextFinding.into(),
        Intent::Help.into(),
        Intent::PageDown.into(),
        Intent::Back.into(),
    ];
    let heavy = pick & 4 != 0;
    for tab in Panel::ALL {
        update(&mut app, Intent::ShowTab(tab));
        draw(&mut terminal, &app, &cache);
        let actions = if heavy { script } else { &script[..4] };
        for a in actions.iter().cloned() {
            update(&mut app, a);
            if heavy {
                draw(&mut terminal, &app, &cache);
            }
        }
        draw(&mut terminal, &app, &cache);
        niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
        match app.mode() {
            Mode::Search => drop(update(&mut app, Intent::SearchCancel)),
            Mode::Help => drop(update(&mut app, Intent::Back)),
            Mode::Normal => {}
        }
    }
    for i in 0..4u16 {
        update(&mut app, Action::ClickAt { column: w / 2, row: i * h / 4 });
        update(&mut app, Action::ScrollAt { column: w / 3, row: i * h / 4, down: i % 2 == 0 });
    }
    draw(&mut terminal, &app, &cache);
    compare(file, w, h, pick & 4 != 0);
}

/// `compare` and `view --compare` of the file against itself: the text and
/// JSON, the matrix, and (heavy) the split view's tabs, inspector and sides.
fn compare(file: &[u8], w: u16, h: u16, heavy: bool) {
    use niceeval::view::compare::{Compared, json, report};
    let prices = niceeval::model::usage::builtin_prices();
    let load = || {
        niceeval::load::load_bytes("fuzz.json", file).ok().map(|d| niceeval::analysis::build_source(d, None, &prices))
    };
    let (Some(before), Some(after)) = (load(), load()) else { return };
    let Ok(compared) = Compared::two(before, after, &[]) else { return };
    let text = niceeval::plain::layout::render(
        &report::blocks(&compared.view(), 80, 78),
        80,
        false,
        false,
        &niceeval::plain::layout::no_turn_rows,
    );
    assert!(!text.chars().any(|c| c != '\n' && is_unsafe(c)), "unsafe character in compare's text");
    let _ = json::document(&compared.view());
    let mut app = App::for_compare(compared, None, prices.clone());
    set_viewport(&mut app, w, h);
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let cache = Theme::new(ThemeName::Dark);
    draw(&mut terminal, &app, &cache);
    let light: &[Intent] = &[Intent::Down, Intent::CellRight, Intent::Enter, Intent::Down];
    let script: &[Intent] = &[
        Intent::Enter,
        Intent::Down,
        Intent::NextTurn,
        Intent::NextFailure,
        Intent::Enter,
        Intent::PageDown,
        Intent::ToggleRaw,
        Intent::FocusNext,
        Intent::Copy,
        Intent::ShowTab(Panel::Tools),
        Intent::Down,
        Intent::Enter,
        Intent::ShowTab(Panel::Assertions),
        Intent::Bottom,
        Intent::ShowTab(Panel::Usage),
        Intent::ShowTab(Panel::Timing),
        Intent::ViewAttempt,
        Intent::Back,
        Intent::Back,
        Intent::Back,
        Intent::Back,
        Intent::Mark,
        Intent::Down,
        Intent::Enter,
        Intent::Help,
        Intent::Back,
        Intent::Back,
        Intent::Back,
    ];
    for a in (if heavy { script } else { light }).iter().cloned() {
        update(&mut app, a);
        draw(&mut terminal, &app, &cache);
    }
}

/// Pieces the `layout` target builds its strings from: grapheme clusters
/// whose width is not the sum of their characters' (ZWJ sequences, skin
/// tones, variation selectors, flags, Hangul jamo, halfwidth sound marks,
/// prepended marks), their loose parts, wide and zero-width characters, and
/// what sanitizing replaces (controls, bidi, zero-width).
const PIECES: &[&str] = &[
    "a",
    " ",
    "word ",
    "日本",
    "e\u{301}",
    "\u{301}",
    "\u{2764}\u{fe0f}",
    "\u{2764}\u{fe0f}\u{200d}\u{1f525}",
    "\u{fe0f}",
    "\u{fe0e}",
    "\u{200d}",
    "\u{1f525}",
    "\u{1f44d}",
    "\u{1f3fd}",
    "\u{1f1fa}",
    "\u{1f1f8}",
    "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
    "\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}",
    "\u{1100}",
    "\u{1161}",
    "\u{11a8}",
    "\u{ff8a}",
    "\u{ff9e}",
    "\u{600}",
    "\u{903}",
    "\u{a0}",
    "\u{3000}",
    "…",
    "─",
    "│",
    "\t",
    "\n",
    "\r",
    "\u{1b}[31m",
    "\u{202e}",
    "\u{200b}",
    "\u{2028}",
    "\u{9b}",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
];

/// Strings made of [`PIECES`]: each byte picks a piece, 0xFF starts the next string.
fn grapheme_strings(data: &[u8]) -> Vec<String> {
    let mut out = vec![String::new()];
    for &b in data {
        match b {
            0xff => out.push(String::new()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push_str(PIECES[usize::from(b) % PIECES.len()]);
                }
            }
        }
    }
    out
}

/// Every line of plain output fits its width, and in boxed output every line
/// of a box is exactly as wide as the box, by the width the layout measures.
pub fn assert_lines_fit(text: &str, width: usize, boxed: bool, what: &str) {
    let width = width.max(20);
    let box_w = width.min(100);
    for line in text.lines() {
        let w = niceeval::model::text::width(line);
        if boxed && width >= 60 && line.starts_with(['│', '╭', '├', '╰']) {
            assert_eq!(w, box_w, "{what}: a box line is {w} columns, not {box_w}: {line:?}");
        } else {
            assert!(w <= width, "{what}: a line is {w} columns, wider than {width}: {line:?}");
        }
        assert!(!line.chars().any(is_unsafe), "{what}: unsafe character in {line:?}");
    }
}

/// `text` without SGR colour sequences, each line's trailing spaces dropped.
fn uncoloured(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        rest = after.find('m').map_or("", |m| &after[m + 1..]);
    }
    out.push_str(rest);
    out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// The plain layout on grapheme-heavy strings: sections, nested dividers,
/// tables of every column kind and key–value lines, boxed and not, at the
/// width the first byte picks; then the same strings as tool names, texts,
/// labels and the model of a Turn, through `show --all --boxed`.
pub fn layout(data: &[u8]) {
    use niceeval::plain::layout::{Block, Column, Section, Table, Text, Tone, kv, no_turn_rows, render};
    // Each byte becomes up to 40 characters: past this, an input only slows the run down.
    let data = &data[..data.len().min(1024)];
    let Some((&pick, rest)) = data.split_first() else { return };
    let width = 20 + usize::from(pick) % 121;
    let strings = grapheme_strings(rest);
    let s = |i: usize| strings.get(i).cloned().unwrap_or_default();
    // Spans in alternating tones, so span boundaries fall inside clusters too.
    let toned = |i: usize| {
        let mut t = Text::new();
        for (k, part) in s(i).split_inclusive(['e', ' ', '\u{2764}', '\u{1f44d}']).enumerate() {
            t.push(part, if k % 2 == 0 { Tone::Plain } else { Tone::Bad });
        }
        t
    };
    let table = Table {
        columns: vec![Column::left(&s(0)), Column::right(&s(1)), Column::cut(&s(2)), Column::fixed(&s(3))],
        rows: vec![
            vec![toned(4), Text::plain(s(5)), toned(6), Text::plain(s(7))],
            vec![Text::plain(s(8)), Text::new(), toned(9)],
        ],
        floor: vec![],
    };
    let inner = Section::new(s(10), toned(11), vec![Block::Table(table.clone()), Block::Line(toned(12))]);
    let body = vec![
        kv(&s(13), 10, toned(14)),
        Block::Blank,
        Block::Table(table),
        Block::Section(inner),
        Block::Line(toned(15)),
    ];
    let blocks = vec![Block::Section(Section::new(s(16), toned(17), body)), Block::Line(toned(18))];
    for boxed in [true, false] {
        let plain = render(&blocks, width, boxed, false, &no_turn_rows);
        assert_lines_fit(&plain, width, boxed, &format!("layout width {width} boxed {boxed}"));
        let coloured = render(&blocks, width, boxed, true, &no_turn_rows);
        assert_eq!(uncoloured(&coloured), uncoloured(&plain), "colour changed the layout");
    }
    let turn = serde_json::json!({
        "format": "niceeval-viewer.session/1",
        "model": s(0),
        "evalId": s(1),
        "sessions": [{"sessionIndex": 1, "sessionId": s(2), "turns": [{"label": s(3), "turn": {
            "status": "completed",
            "usage": {"inputTokens": 1, "outputTokens": 2},
            "events": [
                {"type": "operation.started", "operationId": "a", "operation": {"kind": "tool", "name": s(4), "input": {"q": s(5)}}},
                {"type": "operation.finished", "operationId": "a", "kind": "tool", "status": "completed", "output": s(6)},
                {"type": "message", "role": "assistant", "text": s(7)},
                {"type": "input.requested", "request": {"id": s(8), "prompt": s(9)}},
            ],
        }}]}],
    });
    let Ok(doc) = niceeval::load::load_bytes("fuzz.json", turn.to_string().as_bytes()) else { return };
    let (views, findings) = niceeval::analysis::build_views(&doc, None, prices());
    for full in [false, true] {
        let opts = PlainOptions { width, boxed: width >= 60, color: false };
        let sel = Selection { full, ..Default::default() };
        let text = niceeval::plain::render(&doc, &views, &findings, &SectionKind::ALL, &sel, &opts).text;
        assert_lines_fit(&text, width, opts.boxed, &format!("show --all width {width} full {full}"));
    }
}
