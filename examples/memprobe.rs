//! Live heap bytes by phase, to see where memory goes (BENCHMARKS.md, "Memory"):
//! the load, then each derivation step for every attempt, then the whole
//! `derive_document`. Counts what the program asked the allocator for, not
//! what the allocator keeps (peak RSS: `bench mem stages`).
//!
//! ```text
//! cargo run --release --example memprobe -- FILE
//! ```

use niceeval::model::{derive, facts, occurrence, usage};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static BLOCKS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        PEAK.fetch_max(LIVE.fetch_add(l.size(), Relaxed) + l.size(), Relaxed);
        BLOCKS.fetch_add(1, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        BLOCKS.fetch_sub(1, Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        PEAK.fetch_max(LIVE.fetch_add(n, Relaxed) + n, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Live KB and live blocks.
fn live() -> (usize, usize) {
    (LIVE.load(Relaxed) / 1024, BLOCKS.load(Relaxed))
}

fn step(what: &str, before: (usize, usize)) -> (usize, usize) {
    let now = live();
    println!("{what:<24} +{:>8} KB +{:>8} blocks", now.0 - before.0, now.1 as isize - before.1 as isize);
    now
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: memprobe FILE");
        std::process::exit(2);
    };
    let doc = niceeval::load::load_path(&path).expect("load");
    let loaded = live();
    println!(
        "loaded                   {:>9} KB {:>9} blocks (peak while loading {} KB)",
        loaded.0,
        loaded.1,
        PEAK.load(Relaxed) / 1024
    );
    for a in &doc.attempts {
        let (scope, _) = derive::scope_turns(&a.sessions);
        let mut at = live();
        let run_facts: Vec<_> = scope.iter().map(|st| facts::derive_run_facts(st.events)).collect();
        at = step("run facts per turn", at);
        let o11y: Vec<_> =
            scope.iter().zip(&run_facts).map(|(st, f)| facts::build_o11y_summary_from(st.events, f)).collect();
        at = step("o11y per turn", at);
        let per_turn: Vec<_> =
            scope.iter().map(|st| occurrence::derive_occurrences(std::slice::from_ref(st))).collect();
        at = step("occurrences per turn", at);
        let whole = occurrence::derive_occurrences(&scope);
        at = step("occurrences, attempt", at);
        let attempt_o11y = facts::build_o11y_summary(scope.iter().flat_map(|s| s.events.iter()));
        step("o11y, attempt", at);
        drop(std::hint::black_box((run_facts, o11y, per_turn, whole, attempt_o11y)));
    }
    let before = live();
    let derived = derive::derive_document(&doc, None, &usage::PriceTable::default());
    step("derive_document", before);
    drop(std::hint::black_box(derived));
}
