//! What the surfaces hold, counted by a global allocator: a long stream can
//! have a finding for every event, so a finding must stay small (issue 37:
//! peak RSS within 2 × the file on every shape). The tests of this file run
//! one at a time (`SERIAL`): the counter is the whole process's.

use niceeval::view::findings::message;
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

/// Bytes allocated and not yet freed, by everything in the process.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// Allocations made, by everything in the process.
static MADE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        MADE.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

static SERIAL: Mutex<()> = Mutex::new(());

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("niceeval-memory-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A session of `turns` turns of `starts` tool starts each without a
/// `command` (an Adapter that has not migrated to command projections):
/// one `command-unclassified` warning a start.
fn unmigrated_session(dir: &Path, turns: usize, starts: usize) -> PathBuf {
    let turns: Vec<Value> = (0..turns)
        .map(|t| {
            let mut events = Vec::new();
            for i in 0..starts {
                let id = format!("call_{t}_{i}");
                events.push(json!({"type": "operation.started", "operationId": id,
                    "operation": {"kind": "tool", "name": "Bash", "input": {"command": "ls"}, "tool": "shell"}}));
                events.push(json!({"type": "operation.finished", "operationId": id, "kind": "tool",
                    "status": "completed", "output": "ok"}));
            }
            json!({"events": events, "status": "completed"})
        })
        .collect();
    let path = dir.join("unmigrated.json");
    std::fs::write(&path, json!({"sessions": [{"sessionIndex": 1, "turns": turns}]}).to_string()).unwrap();
    path
}

/// The findings of 20,000 tool starts without `command` hold at most 72
/// bytes each (64 in the list): the code, where, and the operation id shared with its event
/// (the words are made when written). Worded when made, each held its
/// 300-byte message besides: about 500 bytes.
#[test]
fn a_finding_repeated_for_every_event_is_kept_compact() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempdir("compact");
    let doc = niceeval::load::load_paths(&[unmigrated_session(&dir, 20, 1_000)]).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (derived, findings) = niceeval::analysis::derive_and_lint(&doc, None, &prices);
    let n = findings.iter().filter(|f| f.code == "command-unclassified").count();
    assert_eq!(n, 20_000);
    // Worded when read, and worded as before.
    let words = message(&findings[0]);
    assert!(words.starts_with("tool start \"call_0_0\" has no `command`"), "{words}");
    let before = live();
    drop(findings);
    let held = before - live();
    let per_finding = held / n as isize;
    assert!(per_finding <= 72, "{per_finding} bytes a finding ({held} bytes for {n})");
    assert!(std::mem::size_of::<niceeval::model::diagnostics::Finding>() <= 64);
    drop(derived);
    std::fs::remove_dir_all(&dir).ok();
}

/// `check --format json` writes each finding field by field: a few
/// allocations a finding (its words, its position), not a tree of its own
/// (about 40: a map of 16 keys, each key and value a string, written and
/// dropped).
#[test]
fn check_json_writes_a_finding_without_a_tree_of_its_own() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempdir("json");
    let doc = niceeval::load::load_paths(&[unmigrated_session(&dir, 10, 1_000)]).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (derived, findings) = niceeval::analysis::derive_and_lint(&doc, None, &prices);
    let n = findings.len();
    let report = niceeval::view::check::Report::new(&doc, &derived, findings, false);
    let mut w = niceeval::view::json::PrettyWriter::new(std::io::sink(), niceeval::model::text::json_terminal_safe);
    let before = MADE.load(Ordering::Relaxed);
    report.write_json(false, &mut w).unwrap();
    let per_finding = (MADE.load(Ordering::Relaxed) - before) / n as isize;
    assert!(per_finding <= 8, "{per_finding} allocations a finding");
    std::fs::remove_dir_all(&dir).ok();
}

/// The rows findings flag are kept as sorted positions, 12 bytes each (a
/// hash set of `(TurnAddr, Option<usize>)` cost about 60).
#[test]
fn the_rows_findings_flag_are_kept_compact() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempdir("flagged");
    let doc = niceeval::load::load_paths(&[unmigrated_session(&dir, 10, 1_000)]).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
    let flagged = &views[0].flagged;
    assert_eq!(flagged.len(), 10_000);
    for f in &findings {
        let addr = niceeval::model::TurnAddr { session: f.location.session(), turn: f.location.turn().unwrap() };
        assert!(flagged.contains(&(addr, f.location.event())), "{:?}", f.location);
    }
    let addr = niceeval::model::TurnAddr { session: 0, turn: 0 };
    assert!(!flagged.contains(&(addr, Some(1))), "a finish is not flagged");
    let before = live();
    let copy = flagged.clone();
    let per_position = (live() - before) / copy.len() as isize;
    assert!(per_position <= 16, "{per_position} bytes a flagged position");
    std::fs::remove_dir_all(&dir).ok();
}

/// Resident pages of mapped files (`RssFile`), in KB.
#[cfg(target_os = "linux")]
fn rss_file_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("RssFile:")).unwrap_or("RssFile: 0 kB");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The most file pages resident, over `RssFile` at the start, while `work` runs.
#[cfg(target_os = "linux")]
fn file_pages_added_by(work: impl FnOnce()) -> u64 {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    let start = rss_file_kb();
    let (done, most) = (AtomicBool::new(false), AtomicU64::new(start));
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(rss_file_kb(), Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_micros(500));
            }
        });
        work();
        most.fetch_max(rss_file_kb(), Ordering::Relaxed);
        done.store(true, Ordering::Relaxed);
    });
    most.load(Ordering::Relaxed).saturating_sub(start)
}

/// Heap pages resident (`RssAnon`), in KB.
#[cfg(target_os = "linux")]
fn rss_anon_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("RssAnon:")).unwrap_or("RssAnon: 0 kB");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The lint's lists of findings (one a turn, made on the threads that
/// linted them) become one list without being held twice: each is moved
/// once into a list made at its size, and the memory of those moved is
/// handed back as it goes. Growing a list by doubling and copying it again
/// held them two to three times.
#[cfg(target_os = "linux")]
#[test]
fn merging_the_lints_lists_does_not_hold_the_findings_twice() {
    use niceeval::model::diagnostics::{CompleteClaim, Finding, Location, Said};
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // As in a process that has loaded a large file: glibc's threshold for
    // giving an allocation pages of its own has risen (to 32 MB at most), so
    // the lists are in the allocator's arena, which keeps what is freed.
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only sets a tuning parameter of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
    let id = niceeval::model::event::Name::from("op0000001");
    let lists: Vec<Vec<Finding>> = (0..40)
        .map(|turn| {
            (0..10_000)
                .map(|event| {
                    let at = Location::new(0, 0, Some(turn), Some(event));
                    let said = Said::NoCommand { operation_id: id.clone(), claim: CompleteClaim::NotRecorded };
                    Finding::new("command-unclassified", at, said)
                })
                .collect()
        })
        .collect();
    let bytes = 400_000 * std::mem::size_of::<Finding>() as u64 / 1024;
    niceeval::analysis::parallel::return_freed_heap();
    let start = rss_anon_kb();
    let (done, most) = (std::sync::atomic::AtomicBool::new(false), std::sync::atomic::AtomicU64::new(start));
    let merged = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(rss_anon_kb(), Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        });
        let merged = niceeval::model::lint::concat(lists, niceeval::analysis::parallel::return_freed_heap);
        most.fetch_max(rss_anon_kb(), Ordering::Relaxed);
        done.store(true, Ordering::Relaxed);
        merged
    });
    assert_eq!(merged.len(), 400_000);
    let added = most.load(Ordering::Relaxed).saturating_sub(start);
    // The lists were resident before; the merged list adds itself and at
    // most a few megabytes not yet handed back.
    assert!(added <= bytes / 2, "merging {bytes} KB of findings added {added} KB resident");
}

/// A JSONL stream of 240,000 small events in one turn (about 24 MB: mapped
/// and read lazily, its events read where they are in the file).
#[cfg(target_os = "linux")]
fn one_long_turn(dir: &Path) -> PathBuf {
    use std::io::Write as _;
    let path = dir.join("long-turn.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..60_000 {
        let id = format!("op{i:07}");
        let lines = [
            json!({"type": "operation.started", "operationId": id, "operation": {"kind": "tool", "name": "Read", "tool": "file_read", "input": {"path": format!("src/f{i}.rs")}, "command": {"kind": "not-command"}}}),
            json!({"type": "operation.finished", "operationId": id, "kind": "tool", "status": "completed", "output": format!("read {i} lines of src/f{i}.rs")}),
            json!({"type": "message", "role": "assistant", "text": format!("step {i} done, reading the next file now")}),
            json!({"type": "thinking", "text": format!("which file comes after f{i}?")}),
        ];
        for line in lines {
            writeln!(out, "{line}").unwrap();
        }
    }
    out.flush().unwrap();
    path
}

/// A pass over every event of a turn of a whole file (the lint, the
/// derivation, `derive`'s and `show --json`'s output) hands the pages it has
/// read back as it goes: at no point is most of the file resident. Handed
/// back at the end of the turn only, each pass held the whole file.
#[cfg(target_os = "linux")]
#[test]
fn passes_over_a_long_turn_hand_its_pages_back_as_they_go() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempdir("pages");
    let path = one_long_turn(&dir);
    let file_kb = std::fs::metadata(&path).unwrap().len() / 1024;
    let doc = niceeval::load::load_path(&path).unwrap();
    let prices = niceeval::model::usage::builtin_prices();
    let most = file_kb / 4;
    let mut derived = Vec::new();
    let lint = file_pages_added_by(|| derived = niceeval::analysis::derive_and_lint(&doc, None, &prices).0);
    assert!(lint <= most, "derive and lint: {lint} KB of the file's {file_kb} KB resident");
    let d = &derived[0];
    let json = niceeval::model::derive_json::DerivedJson::new(d, &doc.attempts[0]);
    let written = file_pages_added_by(|| serde_json::to_writer_pretty(std::io::sink(), &json).unwrap());
    assert!(written <= most, "derive's JSON: {written} KB of the file's {file_kb} KB resident");
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
    let sel = niceeval::plain::Selection::default();
    let shown = file_pages_added_by(|| {
        let mut w = niceeval::view::json::PrettyWriter::new(std::io::sink(), |s| std::borrow::Cow::Borrowed(s));
        niceeval::view::json::write_document(&doc, &views, &findings, &sel, &mut w).unwrap();
    });
    assert!(shown <= most, "show --json: {shown} KB of the file's {file_kb} KB resident");
    std::fs::remove_dir_all(&dir).ok();
}
