//! The whole of a large file, loaded on another thread while the viewer
//! shows a preview made from its start (see [`crate::load::preview`]). The
//! header shows bytes and events parsed so far; when the load is done the
//! full document replaces the preview, keeping the selection.

use crate::app::{Action, App, Loading, Prepared};
use crate::load::LoadError;
use crate::model::usage::PriceTable;
use crate::runtime::term::Source;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

pub struct BackgroundLoad {
    rx: Receiver<Result<Prepared, LoadError>>,
    started: Instant,
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
    crate::runtime::timings::started(program_started);
    let path = path.into();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        // A panic here must not restore the terminal the UI is drawing on:
        // it is caught and reported like a failed load.
        crate::runtime::term::mark_worker_thread();
        let load = || {
            crate::load::load_path(&path).map(|doc| {
                crate::load::progress::deriving();
                let prepared = Prepared::new(doc, model.as_deref(), &prices);
                crate::analysis::parallel::return_freed_heap();
                prepared
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
    let started =
        Loading { preview_bytes, total_bytes, parsed_bytes: 0, parsed_lines: 0, building: false, elapsed_ms: 0 };
    crate::app::update(app, Action::LoadStarted(started));
    BackgroundLoad { rx, started: Instant::now(), done: false }
}

impl Source for BackgroundLoad {
    fn interval(&self) -> Duration {
        // Progress ticks while loading; afterwards this source sleeps.
        Duration::from_millis(if self.done { 1000 } else { 100 })
    }

    fn poll(&mut self) -> Vec<Action> {
        if self.done {
            return Vec::new();
        }
        let elapsed = self.started.elapsed();
        let elapsed_ms = elapsed.as_millis() as u64;
        let action = match self.rx.try_recv() {
            Err(TryRecvError::Empty) => {
                let (bytes, lines, building) = crate::load::progress::snapshot();
                return vec![Action::LoadProgress { bytes, lines, building, elapsed_ms }];
            }
            Ok(Ok(prepared)) => crate::app::sources::loaded(prepared, elapsed_ms),
            Ok(Err(e)) => failed(format!("loading the whole file failed: {e}")),
            Err(TryRecvError::Disconnected) => failed("loading the whole file stopped unexpectedly".into()),
        };
        self.done = true;
        vec![action]
    }
}

fn failed(why: String) -> Action {
    Action::LoadFailed { why }
}
