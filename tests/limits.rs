//! Size and shape limits. Every input is generated here into a temp dir
//! (nothing big is committed). Big sizes are scaled down in debug builds;
//! set NICEEVAL_LIMITS_BIG_MB to run the big-string test at another size
//! (the 200 MB run is done by hand in release, see the test's comment).

mod common;

#[path = "../fuzz/harness.rs"]
mod harness;

use common::bin;
use niceeval::app::{App, Effect, Focus, Intent, Panel, update};
use niceeval::ui::{Theme, ThemeName};
use niceeval::view::notice::words;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("niceeval-limits-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn load(path: &str) -> Result<niceeval::model::Document, niceeval::load::LoadError> {
    niceeval::load::load_path(path)
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).env("NO_COLOR", "1").output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn turn_with(events: &str) -> String {
    format!(r#"{{"status":"completed","events":[{events}]}}"#)
}

/// Run `f` on a thread with a 2 MiB stack (smaller than the 8 MiB main
/// thread the binary runs on), so recursion depth problems show up here.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).unwrap().join().expect("no stack overflow or panic")
}

#[test]
fn nesting_100k_levels_is_a_clear_error_naming_the_file() {
    let dir = TempDir::new("deep");
    let depth = 100_000;
    let cases = [
        ("deep-array.json", format!("{}{}", "[".repeat(depth), "]".repeat(depth))),
        ("deep-object.json", format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))),
        (
            "deep-in-turn.json",
            format!(
                r#"{{"status":"completed","events":[{{"type":"message","role":"user","text":"x","extra":{}{}}}]}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            ),
        ),
        ("deep-unclosed.json", "[".repeat(depth)),
        // JSONL: the second line nests too deep.
        (
            "deep.jsonl",
            format!("{{\"type\":\"thinking\",\"text\":\"a\"}}\n{}{}\n", "[".repeat(depth), "]".repeat(depth)),
        ),
    ];
    for (name, text) in cases {
        let path = dir.write(name, text.as_bytes());
        let p = path.clone();
        let result = on_small_stack(move || load(&p).map(|_| ()));
        let err = match result {
            Err(e) => e.to_string(),
            Ok(()) => {
                assert!(name.ends_with(".jsonl"), "{name}: opened");
                continue;
            }
        };
        assert!(err.contains(name), "{name}: error does not name the file: {err}");
        if !name.ends_with(".jsonl") {
            assert!(err.contains("nests too deeply"), "{name}: unclear error: {err}");
        }
        let (code, _, stderr) = cli(&["derive", &path]);
        assert_eq!(code, 2, "{name}: derive exit code");
        assert!(stderr.contains(name), "{name}: {stderr}");
        let (code, _, stderr) = cli(&["view", &path]);
        assert_eq!(code, 2, "{name}: view exit code");
        assert!(!stderr.contains("overflow") && !stderr.contains("panicked"), "{stderr}");
    }
}

/// Just under serde_json's limit (128): our own code (derive, timeline,
/// inspector pretty-printing and highlighting, plain output) must cope.
#[test]
fn deep_but_allowed_values_go_through_every_path() {
    // 4 levels of Turn structure around the payload: 124 + 4 = 128, serde_json's limit.
    let depth = 123;
    let deep_array = format!("{}\"leaf\"{}", "[".repeat(depth), "]".repeat(depth));
    let deep_object = format!("{}\"leaf\"{}", r#"{"k":"#.repeat(depth), "}".repeat(depth));
    let text = turn_with(&format!(
        r#"{{"type":"operation.started","operationId":"c1","operation":{{"kind":"tool","name":"deep","input":{deep_array}}}}},
           {{"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":{deep_object}}},
           {{"type":"input.requested","request":{{"id":"r","prompt":"p","options":{deep_array}}}}},
           {{"type":"mystery","payload":{deep_object}}}"#
    ));
    let v: serde_json::Value = serde_json::from_str(&text).expect("within serde_json's limit");
    drop(v);
    let data = text.into_bytes();
    on_small_stack(move || {
        harness::load(&data);
        harness::derive(&data);
        harness::plain(&data);
        for pick in [4u8, 6] {
            let mut input = vec![pick];
            input.extend_from_slice(&data);
            harness::tui(&input);
        }
        // Inspector on every row, Raw and Preview.
        let doc = niceeval::load::load_bytes("deep.json", &data).unwrap();
        let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
        harness::set_viewport(&mut app, 120, 40);
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        let cache = Theme::new(ThemeName::Dark);
        for _ in 0..app.visible().len() {
            for raw in [false, true] {
                if app.raw() != raw {
                    niceeval::app::update(&mut app, niceeval::app::Intent::ToggleRaw);
                }
                harness::draw(&mut terminal, &app, &cache);
            }
            update(&mut app, Intent::Down);
        }
        update(&mut app, Intent::Copy);
    });
}

/// A single huge string field. Debug: 20 MB (load ~2.2 s, first frame ~2.4 s,
/// ~8 ms per frame after, on a loaded 2-core machine). Other sizes:
///   NICEEVAL_LIMITS_BIG_MB=200 cargo test --release --test limits a_huge_string -- --nocapture
/// Measured by hand on the release binary with a 200 MB string (one message,
/// an ESC escape every 1000 bytes), `/usr/bin/time -v`, 2026-11-30:
///   `niceeval derive big.json`: 2.56 s wall, 574 MiB peak RSS;
///   `niceeval view big.json` (not a TTY): 2.04 s, 574 MiB;
///   interactive `view` in tmux 120x40: first frame 3.43 s (NICEEVAL_TIMING),
///   inspector shows "… (198799794 more characters; o opens the whole value in
///   $PAGER)", whole session incl. scrolling and quit 4.75 s, 574 MiB peak RSS.
#[test]
fn a_huge_string_field_opens_and_pages() {
    let mb: usize = std::env::var("NICEEVAL_LIMITS_BIG_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 20 } else { 200 });
    let dir = TempDir::new("big");
    let mut text = String::with_capacity(mb * 1_000_000 + 200);
    text.push_str(r#"{"status":"completed","events":[{"type":"message","role":"assistant","text":""#);
    let start = text.len();
    // Mixed content so the sanitizer has work: a control char every 1000 bytes.
    while text.len() - start < mb * 1_000_000 {
        text.push_str(&"abcdefghij".repeat(99));
        text.push_str("\\u001b[31");
    }
    let chars = text.len() - start;
    text.push_str(r#""}]}"#);
    let path = dir.write("big.json", text.as_bytes());
    drop(text);

    let t0 = Instant::now();
    let doc = load(&path).expect("big file opens");
    let loaded = t0.elapsed();
    let value_chars = doc.attempts[0].sessions[0].turns[0].turn.events[0].text().unwrap().chars().count();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    let built = t0.elapsed();
    harness::set_viewport(&mut app, 120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    // Select the message row and look at it in the inspector.
    let row = app
        .visible()
        .iter()
        .position(|&r| app.view().unwrap().timeline.rows[r as usize].event() == Some(0))
        .expect("a row for the message");
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(row));
    let top = harness::draw(&mut terminal, &app, &cache);
    let first_frame = t0.elapsed();
    // The stated cut is at the end of the inspector's content.
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
    niceeval::app::update(&mut app, niceeval::app::Intent::Bottom);
    let screen = harness::draw(&mut terminal, &app, &cache);
    niceeval::app::update(&mut app, niceeval::app::Intent::Top);
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
    let t1 = Instant::now();
    for _ in 0..5 {
        update(&mut app, Intent::Up);
        update(&mut app, Intent::Down);
        harness::draw(&mut terminal, &app, &cache);
    }
    let per_frame = t1.elapsed() / 5;
    println!(
        "{mb} MB string: load {loaded:?}, App::new at {built:?}, first frame at {first_frame:?}, then {per_frame:?} per frame"
    );
    // Up to the count: the rest of the sentence wraps in the narrow
    // inspector once the count has nine digits (the 200 MB release run).
    let stated = format!("… ({} more characters;", niceeval::view::format::number((value_chars - 200_000) as f64));
    assert!(screen.contains(&stated), "no stated cut ({stated}):\n{screen}");
    assert!(top.contains("␛[31") || screen.contains("␛[31"), "escape not shown as a placeholder");
    assert_eq!(app.lists().timeline.selected, row);
    niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
    let effects = update(&mut app, Intent::OpenPager);
    let paged = effects.iter().find_map(|e| match e {
        Effect::Page(t) => Some(t.len()),
        _ => None,
    });
    assert!(paged.is_some_and(|n| n >= chars / 2), "o must page the whole value (got {paged:?} of {chars})");
    // Only a hang fails here: the frame's cost is a benchmark (`bench string`
    // in scripts/bench.sh, against a small string in the same run).
    assert!(first_frame < common::HANG_LIMIT, "first frame took {first_frame:?}");
    assert!(per_frame < common::HANG_LIMIT, "each frame takes {per_frame:?}");
}

#[test]
fn long_lines_and_a_million_element_array() {
    let dir = TempDir::new("wide");
    // 20 000 events on one line (no newline at all).
    let events: Vec<String> = (0..20_000)
        .map(|i| format!(r#"{{"type":"message","role":"assistant","text":"message {i} {}"}}"#, "w".repeat(50)))
        .collect();
    let one_line = turn_with(&events.join(","));
    let path = dir.write("one-line.json", one_line.as_bytes());
    let doc = load(&path).expect("a long single line opens");
    assert_eq!(doc.attempts[0].sessions[0].turns[0].turn.events.len(), 20_000);

    // A payload with a million numbers, and a 5 MB line of output.
    let items: Vec<String> = (0..1_000_000).map(|i| i.to_string()).collect();
    let text = turn_with(&format!(
        r#"{{"type":"operation.started","operationId":"c1","operation":{{"kind":"tool","name":"big","input":{{"items":[{}]}}}}}},
           {{"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":"{}"}}"#,
        items.join(","),
        "x".repeat(5_000_000)
    ));
    let path = dir.write("million.json", text.as_bytes());
    let t0 = Instant::now();
    let doc = load(&path).expect("a million-element array opens");
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    harness::set_viewport(&mut app, 120, 40);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    let mut seen = String::new();
    for tab in [Panel::Timeline, Panel::Tools] {
        update(&mut app, Intent::ShowTab(tab));
        update(&mut app, Intent::Top);
        for _ in 0..3 {
            for raw in [false, true] {
                if app.raw() != raw {
                    niceeval::app::update(&mut app, niceeval::app::Intent::ToggleRaw);
                }
                seen.push_str(&harness::draw(&mut terminal, &app, &cache));
                // The end of the inspector, where a cut is stated.
                niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Inspector));
                niceeval::app::update(&mut app, niceeval::app::Intent::Bottom);
                seen.push_str(&harness::draw(&mut terminal, &app, &cache));
                niceeval::app::update(&mut app, niceeval::app::Intent::Top);
                niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            }
            if app.raw() {
                niceeval::app::update(&mut app, niceeval::app::Intent::ToggleRaw);
            }
            update(&mut app, Intent::Down);
        }
    }
    for tab in Panel::ALL {
        update(&mut app, Intent::ShowTab(tab));
        seen.push_str(&harness::draw(&mut terminal, &app, &cache));
    }
    println!("million-element array: opened and drawn every tab in {:?}", t0.elapsed());
    assert!(seen.contains("more characters"), "the big payload is not cut with a stated count");
    let (code, out, err) = cli(&["derive", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"big\""));
}

#[test]
fn huge_numbers_and_duplicate_keys() {
    let dir = TempDir::new("numbers");
    let text = r#"{"status":"completed","usage":{"inputTokens":1e400,"outputTokens":123456789012345678901234567890,
        "cacheReadTokens":-0,"reasoningTokens":1e-400,"requests":-5,"costUSD":1.7976931348623157e309},
        "events":[
          {"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"n","input":{"n":1e999999999}}},
          {"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":-1e400},
          {"type":"message","role":"assistant","text":"first","text":"second"}
        ],
        "events":[{"type":"message","role":"assistant","text":"dup-a","text":"dup-b"}]}"#;
    let path = dir.write("numbers.json", text.as_bytes());
    let doc = load(&path).expect("huge numbers and duplicate keys open");
    // Duplicate keys: the last one wins (serde_json), consistently.
    let events = &doc.attempts[0].sessions[0].turns[0].turn.events;
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].text().as_deref(), Some("dup-b"));
    let data = text.as_bytes().to_vec();
    harness::derive(&data);
    harness::plain(&data);
    harness::tui(&[[4u8].as_slice(), &data].concat());
    let (code, out, err) = cli(&["derive", &path]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<serde_json::Value>(&out).expect("derive output stays valid JSON with huge numbers");

    let numbers_in_payload =
        text.replace(r#""events":[{"type":"message","role":"assistant","text":"dup-a","text":"dup-b"}]"#, r#""x":1"#);
    let path = dir.write("numbers2.json", numbers_in_payload.as_bytes());
    let (code, out, err) = cli(&["derive", &path]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert!(v.to_string().contains("\"n\""), "tool input lost");
}

#[test]
fn bom_crlf_empty_and_invalid_utf8() {
    let dir = TempDir::new("shapes");
    let turn = turn_with(r#"{"type":"message","role":"user","text":"hello"}"#);
    // BOM.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(turn.as_bytes());
    let p = dir.write("bom.json", &bom);
    assert_eq!(load(&p).expect("BOM opens").attempts.len(), 1);
    // CRLF line ends, pretty-printed.
    let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&turn).unwrap()).unwrap();
    let p = dir.write("crlf.json", pretty.replace('\n', "\r\n").as_bytes());
    let doc = load(&p).expect("CRLF opens");
    assert_eq!(doc.attempts[0].sessions[0].turns[0].turn.events[0].text().as_deref(), Some("hello"));
    // BOM + CRLF + trailing whitespace.
    let mut both = b"\xEF\xBB\xBF".to_vec();
    both.extend_from_slice(pretty.replace('\n', "\r\n").as_bytes());
    both.extend_from_slice(b"\r\n\r\n  \t");
    let p = dir.write("bom-crlf.json", &both);
    load(&p).expect("BOM + CRLF opens");

    // Empty and blank files: a clear message, exit 2.
    for (name, bytes) in [("empty.json", &b""[..]), ("blank.json", b" \n\r\n\t "), ("bom-only.json", b"\xEF\xBB\xBF")] {
        let p = dir.write(name, bytes);
        let err = load(&p).expect_err("empty is an error").to_string();
        assert!(err.contains(name) && err.contains("empty"), "{name}: {err}");
        let (code, _, stderr) = cli(&["derive", &p]);
        assert_eq!(code, 2, "{name}");
        assert!(stderr.contains("empty"), "{name}: {stderr}");
        let (code, _, _) = cli(&["view", &p]);
        assert_eq!(code, 2, "{name}");
    }

    // Invalid UTF-8 inside a string: opens, with a notice saying what was replaced.
    let mut bad = turn.clone().into_bytes();
    let at = bad.windows(5).position(|w| w == b"hello").unwrap() + 3;
    bad.splice(at..at, [0xff, 0xfe, 0xc3]);
    let p = dir.write("latin1.json", &bad);
    let doc = load(&p).expect("invalid UTF-8 in a string opens");
    let notice = doc.notices.iter().map(words).find(|m| m.contains("invalid UTF-8"));
    assert!(notice.is_some_and(|m| m.contains("line 1")), "{:?}", doc.notices);
    let text = doc.attempts[0].sessions[0].turns[0].turn.events[0].text().unwrap();
    assert_eq!(text, "hel\u{fffd}\u{fffd}\u{fffd}lo");
    let (code, _, err) = cli(&["derive", &p]);
    assert_eq!(code, 0, "{err}");

    // Binary garbage: a clear error saying it is not text.
    let p = dir.write("garbage.bin", &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xd8]);
    let err = load(&p).expect_err("binary is an error").to_string();
    assert!(err.contains("garbage.bin") && err.contains("not UTF-8"), "{err}");
    assert!(!err.chars().any(|c| c.is_control()), "{err:?}");
    // NUL bytes.
    let p = dir.write("nul.json", b"\0\0\0\0");
    let err = load(&p).expect_err("NULs are an error").to_string();
    assert!(err.contains("nul.json") && !err.contains('\0'), "{err:?}");
}

#[test]
fn exit_codes() {
    let dir = TempDir::new("exit");
    let good = dir.write("good.json", turn_with(r#"{"type":"message","role":"user","text":"hi"}"#).as_bytes());
    assert_eq!(cli(&["derive", &good]).0, 0);
    assert_eq!(cli(&["derive", &dir.0.join("missing.json").to_string_lossy()]).0, 2);
    assert_eq!(cli(&["view", &dir.0.join("missing.json").to_string_lossy()]).0, 2);
    assert_eq!(cli(&["derive"]).0, 2, "usage error");
    assert_eq!(cli(&["--no-such-flag"]).0, 2, "usage error");
    assert_eq!(cli(&["view", "--theme", "nope", &good]).0, 2, "bad option value");
    let dir_path = dir.0.to_string_lossy().to_string();
    let (code, _, err) = cli(&["view", &dir_path]);
    assert_eq!(code, 2);
    assert!(err.contains("directory"), "{err}");
    assert!(Path::new(&good).exists());
}

/// `show`'s "turns" row at 1,000 turns is one short line: the turns counted
/// by status, the most common first, and the turns of each other status
/// named as runs, cut after eight runs with "… (N in all)".
#[test]
fn a_thousand_turns_fold_into_one_short_turns_row() {
    let dir = TempDir::new("turns");
    let failed = |n: usize| n == 7 || n == 12 || (601..=700).step_by(3).any(|f| f == n);
    let waiting = |n: usize| (500..=520).contains(&n);
    let turns: Vec<String> = (1..=1000)
        .map(|n| {
            let status = match n {
                1000 => String::new(),
                n if failed(n) => r#""status":"failed","#.into(),
                n if waiting(n) => r#""status":"waiting","#.into(),
                _ => r#""status":"completed","#.into(),
            };
            format!(r#"{{{status}"events":[{{"type":"message","role":"user","text":"turn {n}"}}]}}"#)
        })
        .collect();
    let path = dir.write("thousand.json", format!(r#"{{"sessions":[{{"turns":[{}]}}]}}"#, turns.join(",")).as_bytes());
    let (code, out, err) = cli(&["show", &path, "--width", "1000"]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("turns ")).collect();
    assert_eq!(rows.len(), 1, "one turns row:\n{out}");
    let (n_failed, n_waiting) = ((1..=1000).filter(|&n| failed(n)).count(), (1..=1000).filter(|&n| waiting(n)).count());
    assert_eq!((n_failed, n_waiting), (36, 21));
    let expected = format!(
        "1,000 turns: {} ✓ completed · 36 ✗ failed (turns 7, 12, 601, 604, 607, 610, 613, 616, … (36 in all)) \
         · 21 ⏸ waiting (turns 500–520) · 1 — no status (turn 1,000)",
        1000 - n_failed - n_waiting - 1
    );
    assert_eq!(rows[0].trim_start().strip_prefix("turns").map(str::trim), Some(expected.as_str()), "{}", rows[0]);
    assert!(rows[0].chars().count() < 200, "the row stays short: {} chars", rows[0].chars().count());
}

/// A status word per turn (statuses NiceEval does not define) does not grow
/// the row either: past five statuses the rest are counted, not listed.
#[test]
fn many_distinct_turn_statuses_are_counted_past_five() {
    let dir = TempDir::new("statuses");
    let turns: Vec<String> = (1..=400).map(|n| format!(r#"{{"status":"odd{n}","events":[]}}"#)).collect();
    let path = dir.write("statuses.json", format!(r#"{{"sessions":[{{"turns":[{}]}}]}}"#, turns.join(",")).as_bytes());
    let (_, out, err) = cli(&["show", &path, "--width", "1000"]);
    let row = out.lines().find(|l| l.trim_start().starts_with("turns ")).unwrap_or_else(|| panic!("{out}{err}"));
    assert_eq!(
        row.trim_start().strip_prefix("turns").map(str::trim),
        Some(
            "400 turns: 1 ? odd1 (turn 1) · 1 ? odd2 (turn 2) · 1 ? odd3 (turn 3) · 1 ? odd4 (turn 4) · 1 ? odd5 (turn 5) \
             · 395 turns of 395 other statuses"
        ),
        "{row}"
    );
}
