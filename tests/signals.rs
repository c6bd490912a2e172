//! Signals the parent set to be ignored stay ignored (`nohup`, `trap '' HUP`):
//! the fatal-signal handlers that restore the terminal must not replace them.

#[cfg(unix)]
#[test]
fn an_ignored_hangup_stays_ignored() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // `view -` on a pipe prints the plain view once stdin ends, so the
    // process is alive, past its start-up, until we close stdin.
    let script = format!("trap '' HUP; exec '{}' view -", env!("CARGO_BIN_EXE_niceeval"));
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start niceeval");
    // Wait until the handlers are in place (SIGTERM caught, per /proc), so the
    // SIGHUP below tests them and not the start-up before them.
    let status = format!("/proc/{}/status", child.id());
    let started = std::time::Instant::now();
    while !catches_sigterm(&status) {
        assert!(started.elapsed() < std::time::Duration::from_secs(180), "the handlers never showed in {status}");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill(2) on our own child's pid.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGHUP) };
    assert_eq!(sent, 0, "the child is running");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(br#"{"status":"completed","events":[{"type":"message","role":"assistant","text":"still here"}]}"#)
        .expect("write the turn");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "ended by the ignored SIGHUP? {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("still here"), "{stdout}");
}

/// Does the process whose /proc status file this is catch SIGTERM?
#[cfg(unix)]
fn catches_sigterm(status: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(status) else { return false };
    text.lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGTERM - 1)) != 0)
}
