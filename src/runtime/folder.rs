//! The rest of a folder of native logs, listed on another thread while the
//! viewer shows its newest sessions: the files are scanned a batch at a
//! time (on every core, see `analysis::parallel`) and each batch reaches the
//! app as an [`Action::SessionsListed`].

use crate::app::folder::Listed;
use crate::app::sources::Handoff;
use crate::app::{Action, App};
use crate::load::format::transcript::folder::{self, Entry};
use crate::runtime::term::Source;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// Files scanned before the first frame: a screen of rows.
pub const FIRST_SCREEN: usize = 64;
/// Files per batch after it (each batch rebuilds the list once).
const BATCH: usize = 256;

/// The listing under way.
pub struct FolderListing {
    rx: Receiver<Listed>,
    done: bool,
    /// The program's start.
    started: Instant,
}

/// Scan `entries` (the first `already` are listed) and send them in batches;
/// `app` shows the listing's progress in bytes until the last batch.
pub fn start(app: &mut App, entries: Vec<Entry>, already: usize, program_started: Instant) -> FolderListing {
    crate::runtime::timings::started(program_started);
    let size = |e: &Entry| std::fs::metadata(&e.path).map(|m| m.len()).unwrap_or(0);
    let total: u64 = entries.iter().map(size).sum();
    let first: u64 = entries.iter().take(already).map(size).sum();
    let count = entries.len();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        crate::runtime::term::mark_worker_thread();
        let mut scanned = already;
        for batch in entries[already.min(entries.len())..].chunks(BATCH) {
            let (mut rows, mut notices) = (Vec::new(), Vec::new());
            // A panic is a bug: the list ends with a notice that says so, not a listing that never ends.
            let scanned_batch = std::panic::catch_unwind(|| folder::scan_entries(batch));
            let Ok(results) = scanned_batch else {
                let crashed = crate::model::notice::ViewerNotice::ListingCrashed { listed: scanned, files: count };
                let notice = crate::model::document::Notice::new(crate::model::document::NoticeLevel::Error, crashed);
                let _ = tx.send(Listed { rows, notices: vec![notice], scanned: count, bytes: 0 });
                return;
            };
            for r in results {
                match r {
                    Ok(row) => rows.push(row),
                    Err(n) => notices.push(n),
                }
            }
            scanned += batch.len();
            let bytes = batch.iter().map(size).sum();
            // The viewer may have quit meanwhile.
            if tx.send(Listed { rows, notices, scanned, bytes }).is_err() {
                return;
            }
        }
    });
    if already < count {
        let started = crate::app::Loading {
            preview_bytes: first,
            total_bytes: total,
            parsed_bytes: first,
            parsed_lines: 0,
            building: false,
            elapsed_ms: 0,
        };
        crate::app::update(app, crate::app::Action::LoadStarted(started));
    }
    FolderListing { rx, done: false, started: program_started }
}

impl Source for FolderListing {
    fn interval(&self) -> Duration {
        Duration::from_millis(if self.done { 1000 } else { 50 })
    }

    fn poll(&mut self) -> Vec<Action> {
        if self.done {
            return Vec::new();
        }
        let mut actions = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(listed) => actions.push(Action::SessionsListed(Handoff::new(listed))),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.done = true;
                    // When the last batch arrived (it is shown on this frame).
                    let _ = crate::runtime::timings::LOADED_AFTER.set(self.started.elapsed());
                    break;
                }
            }
        }
        actions
    }
}
