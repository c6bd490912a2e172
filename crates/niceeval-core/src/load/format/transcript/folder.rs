//! A folder of native agent logs (`~/.claude/projects/<project>/`, one
//! `<session>.jsonl` per session; Codex rollout files) as a list of
//! sessions, one attempt each, newest first. A `*.jsonl` file that is no
//! native log is a notice, never dropped silently. The list's facts come
//! from the cheap [`scan`](super::scan); [`read_session`] is the full parse
//! of one, done when it is opened (and for every one by [`load_dir`]).

use super::Agent;
use super::scan::SessionFacts;
use crate::load::LoadError;
use crate::model::document::{Attempt, Document, Notice, NoticeLevel};
use crate::model::notice::{NotListed, TranscriptNotice};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How much of a file's start is read to tell whether it is a native log.
const HEAD_BYTES: usize = 64 << 10;

/// One `*.jsonl` file of the folder.
#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    pub modified: Option<SystemTime>,
}

/// One session of the list: its file, the agent that wrote it and its facts.
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub path: PathBuf,
    pub agent: Agent,
    pub facts: SessionFacts,
}

impl SessionRow {
    pub fn name(&self) -> String {
        crate::load::display_name(&self.path)
    }

    /// The session's id: its file's name without `.jsonl` (what Claude Code
    /// names it by, and what `compare` pairs two folders' sessions by).
    pub fn session_id(&self) -> String {
        self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }
}

/// The `*.jsonl` files directly in `dir`, most recently written first.
pub fn entries(dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut out: Vec<Entry> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .map(|e| Entry { modified: e.metadata().ok().and_then(|m| m.modified().ok()), path: e.path() })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.path.cmp(&b.path)));
    Ok(out)
}

/// Whether `dir` is a folder of native logs: one of its newest `*.jsonl`
/// files starts as one.
pub fn is_native_folder(dir: &Path) -> bool {
    entries(dir).is_ok_and(|files| files.iter().take(8).any(|e| agent_of_file(&e.path).is_some()))
}

/// The agent whose log `path` is, from its first lines.
fn agent_of_file(path: &Path) -> Option<Agent> {
    use std::io::Read;
    let mut head = Vec::with_capacity(HEAD_BYTES);
    std::fs::File::open(path).ok()?.take(HEAD_BYTES as u64).read_to_end(&mut head).ok()?;
    // A cut last line is not JSON; the lines before it say.
    super::detect(&super::load::text_of(&head).0)
}

/// Why a `*.jsonl` file of the folder is not in the list.
fn not_listed(path: &Path, why: NotListed) -> Notice {
    let name = crate::load::display_name(path);
    Notice::new(NoticeLevel::Warning, TranscriptNotice::NotListed { name, why })
}

/// The list row of one file, or the notice that says why it has none.
pub fn scan_entry(entry: &Entry) -> Result<SessionRow, Notice> {
    thread_local! {
        // One buffer a thread, read into again for each file: a fresh
        // allocation of each file's size costs its pages' faults again.
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with_borrow_mut(|bytes| {
        use std::io::Read;
        bytes.clear();
        let read = std::fs::File::open(&entry.path).and_then(|mut f| f.read_to_end(bytes));
        read.map_err(|e| not_listed(&entry.path, NotListed::Unreadable { io: crate::load::io_message(&e) }))?;
        let agent = agent_of_head(bytes).ok_or_else(|| not_listed(&entry.path, NotListed::NotALog))?;
        let facts = super::scan::scan(agent, bytes);
        if bytes.capacity() > BUFFER_KEPT {
            *bytes = Vec::new();
        }
        Ok(SessionRow { path: entry.path.clone(), agent, facts })
    })
}

/// The largest buffer a thread keeps between files.
const BUFFER_KEPT: usize = 64 << 20;

/// The agent that wrote a log, from its first 8 KiB, else its first 64 KiB
/// (a first line longer than that).
fn agent_of_head(bytes: &[u8]) -> Option<Agent> {
    let detect = |n: usize| super::detect(&super::load::text_of(&bytes[..bytes.len().min(n)]).0);
    detect(8 << 10).or_else(|| if bytes.len() > 8 << 10 { detect(HEAD_BYTES) } else { None })
}

/// [`scan_entry`] of each entry, on every core, in the entries' order.
pub fn scan_entries(entries: &[Entry]) -> Vec<Result<SessionRow, Notice>> {
    crate::analysis::parallel::parallel_map(entries, scan_entry)
}

/// The attempt a row stands for before its log is read: what the list
/// shows, no sessions yet.
pub fn listed_attempt(row: &SessionRow) -> Attempt {
    let f = &row.facts;
    Attempt {
        eval_id: Some(row.session_id()),
        agent: Some(row.agent.name().to_string()),
        model: f.model.clone(),
        started_at: f.started.clone(),
        source: Some(row.name()),
        reported_usage: (!f.usage.is_empty()).then_some(f.usage),
        listed_only: true,
        notices: vec![Notice::new(NoticeLevel::Info, TranscriptNotice::ListedFromQuickRead { name: row.name() })],
        ..Default::default()
    }
}

/// The full parse of one listed session: its attempt, as a single log
/// opens, with the row's model and start time (the parse keeps neither).
pub fn read_session(row: &SessionRow) -> Result<Document, LoadError> {
    let name = row.name();
    let bytes = crate::load::read_input(&row.path)?;
    let mut doc = super::load::document(&name, row.agent, &bytes);
    for a in &mut doc.attempts {
        a.model = a.model.take().or_else(|| row.facts.model.clone());
        a.started_at = a.started_at.take().or_else(|| row.facts.started.clone());
        a.source = Some(name.clone());
        a.eval_id = Some(row.session_id());
    }
    Ok(doc)
}

/// The rows of `dir` with the notices of the files that are none, the
/// most recently written session first (as the viewer lists them).
pub fn list(dir: &Path) -> Result<(Vec<SessionRow>, Vec<Notice>), LoadError> {
    let name = crate::load::display_name(dir);
    let files = entries(dir)
        .map_err(|e| LoadError::new(&name, format!("cannot list the directory: {}", crate::load::io_message(&e))))?;
    let (mut rows, mut notices) = (Vec::new(), Vec::new());
    for r in scan_entries(&files) {
        match r {
            Ok(row) => rows.push(row),
            Err(n) => notices.push(n),
        }
    }
    Ok((rows, notices))
}

/// The format line of a folder's document.
pub fn format_name(sessions: usize) -> String {
    format!("folder of native agent logs ({sessions} session(s), each read as NiceEval's parser reads it)")
}

/// A folder of native logs, every session read in full (`show`, `check`,
/// `compare`, and `view` off a terminal).
pub fn load_dir(dir: &Path) -> Result<Document, LoadError> {
    let (rows, notices) = list(dir)?;
    let docs = crate::analysis::parallel::parallel_map(&rows, read_session);
    let mut doc = Document {
        format: format_name(rows.len()),
        sources: vec![crate::load::display_name(dir)],
        notices,
        ..Default::default()
    };
    for d in docs {
        let d = d?;
        doc.notices.extend(d.notices);
        doc.losses.extend(d.losses);
        doc.attempts.extend(d.attempts);
    }
    Ok(doc)
}
