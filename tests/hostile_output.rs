//! Hostile input, what leaves the viewer: JSON documents (`show --json`,
//! `compare --json`, `check --format json`, `derive`), copied and paged
//! text, and closed pipes.

mod common;

#[path = "../fuzz/harness.rs"]
mod harness;

use common::{bin, fixture};
use harness::is_unsafe;
use std::path::PathBuf;
use std::process::Command;

const HOSTILE: [&str; 3] = ["hostile-turn.json", "hostile-session.json", "hostile-raw-utf8.json"];

fn hostile(name: &str) -> PathBuf {
    fixture("hostile").join(name)
}

fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    common::run_plain(args)
}

/// No character a terminal acts on or reorders text by: C0 (but newline),
/// DEL, C1, bidi controls and every other format (Cf) character.
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    assert!(!bytes.contains(&0x1b), "{what}: raw ESC byte in output");
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<String> =
        text.chars().filter(|&c| is_unsafe(c) && c != '\n').take(5).map(|c| format!("U+{:04X}", c as u32)).collect();
    assert!(bad.is_empty(), "{what}: unsafe characters {bad:?} in output");
}

/// Every JSON document a command prints about hostile input is free of raw
/// controls, is JSON, and still holds the hostile characters (escaped, not dropped).
#[test]
fn every_json_output_escapes_c1_bidi_and_format_characters() {
    for name in HOSTILE {
        let path = hostile(name);
        let path = path.to_str().unwrap();
        for args in [
            vec!["show", "--json", path],
            vec!["show", "--json", "--all", path],
            vec!["compare", "--json", path, path],
            vec!["check", "--format", "json", path],
            vec!["derive", path],
        ] {
            let what = format!("{} ({name})", args.join(" "));
            let (code, stdout, stderr) = run(&args);
            assert!(matches!(code, 0 | 1), "{what}: exit {code}: {stderr}");
            assert_terminal_safe(&format!("{what} stdout"), &stdout);
            assert_terminal_safe(&format!("{what} stderr"), stderr.as_bytes());
            let text = String::from_utf8(stdout).expect("UTF-8 JSON");
            let value: serde_json::Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
            // check's findings quote no file text raw; compare quotes file
            // text only where a session's Turns differ (hostile-session's).
            if args[0] == "check" || (args[0] == "compare" && name != "hostile-session.json") {
                continue;
            }
            for (escaped, raw) in [
                ("\\u009b", '\u{9b}'),
                ("\\u0085", '\u{85}'),
                ("\\u202e", '\u{202e}'),
                ("\\u2066", '\u{2066}'),
                ("\\u200e", '\u{200e}'),
                ("\\ufeff", '\u{feff}'),
            ] {
                assert!(text.contains(escaped), "{what}: {escaped} missing");
                // Same meaning: the parsed value holds the character itself.
                assert!(value.to_string().contains(raw), "{what}: {escaped} does not decode to U+{:04X}", raw as u32);
            }
        }
    }
}

/// Every Unicode format (Cf) character, not only the bidi and zero-width ones,
/// reaches the screen as a placeholder and JSON as an escape.
#[test]
fn every_format_character_is_a_placeholder_on_screen_and_an_escape_in_json() {
    let path = hostile("hostile-format-chars.json");
    let path = path.to_str().unwrap();
    let codes = [
        0x180e, 0x2065, 0x206a, 0x206f, 0x0600, 0x06dd, 0x070f, 0x08e2, 0xfeff, 0x00ad, 0xe0001, 0x1d173, 0x110bd,
        0x13430, 0x1bca0, 0xfff9,
    ];
    for args in [vec!["show", path], vec!["show", "--all", "--full", path]] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_terminal_safe(&args.join(" "), &stdout);
        let text = String::from_utf8_lossy(&stdout);
        if !args.contains(&"--full") {
            continue; // one-line summaries, cut: safe is all they must be
        }
        for c in codes {
            let placeholder = format!("<‹U+{c:04X}›>");
            assert!(text.contains(&placeholder), "{args:?}: no {placeholder}");
        }
    }
    let (_, stdout, _) = run(&["show", "--json", path]);
    assert_terminal_safe("show --json", &stdout);
    let text = String::from_utf8(stdout).unwrap();
    for c in [0x180e, 0x2065, 0x206a, 0x0600, 0x110bd] {
        let ch = char::from_u32(c).unwrap();
        let mut units = [0u16; 2];
        let escaped: String = ch.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect();
        assert!(text.contains(&escaped), "show --json: {escaped} missing");
    }
}

// ---- copy (`y`, OSC 52) and the pager (`o`) -----------------------------------

/// A message that would, pasted into a shell inside a bracketed paste, end the
/// paste early and run its second line.
const PASTE_BREAKOUT: &str =
    "Run the tests with: pnpm test\u{1b}[201~\nid > pwned.txt\n\u{1b}[200~ \u{9b}2J\u{202e}\u{180e}\ttab";

fn app_with_message(text: &str) -> niceeval::app::App {
    let turn =
        serde_json::json!({"status": "completed", "events": [{"type": "message", "role": "assistant", "text": text}]});
    let doc = niceeval::load::load_bytes("paste.json", turn.to_string().as_bytes()).unwrap();
    niceeval::app::App::new(doc, None, niceeval::model::usage::builtin_prices())
}

#[test]
fn copy_and_pager_hand_out_sanitised_text_and_say_what_was_replaced() {
    use niceeval::app::{Effect, Intent, Panel, update};
    let mut app = app_with_message(PASTE_BREAKOUT);
    update(&mut app, Intent::ShowTab(Panel::Timeline));
    // The message row: the first row whose value is the message's text.
    update(&mut app, Intent::Top);
    let mut copied = None;
    for _ in 0..app.list_len() {
        if let Some(Effect::Copy(text)) = update(&mut app, Intent::Copy).last()
            && text.contains("pnpm test")
        {
            copied = Some(text.clone());
            break;
        }
        update(&mut app, Intent::Down);
    }
    let copied = copied.expect("the message row copies its text");
    assert!(!copied.contains('\u{1b}'), "ESC byte in the copied text: {copied:?}");
    assert!(!copied.chars().any(|c| is_unsafe(c) && c != '\n' && c != '\t'), "unsafe character copied: {copied:?}");
    // Newlines and tabs are the text's own and stay as they are.
    assert!(copied.contains("␛[201~\nid > pwned.txt\n␛[200~"), "{copied:?}");
    assert!(copied.contains("‹C1:9B›2J‹U+202E›‹U+180E›\ttab"), "{copied:?}");
    let flash = app.flash_text().unwrap_or_default();
    assert!(flash.contains("5 control characters replaced"), "flash: {flash}");
    match update(&mut app, Intent::OpenPager).last() {
        Some(Effect::Page(text)) => assert_eq!(text, &copied, "the pager gets what the copy got"),
        other => panic!("o gave {other:?}"),
    }
    let flash = app.flash_text().unwrap_or_default();
    assert!(flash.contains("5 control characters replaced"), "pager flash: {flash}");
    // Clean text says nothing of replacing.
    let mut clean = app_with_message("all fine\n\tindented");
    update(&mut clean, Intent::ShowTab(Panel::Timeline));
    update(&mut clean, Intent::Bottom);
    update(&mut clean, Intent::Copy);
    let flash = clean.flash_text().unwrap_or_default();
    assert!(flash.starts_with("copied") && !flash.contains("replaced"), "{flash}");
}

// ---- a closed pipe -------------------------------------------------------------

/// A Turn of `n` tool calls with long inputs and outputs: megabytes of output from every command.
fn big_turn(n: usize) -> PathBuf {
    let mut events = Vec::new();
    for i in 0..n {
        let input = serde_json::json!({"command": format!("echo {}", "x".repeat(200))});
        events.push(serde_json::json!({"type": "operation.started", "operationId": format!("op{i}"),
            "operation": {"kind": "tool", "name": "Bash", "input": input}}));
        events.push(serde_json::json!({"type": "operation.finished", "operationId": format!("op{i}"), "kind": "tool",
            "status": "completed", "output": {"stdout": "y".repeat(200)}}));
    }
    let path = std::env::temp_dir().join(format!("niceeval-epipe-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::json!({"status": "completed", "events": events}).to_string()).unwrap();
    path
}

/// `niceeval … | head -c 10`: the reader goes away after 10 bytes; the
/// command ends as it would have (exit 0; check's own code) and says nothing of it.
#[test]
fn a_pipe_closed_early_is_a_clean_exit() {
    use std::io::Read;
    let path = big_turn(3000);
    let p = path.to_str().unwrap();
    for args in [
        vec!["derive", p],
        vec!["check", p],
        vec!["check", "--format", "json", p],
        vec!["show", p],
        vec!["show", "--all", p],
        vec!["show", "--json", p],
        vec!["compare", p, p],
        vec!["compare", "--json", p, p],
        vec!["view", p],
    ] {
        let mut child = Command::new(bin())
            .args(&args)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The read end is closed here (the ChildStdout was dropped).
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The exit code is the one of a run read to its end (check's says whether it found something).
        let (whole, _, _) = run(&args);
        assert!(matches!(whole, 0 | 1), "{args:?} read whole: exit {whole}");
        assert_eq!(out.status.code(), Some(whole), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe") && !stderr.contains("os error"), "{args:?}: {stderr}");
    }
    std::fs::remove_file(&path).unwrap();
}

// ---- show --full ------------------------------------------------------------------

/// `show --full` prints a message's, thinking's and error's whole text, past
/// the 4,096 characters a one-line summary keeps.
#[test]
fn show_full_does_not_cut_long_texts() {
    let long =
        |tag: &str| format!("{tag} {} END-{tag}", (0..1500).map(|i| format!("w{i:05}")).collect::<Vec<_>>().join(" "));
    let turn = serde_json::json!({"status": "completed", "events": [
        {"type": "message", "role": "assistant", "text": long("MSG")},
        {"type": "thinking", "text": long("THINK")},
        {"type": "error", "message": long("ERR")},
    ]});
    let path = std::env::temp_dir().join(format!("niceeval-long-{}.json", std::process::id()));
    std::fs::write(&path, turn.to_string()).unwrap();
    let p = path.to_str().unwrap();
    for args in [vec!["show", "--full", p], vec!["show", "--all", "--full", p]] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let text = String::from_utf8_lossy(&stdout);
        for tag in ["END-MSG", "END-THINK", "END-ERR"] {
            assert!(text.contains(tag), "{args:?}: {tag} cut off");
        }
    }
    // Without --full the summaries stay cut.
    let (_, stdout, _) = run(&["show", p]);
    assert!(!String::from_utf8_lossy(&stdout).contains("END-MSG"), "show without --full printed the whole text");
    std::fs::remove_file(&path).unwrap();
}

// ---- TERM=dumb --------------------------------------------------------------------

/// Run `niceeval args` on a pseudo-terminal (`script`) with `TERM=dumb`; its screen output.
fn on_dumb_terminal(args: &[&str]) -> Option<Vec<u8>> {
    let Ok(found) = Command::new("script").arg("--version").output() else {
        println!("script(1) not found: TERM=dumb on a terminal not checked");
        return None;
    };
    assert!(found.status.success(), "script --version failed");
    let command = std::iter::once(bin().display().to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("timeout")
        .args(["180", "script", "-qec", &command, "/dev/null"])
        .env("TERM", "dumb")
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script");
    assert_eq!(out.status.code(), Some(0), "{args:?} on a dumb terminal: {:?}", out.status);
    Some(out.stdout)
}

/// A dumb terminal understands no escape sequences: `view` prints the plain
/// report (no alternate screen, no raw mode) and `show` no colour, so no
/// 256-colour SGR from a tool's coloured output either.
#[test]
fn term_dumb_gets_no_alternate_screen_and_no_colour() {
    let turn = serde_json::json!({"status": "completed", "events": [
        {"type": "operation.started", "operationId": "c", "operation": {"kind": "tool", "name": "Bash", "input": {"command": "ls"}}},
        {"type": "operation.finished", "operationId": "c", "kind": "tool", "status": "completed",
         "output": {"stdout": "\u{1b}[38;5;208morange\u{1b}[0m plain"}},
    ]});
    let path = std::env::temp_dir().join(format!("niceeval-dumb-{}.json", std::process::id()));
    std::fs::write(&path, turn.to_string()).unwrap();
    let p = path.to_str().unwrap();
    for args in
        [vec!["view", p], vec!["show", "--all", "--width", "120", p], vec!["show", "--full", "--width", "120", p]]
    {
        let Some(screen) = on_dumb_terminal(&args) else { return };
        let text = String::from_utf8_lossy(&screen);
        assert!(!text.contains("\u{1b}[?1049h"), "{args:?}: alternate screen on a dumb terminal");
        assert!(!text.contains("\u{1b}[38;5;"), "{args:?}: 256-colour SGR on a dumb terminal");
        assert!(!screen.contains(&0x1b), "{args:?}: an escape sequence on a dumb terminal: {text:?}");
        assert!(text.contains("Bash"), "{args:?}: the report is not there: {text:?}");
    }
    std::fs::remove_file(&path).unwrap();
}

// ---- price catalogs -----------------------------------------------------------------

/// A catalog price written as a string (`"in": "3.00"`) is not a price: the
/// entry is left out and a warning says which one and why, on every command
/// that takes `--prices`.
#[test]
fn string_prices_in_a_catalog_give_a_notice() {
    let dir = std::env::temp_dir().join(format!("niceeval-prices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prices = dir.join("prices.json");
    let catalog = serde_json::json!({"prices": {
        "m-string": {"in": "3.00", "out": 15},
        "m-cache": {"in": 1, "out": 2, "cacheRead": "0.1"},
        "m-fine": {"in": 1, "out": 2, "cacheRead": null},
    }});
    std::fs::write(&prices, catalog.to_string()).unwrap();
    let turn =
        serde_json::json!({"status": "completed", "events": [], "usage": {"inputTokens": 1000, "outputTokens": 10}});
    let input = dir.join("turn.json");
    std::fs::write(&input, turn.to_string()).unwrap();
    let (prices, input) = (prices.to_str().unwrap(), input.to_str().unwrap());
    for command in [vec!["derive"], vec!["show"], vec!["show", "--json"], vec!["compare", input], vec!["view"]] {
        let mut args = command.clone();
        args.extend(["--prices", prices, "--model", "m-string", input]);
        let (code, _, stderr) = run(&args);
        assert!(matches!(code, 0 | 1), "{command:?}: exit {code}: {stderr}");
        assert!(
            stderr.contains(r#"price "m-string": "in" is the string "3.00", not a number; the entry is left out"#),
            "{command:?}: no notice for the string price:\n{stderr}"
        );
        assert!(stderr.contains(r#"price "m-cache": "cacheRead" is the string "0.1""#), "{command:?}:\n{stderr}");
        assert!(!stderr.contains("m-fine"), "{command:?}: a null price is absent, not wrong:\n{stderr}");
    }
    // The entry is left out: no estimate from it.
    let (_, stdout, _) = run(&["derive", "--prices", prices, "--model", "m-string", input]);
    let v: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["attempt"]["estimatedCostUSD"], serde_json::Value::Null, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}
