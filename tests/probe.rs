//! What a hostile probe found (issue 17): each test here failed before its
//! fix. Inputs are made in a temp dir, except the grapheme fixture in
//! tests/fixtures/probe.

mod common;

use common::{bin, fixture};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("niceeval-probe-{tag}-{}", std::process::id()));
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

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(bin()).args(args).env("NO_COLOR", "1").output().unwrap();
    done(out)
}

fn done(out: Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

// 1. Boxed layout on grapheme clusters.

#[test]
fn boxed_layout_survives_emoji_zwj_sequences_at_every_width() {
    let path = fixture("probe").join("grapheme-clusters.json");
    let path = path.to_str().unwrap();
    for width in ["20", "59", "60", "61", "64", "72", "80", "99", "100", "120"] {
        for section in ["--tools", "--all", "--timeline", "--usage"] {
            let r = run(&["show", "--boxed", section, "--width", width, path]);
            assert_eq!(r.code, 0, "show --boxed {section} --width {width}: {}", r.stderr);
            let w: usize = width.parse().unwrap();
            let box_w = w.min(100);
            for line in r.stdout.lines() {
                let lw = niceeval::model::text::width(line);
                if w >= 60 && (line.starts_with('│') || line.starts_with('╭') || line.starts_with('╰')) {
                    assert_eq!(lw, box_w, "--width {width} {section}: a box line is {lw} wide: {line:?}");
                } else {
                    assert!(lw <= w, "--width {width} {section}: line is {lw} wide: {line:?}");
                }
            }
        }
    }
}

// 8. `show --full` on one huge string.

#[cfg(target_os = "linux")]
#[test]
fn show_full_on_one_huge_string_streams() {
    let dir = TempDir::new("full");
    let size = 8 << 20;
    let text = "word ".repeat(size / 5);
    let turn =
        format!(r#"{{"status":"completed","events":[{{"type":"message","role":"assistant","text":"{text}"}}]}}"#);
    let path = dir.write("big.json", turn.as_bytes());
    let mut child = Command::new(bin())
        .args(["show", "--full", "--boxed", &path])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // VmHWM, the peak of the process's own memory since its exec (its
    // rusage would also count the test process it was spawned from).
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let code = loop {
        if let Some(kb) = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        }) {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(code) = child.try_wait().unwrap() {
            break code;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(code.success(), "show --full failed");
    let peak_mb = peak_kb as f64 / 1024.0;
    let string_mb = size as f64 / 1048576.0;
    common::report(&format!("show --full on one {string_mb:.0} MB string: peak {peak_mb:.0} MB"));
    assert!(peak_kb > 0, "no memory reading");
    assert!(peak_mb < 5.0 * string_mb + 40.0, "peak {peak_mb:.0} MB for a {string_mb:.0} MB string");
}
