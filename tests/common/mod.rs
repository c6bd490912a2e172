//! Helpers shared by the integration tests.
#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// How long a command or a background load may run before a test calls it
/// hung. A limit no load reaches (a debug build on a busy two-core machine
/// is many times slower than a release build alone): tests check behaviour,
/// and speed is measured in BENCHMARKS.md, as ratios in one run.
pub const HANG_LIMIT: Duration = Duration::from_secs(180);

/// Whether a test that needs `../shared`, tmux or node must fail without it
/// instead of skipping: `.ci/run` sets `NICEEVAL_REQUIRE_SHARED=1`, so a CI
/// that lost one of them cannot pass by checking nothing.
pub fn prerequisites_required() -> bool {
    std::env::var_os("NICEEVAL_REQUIRE_SHARED").is_some_and(|v| v == "1")
}

/// A test cannot run for want of `what`: say so, or fail where it is required.
pub fn skip(what: &str) {
    assert!(!prerequisites_required(), "{what} is missing, and NICEEVAL_REQUIRE_SHARED=1 requires it");
    report(&format!("skipped: {what} is missing"));
}

/// `../shared` next to the project, when it exists (when it does not and
/// [`prerequisites_required`], the test fails here).
pub fn shared_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("shared");
    if dir.is_dir() {
        return Some(dir);
    }
    skip("../shared");
    None
}

/// A folder under `../shared`, when it exists (required as `shared_dir` is).
pub fn shared_path(relative: &str) -> Option<PathBuf> {
    let dir = shared_dir()?.join(relative);
    if dir.exists() {
        return Some(dir);
    }
    skip(&format!("../shared/{relative}"));
    None
}

pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures").join(name)
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_niceeval"))
}

/// Compare two JSON values as the conformance README says: key order does
/// not matter, absent differs from null, numbers equal within 1e-9 relative.
/// Returns one line per difference, with its JSON path.
pub fn json_diff(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            let (x, y) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
            let scale = x.abs().max(y.abs()).max(1e-300);
            if !(x == y || ((x - y).abs() / scale) <= 1e-9) {
                out.push(format!("{path}: expected {a}, got {b}"));
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => json_diff(v, w, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: expected {}, but the key is absent", short(v))),
                }
            }
            for (k, w) in b {
                if !a.contains_key(k) {
                    out.push(format!("{path}.{k}: unexpected key with {}", short(w)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                out.push(format!("{path}: expected {} items, got {}", a.len(), b.len()));
            }
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                json_diff(v, w, &format!("{path}[{i}]"), out);
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push(format!("{path}: expected {}, got {}", short(a), short(b))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 { format!("{}…", s.chars().take(160).collect::<String>()) } else { s }
}

/// Print a line that `cargo test` shows even for passing tests (libtest
/// captures `println!`, not direct writes to stderr): summaries and skips.
pub fn report(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A copy of the folder `from` (a Record, say) at `to`, for tests that change one.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The binary on `args` as the hostile-input tests run it: no colour, a
/// 256-colour terminal named, no debug panic key. Its exit code, stdout
/// and stderr.
pub fn run_plain(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = std::process::Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm-256color")
        .env_remove("NICEEVAL_DEBUG_PANIC_KEY")
        .output()
        .expect("run niceeval");
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The viewer's screen as text, drawn as the terminal layer draws it
/// (mono theme, each line trimmed at its end).
pub fn mono_screen(app: &mut niceeval::app::App, w: u16, h: u16) -> String {
    use niceeval::ui::{Theme, ThemeName};
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string() + "\n").collect()
}

/// `show PATH ARGS…` at 200 columns without colour: its stdout (it must exit 0 or 1).
pub fn show_wide(path: &std::path::Path, args: &[&str]) -> String {
    show_at(path, args, 200)
}

/// `show PATH ARGS…` at `width` columns without colour: its stdout (it must exit 0 or 1).
pub fn show_at(path: &std::path::Path, args: &[&str], width: u16) -> String {
    let out = std::process::Command::new(bin())
        .arg("show")
        .arg(path)
        .args(args)
        .args(["--width", &width.to_string(), "--color", "never"])
        .output()
        .expect("run niceeval show");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}
