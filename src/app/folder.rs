//! A folder of native agent logs in the viewer: its sessions are the
//! navigator's attempts, newest first, each row the facts of a cheap scan.
//! The list grows as the background listing reads the folder
//! ([`Action::SessionsListed`]); a session is read in full when it is opened
//! (Enter), and keeps its place in the list.

use super::App;
use crate::load::format::transcript::folder::{self, SessionRow};
use crate::model::document::{Document, Notice};
use crate::model::usage::PriceTable;
use crate::view::text::Text;

/// The sessions listed so far, by attempt index.
pub struct Listing {
    pub rows: Vec<SessionRow>,
    /// Whether each session's log has been read in full.
    pub read: Vec<bool>,
    /// `*.jsonl` files in the folder (sessions or not).
    pub files: usize,
    /// Files looked at so far.
    pub scanned: usize,
}

/// A batch of the folder read: its sessions, the notices of files that are
/// none, and how many files it looked at.
pub struct Listed {
    pub rows: Vec<SessionRow>,
    pub notices: Vec<Notice>,
    pub scanned: usize,
    /// The bytes of the files it looked at.
    pub bytes: u64,
}

impl App {
    /// The viewer of a folder whose first `listed` files are read, of `files` in all.
    pub fn for_folder(dir: &str, listed: Listed, files: usize, model: Option<String>, prices: PriceTable) -> App {
        let doc = Document {
            format: folder::format_name(listed.rows.len()),
            sources: vec![dir.to_string()],
            attempts: listed.rows.iter().map(folder::listed_attempt).collect(),
            notices: listed.notices,
            ..Default::default()
        };
        let mut app = App::new(doc, model, prices);
        let read = vec![false; listed.rows.len()];
        app.listing = Some(Listing { rows: listed.rows, read, files, scanned: listed.scanned });
        // The list is what a folder is read for: half the screen (the most the layout gives it).
        app.nav_width = Some(u16::MAX);
        // A folder of one session opens it, as a single log opens.
        if app.doc.attempts.len() == 1 && files == 1 {
            app.open_listed(0);
        }
        app
    }

    /// The list row of attempt `a`, when the document is a folder's list.
    pub fn listed_line(&self, a: usize) -> Option<Text> {
        let row = self.listing.as_ref()?.rows.get(a)?;
        let usage = &row.facts.usage;
        let model = self.model.as_deref().or(row.facts.model.as_deref());
        let estimate = crate::model::usage::estimate_cost(model, usage, &self.prices);
        Some(crate::view::sessions::session_line(&row.facts, &estimate))
    }

    /// The navigator's title of a folder's list.
    pub fn listing_title(&self, shown: usize) -> Option<String> {
        let l = self.listing.as_ref()?;
        Some(if l.scanned < l.files {
            crate::view::sessions::listing_title(l.scanned, l.files)
        } else {
            crate::view::sessions::sessions_title(shown, l.rows.len())
        })
    }

    /// More of the folder read: its sessions join the end of the list.
    pub(super) fn sessions_listed(&mut self, listed: Listed) {
        let Some(listing) = self.listing.as_mut() else { return };
        listing.scanned = listed.scanned;
        if let Some(l) = self.loading.as_mut() {
            l.parsed_bytes += listed.bytes;
        }
        if listing.scanned >= listing.files {
            self.loading = None;
        }
        if listed.rows.is_empty() && listed.notices.is_empty() {
            return;
        }
        listing.read.extend(listed.rows.iter().map(|_| false));
        let mut doc = std::mem::take(&mut self.doc);
        doc.attempts.extend(listed.rows.iter().map(folder::listed_attempt));
        listing.rows.extend(listed.rows);
        doc.notices.extend(listed.notices);
        doc.format = folder::format_name(listing.rows.len());
        self.replace_document(doc);
    }

    /// Read attempt `a`'s log in full when it is a listed session not yet
    /// read; true when it was read now.
    pub(super) fn open_listed(&mut self, a: usize) -> bool {
        let Some(listing) = self.listing.as_mut() else { return false };
        let (Some(row), Some(false)) = (listing.rows.get(a), listing.read.get(a).copied()) else { return false };
        let read = match folder::read_session(row) {
            Ok(read) => read,
            Err(e) => {
                self.say(crate::view::note::Note::SessionUnreadable(e.to_string()));
                return false;
            }
        };
        listing.read[a] = true;
        let name = row.name();
        let mut doc = std::mem::take(&mut self.doc);
        let Some(attempt) = read.attempts.into_iter().next() else {
            self.doc = doc;
            return false;
        };
        let events = attempt.sessions.iter().flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum();
        doc.attempts[a] = attempt;
        doc.losses.extend(read.losses);
        self.replace_document(doc);
        self.say(crate::view::note::Note::SessionRead { name, events });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, Focus, Intent, update};

    fn fixture_entries() -> Vec<folder::Entry> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/folder");
        let mut entries = folder::entries(&dir).unwrap();
        // Newest first is by modification time; here by name, so the test does not depend on a checkout's times.
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        entries
    }

    fn listed(entries: &[folder::Entry], scanned: usize) -> Listed {
        let (mut rows, mut notices) = (Vec::new(), Vec::new());
        for r in folder::scan_entries(entries) {
            match r {
                Ok(row) => rows.push(row),
                Err(n) => notices.push(n),
            }
        }
        Listed { rows, notices, scanned, bytes: 0 }
    }

    #[test]
    fn the_list_grows_by_messages_and_enter_reads_a_session_in_full() {
        let entries = fixture_entries();
        assert_eq!(entries.len(), 4);
        let mut app = App::for_folder("dir", listed(&entries[..2], 2), 4, None, PriceTable::default());
        assert_eq!(app.doc.attempts.len(), 2);
        assert_eq!(app.listing_title(2).as_deref(), Some("Sessions · 2 of 4 read…"));
        assert!(app.doc.attempts.iter().all(|a| a.sessions.is_empty()), "listed, not read");
        let line = app.listed_line(0).unwrap().as_plain();
        assert!(line.contains("Fix the flaky test in parser_spec") && line.contains("2 turns · 2 tools · 1 failed"));

        // The rest arrives as a message: one more session and the file that is none.
        let more = listed(&entries[2..], 4);
        update(&mut app, Action::SessionsListed(crate::app::sources::Handoff::new(more)));
        assert_eq!(app.doc.attempts.len(), 3);
        assert!(
            app.doc.notices.iter().any(|n| crate::view::notice::words(n).contains("notes.jsonl")),
            "{:?}",
            app.doc.notices
        );
        assert_eq!(app.listing_title(3).as_deref(), Some("Sessions · 3"));

        // Enter on the first session reads it in full; it keeps its place.
        app.focus = Focus::Nav;
        update(&mut app, Intent::Top);
        update(&mut app, Intent::Enter);
        let first = &app.doc.attempts[0];
        assert_eq!(first.eval_id.as_deref(), Some("a1-fix-tests"));
        assert_eq!(first.sessions.len(), 1);
        assert!(!app.visible().is_empty(), "its timeline is shown");
        assert!(app.listing.as_ref().unwrap().read[0]);
        assert!(app.doc.attempts[1].sessions.is_empty(), "the others stay listed only");
        // Enter again folds it back into the list, read once.
        update(&mut app, Intent::Enter);
        assert!(app.nav.iter().all(|n| n.scope.session.is_none()), "{:?}", app.nav);

        // The navigator's filter finds a session by its first user message.
        app.nav_query = Some(crate::view::search::Query::new("make a pdf", false).unwrap());
        app.rebuild_nav();
        let found: Vec<usize> = app.nav.iter().map(|n| n.scope.attempt).collect();
        assert_eq!(found, vec![1], "{:?}", app.nav);
    }
}
