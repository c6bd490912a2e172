//! A Record opened at one of its run directories (`runs/<id>`) or attempt
//! directories (`runs/<id>/attempts/<attemptId>`): the Record is read from
//! its root, limited to that run's members or to that one attempt.

use super::is_record_root;
use crate::load::error::LoadError;
use crate::model::document::Document;
use std::path::{Path, PathBuf};

/// What part of a Record to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Whole,
    /// The members of one run (attempts it executed, carried or accepted).
    Run(String),
    /// One attempt, by its id (the directory name under `attempts/`).
    Attempt {
        run: String,
        attempt: String,
    },
}

/// The Record root and scope for a directory inside a Record: a run
/// directory or an attempt directory. `None` for anything else.
pub fn scope_of(dir: &Path) -> Option<(PathBuf, Scope)> {
    let dir = std::path::absolute(dir).ok()?;
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let parent = dir.parent()?;
    // runs/<run>
    if name(parent).as_deref() == Some("runs") {
        let root = parent.parent()?;
        let run = name(&dir)?;
        return is_record_root(root).then(|| (root.to_path_buf(), Scope::Run(run)));
    }
    // runs/<run>/attempts/<attempt>
    if name(parent).as_deref() == Some("attempts") {
        let run_dir = parent.parent()?;
        let runs = run_dir.parent()?;
        let root = runs.parent()?;
        if name(runs).as_deref() == Some("runs") && is_record_root(root) {
            return Some((root.to_path_buf(), Scope::Attempt { run: name(run_dir)?, attempt: name(&dir)? }));
        }
    }
    None
}

/// Read the part of the Record at `root` that `scope` names; `shown` is the
/// path the user gave (the document's source).
pub fn open(root: &Path, scope: &Scope, shown: &str) -> Result<Document, LoadError> {
    let mut doc = super::load_scoped(root, scope)?;
    doc.sources = vec![shown.to_string()];
    Ok(doc)
}

/// The Record root and scope of a Record's `runs/<id>/run.json` or
/// `runs/<id>/attempts/<attemptId>/attempt.json`.
pub fn of_member_file(path: &Path) -> Option<(PathBuf, Scope)> {
    let name = path.file_name()?.to_str()?;
    let (root, scope) = scope_of(path.parent()?)?;
    let fits = matches!((name, &scope), ("run.json", Scope::Run(_)) | ("attempt.json", Scope::Attempt { .. }));
    fits.then_some((root, scope))
}

impl Scope {
    /// The document's format line.
    pub fn format_name(&self) -> String {
        match self {
            Scope::Whole => "NiceEval Record".into(),
            Scope::Run(run) => format!("NiceEval Record, run {run}"),
            Scope::Attempt { attempt, .. } => format!("NiceEval Record, attempt {attempt}"),
        }
    }

    /// Whether the run with this id is read. An attempt scope reads every
    /// run: the members that list the attempt may sit in any of them.
    pub fn keeps_run(&self, id: &str) -> bool {
        match self {
            Scope::Run(run) => run == id,
            Scope::Whole | Scope::Attempt { .. } => true,
        }
    }

    pub fn keeps_attempt(&self, attempt_id: &str) -> bool {
        match self {
            Scope::Attempt { attempt, .. } => attempt == attempt_id,
            Scope::Whole | Scope::Run(_) => true,
        }
    }

    /// Whether the slots a run lists without an attempt (not dispatched,
    /// interrupted) are counted as not recorded: not for one attempt.
    pub fn keeps_slots_without_attempt(&self) -> bool {
        !matches!(self, Scope::Attempt { .. })
    }

    /// A scoped run must be published: a draft (no `complete`) is what
    /// NiceEval ignores, and an unknown id is no run of this Record.
    pub fn check_runs(&self, published: &[&str], drafts: &[String]) -> Result<(), String> {
        let run = match self {
            Scope::Whole => return Ok(()),
            Scope::Run(run) | Scope::Attempt { run, .. } => run,
        };
        if published.contains(&run.as_str()) {
            return Ok(());
        }
        let why = if drafts.contains(run) {
            "is an unfinished draft (no zero-byte `complete` marker): NiceEval ignores it, and so does the viewer"
        } else {
            "is not a readable run of this Record (no run.json, or a `complete` marker that is not a zero-byte file)"
        };
        Err(format!("run {run} {why}"))
    }
}
