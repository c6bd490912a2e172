//! What the surfaces hold, counted by a global allocator: a long stream can
//! have a finding for every event, so a finding must stay small (issue 37:
//! peak RSS within 2 × the file on every shape). The tests of this file run
//! one at a time (`SERIAL`): the counter is the whole process's.

use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

/// Bytes allocated and not yet freed, by everything in the process.
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
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

/// The findings of 20,000 tool starts without `command` hold at most 128
/// bytes each: the code, where, and the operation id shared with its event
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
    let words = findings[0].message();
    assert!(words.starts_with("tool start \"call_0_0\" has no `command`"), "{words}");
    let before = live();
    drop(findings);
    let held = before - live();
    let per_finding = held / n as isize;
    assert!(per_finding <= 128, "{per_finding} bytes a finding ({held} bytes for {n})");
    drop(derived);
    std::fs::remove_dir_all(&dir).ok();
}
