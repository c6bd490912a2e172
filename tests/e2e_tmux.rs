//! tmux end-to-end tests: the real binary in a real terminal. Skipped (with a
//! notice) when tmux is missing; `.ci/run` installs it so CI always runs them.

mod common;

use std::process::Command;

fn eprintln_uncaptured(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Without tmux the terminal tests cannot run: they say so, or fail where
/// `.ci/run` requires them (`NICEEVAL_REQUIRE_SHARED=1`).
fn tmux_missing(what: &str) {
    let required = std::env::var_os("NICEEVAL_REQUIRE_SHARED").is_some_and(|v| v == "1");
    assert!(!required, "e2e {what}: tmux is missing, and NICEEVAL_REQUIRE_SHARED=1 requires it");
    eprintln_uncaptured(&format!("e2e {what}: skipped (tmux not installed)"));
}

fn tmux_available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// The terminal tests run one at a time: they time real screens on a small machine.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn run_script(name: &str) {
    run_script_with(name, &[]);
}

/// A script given more arguments after the binary.
fn run_script_with(name: &str, args: &[&std::path::Path]) {
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !tmux_available() {
        tmux_missing(name);
        return;
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e").join(name);
    let out =
        Command::new("bash").arg(&script).arg(env!("CARGO_BIN_EXE_niceeval")).args(args).output().expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
}

#[test]
fn translation_tab_line_to_events_and_back() {
    let Some(log) = common::shared_path("samples/handmade/raw-transcripts/claude-code-session.jsonl") else { return };
    run_script_with("translation.sh", &[&log]);
}

#[test]
fn pager_follow_and_raw_event_keys_say_what_they_did() {
    run_script("keys.sh");
}

#[test]
fn view_search_failure_hitl_quit() {
    run_script("view.sh");
}

#[test]
fn a_folder_of_native_logs_lists_its_sessions_and_opens_one() {
    run_script("folder.sh");
}

#[test]
fn an_errored_attempt_says_why_and_e_goes_to_its_error() {
    run_script("errored.sh");
}

#[test]
fn the_source_tab_jumps_to_a_turn_and_back_and_the_commands_tab_to_timing() {
    run_script("source.sh");
}

#[test]
fn compare_matrix_split_view_and_back() {
    run_script("compare.sh");
}

#[test]
fn follow_shows_appended_events_without_a_key_press() {
    run_script("follow.sh");
}

#[test]
fn a_large_stream_opens_on_a_preview_then_loads_whole() {
    run_script("preview.sh");
}

#[test]
fn fatal_signals_and_a_truncated_mapped_file_leave_a_sane_terminal() {
    run_script("signals.sh");
}

#[test]
fn suspend_and_continue_leave_and_retake_the_terminal() {
    run_script("suspend.sh");
}

#[test]
fn a_fifo_is_followed_and_a_failed_load_ends_the_loading_line() {
    run_script("streams.sh");
}

#[test]
fn a_panic_leaves_a_sane_terminal() {
    if !tmux_available() {
        tmux_missing("panic");
        return;
    }
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e_panic.sh");
    let out = Command::new("bash").arg(&script).arg(env!("CARGO_BIN_EXE_niceeval")).output().expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(77) => tmux_missing("panic (the script found no tmux)"),
        _ => assert!(out.status.success(), "panic e2e failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr)),
    }
}

#[test]
fn view_with_a_locator_opens_that_attempt_in_the_terminal() {
    run_script("locator.sh");
}
