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
    let out = Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm-256color")
        .env_remove("NICEEVAL_DEBUG_PANIC_KEY")
        .output()
        .expect("run niceeval");
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
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
