//! Hostile Records: a FIFO, a socket or device, a huge (sparse) file or a
//! document that is not JSON in place of a Record file is refused with its
//! path named, without blocking and without reading it whole.
#![cfg(unix)]

mod common;

use common::{bin, copy_dir, fixture};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// A fresh copy of the test Record project, in its own temp directory.
fn record_copy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-hostile-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&fixture("record").join("project"), &dir.join("project"));
    dir
}

struct Ran {
    code: Option<i32>,
    output: String,
    took: Duration,
}

/// Run niceeval with `args`, killed after `limit` (a blocked load would never end).
fn run_within(args: &[&str], limit: Duration) -> Ran {
    let started = Instant::now();
    let mut child = Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = started.elapsed();
    let out = child.wait_with_output().unwrap();
    let output = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    Ran { code: out.status.code(), output, took }
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

/// Each file of a Record in turn replaced by a FIFO: the load ends at once
/// (no writer is ever waited for) and names the FIFO.
#[test]
fn a_fifo_in_place_of_any_record_file_is_refused_by_name_without_blocking() {
    let dir = record_copy("fifo");
    let record = dir.join("project/.niceeval/record");
    let mut files = Vec::new();
    files_under(&record, &mut files);
    files.sort();
    // Drafts are never read (no `complete`), and `complete` markers are checked, not read.
    files.retain(|f| {
        !f.components().any(|c| c.as_os_str() == "draft-run") && f.file_name().is_some_and(|n| n != "complete")
    });
    assert!(files.len() >= 15, "only {} files in the test Record", files.len());
    let project = dir.join("project");
    // Attachments of unknown families or newer versions are skipped unread: no notice can name their files.
    let baseline = run_within(&["show", "--all", project.to_str().unwrap()], common::HANG_LIMIT).output;
    let unread = |file: &Path| {
        let owner = file.parent().unwrap().display().to_string() + ";";
        baseline.lines().any(|l| l.contains(&owner) && l.contains("skipped"))
            || baseline.lines().any(|l| {
                l.contains("is newer than this viewer supports")
                    && l.contains(&file.parent().unwrap().display().to_string())
            })
    };
    let mut slowest = Duration::ZERO;
    let mut named = 0;
    for file in &files {
        let kept = file.with_extension("kept");
        std::fs::rename(file, &kept).unwrap();
        mkfifo(file);
        let ran = run_within(&["show", "--all", project.to_str().unwrap()], common::HANG_LIMIT);
        std::fs::remove_file(file).unwrap();
        std::fs::rename(&kept, file).unwrap();
        let rel = file.strip_prefix(&record).unwrap().display().to_string();
        // Killed at the limit (no exit code): the load waited for a writer.
        assert!(ran.code.is_some(), "{rel} as a FIFO: the load blocked");
        slowest = slowest.max(ran.took);
        if unread(file) {
            continue;
        }
        assert!(
            ran.output.contains(&format!("{} is a FIFO", file.display())),
            "{rel} as a FIFO is not named:\n{}",
            ran.output
        );
        named += 1;
    }
    println!("{} Record files each as a FIFO ({named} read, so named): slowest run {slowest:?}", files.len());
    assert!(named >= 12, "only {named} FIFOs named");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The largest resident set of any child this test process has waited for, in MB.
fn children_max_rss_mb() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    usage.ru_maxrss as f64 / 1024.0 // kilobytes on Linux
}

/// A 2 GB sparse payload.json is refused by its size, named, without being
/// read; a payload that is not JSON is refused from its first byte. The rest
/// of the Record still opens.
#[test]
fn a_huge_or_non_json_payload_is_refused_with_its_size_or_first_byte() {
    let dir = record_copy("huge");
    let record = dir.join("project/.niceeval/record");
    let mut payloads = Vec::new();
    files_under(&record, &mut payloads);
    payloads
        .retain(|f| f.ends_with("niceeval.observability/payload.json") && !f.to_string_lossy().contains("draft-run"));
    payloads.sort();
    assert!(payloads.len() >= 2, "{payloads:?}");
    let huge = &payloads[0];
    std::fs::File::options().write(true).open(huge).unwrap().set_len(2_000_000_000).unwrap();
    let not_json = &payloads[1];
    std::fs::write(not_json, format!("\n  garbage{}", " ".repeat(1000))).unwrap();
    let project = dir.join("project");
    let ran = run_within(&["show", "--all", project.to_str().unwrap()], common::HANG_LIMIT);
    let rss = children_max_rss_mb();
    assert!(matches!(ran.code, Some(0 | 1)), "exit {:?}:\n{}", ran.code, ran.output);
    let want = format!("{} is 2000.0 MB (2000000000 bytes), above the 256.0 MB limit", huge.display());
    assert!(ran.output.contains(&want), "no size refusal naming the file:\n{}", ran.output);
    let want = format!("{} does not start as JSON (its first byte is `g`", not_json.display());
    assert!(ran.output.contains(&want), "no first-byte refusal naming the file:\n{}", ran.output);
    println!("2 GB sparse payload refused in {:?}, largest child RSS {rss:.1} MB", ran.took);
    assert!(rss < 100.0, "RSS {rss:.1} MB");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a Record says that the viewer cannot read is quoted as the Record
/// wrote it (JSON), never as the viewer's own Rust Debug (`Some(String("1,5"))`).
#[test]
fn record_warnings_quote_values_as_json_not_rust_debug() {
    let dir = record_copy("debug");
    let record = dir.join("project/.niceeval/record");
    let mut payloads = Vec::new();
    files_under(&record, &mut payloads);
    let payload = payloads
        .into_iter()
        .find(|f| f.ends_with("niceeval.observability/payload.json") && f.to_string_lossy().contains("000000000001"))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&payload).unwrap()).unwrap();
    let obs = v["usage-data"]["observations"].as_array_mut().unwrap();
    obs.push(serde_json::json!({"kind": "provider-cost", "amount": "1,5", "currency": "USD"}));
    obs.push(serde_json::json!({"kind": "provider-cost", "currency": "USD"}));
    std::fs::write(&payload, v.to_string()).unwrap();
    let project = dir.join("project");
    let ran = run_within(&["show", "--all", project.to_str().unwrap()], common::HANG_LIMIT);
    assert!(matches!(ran.code, Some(0 | 1)), "{}", ran.output);
    assert!(ran.output.contains(r#"unreadable provider-cost amount "1,5""#), "{}", ran.output);
    assert!(ran.output.contains("provider-cost without an amount"), "{}", ran.output);
    for debug in ["Some(", "String(", "None"] {
        assert!(!ran.output.contains(debug), "Rust Debug {debug:?} in:\n{}", ran.output);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A legacy results run is read as carefully: a FIFO in place of any of its
/// files ends the load at once, named.
#[test]
fn a_fifo_in_a_legacy_results_run_is_refused_by_name_without_blocking() {
    let dir = std::env::temp_dir().join(format!("niceeval-legacy-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&fixture("load/legacy/project"), &dir);
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    // Only the newest run is opened (the older one is named, not read).
    // The files the legacy reader reads (o11y.json is not one).
    let read = ["run.json", "result.json", "events.json", "trace.json", "commands.json", "diff.json", "sources.json"];
    files.retain(|f| {
        f.to_string_lossy().contains("2026-08-02T09-30-00")
            && f.file_name().and_then(|n| n.to_str()).is_some_and(|n| read.contains(&n))
    });
    files.sort();
    assert!(files.len() >= 4, "only {} files in the legacy fixture's newest run", files.len());
    for file in &files {
        let kept = file.with_extension("kept");
        std::fs::rename(file, &kept).unwrap();
        mkfifo(file);
        let ran = run_within(&["show", "--all", dir.to_str().unwrap()], common::HANG_LIMIT);
        std::fs::remove_file(file).unwrap();
        std::fs::rename(&kept, file).unwrap();
        assert!(ran.code.is_some(), "{} as a FIFO: the load blocked", file.display());
        assert!(
            ran.output.contains(&format!("{} is a FIFO", file.display())),
            "{} not named:\n{}",
            file.display(),
            ran.output
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
