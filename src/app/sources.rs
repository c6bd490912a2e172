//! What arrives from outside the keyboard: a background load's progress and
//! its document, and `--watch` / `--follow` reloads. The sources (threads,
//! file watchers) only read and parse; the state changes here, in
//! [`super::update`], like any key's.

use super::{Action, App, Prepared};
use crate::model::document::{Document, NoticeKind, NoticeLevel};
use crate::model::notice::{PreviewPart, ViewerNotice};
use crate::view::note::Note;
use std::sync::{Arc, Mutex};

/// A value handed over inside an action (a document parsed on another
/// thread). Actions are compared and hashed (key tables, tests), so a
/// handoff compares by identity; `update` takes the value out once.
pub struct Handoff<T>(Arc<Mutex<Option<T>>>);

impl<T> Handoff<T> {
    pub fn new(value: T) -> Handoff<T> {
        Handoff(Arc::new(Mutex::new(Some(value))))
    }

    /// The value, the first time; `None` after (a cloned action applied twice).
    pub fn take(&self) -> Option<T> {
        self.0.lock().ok()?.take()
    }
}

impl<T> Clone for Handoff<T> {
    fn clone(&self) -> Self {
        Handoff(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Handoff<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Handoff<T> {}

impl<T> std::hash::Hash for Handoff<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as *const () as usize).hash(state);
    }
}

impl<T> std::fmt::Debug for Handoff<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Handoff(..)")
    }
}

/// What the footer says after a reload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReloadNote {
    /// "reloaded" (`--watch`).
    Reloaded,
    /// "+N events" when events were added, else nothing (`--follow`).
    NewEvents,
    /// What the source says of the reload.
    Says(Note),
}

impl App {
    /// Apply an action from a source; `false` when `action` is not one.
    pub(super) fn source_action(&mut self, action: &Action) -> bool {
        match action {
            Action::LoadStarted(progress) => self.loading = Some(*progress),
            Action::LoadProgress { bytes, lines, building, elapsed_ms } => {
                if let Some(l) = self.loading.as_mut() {
                    (l.parsed_bytes, l.parsed_lines, l.building, l.elapsed_ms) =
                        (*bytes, *lines, *building, *elapsed_ms);
                }
            }
            Action::Loaded { prepared, elapsed_ms } => {
                let Some(prepared) = prepared.take() else { return true };
                let total = self.loading.as_ref().map(|l| l.total_bytes).unwrap_or(0);
                self.install(prepared);
                self.loading = None;
                self.say(Note::Loaded { bytes: total, events: self.doc.event_count(), elapsed_ms: *elapsed_ms });
            }
            Action::LoadFailed { why } => {
                self.preview_only = self.loading.take();
                self.stop_at_preview(why);
            }
            Action::Reloaded { doc, note } => {
                let Some(doc) = doc.take() else { return true };
                self.reloaded(doc, note);
            }
            Action::SessionsListed(listed) => {
                let Some(listed) = listed.take() else { return true };
                self.sessions_listed(listed);
            }
            Action::SourceSays(note) => self.say(note.clone()),
            _ => return false,
        }
        true
    }

    fn reloaded(&mut self, doc: Document, note: &ReloadNote) {
        let before = self.doc.event_count();
        let skipped_before = skipped_lines(&self.doc).count();
        self.replace_document(doc);
        let added = self.doc.event_count().saturating_sub(before);
        // Lines the reload could not read (a followed file reloads whole:
        // the lines past those skipped before are the new ones).
        let skipped: Vec<_> = skipped_lines(&self.doc).skip(skipped_before).collect();
        if !skipped.is_empty() {
            let skipped = skipped.into_iter().cloned().collect();
            return self.say(Note::FollowSkipped { added, skipped });
        }
        match note {
            ReloadNote::Reloaded => self.say(Note::Reloaded),
            ReloadNote::NewEvents if added > 0 => self.say(Note::NewEvents(added)),
            ReloadNote::NewEvents => {}
            ReloadNote::Says(said) => self.say(said.clone()),
        }
    }

    /// The whole load failed: the preview's notice that said it was still
    /// loading now says why it stopped.
    fn stop_at_preview(&mut self, why: &str) {
        let preview = match (self.preview_only, self.doc.sources.first()) {
            (Some(l), Some(path)) => {
                Some(PreviewPart { path: path.clone(), shown: l.preview_bytes, total: l.total_bytes })
            }
            _ => None,
        };
        let loading = |n: &&mut crate::model::notice::Notice| {
            matches!(n.kind, NoticeKind::Viewer(ViewerNotice::PreviewLoading(_)))
        };
        for n in self.doc.notices.iter_mut().filter(loading) {
            n.level = NoticeLevel::Error;
            n.kind = ViewerNotice::PreviewOnly { preview: preview.clone(), why: why.to_string() }.into();
        }
        self.say(Note::PreviewOnly(why.to_string()));
    }
}

/// The lines of a document's input that were skipped, in file order.
fn skipped_lines(doc: &Document) -> impl Iterator<Item = &crate::model::diagnostics::InputLoss> {
    doc.losses.iter().filter(|l| l.kind == crate::model::diagnostics::LossKind::LineSkipped)
}

/// Shorthand for a source: an action that installs a prepared document.
pub fn loaded(prepared: Prepared, elapsed_ms: u64) -> Action {
    Action::Loaded { prepared: Handoff::new(prepared), elapsed_ms }
}

/// Shorthand for a source: an action that shows a new document.
pub fn reloaded(doc: Document, note: ReloadNote) -> Action {
    Action::Reloaded { doc: Handoff::new(doc), note }
}
