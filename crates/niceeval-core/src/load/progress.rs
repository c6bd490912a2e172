//! Progress of a long load: counters the loaders bump as they go. The
//! terminal loop reads them (`snapshot`) to show the loading line.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Bytes of JSONL lines parsed so far (all threads).
static BYTES: AtomicU64 = AtomicU64::new(0);
/// JSONL lines (events, turns or entries) parsed so far.
static LINES: AtomicU64 = AtomicU64::new(0);
/// 0 reading/parsing, 1 deriving the views.
static PHASE: AtomicU8 = AtomicU8::new(0);

/// Count parsed bytes and lines (called in batches by the JSONL parser).
pub fn add(bytes: u64, lines: u64) {
    BYTES.fetch_add(bytes, Ordering::Relaxed);
    LINES.fetch_add(lines, Ordering::Relaxed);
}

/// The load is done; the views are being built.
pub fn deriving() {
    PHASE.store(1, Ordering::Relaxed);
}

/// A second pass over the same bytes starts: count them again from zero.
pub fn restart_bytes() {
    BYTES.store(0, Ordering::Relaxed);
}

/// Start counting a new load from zero.
pub fn reset() {
    BYTES.store(0, Ordering::Relaxed);
    LINES.store(0, Ordering::Relaxed);
    PHASE.store(0, Ordering::Relaxed);
}

/// Bytes and lines parsed so far, and whether the views are being built.
pub fn snapshot() -> (u64, u64, bool) {
    (BYTES.load(Ordering::Relaxed), LINES.load(Ordering::Relaxed), PHASE.load(Ordering::Relaxed) == 1)
}
