//! Search: `/` opens a prompt that searches where the focus is (the
//! timeline, the attempts list, the Tools list or the inspector). Results
//! follow every key typed; Enter keeps them, Esc puts back what was there.
//! Ctrl-r switches between text (ignores case) and a regular expression
//! (`show --grep`'s semantics). The timeline scan runs in steps between
//! frames, so no key waits on a large input.

use super::{App, Focus, ListState, Mode, Panel};
use crate::model::document::Attempt;
use crate::view::AttemptView;
use crate::view::note::{Cleared, Note};
use crate::view::search::{Matcher, Query, SearchTarget};

#[derive(Debug, Clone, Default)]
pub struct Search {
    /// Text being typed after `/`.
    pub input: String,
    /// The prompt matches a regular expression (Ctrl-r); kept between searches.
    pub regex: bool,
    /// What the open prompt searches.
    pub target: SearchTarget,
    /// Why the typed pattern matches nothing (not a regular expression).
    pub error: Option<String>,
    /// The timeline's query: live while typing, kept after Enter.
    pub query: Option<Query>,
    /// Timeline row indices (into `Timeline::rows`) that match, in order.
    pub matches: Vec<usize>,
    /// A scan still running over the rows in scope (large inputs): the event
    /// loop calls [`App::search_step`] between frames so no key waits on it.
    pub scan: Option<Scan>,
    /// What was there when `/` was pressed, for Esc.
    before: Option<Box<Before>>,
}

/// The state a search prompt may change, as it was before.
#[derive(Debug, Clone)]
struct Before {
    query: Option<Query>,
    matches: Vec<usize>,
    tab: Panel,
    focus: Focus,
    timeline: ListState,
    nav_query: Option<Query>,
    nav_state: ListState,
    tool_query: Option<Query>,
    tools: ListState,
    inspector: Option<InspectorSearch>,
    inspector_scroll: usize,
}

/// State of an incremental search over `App::scope_rows`.
#[derive(Debug, Clone)]
pub struct Scan {
    matcher: Matcher,
    /// Next position in `App::scope_rows` to test.
    pub next: usize,
    /// Select a hit at or after `from` as soon as one is found.
    jump: Option<Jump>,
    /// Say how many matched when the scan ends (after Enter).
    announce: bool,
}

#[derive(Debug, Clone, Copy)]
struct Jump {
    from: usize,
    jumped: bool,
}

/// A search in the inspector's lines (made at the panel's width, see
/// [`super::inspector`]).
#[derive(Debug, Clone)]
pub struct InspectorSearch {
    pub query: Query,
    /// The match shown (an index into the matching lines).
    pub current: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seek {
    /// The first match at or after this line (wrapping to the first).
    From(usize),
    /// This many matches on (`n` is +1, `N` is -1).
    Step(isize),
}

/// Which match to show and the scroll that shows it. `lines` are the lines
/// that match, in order; the scroll moves only when the match is not on
/// screen, and then puts it a third of the way down.
pub fn seek(lines: &[usize], current: Option<usize>, to: Seek, scroll: usize, height: usize) -> Option<(usize, usize)> {
    let n = lines.len();
    if n == 0 {
        return None;
    }
    let at = match (to, current.filter(|&c| c < n)) {
        (Seek::From(line), _) => Some(lines.partition_point(|&l| l < line)).filter(|&i| i < n).unwrap_or(0),
        (Seek::Step(d), Some(c)) => (c as isize + d).rem_euclid(n as isize) as usize,
        // No match shown yet: the first step forward shows the first one.
        (Seek::Step(d), None) => (if d > 0 { d - 1 } else { d }).rem_euclid(n as isize) as usize,
    };
    let line = lines[at];
    // The last line may be the "↓ more lines" note: not a place to show a match.
    let visible = line >= scroll && line + 1 < scroll + height.max(2);
    Some((at, if visible { scroll } else { line.saturating_sub(height / 3) }))
}

/// Scopes of at most this many rows are searched in one step, as a
/// synchronous search would; larger ones check the time budget after every
/// row (a row can take milliseconds: its raw event's values are written out).
const SCAN_MIN_ROWS: usize = 512;
/// Rows tested between two looks at the clock (on two cores, about 3 ms).
const SCAN_STRETCH: usize = 4096;
/// Time budget of one scan step, well under a 16 ms frame.
const SCAN_BUDGET: std::time::Duration = std::time::Duration::from_millis(6);

impl App {
    /// `/`: open the prompt for the panel with focus.
    pub fn open_search(&mut self) {
        let target = match (self.focus, self.tab) {
            (Focus::Nav, _) if self.doc.attempts.len() > 1 => SearchTarget::Attempts,
            (Focus::Inspector, _) => SearchTarget::Inspector,
            (Focus::List, Panel::Tools) => SearchTarget::Tools,
            _ => SearchTarget::Timeline,
        };
        self.search.before = Some(Box::new(Before {
            query: self.search.query.clone(),
            matches: self.search.matches.clone(),
            tab: self.tab,
            focus: self.focus,
            timeline: self.lists.timeline,
            nav_query: self.nav_query.clone(),
            nav_state: self.nav_state,
            tool_query: self.tool_query.clone(),
            tools: self.lists.tools,
            inspector: self.inspector_search.clone(),
            inspector_scroll: self.inspector_scroll,
        }));
        self.search.target = target;
        self.search.input.clear();
        self.search.error = None;
        self.mode = Mode::Search;
    }

    /// The typed text changed (or Ctrl-r): show what it finds now.
    pub fn search_typed(&mut self) {
        let text = self.search.input.trim().to_string();
        let query = if text.is_empty() { Ok(None) } else { Query::new(&text, self.search.regex).map(Some) };
        let query = match query {
            Ok(q) => {
                self.search.error = None;
                q
            }
            Err(e) => {
                // Nothing matches a broken pattern: show what was there.
                self.search.error = Some(e);
                None
            }
        };
        let Some(before) = self.search.before.clone() else { return };
        match self.search.target {
            SearchTarget::Timeline => {
                self.search.scan = None;
                self.lists.timeline = before.timeline;
                match query {
                    None => {
                        self.search.query = before.query;
                        self.search.matches = before.matches;
                        (self.tab, self.focus) = (before.tab, before.focus);
                    }
                    Some(q) => {
                        (self.tab, self.focus) = (Panel::Timeline, Focus::List);
                        let from = self.selected_row().unwrap_or(0);
                        self.start_scan(q, Some(Jump { from, jumped: false }), false);
                    }
                }
            }
            SearchTarget::Attempts => {
                self.nav_query = if self.search.error.is_some() { before.nav_query } else { query };
                self.rebuild_nav();
                self.nav_state = ListState::default();
            }
            SearchTarget::Tools => {
                self.tool_query = if self.search.error.is_some() { before.tool_query } else { query };
                self.rebuild_tool_rows();
                self.lists.tools = ListState::default();
            }
            SearchTarget::Inspector => {
                self.inspector_scroll = before.inspector_scroll;
                let typed = query.is_some();
                self.inspector_search = match query {
                    Some(query) => Some(InspectorSearch { query, current: None }),
                    None => before.inspector,
                };
                if typed {
                    self.inspector_seek(Seek::From(before.inspector_scroll));
                }
            }
        }
    }

    /// Enter: keep what the prompt shows.
    pub fn keep_search(&mut self) {
        if self.search.error.is_some() {
            return;
        }
        self.mode = Mode::Normal;
        self.search.before = None;
        let typed = !self.search.input.trim().is_empty();
        match self.search.target {
            SearchTarget::Timeline if !typed => {}
            SearchTarget::Timeline => match self.search.scan.as_mut() {
                Some(scan) => scan.announce = true,
                None => self.announce_matches(),
            },
            SearchTarget::Attempts => {
                let shown = self.nav.iter().filter(|n| n.depth == 0).count();
                self.say(match &self.nav_query {
                    Some(q) => Note::AttemptsMatching { label: q.label(40), shown },
                    None => Note::Cleared(Cleared::Attempts),
                });
            }
            SearchTarget::Tools => {
                let shown = self.tool_rows().len();
                self.say(match &self.tool_query {
                    Some(q) => Note::ToolsMatching { label: q.label(40), shown },
                    None => Note::Cleared(Cleared::Tools),
                });
            }
            SearchTarget::Inspector => {}
        }
    }

    /// Esc: put back what was there before `/`.
    pub fn cancel_search(&mut self) {
        self.mode = Mode::Normal;
        self.search.scan = None;
        let Some(before) = self.search.before.take() else { return };
        let b = *before;
        self.search.query = b.query;
        self.search.matches = b.matches;
        (self.tab, self.focus) = (b.tab, b.focus);
        self.lists.timeline = b.timeline;
        if self.nav_query.as_ref().map(|q| &q.text) != b.nav_query.as_ref().map(|q| &q.text) {
            self.nav_query = b.nav_query;
            self.rebuild_nav();
        }
        self.nav_state = b.nav_state;
        if self.tool_query.as_ref().map(|q| &q.text) != b.tool_query.as_ref().map(|q| &q.text) {
            self.tool_query = b.tool_query;
            self.rebuild_tool_rows();
        }
        self.lists.tools = b.tools;
        self.inspector_search = b.inspector;
        self.inspector_scroll = b.inspector_scroll;
    }

    /// How many the open prompt finds so far (`None` while it is still looking).
    pub fn prompt_matches(&self) -> Option<usize> {
        match self.search.target {
            SearchTarget::Timeline => self.search.scan.is_none().then_some(self.search.matches.len()),
            SearchTarget::Attempts => Some(self.nav.iter().filter(|n| n.depth == 0).count()),
            SearchTarget::Tools => Some(self.tool_rows().len()),
            SearchTarget::Inspector => self.inspector_match_count(),
        }
    }

    /// Ctrl-r in the prompt.
    pub fn toggle_search_regex(&mut self) {
        self.search.regex = !self.search.regex;
        self.search_typed();
    }

    /// The rows in scope changed: search them again for the kept query.
    pub fn rerun_search(&mut self) {
        self.search.matches = Vec::new();
        self.search.scan = None;
        if let Some(q) = self.search.query.clone() {
            self.start_scan(q, None, false);
        }
    }

    fn start_scan(&mut self, query: Query, jump: Option<Jump>, announce: bool) {
        self.search.matches = Vec::new();
        self.search.scan = Some(Scan { matcher: query.matcher.clone(), next: 0, jump, announce });
        self.search.query = Some(query);
        self.search_step();
    }

    /// True while a search scan has rows left.
    pub fn search_pending(&self) -> bool {
        self.search.scan.is_some()
    }

    /// Test rows for the running search for about [`SCAN_BUDGET`], a
    /// stretch of rows at a time, spread over the cores.
    pub fn search_step(&mut self) {
        let Some(mut scan) = self.search.scan.take() else { return };
        let started = std::time::Instant::now();
        let budgeted = self.scope_rows().len() > SCAN_MIN_ROWS;
        while scan.next < self.scope_rows().len() {
            let end = if budgeted {
                (scan.next + SCAN_STRETCH).min(self.scope_rows().len())
            } else {
                self.scope_rows().len()
            };
            let hits = match (self.attempt(), self.view()) {
                (Some(attempt), Some(view)) => {
                    matching_rows(attempt, view, &self.scope_rows()[scan.next..end], &scan.matcher)
                }
                _ => Vec::new(),
            };
            scan.next = end;
            for ri in hits {
                self.search.matches.push(ri);
                if let Some(j) = scan.jump.as_mut()
                    && !j.jumped
                    && ri >= j.from
                {
                    j.jumped = true;
                    self.select_row(ri);
                }
            }
            if budgeted && started.elapsed() >= SCAN_BUDGET {
                break;
            }
        }
        if scan.next < self.scope_rows().len() {
            if scan.announce {
                let found = self.search.matches.len();
                let pct = scan.next * 100 / self.scope_rows().len().max(1);
                self.say(Note::Searching { found, percent: pct });
            }
            self.search.scan = Some(scan);
            return;
        }
        if let Some(j) = scan.jump
            && !j.jumped
            && let Some(&first) = self.search.matches.first()
        {
            self.select_row(first);
        }
        if scan.announce {
            self.announce_matches();
        }
    }

    fn announce_matches(&mut self) {
        let Some(q) = self.search.query.as_ref() else { return };
        if self.search.matches.is_empty() {
            self.say(Note::NoMatchFor(q.label(40)));
        } else {
            self.say(Note::Matches(self.search.matches.len()));
        }
    }

    /// `n` / `N`: the next or previous match of the search the focus has.
    pub fn next_match(&mut self, forward: bool) {
        if self.focus == Focus::Inspector && self.inspector_search.is_some() {
            self.inspector_seek(Seek::Step(if forward { 1 } else { -1 }));
            return;
        }
        if self.search.matches.is_empty() {
            self.say(if self.search.query.is_some() { Note::NoMatches } else { Note::NoSearch });
            return;
        }
        let current = self.selected_row().unwrap_or(0);
        // Matches are in row order.
        let m = &self.search.matches;
        let at = if forward {
            Some(m.partition_point(|&r| r <= current)).filter(|&i| i < m.len()).unwrap_or(0)
        } else {
            m.partition_point(|&r| r < current).checked_sub(1).unwrap_or(m.len() - 1)
        };
        let (target, total) = (m[at], m.len());
        self.select_row(target);
        self.say(Note::MatchPosition { at: at + 1, of: total });
    }
}

/// The rows of `rows` that match, in order: the two halves of a long
/// stretch on two cores.
fn matching_rows(attempt: &Attempt, view: &AttemptView, rows: &[u32], matcher: &Matcher) -> Vec<usize> {
    let matching = |part: &[u32]| -> Vec<usize> {
        part.iter().map(|&ri| ri as usize).filter(|&ri| row_matches(attempt, view, ri, matcher)).collect()
    };
    if rows.len() < 2 * SCAN_MIN_ROWS || crate::analysis::parallel::cores(2) < 2 {
        return matching(rows);
    }
    let (first, second) = rows.split_at(rows.len() / 2);
    let (mut hits, rest) = crate::analysis::parallel::both(|| matching(first), || matching(second));
    hits.extend(rest);
    hits
}

/// Does timeline row `ri` match in its words or its events' values (not their keys)?
fn row_matches(attempt: &Attempt, view: &AttemptView, ri: usize, matcher: &Matcher) -> bool {
    let Some(row) = view.timeline.rows.get(ri) else { return false };
    let summary = crate::view::timeline::row_view(attempt, view, ri).map(|r| r.plain()).unwrap_or_default();
    if matcher.is_match(&summary) {
        return true;
    }
    let Some(record) = attempt.sessions.get(row.addr().session).and_then(|s| s.turns.get(row.addr().turn)) else {
        return false;
    };
    let events = row.event().into_iter().chain(row.merged_finish());
    events.into_iter().any(|e| {
        record.turn.events.get(e).is_some_and(|ev| {
            // Most rows' raw JSON holds no trace of the query: no need to write out their values.
            if ev.head().raw_text().is_some_and(|raw| !matcher.may_match_raw(raw)) {
                return false;
            }
            HAYSTACK.with(|cell| {
                let mut hay = cell.borrow_mut();
                hay.clear();
                crate::view::search::write_values(ev.head(), &mut hay);
                matcher.is_match_buffer(&mut hay)
            })
        })
    })
}

thread_local! {
    /// The text a search step looks in, reused row after row.
    static HAYSTACK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::{Seek, seek};

    #[test]
    fn seek_wraps_and_scrolls_only_when_the_match_is_off_screen() {
        let lines = [3, 40, 90];
        // From line 10: the match on line 40, shown a third of a 30-line panel down.
        assert_eq!(seek(&lines, None, Seek::From(10), 0, 30), Some((1, 30)));
        // Past the last match: wrap to the first.
        assert_eq!(seek(&lines, None, Seek::From(91), 60, 30), Some((0, 0)));
        // On screen already: the scroll stays.
        assert_eq!(seek(&lines, Some(0), Seek::Step(1), 20, 30), Some((1, 20)));
        assert_eq!(seek(&lines, Some(2), Seek::Step(1), 80, 30), Some((0, 0)));
        assert_eq!(seek(&lines, Some(0), Seek::Step(-1), 0, 30), Some((2, 80)));
        // Steps taken between two frames add up, and wrap.
        assert_eq!(seek(&lines, Some(1), Seek::Step(-2), 0, 30), Some((2, 80)));
        assert_eq!(seek(&lines, Some(1), Seek::Step(5), 0, 30), Some((0, 0)));
        // A current index from other lines (the selection changed) starts over.
        assert_eq!(seek(&lines, Some(7), Seek::Step(1), 0, 30), Some((0, 0)));
        assert_eq!(seek(&lines, None, Seek::Step(-1), 0, 30), Some((2, 80)));
        assert_eq!(seek(&[], None, Seek::Step(1), 0, 30), None);
    }
}
