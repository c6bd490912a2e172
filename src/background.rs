//! The whole of a large file, loaded on another thread while the viewer
//! shows a preview made from its start (see [`crate::load::preview`]). The
//! header shows bytes and events parsed so far; when the load is done the
//! full document replaces the preview, keeping the selection.

use crate::app::{App, Loading, Prepared};
use crate::load::LoadError;
use crate::model::usage::PriceTable;
use crate::term::Source;
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// When the full document was installed, measured from the program's start
/// (printed with `NICEEVAL_TIMING`).
pub static LOADED_AFTER: OnceLock<Duration> = OnceLock::new();
/// How long installing the whole document held the UI thread.
pub static INSTALL_TOOK: OnceLock<Duration> = OnceLock::new();

pub struct BackgroundLoad {
    rx: Receiver<Result<Prepared, LoadError>>,
    started: Instant,
    /// The program's start, for [`LOADED_AFTER`].
    program_started: Instant,
    done: bool,
}

/// `app` shows a preview made from the first `preview_bytes` of `path`: start loading the whole of `path`.
pub fn start(
    app: &mut App,
    (preview_bytes, total_bytes): (u64, u64),
    path: impl Into<std::path::PathBuf>,
    model: Option<String>,
    prices: PriceTable,
    program_started: Instant,
) -> BackgroundLoad {
    crate::load::progress::reset();
    let path = path.into();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        // A panic here must not restore the terminal the UI is drawing on:
        // it is caught and reported like a failed load.
        crate::term::mark_worker_thread();
        let load = || {
            crate::load::load_path(&path).map(|doc| {
                crate::load::progress::deriving();
                Prepared::new(doc, model.as_deref(), &prices)
            })
        };
        let prepared = std::panic::catch_unwind(std::panic::AssertUnwindSafe(load)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let name = crate::load::display_name(&path);
            Err(LoadError::new(name, format!("the loader crashed (a bug; please report it): {what}")))
        });
        // The viewer may have quit meanwhile; nobody to tell.
        let _ = tx.send(prepared);
    });
    app.loading =
        Some(Loading { preview_bytes, total_bytes, parsed_bytes: 0, parsed_lines: 0, building: false, elapsed_ms: 0 });
    BackgroundLoad { rx, started: Instant::now(), program_started, done: false }
}

impl Source for BackgroundLoad {
    fn interval(&self) -> Duration {
        // Progress ticks while loading; afterwards this source sleeps.
        Duration::from_millis(if self.done { 1000 } else { 100 })
    }

    fn poll(&mut self, app: &mut App) -> bool {
        if self.done {
            return false;
        }
        let elapsed = self.started.elapsed();
        match self.rx.try_recv() {
            Err(TryRecvError::Empty) => {
                let (bytes, lines, building) = crate::load::progress::snapshot();
                if let Some(l) = app.loading.as_mut() {
                    l.parsed_bytes = bytes;
                    l.parsed_lines = lines;
                    l.building = building;
                    l.elapsed_ms = elapsed.as_millis() as u64;
                }
                return true;
            }
            Ok(Ok(prepared)) => {
                let total = app.loading.as_ref().map(|l| l.total_bytes).unwrap_or(0);
                let installing = Instant::now();
                app.install(prepared);
                let _ = INSTALL_TOOK.set(installing.elapsed());
                app.flash(crate::view::chrome::loaded_text(total, app.doc.event_count(), elapsed.as_secs_f64()));
                let _ = LOADED_AFTER.set(self.program_started.elapsed());
            }
            Ok(Err(e)) => preview_only(app, &format!("loading the whole file failed: {e}")),
            Err(TryRecvError::Disconnected) => preview_only(app, "loading the whole file stopped unexpectedly"),
        }
        app.loading = None;
        self.done = true;
        true
    }
}

/// The full load failed: say so where the preview's notice said "loading".
fn preview_only(app: &mut App, why: &str) {
    for n in &mut app.doc.notices {
        if let Some(head) = n.message.strip_suffix(crate::load::preview::STILL_LOADING) {
            n.message = format!("{head}; {why}");
            n.level = crate::model::document::NoticeLevel::Error;
        }
    }
    app.flash_error(format!("{why}; showing the preview only"));
}
