//! Hostile input: every string of a Turn and of a session capture carries
//! terminal escapes, C0/C1 controls, bidi and zero-width characters and
//! unpaired surrogates. Nothing of it may reach a terminal raw, and each
//! must show as a visible placeholder. Also replays the fuzz regressions.

mod common;

#[path = "../fuzz/harness.rs"]
mod harness;

use common::fixture;
use harness::{draw, is_unsafe, set_viewport};
use niceeval::app::{Action, App, Focus, Intent, Panel, update};
use niceeval::ui::{Theme, ThemeName};
use niceeval::view::notice::words;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;

const HOSTILE: [&str; 3] = ["hostile-turn.json", "hostile-session.json", "hostile-raw-utf8.json"];

fn hostile(name: &str) -> PathBuf {
    fixture("hostile").join(name)
}

/// Placeholders that the fixtures' content must produce somewhere on screen.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("␛", "ESC"),
    ("␇", "BEL"),
    ("␈", "backspace"),
    ("␀", "NUL"),
    ("␋", "vertical tab"),
    ("␌", "form feed"),
    ("␍", "carriage return"),
    ("␎", "shift out"),
    ("␟", "unit separator"),
    ("␡", "DEL"),
    ("‹C1:80›", "C1 0x80"),
    ("‹C1:85›", "C1 NEL"),
    ("‹C1:9B›", "C1 CSI"),
    ("‹C1:9D›", "C1 OSC"),
    ("‹U+202A›", "bidi LRE"),
    ("‹U+202E›", "bidi RLO"),
    ("‹U+2066›", "bidi LRI"),
    ("‹U+2069›", "bidi PDI"),
    ("‹U+200E›", "LRM"),
    ("‹U+200B›", "zero-width space"),
    ("‹U+200D›", "zero-width joiner"),
    ("‹U+2060›", "word joiner"),
    ("‹U+FEFF›", "zero-width no-break space"),
    ("\u{fffd}", "unpaired surrogate / invalid UTF-8"),
];

fn load(name: &str) -> niceeval::model::Document {
    let path = hostile(name);
    niceeval::load::load_path(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{name} must open: {e}"))
}

/// Render every tab, and every timeline row in the inspector (Preview and Raw),
/// at one size. Returns all screen text seen.
fn render_everything(doc: niceeval::model::Document, width: u16, height: u16) -> String {
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    set_viewport(&mut app, width, height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    let mut seen = String::new();
    for tab in Panel::ALL {
        update(&mut app, Intent::ShowTab(tab));
        niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
        let len = app.list_len();
        update(&mut app, Intent::Top);
        for _ in 0..len.max(1) {
            seen.push_str(&draw(&mut terminal, &app, &cache));
            update(&mut app, Intent::Down);
        }
    }
    // Every timeline row, in the inspector, Preview and Raw, merged and not.
    for merge in [true, false] {
        if app.merge() != merge {
            update(&mut app, Intent::ToggleMerge);
        }
        update(&mut app, Intent::ShowTab(Panel::Timeline));
        niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
        update(&mut app, Intent::Top);
        for _ in 0..app.visible().len() {
            for raw in [false, true] {
                if app.raw() != raw {
                    niceeval::app::update(&mut app, niceeval::app::Intent::ToggleRaw);
                }
                niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
                // Scroll through the whole inspector content.
                niceeval::app::update(&mut app, niceeval::app::Intent::Top);
                for _ in 0..4 {
                    seen.push_str(&draw(&mut terminal, &app, &cache));
                    niceeval::app::update(&mut app, niceeval::app::Intent::PageDown);
                }
                niceeval::app::update(&mut app, niceeval::app::Intent::Top);
            }
            if app.raw() {
                niceeval::app::update(&mut app, niceeval::app::Intent::ToggleRaw);
            }
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            update(&mut app, Intent::Down);
        }
    }
    // The help overlay, a search for an escape, the navigator over every node.
    update(&mut app, Intent::Help);
    seen.push_str(&draw(&mut terminal, &app, &cache));
    update(&mut app, Intent::Back);
    update(&mut app, Intent::SearchStart);
    for c in "\u{1b}[2J\u{9b}".chars() {
        update(&mut app, Action::SearchChar(c));
    }
    seen.push_str(&draw(&mut terminal, &app, &cache));
    update(&mut app, Intent::SearchCommit);
    seen.push_str(&draw(&mut terminal, &app, &cache));
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
    update(&mut app, Intent::Top);
    for _ in 0..app.nav().len() {
        seen.push_str(&draw(&mut terminal, &app, &cache));
        update(&mut app, Intent::Down);
    }
    seen
}

#[test]
fn hostile_fixtures_open_with_a_repair_notice() {
    for name in HOSTILE {
        let doc = load(name);
        assert!(!doc.attempts.is_empty(), "{name}: no attempt");
        let events: usize =
            doc.attempts.iter().flat_map(|a| &a.sessions).flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
        assert!(events >= 17, "{name}: only {events} events loaded");
        let notice = doc.notices.iter().find(|n| words(n).contains("U+FFFD")).map(words);
        let notice = notice.unwrap_or_else(|| panic!("{name}: no repair notice in {:?}", doc.notices));
        if name.contains("raw") {
            assert!(notice.contains("invalid UTF-8"), "{notice}");
        } else {
            assert!(notice.contains("unpaired UTF-16 surrogate"), "{notice}");
        }
    }
}

#[test]
fn every_tab_renders_without_raw_controls_and_with_visible_placeholders() {
    for name in HOSTILE {
        for (w, h) in [(80, 24), (160, 48)] {
            let seen = render_everything(load(name), w, h);
            let missing: Vec<&str> =
                PLACEHOLDERS.iter().filter(|(p, _)| !seen.contains(p)).map(|(_, what)| *what).collect();
            assert!(missing.is_empty(), "{name} at {w}×{h}: no visible placeholder for {missing:?}");
            // The OSC 52 payload is shown as inert text, not swallowed.
            assert!(seen.contains("␛]52;c;aGFja2Vk␇"), "{name} at {w}×{h}: OSC 52 not shown as text");
            assert!(seen.contains("␛]8;;https://evil.example/"), "{name} at {w}×{h}: OSC 8 not shown as text");
        }
    }
}

#[test]
fn a_hostile_file_name_is_drawn_as_placeholders() {
    let bytes = std::fs::read(hostile("hostile-turn.json")).unwrap();
    let name = "evil\u{1b}]52;c;AAAA\u{7}\u{9b}2J\u{202e}name.json";
    let doc = niceeval::load::load_bytes(name, &bytes).unwrap();
    let seen = render_everything(doc, 160, 48);
    assert!(seen.contains("evil␛]52;c;AAAA␇‹C1:9B›2J‹U+202E›name.json"), "file name not shown safely");
}

#[test]
fn tiny_terminals_show_the_size_notice_and_nothing_else() {
    for (w, h) in [(1, 1), (2, 3), (10, 4), (20, 5), (30, 8), (300, 2), (59, 40), (200, 14)] {
        let seen = render_everything(load("hostile-session.json"), w, h);
        // Every screen of every tab and row is the notice, wrapped at the width, and blank below.
        let notice = niceeval::view::Text::plain(niceeval::view::chrome::too_small(w, h));
        let lines = niceeval::view::chrome::too_small_lines(&notice, usize::from(w));
        let pad = |t: &niceeval::view::Text| {
            format!("{}{}", t.as_plain(), " ".repeat(usize::from(w).saturating_sub(t.width())))
        };
        let screen: Vec<String> =
            lines.iter().map(pad).chain(std::iter::repeat(" ".repeat(usize::from(w)))).take(usize::from(h)).collect();
        let screen = screen.join("\n");
        let screens = seen.len() / screen.len();
        assert!(screens > Panel::ALL.len(), "{w}×{h}: only {screens} screens drawn");
        assert!(
            seen == screen.repeat(screens),
            "{w}×{h}: a screen other than the notice:\n{}",
            &seen[..seen.len().min(2000)]
        );
    }
}

// ---- the real binary, stdout not a terminal, colour off --------------------

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let (code, stdout, stderr) = common::run_plain(args);
    Run { code, stdout, stderr }
}

fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    assert!(!bytes.contains(&0x1b), "{what}: raw ESC byte in output");
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text.chars().filter(|&c| is_unsafe(c) && c != '\n').take(5).collect();
    assert!(bad.is_empty(), "{what}: unsafe characters {bad:?} in output");
}

#[test]
fn derive_escapes_everything_in_json() {
    for name in HOSTILE {
        let path = hostile(name);
        let r = run(&["derive", path.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{name}: derive failed: {}", r.stderr);
        assert_terminal_safe(&format!("derive {name} stdout"), &r.stdout);
        assert_terminal_safe(&format!("derive {name} stderr"), r.stderr.as_bytes());
        let text = String::from_utf8(r.stdout).expect("derive prints UTF-8");
        assert!(text.contains("\\u001b[2J"), "{name}: ESC not kept as \\u001b in derive JSON");
        assert!(text.contains("\\u009b"), "{name}: C1 CSI not escaped in derive JSON");
        assert!(text.contains("\\u202e"), "{name}: bidi override not escaped in derive JSON");
        let v: serde_json::Value = serde_json::from_str(&text).expect("derive output is JSON");
        // The escaped JSON still carries the exact characters.
        assert!(v.to_string().contains('\u{1b}') || text.contains("\\u001b"));
    }
}

/// `show`, `show --all`, `check`, `view` (not a TTY): no raw controls, ever;
/// when the command prints content, the placeholders are in it.
#[test]
fn plain_commands_print_no_raw_controls() {
    let path = hostile("hostile-session.json");
    let path = path.to_str().unwrap();
    for args in [vec!["show", path], vec!["show", "--all", path], vec!["check", path], vec!["view", path]] {
        let what = args.join(" ");
        let r = run(&args);
        assert_terminal_safe(&format!("{what} stdout"), &r.stdout);
        assert_terminal_safe(&format!("{what} stderr"), r.stderr.as_bytes());
        if r.stderr.contains("not implemented") || r.stderr.contains("unexpected argument") {
            println!("{what}: not implemented on this branch yet (exit {}); checked raw controls only", r.code);
            continue;
        }
        assert!(matches!(r.code, 0 | 1), "{what}: exit {} ({})", r.code, r.stderr);
        let text = String::from_utf8_lossy(&r.stdout);
        if text.trim().is_empty() {
            println!("{what}: printed nothing (plain output not implemented yet?); checked raw controls only");
            continue;
        }
        if args[0] != "check" {
            for p in ["␛", "‹C1:9B›", "‹U+202E›", "‹U+200B›"] {
                assert!(text.contains(p), "{what}: placeholder {p} missing from output");
            }
        }
    }
}

#[test]
fn hostile_file_names_are_sanitized_in_errors() {
    let dir = std::env::temp_dir().join(format!("niceeval-hostile-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = dir.join("evil\u{1b}]52;c;AAAA\u{7}\u{202e}.json");
    std::fs::write(&name, b"{ not json").unwrap();
    let r = run(&["derive", name.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_terminal_safe("error for a hostile file name", r.stderr.as_bytes());
    assert!(r.stderr.contains("␛]52"), "file name not shown with placeholders: {}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- fuzz regressions --------------------------------------------------------

fn regression_files(target: &str) -> Vec<PathBuf> {
    let dir = fixture("fuzz-regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

fn replay(target: &str, f: fn(&[u8])) -> usize {
    let files = regression_files(target);
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let result = std::panic::catch_unwind(|| f(&data));
        assert!(result.is_ok(), "fuzz regression {} panics again", file.display());
    }
    files.len()
}

#[test]
fn fuzz_regressions_replay_cleanly() {
    let mut total = 0;
    for (target, f) in [
        ("load", harness::load as fn(&[u8])),
        ("derive", harness::derive),
        ("plain", harness::plain),
        ("tui", harness::tui),
        ("layout", harness::layout),
    ] {
        let n = replay(target, f);
        println!("fuzz regressions: {target}: {n} inputs");
        total += n;
    }
    // Every regression input also goes through every other target.
    for target in ["load", "derive", "plain", "tui", "layout"] {
        for file in regression_files(target) {
            let data = std::fs::read(&file).unwrap();
            harness::load(&data);
            harness::derive(&data);
            harness::plain(&data);
            harness::tui(&data);
            harness::layout(&data);
        }
    }
    println!("fuzz regressions: {total} inputs replayed");
}

#[test]
fn hostile_fixtures_pass_every_fuzz_path() {
    for name in HOSTILE {
        let data = std::fs::read(hostile(name)).unwrap();
        harness::load(&data);
        harness::derive(&data);
        harness::plain(&data);
        for pick in 0u8..8 {
            let mut input = vec![pick];
            input.extend_from_slice(&data);
            harness::tui(&input);
        }
    }
}
