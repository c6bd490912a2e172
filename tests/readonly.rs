//! The viewer never modifies its inputs: contents, mtimes and the directory
//! listing are unchanged after every command. Unreadable inputs get a clear
//! message and exit 2.

mod common;

use common::{bin, fixture};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("niceeval-readonly-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        set_mode(&self.0, 0o755);
        if let Ok(rd) = std::fs::read_dir(&self.0) {
            for e in rd.flatten() {
                set_mode(&e.path(), 0o755);
            }
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn set_mode(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
}

/// Contents, mtime and permissions of every file in `dir`.
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = e.metadata().unwrap();
        let bytes = if meta.is_file() { std::fs::read(e.path()).unwrap() } else { Vec::new() };
        out.insert(
            e.file_name().to_string_lossy().into_owned(),
            (bytes, meta.modified().unwrap(), meta.permissions().mode()),
        );
    }
    out
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(bin()).args(args).env("NO_COLOR", "1").stdin(Stdio::null()).output().expect("run niceeval");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn copy_fixtures(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo/session.json");
    let mut sources = vec![demo];
    for name in ["hostile-turn.json", "hostile-session.json", "hostile-raw-utf8.json"] {
        sources.push(fixture("hostile").join(name));
    }
    for src in sources {
        let name = format!("copy-{}", src.file_name().unwrap().to_string_lossy());
        let dst = dir.join(&name);
        std::fs::copy(&src, &dst).unwrap();
        // Read-only for everyone but root: a write attempt would also fail loudly.
        files.push(dst.to_str().unwrap().to_string());
    }
    files
}

#[test]
fn commands_leave_inputs_untouched() {
    let tmp = TempDir::new("untouched");
    let files = copy_fixtures(&tmp.0);
    // An mtime in the past, so a rewrite within the same second still shows.
    for f in &files {
        let file = std::fs::File::options().write(true).open(f).unwrap();
        file.set_modified(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000)).unwrap();
    }
    let before = snapshot(&tmp.0);
    let dir = tmp.0.to_str().unwrap();
    for f in &files {
        for args in [
            vec!["view", f.as_str()],
            vec!["show", f.as_str()],
            vec!["show", "--all", f.as_str()],
            vec!["derive", f.as_str()],
            vec!["check", f.as_str()],
        ] {
            let (code, stderr) = run(&args);
            assert!(
                stderr.contains("not implemented") || stderr.contains("unexpected argument") || code != 101,
                "{args:?} crashed: {stderr}"
            );
        }
    }
    // Several files at once, and the directory itself.
    let mut all = vec!["view"];
    all.extend(files.iter().map(String::as_str));
    run(&all);
    run(&["view", dir]);
    let after = snapshot(&tmp.0);
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>(), "files appeared or vanished");
    for (name, (bytes, mtime, mode)) in &before {
        let (b2, m2, mode2) = &after[name];
        assert!(bytes == b2, "{name}: contents changed");
        assert_eq!(mtime, m2, "{name}: mtime changed");
        assert_eq!(mode, mode2, "{name}: permissions changed");
    }
}

/// Run as `nobody` through setpriv (when we are root and it exists), so
/// permission checks are real even where tests run as root.
fn run_unprivileged(args: &[&str]) -> Option<(i32, String)> {
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if stderr.starts_with("setpriv:") {
        return None;
    }
    Some((out.status.code().unwrap_or(-1), stderr))
}

/// Run directly, or as `nobody` when we are root (chmod does not stop root).
fn run_as_reader(args: &[&str], root: bool) -> Option<(i32, String)> {
    if root { run_unprivileged(args) } else { Some(run(args)) }
}

fn is_root_like(probe: &Path) -> bool {
    // chmod 000 does not stop root (CAP_DAC_OVERRIDE) from reading.
    std::fs::read(probe).is_ok()
}

#[test]
fn unreadable_file_is_a_clear_error() {
    let tmp = TempDir::new("unreadable");
    let files = copy_fixtures(&tmp.0);
    let f = &files[0];
    set_mode(Path::new(f), 0o000);
    let root = is_root_like(Path::new(f));
    set_mode(&tmp.0, 0o755);
    for cmd in ["view", "derive", "show", "check"] {
        let Some((code, stderr)) = run_as_reader(&[cmd, f], root) else {
            println!("readonly: skipped the unreadable-file check: running as root and cannot drop privileges");
            return;
        };
        if stderr.contains("not implemented") {
            continue;
        }
        assert_eq!(code, 2, "{cmd}: {stderr}");
        assert!(stderr.contains("permission denied") && stderr.contains("copy-session.json"), "{cmd}: {stderr}");
    }
}

#[test]
fn directory_without_permission_is_a_clear_error() {
    let tmp = TempDir::new("nodir");
    let sub = tmp.0.join("locked");
    std::fs::create_dir_all(&sub).unwrap();
    let inner = sub.join("turn.json");
    std::fs::write(&inner, br#"{"status":"completed","events":[]}"#).unwrap();
    set_mode(&sub, 0o000);
    set_mode(&tmp.0, 0o755);
    let root = is_root_like(&inner);
    for target in [sub.to_str().unwrap(), inner.to_str().unwrap()] {
        let Some((code, stderr)) = run_as_reader(&["view", target], root) else {
            println!("readonly: skipped the locked-directory check: running as root and cannot drop privileges");
            break;
        };
        assert_eq!(code, 2, "{target}: {stderr}");
        assert!(stderr.contains("locked"), "{stderr}");
        assert!(stderr.contains("permission denied"), "unclear message: {stderr}");
    }
    set_mode(&sub, 0o755);
    // A plain directory with no Record is also a clear error, root or not.
    let (code, stderr) = run(&["derive", sub.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("locked") && stderr.contains("directory"), "{stderr}");
}
