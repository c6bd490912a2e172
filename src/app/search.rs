//! Search over the timeline rows in scope: a scan run in steps between
//! frames (so no key waits on a large input), case-insensitive, over each
//! row's words and its raw event.

use super::App;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search {
    /// Text being typed after `/`.
    pub input: String,
    /// The committed query.
    pub query: Option<String>,
    /// Timeline row indices (into `Timeline::rows`) that match, in order.
    pub matches: Vec<usize>,
    /// A scan still running over the rows in scope (large inputs): the event
    /// loop calls [`App::search_step`] between frames so no key waits on it.
    pub scan: Option<Scan>,
}

/// State of an incremental search over `App::visible`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Lower-cased query.
    pub needle: String,
    /// Next position in `App::visible` to test.
    pub next: usize,
    /// Started by committing a query: select a hit and say how many matched.
    pub commit: Option<CommitScan>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitScan {
    /// The row selected when the query was committed.
    pub from: usize,
    /// A hit was already selected.
    pub jumped: bool,
}

/// Scopes of at most this many rows are searched in one step, as a
/// synchronous search would; larger ones check the time budget after every
/// row (a row can take milliseconds: its raw event is serialized).
const SCAN_MIN_ROWS: usize = 512;
/// Time budget of one scan step, well under a 16 ms frame.
const SCAN_BUDGET: std::time::Duration = std::time::Duration::from_millis(6);

impl App {
    pub fn rerun_search(&mut self) {
        self.search.matches = Vec::new();
        self.search.scan = self.search.query.as_ref().map(|q| Scan { needle: q.to_lowercase(), ..Default::default() });
        self.search_step();
    }

    /// Start searching for the committed query; the first hit at or after the
    /// selected row is selected as soon as it is found.
    pub fn commit_search(&mut self, query: String) {
        let from = self.selected_row().unwrap_or(0);
        self.search.matches = Vec::new();
        self.search.scan =
            Some(Scan { needle: query.to_lowercase(), next: 0, commit: Some(CommitScan { from, jumped: false }) });
        self.search.query = Some(query);
        self.search_step();
    }

    /// True while a search scan has rows left.
    pub fn search_pending(&self) -> bool {
        self.search.scan.is_some()
    }

    /// Test rows for the running search for about [`SCAN_BUDGET`].
    pub fn search_step(&mut self) {
        let Some(mut scan) = self.search.scan.take() else { return };
        let started = std::time::Instant::now();
        let budgeted = self.visible.len() > SCAN_MIN_ROWS;
        while scan.next < self.visible.len() {
            let ri = self.visible[scan.next];
            scan.next += 1;
            if self.row_matches(ri, &scan.needle) {
                self.search.matches.push(ri);
                if let Some(c) = scan.commit.as_mut()
                    && !c.jumped
                    && ri >= c.from
                {
                    c.jumped = true;
                    self.select_row(ri);
                }
            }
            if budgeted && started.elapsed() >= SCAN_BUDGET {
                break;
            }
        }
        if scan.next < self.visible.len() {
            if let Some(c) = &scan.commit {
                let found = self.search.matches.len();
                let pct = scan.next * 100 / self.visible.len().max(1);
                self.flash(if c.jumped || found > 0 {
                    format!("searching… {} so far ({pct}%)", crate::view::format::count(found, "match", "matches"))
                } else {
                    format!("searching… ({pct}%)")
                });
            }
            self.search.scan = Some(scan);
            return;
        }
        if let Some(c) = scan.commit {
            let query = self.search.query.clone().unwrap_or_default();
            if self.search.matches.is_empty() {
                self.flash_error(format!("no match for \"{query}\" in this scope"));
            } else {
                if !c.jumped {
                    self.select_row(self.search.matches[0]);
                }
                self.flash(crate::view::format::count(self.search.matches.len(), "match", "matches"));
            }
        }
    }

    /// Does timeline row `ri` contain `needle` (lower-cased) in its summary or payload?
    fn row_matches(&self, ri: usize, needle: &str) -> bool {
        let (Some(view), Some(attempt)) = (self.view(), self.attempt()) else { return false };
        let Some(row) = view.timeline.rows.get(ri) else { return false };
        let summary = crate::view::timeline::row_view(attempt, view, ri).map(|r| r.plain()).unwrap_or_default();
        if folded_contains(needle, |h| h.extend_from_slice(summary.as_bytes())) {
            return true;
        }
        let Some(record) = attempt.sessions.get(row.addr.session).and_then(|s| s.turns.get(row.addr.turn)) else {
            return false;
        };
        let events = row.event.into_iter().chain(row.merged_finish);
        events.into_iter().any(|e| {
            record.turn.events.get(e).is_some_and(|ev| {
                folded_contains(needle, |h| {
                    let _ = serde_json::to_writer(&mut *h, &*ev.raw_once());
                })
            })
        })
    }
}

thread_local! {
    /// The text a search step looks in, reused row after row.
    static HAYSTACK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Does the text `fill` writes contain `needle` (already lower-cased),
/// ignoring case? ASCII text (most JSON) is lower-cased in place in a reused
/// buffer; other text goes through `str::to_lowercase`, as before.
fn folded_contains(needle: &str, fill: impl FnOnce(&mut Vec<u8>)) -> bool {
    HAYSTACK.with(|cell| {
        let mut hay = cell.borrow_mut();
        hay.clear();
        fill(&mut hay);
        if hay.is_ascii() {
            hay.make_ascii_lowercase();
            memchr::memmem::find(&hay, needle.as_bytes()).is_some()
        } else {
            String::from_utf8_lossy(&hay).to_lowercase().contains(needle)
        }
    })
}

#[cfg(test)]
mod search_tests {
    use super::folded_contains;

    fn hay(text: &str, needle: &str) -> bool {
        folded_contains(&needle.to_lowercase(), |h| h.extend_from_slice(text.as_bytes()))
    }

    #[test]
    fn case_is_ignored_in_ascii_and_other_text() {
        assert!(hay(r#"{"type":"Operation.Started","name":"ReadFile"}"#, "readfile"));
        assert!(hay(r#"{"text":"NEEDLE-42"}"#, "Needle-42"));
        assert!(!hay(r#"{"text":"needle-4"}"#, "needle-42"));
        assert!(hay("Café ÉCOLE", "école"));
        assert!(hay("Café ÉCOLE", "CAFÉ"));
        assert!(!hay("Café", "cafe"));
        // The reused buffer holds nothing from the row before.
        assert!(hay("abc needle", "needle"));
        assert!(!hay("abc", "needle"));
    }
}
