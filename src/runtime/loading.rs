//! The loading line on stderr (a terminal only) while a file loads before
//! the viewer draws or a command prints, shown once the load has taken more
//! than [`DELAY`] and cleared when the reporter is dropped. The counters
//! are the loaders' (`load::progress`), the words the view's.

use crate::load::progress;
use crate::view::chrome::{LoadProgress, stderr_loading_line};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Loads shorter than this show no progress.
pub const DELAY: Duration = Duration::from_millis(200);

/// Prints progress on stderr while it lives (when stderr is a terminal).
pub struct Reporter {
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Reporter {
    /// Start reporting on the load of `label` (`total` bytes when known).
    pub fn start(label: &str, total: Option<u64>) -> Reporter {
        progress::reset();
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() || super::settings::Settings::get().dumb_terminal {
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
                let (parsed_bytes, parsed_lines, building) = progress::snapshot();
                let at = LoadProgress {
                    preview_bytes: 0,
                    total_bytes: total.unwrap_or(0),
                    parsed_bytes,
                    parsed_lines,
                    building,
                    elapsed_ms: elapsed.as_millis() as u64,
                };
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K{}", stderr_loading_line(&label, &at, total));
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
