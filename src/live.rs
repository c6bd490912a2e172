//! `--watch` and `--follow`: new content while the viewer runs.
//!
//! File notifications (the `notify` crate) wake us early; a metadata check on
//! every tick is the polling fallback, so nothing busy-loops and nothing is
//! missed on file systems without notifications. A reload that fails keeps
//! the last good view and says why.

use crate::app::App;
use crate::load::LoadError;
use crate::term::Source;
use notify::Watcher;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, SystemTime};

/// What we know about a file to tell that it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

fn stamp(path: &PathBuf) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp { len: meta.len(), modified: meta.modified().ok(), inode })
}

pub struct LiveSource {
    paths: Vec<String>,
    follow: bool,
    stamps: Vec<Option<Stamp>>,
    /// `--follow`: bytes of the last complete line we loaded.
    loaded_bytes: u64,
    _watcher: Option<notify::RecommendedWatcher>,
    events: Option<Receiver<()>>,
}

pub fn source_for(paths: &[String], follow: bool) -> Result<Box<dyn Source>, LoadError> {
    if paths.iter().any(|p| p == "-") {
        return Err(LoadError::new("-", "--watch and --follow need a file, not stdin"));
    }
    if follow && paths.len() != 1 {
        return Err(LoadError::new(paths.join(", "), "--follow takes exactly one file"));
    }
    let (tx, rx) = channel();
    let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if res.is_ok() {
            let _ = tx.send(());
        }
    })
    .ok()
    .and_then(|mut w| {
        for p in paths {
            // Watch the parent too, so a replaced file (new inode) is seen.
            let path = std::path::Path::new(p);
            let target = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            w.watch(target, notify::RecursiveMode::NonRecursive).ok()?;
        }
        Some(w)
    });
    let stamps = paths.iter().map(|p| stamp(&PathBuf::from(p))).collect();
    let loaded_bytes = if follow { complete_prefix_len(&paths[0]) } else { 0 };
    Ok(Box::new(LiveSource {
        paths: paths.to_vec(),
        follow,
        stamps,
        loaded_bytes,
        events: watcher.is_some().then_some(rx),
        _watcher: watcher,
    }))
}

/// Length of the file up to and including its last newline.
fn complete_prefix_len(path: &str) -> u64 {
    std::fs::read(path).map(|b| b.iter().rposition(|&c| c == b'\n').map(|i| i as u64 + 1).unwrap_or(0)).unwrap_or(0)
}

impl LiveSource {
    fn reload_watch(&mut self, app: &mut App) {
        match crate::load::load_paths(&self.paths) {
            Ok(doc) => {
                app.replace_document(doc);
                app.flash("reloaded");
            }
            Err(e) => app.flash_error(format!("reload failed, keeping the last good view: {e}")),
        }
    }

    fn reload_follow(&mut self, app: &mut App, why: Option<&str>) {
        let path = &self.paths[0];
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                app.flash_error(format!("{path}: {}; keeping the last good view", crate::load::io_message(&e)));
                return;
            }
        };
        // A partial last line waits for its newline.
        let complete = bytes.iter().rposition(|&c| c == b'\n').map(|i| i + 1).unwrap_or(0);
        if complete as u64 == self.loaded_bytes && why.is_none() {
            return;
        }
        if complete == 0 {
            self.loaded_bytes = 0;
            return;
        }
        match crate::load::load_bytes(path, &bytes[..complete]) {
            Ok(doc) => {
                let before = app.doc.event_count();
                app.replace_document(doc);
                self.loaded_bytes = complete as u64;
                let added = app.doc.event_count().saturating_sub(before);
                match why {
                    Some(w) => app.flash(format!("{w}; reloaded")),
                    None if added > 0 => app.flash(format!("+{added} events")),
                    None => {}
                }
            }
            Err(e) => app.flash_error(format!("keeping the last good view: {e}")),
        }
    }
}

impl Source for LiveSource {
    fn interval(&self) -> Duration {
        Duration::from_millis(if self.events.is_some() { 250 } else { 500 })
    }

    fn poll(&mut self, app: &mut App) -> bool {
        let notified = self.events.as_ref().is_some_and(|rx| {
            let mut any = false;
            while rx.try_recv().is_ok() {
                any = true;
            }
            any
        });
        let now: Vec<Option<Stamp>> = self.paths.iter().map(|p| stamp(&PathBuf::from(p))).collect();
        let changed = now != self.stamps;
        if !changed && !notified {
            return false;
        }
        let previous = std::mem::replace(&mut self.stamps, now.clone());
        if !changed {
            return false;
        }
        if self.follow {
            let why = match (previous[0], now[0]) {
                (Some(a), Some(b)) if a.inode != b.inode => Some("the file was replaced"),
                (Some(_), Some(b)) if b.len < self.loaded_bytes => Some("the file was truncated"),
                (_, None) => {
                    app.flash_error(format!("{} disappeared; keeping the last good view", self.paths[0]));
                    return true;
                }
                _ => None,
            };
            self.reload_follow(app, why);
        } else {
            self.reload_watch(app);
        }
        true
    }
}
