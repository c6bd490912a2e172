//! `--watch` and `--follow`: new content while the viewer runs.
//!
//! File notifications (the `notify` crate) wake us early; a metadata check on
//! every tick is the polling fallback, so nothing busy-loops and nothing is
//! missed on file systems without notifications. A reload that fails keeps
//! the last good view and says why. `--follow` on a FIFO or a pipe reads it
//! on a thread as a writer sends it (see [`StreamSource`]).

use crate::app::Action;
use crate::app::sources::{ReloadNote, reloaded};
use crate::load::{LoadError, display_name};
use crate::model::document::{Document, Notice, NoticeLevel};
use crate::model::notice::{FollowChange, ViewerNotice, Waiting};
use crate::runtime::term::Source;
use crate::view::note::Note;
use notify::Watcher;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, SystemTime};

/// What we know about a file to tell that it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp { len: meta.len(), modified: meta.modified().ok(), inode })
}

/// A path that is read as a stream (a FIFO, a pipe, a device), not a file.
pub fn is_stream(path: &Path) -> bool {
    path.as_os_str() == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// What a followed stream shows before its first line (or after its file
/// was truncated to nothing).
pub fn waiting_document(name: &str, why: Waiting) -> Document {
    Document {
        format: "JSONL stream".into(),
        sources: vec![name.to_string()],
        notices: vec![Notice::new(NoticeLevel::Info, ViewerNotice::Waiting { name: name.to_string(), why })],
        ..Default::default()
    }
}

/// Why `--follow` has nothing to show yet at `path` (it does not exist, is
/// empty, or has no complete line): the viewer waits for it, as `tail -F`
/// does, instead of failing. `None` when there is something to load.
pub fn not_ready(path: &Path) -> Option<Waiting> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Waiting::ToBeWritten),
        Ok(m) if m.is_file() && m.len() == 0 => Some(Waiting::ForLines { change: None, empty: true }),
        Ok(m) if m.is_file() && complete_prefix_len(path) == 0 => {
            Some(Waiting::ForLines { change: None, empty: false })
        }
        _ => None,
    }
}

pub struct LiveSource {
    paths: Vec<PathBuf>,
    follow: bool,
    stamps: Vec<Option<Stamp>>,
    /// `--follow`: bytes of the last complete line we loaded.
    loaded_bytes: u64,
    /// `--follow`: the file has existed (a missing one is waited for).
    seen: bool,
    _watcher: Option<notify::RecommendedWatcher>,
    events: Option<Receiver<()>>,
}

pub fn source_for(paths: &[PathBuf], follow: bool) -> Result<Box<dyn Source>, LoadError> {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        return Err(LoadError::new("-", "--watch and --follow need a file, not stdin"));
    }
    let names: Vec<String> = paths.iter().map(|p| display_name(p)).collect();
    if follow && paths.len() != 1 {
        return Err(LoadError::new(names.join(", "), "--follow takes exactly one file"));
    }
    if follow && is_stream(&paths[0]) {
        return Ok(Box::new(StreamSource::start(&paths[0])));
    }
    if let Some(stream) = paths.iter().find(|p| is_stream(p)) {
        return Err(LoadError::new(
            display_name(stream),
            "is a FIFO, pipe or device: --watch reloads files that change; --follow reads a stream as it comes",
        ));
    }
    let (tx, rx) = channel();
    let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if res.is_ok() {
            let _ = tx.send(());
        }
    })
    .ok()
    .and_then(|mut w| {
        for path in paths {
            // Watch the parent too, so a replaced file (new inode) is seen.
            let target = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            w.watch(target, notify::RecursiveMode::NonRecursive).ok()?;
        }
        Some(w)
    });
    let stamps = paths.iter().map(|p| stamp(p)).collect();
    let loaded_bytes = if follow { complete_prefix_len(&paths[0]) } else { 0 };
    let seen = paths.first().is_some_and(|p| p.exists());
    Ok(Box::new(LiveSource {
        seen,
        paths: paths.to_vec(),
        follow,
        stamps,
        loaded_bytes,
        events: watcher.is_some().then_some(rx),
        _watcher: watcher,
    }))
}

/// Length of the file up to and including its last newline.
fn complete_prefix_len(path: &Path) -> u64 {
    std::fs::read(path).map(|b| b.iter().rposition(|&c| c == b'\n').map(|i| i as u64 + 1).unwrap_or(0)).unwrap_or(0)
}

fn says(note: Note) -> Action {
    Action::SourceSays(note)
}

impl LiveSource {
    fn reload_watch(&mut self) -> Action {
        match crate::load::load_paths(&self.paths) {
            Ok(doc) => reloaded(doc, ReloadNote::Reloaded),
            Err(e) => says(Note::ReloadFailed(e.to_string())),
        }
    }

    fn reload_follow(&mut self, why: Option<FollowChange>) -> Vec<Action> {
        let name = display_name(&self.paths[0]);
        let bytes = match std::fs::read(&self.paths[0]) {
            Ok(b) => b,
            Err(e) => return vec![says(Note::Unreadable { name, why: crate::load::io_message(&e) })],
        };
        // A partial last line waits for its newline.
        let complete = bytes.iter().rposition(|&c| c == b'\n').map(|i| i + 1).unwrap_or(0);
        if complete as u64 == self.loaded_bytes && why.is_none() {
            return Vec::new();
        }
        if complete == 0 {
            // Nothing to show: the events shown came from bytes that are gone.
            self.loaded_bytes = 0;
            let empty = bytes.is_empty();
            let doc = waiting_document(&name, Waiting::ForLines { change: why, empty });
            return vec![reloaded(doc, ReloadNote::Says(Note::WaitingForLines { name, change: why, empty }))];
        }
        match crate::load::load_bytes(&name, &bytes[..complete]) {
            Ok(doc) => {
                self.loaded_bytes = complete as u64;
                let note = match why {
                    Some(change) => ReloadNote::Says(Note::ReadAgain(change)),
                    None => ReloadNote::NewEvents,
                };
                vec![reloaded(doc, note)]
            }
            Err(e) => vec![says(Note::KeepingLastGood(e.to_string()))],
        }
    }
}

impl Source for LiveSource {
    fn interval(&self) -> Duration {
        Duration::from_millis(if self.events.is_some() { 250 } else { 500 })
    }

    fn poll(&mut self) -> Vec<Action> {
        let notified = self.events.as_ref().is_some_and(|rx| {
            let mut any = false;
            while rx.try_recv().is_ok() {
                any = true;
            }
            any
        });
        let now: Vec<Option<Stamp>> = self.paths.iter().map(|p| stamp(p)).collect();
        let changed = now != self.stamps;
        if !changed && !notified {
            return Vec::new();
        }
        let previous = std::mem::replace(&mut self.stamps, now.clone());
        if !changed {
            return Vec::new();
        }
        if !self.follow {
            return vec![self.reload_watch()];
        }
        let why = match (previous[0], now[0]) {
            (Some(a), Some(b)) if a.inode != b.inode => Some(FollowChange::Replaced),
            (Some(_), Some(b)) if b.len < self.loaded_bytes => Some(FollowChange::Truncated),
            (None, Some(_)) if self.seen => Some(FollowChange::Back),
            (None, Some(_)) => Some(FollowChange::Appeared),
            (_, None) if !self.seen => return Vec::new(),
            (_, None) => return vec![says(Note::Disappeared(display_name(&self.paths[0])))],
            _ => None,
        };
        self.seen = true;
        self.reload_follow(why)
    }
}

/// What the reader thread of a [`StreamSource`] sends.
enum Chunk {
    Bytes(Vec<u8>),
    End,
    Failed(String),
}

/// `--follow` on a FIFO or a pipe: a thread reads it as the writer sends it,
/// and complete lines are shown as they come. What is read is kept (to
/// reload the whole stream) up to `load::input::max_stream` bytes.
pub struct StreamSource {
    name: String,
    rx: Option<Receiver<Chunk>>,
    bytes: Vec<u8>,
    /// Bytes of the complete lines shown.
    shown: usize,
}

impl StreamSource {
    pub fn start(path: &Path) -> StreamSource {
        let (tx, rx) = channel();
        let name = display_name(path);
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            use std::io::Read;
            // Opening a FIFO waits for its writer: here, not on the UI thread.
            let mut file = match std::fs::File::open(&path) {
                Ok(f) => f,
                Err(e) => {
                    let _ = tx.send(Chunk::Failed(crate::load::io_message(&e)));
                    return;
                }
            };
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let chunk = match file.read(&mut buf) {
                    Ok(0) => Chunk::End,
                    Ok(n) => Chunk::Bytes(buf[..n].to_vec()),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Chunk::Failed(crate::load::io_message(&e)),
                };
                let last = !matches!(chunk, Chunk::Bytes(_));
                // The viewer quit, or stopped reading: nobody to send to.
                if tx.send(chunk).is_err() || last {
                    return;
                }
            }
        });
        StreamSource { name, rx: Some(rx), bytes: Vec::new(), shown: 0 }
    }

    /// Show the first `len` bytes read; `what` says why, on the footer.
    fn show(&mut self, len: usize, what: Option<Note>) -> Action {
        match crate::load::load_bytes(&self.name, &self.bytes[..len]) {
            Ok(doc) => {
                self.shown = len;
                reloaded(doc, what.map_or(ReloadNote::NewEvents, ReloadNote::Says))
            }
            Err(e) => says(Note::KeepingLastGood(e.to_string())),
        }
    }

    /// Stop reading (the thread ends at its next read) and say why.
    fn stop(&mut self, why: Note) -> Vec<Action> {
        self.rx = None;
        vec![says(why)]
    }
}

impl Source for StreamSource {
    fn interval(&self) -> Duration {
        Duration::from_millis(if self.rx.is_some() { 100 } else { 1000 })
    }

    fn poll(&mut self) -> Vec<Action> {
        let Some(rx) = &self.rx else { return Vec::new() };
        let mut end = None;
        loop {
            match rx.try_recv() {
                Ok(Chunk::Bytes(b)) => self.bytes.extend_from_slice(&b),
                Ok(Chunk::End) | Err(TryRecvError::Disconnected) => {
                    end = Some(None);
                    break;
                }
                Ok(Chunk::Failed(e)) => {
                    end = Some(Some(e));
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        let limit = crate::load::input::max_stream();
        if self.bytes.len() as u64 > limit {
            self.bytes.truncate(self.shown);
            return self.stop(Note::StreamTooLarge { name: self.name.clone(), limit });
        }
        if crate::load::looks_binary(&self.bytes) {
            return self.stop(Note::StreamBinary(self.name.clone()));
        }
        match end {
            Some(failed) => {
                self.rx = None;
                let mut out = Vec::new();
                if !self.bytes.is_empty() {
                    out.push(self.show(self.bytes.len(), Some(Note::StreamEnded(self.name.clone()))));
                }
                match failed {
                    Some(why) => out.push(says(Note::StreamFailed { name: self.name.clone(), why })),
                    None if self.bytes.is_empty() => out.push(says(Note::StreamEndedEmpty(self.name.clone()))),
                    None => {}
                }
                out
            }
            None => {
                let complete = self.bytes.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                if complete > self.shown {
                    return vec![self.show(complete, None)];
                }
                Vec::new()
            }
        }
    }
}
