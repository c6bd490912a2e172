//! A command this binary does not have goes to the project's own NiceEval
//! CLI (`node_modules/.bin/niceeval`, from the working directory upward):
//! same arguments, stdin, stdout, stderr and exit code; when none is
//! found, one line says what was looked for.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn temp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-passthrough-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stub NiceEval CLI at `project/node_modules/.bin/niceeval`.
fn stub(project: &Path, script: &str) -> PathBuf {
    let bin = project.join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = bin.join("niceeval");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Ran {
    let mut child = Command::new(common::bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn an_unknown_command_reaches_the_projects_niceeval_with_its_arguments_stdin_and_exit_code() {
    let project = temp("args");
    let record = project.join("seen");
    stub(
        &project,
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{args}'\ncat > '{stdin}'\necho 'stub stdout'\necho 'stub stderr' >&2\nexit 7\n",
            args = record.with_extension("args").display(),
            stdin = record.with_extension("stdin").display(),
        ),
    );
    let deep = project.join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    let r = run_in(&deep, &["exp", "list", "--json", "two words"], b"piped in\nsecond line\n");
    assert_eq!(r.code, Some(7), "stderr: {}", r.stderr);
    assert_eq!(r.stdout, "stub stdout\n");
    assert_eq!(r.stderr, "stub stderr\n");
    let args = std::fs::read_to_string(record.with_extension("args")).unwrap();
    assert_eq!(args, "exp\nlist\n--json\ntwo words\n");
    let stdin = std::fs::read_to_string(record.with_extension("stdin")).unwrap();
    assert_eq!(stdin, "piped in\nsecond line\n");

    // This binary's own commands stay its own.
    let r = run_in(&deep, &["show", "--help"], b"");
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert!(!r.stdout.contains("stub"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&project);
}

#[test]
fn a_child_ended_by_a_signal_exits_128_plus_the_signal() {
    let project = temp("signal");
    stub(&project, "#!/bin/sh\nkill -TERM $$\nsleep 5\n");
    let r = run_in(&project, &["session"], b"");
    assert_eq!(r.code, Some(128 + 15), "stderr: {}", r.stderr);
    let _ = std::fs::remove_dir_all(&project);
}

#[test]
fn with_no_niceeval_installed_one_line_says_what_was_searched() {
    let project = temp("none");
    let r = run_in(&project, &["exp", "list"], b"");
    assert_eq!(r.code, Some(2), "stdout: {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    let dir = project.canonicalize().unwrap();
    assert!(r.stderr.contains("`exp`"), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("no node_modules/.bin/niceeval in {} or any folder above it", dir.display())),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&project);
}

#[test]
fn a_node_modules_niceeval_that_is_this_binary_is_skipped() {
    let project = temp("self");
    let bin = project.join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(common::bin(), bin.join("niceeval")).unwrap();
    let r = run_in(&project, &["debug"], b"");
    assert_eq!(r.code, Some(2), "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("which is this viewer"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&project);
}

#[test]
fn help_for_a_command_of_niceevals_goes_to_niceeval() {
    let project = temp("help");
    let record = project.join("seen.args");
    stub(&project, &format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\necho 'their help'\n", record.display()));
    let r = run_in(&project, &["help", "exp"], b"");
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(r.stdout, "their help\n");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "help\nexp\n");
    // Help for this binary's own commands stays its own.
    let r = run_in(&project, &["help", "show"], b"");
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert!(r.stdout.contains("Usage: niceeval show") && !r.stdout.contains("their help"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&project);
}

#[test]
fn a_term_sent_to_the_viewer_reaches_niceeval_and_its_exit_is_ours() {
    let project = temp("term");
    let got = project.join("got-term");
    let started = project.join("started");
    // Traps TERM: writes that it got one, then exits as NiceEval would (143).
    stub(
        &project,
        &format!(
            "#!/bin/sh\ntrap 'echo TERM > \"{got}\"; exit 143' TERM\ntouch '{started}'\nwhile :; do sleep 0.05; done\n",
            got = got.display(),
            started = started.display()
        ),
    );
    let mut child = Command::new(common::bin())
        .arg("session")
        .current_dir(&project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while !started.exists() {
        assert!(waited.elapsed() < common::HANG_LIMIT, "NiceEval's stub never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill(2) on the child process this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{status:?}");
    assert_eq!(std::fs::read_to_string(&got).unwrap_or_default(), "TERM\n", "the TERM did not reach NiceEval");
    let _ = std::fs::remove_dir_all(&project);
}
