//! Progress of a long load: counters the loaders bump as they go, and a
//! reporter that shows them on stderr (a terminal only) once a load has taken
//! more than [`DELAY`]. It is cleared before the viewer draws.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Bytes of JSONL lines parsed so far (all threads).
static BYTES: AtomicU64 = AtomicU64::new(0);
/// JSONL lines (events, turns or entries) parsed so far.
static LINES: AtomicU64 = AtomicU64::new(0);
/// 0 reading/parsing, 1 deriving the views.
static PHASE: AtomicU8 = AtomicU8::new(0);

/// Loads shorter than this show no progress.
pub const DELAY: Duration = Duration::from_millis(200);

/// Count parsed bytes and lines (called in batches by the JSONL parser).
pub fn add(bytes: u64, lines: u64) {
    BYTES.fetch_add(bytes, Ordering::Relaxed);
    LINES.fetch_add(lines, Ordering::Relaxed);
}

/// The load is done; the views are being built.
pub fn deriving() {
    PHASE.store(1, Ordering::Relaxed);
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

/// Prints progress on stderr while it lives (when stderr is a terminal).
pub struct Reporter {
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// `TERM=dumb`: a terminal that acts on no escape sequence (no cursor
/// moves, no alternate screen, no colour). The viewer then prints its plain
/// report, `show` prints no colour, and no loading line is drawn.
pub fn terminal_is_dumb() -> bool {
    std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

impl Reporter {
    /// Start reporting on the load of `label` (`total` bytes when known).
    pub fn start(label: &str, total: Option<u64>) -> Reporter {
        reset();
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() || terminal_is_dumb() {
            return Reporter { stop, handle: None };
        }
        let label = crate::model::text::sanitize(label, crate::model::text::Lines::Single).into_owned();
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let mut shown = false;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(if shown { 100 } else { 20 }));
                let elapsed = started.elapsed();
                if elapsed < DELAY || flag.load(Ordering::Relaxed) {
                    continue;
                }
                let (bytes, lines) = (BYTES.load(Ordering::Relaxed), LINES.load(Ordering::Relaxed));
                let what = match (PHASE.load(Ordering::Relaxed), total) {
                    (1, _) if lines > 0 => format!("{lines} lines parsed, building the views"),
                    (1, _) => "building the views".to_string(),
                    (_, Some(t)) if bytes > 0 && lines > 0 => format!("{} of {}, {lines} events", mb(bytes), mb(t)),
                    (_, Some(t)) if bytes > 0 => format!("{} of {}", mb(bytes), mb(t)),
                    (_, Some(t)) => format!("parsing {}", mb(t)),
                    (_, None) => "reading".to_string(),
                };
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2Kniceeval: loading {label}: {what} ({:.1} s)", elapsed.as_secs_f64());
                let _ = err.flush();
                shown = true;
            }
            if shown {
                let _ = write!(std::io::stderr(), "\r\x1b[2K");
            }
        });
        Reporter { stop, handle: Some(handle) }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
