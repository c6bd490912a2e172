//! When the whole of a large file reached the screen, for `NICEEVAL_TIMING`:
//! set by the terminal loop and the background load, read by `view`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When the full document was installed, measured from the program's start
/// (printed with `NICEEVAL_TIMING`).
pub static LOADED_AFTER: OnceLock<Duration> = OnceLock::new();
/// How long installing the whole document held the UI thread.
pub static INSTALL_TOOK: OnceLock<Duration> = OnceLock::new();
/// The program's start, for [`LOADED_AFTER`].
static PROGRAM_STARTED: OnceLock<Instant> = OnceLock::new();

/// The terminal loop installed the whole document, taking `took`.
pub fn installed(took: Duration) {
    let _ = INSTALL_TOOK.set(took);
    if let Some(started) = PROGRAM_STARTED.get() {
        let _ = LOADED_AFTER.set(started.elapsed());
    }
}

/// The program started at `at` (the background load is told at its start).
pub fn started(at: Instant) {
    let _ = PROGRAM_STARTED.set(at);
}

/// The phases of one analysis, on stderr (`NICEEVAL_TIMING`, before the
/// terminal is taken over).
pub fn print_phases(phases: &[(crate::analysis::Phase, Duration)]) {
    for (phase, took) in phases {
        eprintln!("niceeval: build_views {} {:.1} ms", phase.name(), took.as_secs_f64() * 1e3);
    }
}
