//! UI state and its one mutator, [`update`]. No terminal here: the state is
//! plain data so every behaviour is unit-testable.

pub mod action;
mod cause;
mod commands;
pub mod compare;
pub mod compare_layout;
mod compare_split;
mod compare_state;
mod enter;
mod fold;
pub mod folder;
pub mod help;
mod index;
pub mod inspector;
mod jumps;
mod keep;
pub mod key;
pub mod keymap;
pub mod layout;
mod motion;
mod navigator;
mod read;
mod rows;
mod sandbox;
pub mod scope;
pub mod search;
mod selection;
mod source;
pub mod sources;
mod timing;
mod translation;
pub mod update;

pub use action::{Action, Intent, Panel};
pub use index::ListIndex;
pub use keymap::Mode;
pub use search::{InspectorSearch, Search, Seek};
pub use timing::AssertionRow;
pub use update::update;

use crate::analysis::build_views;
use crate::model::derive::TurnAddr;
use crate::model::diagnostics::Finding;
use crate::model::document::Document;
use crate::model::usage::PriceTable;
use crate::view::attempt::AttemptView;
use rows::RowNumbers;
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Focus {
    Nav,
    List,
    Inspector,
}

/// What the other panels show: an attempt, optionally one session or turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Scope {
    pub attempt: usize,
    pub session: Option<usize>,
    pub turn: Option<usize>,
}

impl Scope {
    pub fn contains(&self, addr: TurnAddr) -> bool {
        self.session.is_none_or(|s| s == addr.session) && self.turn.is_none_or(|t| t == addr.turn)
    }
}

/// One line of the navigator tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavNode {
    pub depth: u8,
    pub scope: Scope,
    pub has_children: bool,
}

/// A scrollable list: selection and first visible row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListState {
    pub selected: usize,
    pub offset: usize,
}

impl ListState {
    /// Keep the selection inside `len` and on screen in `height` rows.
    pub fn clamp(&mut self, len: usize, height: usize) {
        if len == 0 {
            *self = ListState::default();
            return;
        }
        self.selected = self.selected.min(len - 1);
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(1));
    }
}

/// The list state of each tab, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lists {
    pub timeline: ListState,
    pub tools: ListState,
    pub hitl: ListState,
    pub usage: ListState,
    pub assertions: ListState,
    pub diagnostics: ListState,
    pub changes: ListState,
    pub timing: ListState,
    pub translation: ListState,
    pub source: ListState,
    pub commands: ListState,
}

impl Lists {
    pub fn of(&self, tab: Panel) -> &ListState {
        match tab {
            Panel::Timeline => &self.timeline,
            Panel::Tools => &self.tools,
            Panel::Hitl => &self.hitl,
            Panel::Usage => &self.usage,
            Panel::Assertions => &self.assertions,
            Panel::Diagnostics => &self.diagnostics,
            Panel::Changes => &self.changes,
            Panel::Timing => &self.timing,
            Panel::Translation => &self.translation,
            Panel::Source => &self.source,
            Panel::Commands => &self.commands,
        }
    }

    pub fn of_mut(&mut self, tab: Panel) -> &mut ListState {
        match tab {
            Panel::Timeline => &mut self.timeline,
            Panel::Tools => &mut self.tools,
            Panel::Hitl => &mut self.hitl,
            Panel::Usage => &mut self.usage,
            Panel::Assertions => &mut self.assertions,
            Panel::Diagnostics => &mut self.diagnostics,
            Panel::Changes => &mut self.changes,
            Panel::Timing => &mut self.timing,
            Panel::Translation => &mut self.translation,
            Panel::Source => &mut self.source,
            Panel::Commands => &mut self.commands,
        }
    }
}

pub use crate::view::filters::{ToolFilter, VerdictFilter};

/// Rows on screen per panel, set from the layout on start and resize.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewport {
    pub width: u16,
    pub height: u16,
    pub list_rows: usize,
    pub inspector_rows: usize,
    pub nav_rows: usize,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport { width: 120, height: 40, list_rows: 30, inspector_rows: 30, nav_rows: 30 }
    }
}

/// A large file still loading in the background while a preview of its
/// start is shown; the terminal layer refreshes the counters.
pub type Loading = crate::view::chrome::LoadProgress;

/// A document with its views, built on any thread, ready to [`App::install`].
pub struct Prepared {
    doc: Document,
    views: Vec<AttemptView>,
    findings: Vec<Finding>,
    /// The list index of every attempt, so installing costs the UI thread
    /// no pass over the rows.
    index: HashMap<usize, index::AttemptIndex>,
}

impl Prepared {
    pub fn new(doc: Document, model: Option<&str>, prices: &PriceTable) -> Prepared {
        let (views, findings) = build_views(&doc, model, prices);
        Prepared::from_views(doc, views, findings)
    }

    pub fn from_views(doc: Document, views: Vec<AttemptView>, findings: Vec<Finding>) -> Prepared {
        let index = index::index_attempts(&doc, &views, &findings);
        Prepared { doc, views, findings, index }
    }
}

/// What the viewer is started with: given once, at construction
/// ([`App::with_options`]); nothing sets them later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The theme the inspector's lines are made for.
    pub theme: crate::styled::ThemeName,
    /// `NICEEVAL_DEBUG_PANIC_KEY`: F12 panics on purpose (to test the terminal's restore).
    pub debug_keys: bool,
    /// The input is read again as it grows (`--follow`, `--watch`).
    pub live: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { theme: crate::styled::ThemeName::Dark, debug_keys: false, live: false }
    }
}

/// A one-off message in the footer, until the next key: a note the view words.
pub type Flash = crate::view::note::Note;

/// Side effects `update` asks the terminal layer to perform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Copy(String),
    Page(String),
    Redraw,
}

pub struct App {
    doc: Document,
    views: Vec<AttemptView>,
    findings: Vec<Finding>,
    model: Option<String>,
    prices: PriceTable,
    mode: Mode,
    focus: Focus,
    tab: Panel,
    scope: Scope,
    nav: Vec<NavNode>,
    nav_state: ListState,
    collapsed: HashSet<Scope>,
    /// Which of the attempt's rows are the scope's ([`App::scope_rows`]).
    scope_rows: rows::ScopeRows,
    /// The scope's rows shown while some turn of the attempt is folded
    /// (`None`: all of them; [`App::visible`]).
    folded_rows: Option<Vec<u32>>,
    /// Turns showing their header only (`z`, `-`, `+`): (attempt, turn).
    folded: HashSet<(usize, TurnAddr)>,
    /// The navigator's width when `<` / `>` changed it.
    nav_width: Option<u16>,
    merge: bool,
    /// The selection and scroll of each tab's list.
    lists: Lists,
    /// Navigator: which attempts to list.
    verdict_filter: VerdictFilter,
    /// Navigator text filter on eval, experiment and locator (`/` while the navigator has focus).
    nav_query: Option<crate::view::search::Query>,
    /// Tools list text filter (`/` while the Tools list has focus).
    tool_query: Option<crate::view::search::Query>,
    /// A search in the inspector's lines (`/` while the inspector has focus).
    inspector_search: Option<search::InspectorSearch>,
    inspector_scroll: usize,
    /// The inspector's lines as made for the selections seen (see [`inspector`]).
    inspector_memo: inspector::Memo,
    /// The theme the inspector's lines are made for (JSON colours differ).
    theme: crate::styled::ThemeName,
    /// Where jumps came from, for Ctrl-o / Ctrl-i.
    jumps: jumps::JumpList,
    raw: bool,
    tool_filter: ToolFilter,
    tool_sort_by_name: bool,
    search: Search,
    viewport: Viewport,
    flash: Option<Flash>,
    /// What the terminal is to do, collected during one `update` and returned by it.
    effects: Vec<Effect>,
    help_scroll: usize,
    /// Selection before the last `[`/`]`, so `[d`/`]d` can start from it.
    before_turn_jump: Option<(ListState, bool)>,
    /// `--follow`: keep the last row selected as rows arrive.
    follow: bool,
    /// The input is read again as it grows (`--follow`, `--watch`): only then can `F` follow it.
    live: bool,
    should_quit: bool,
    debug_keys: bool,
    /// A preview is shown while the whole file loads.
    loading: Option<Loading>,
    /// The whole of a large file could not be read: what is shown is its
    /// preview only (how much of how much), for the header to say so.
    preview_only: Option<Loading>,
    /// Bumped each time a document is installed, so render caches start over.
    generation: u64,
    /// Cached row lists of the list tabs and jump keys; see [`index`].
    index: ListIndex,
    /// The Timing tab: its rows for the attempt shown, and per attempt the
    /// nodes and folds opened or closed against their default.
    timing_rows: Vec<crate::view::waterfall::Row>,
    timing_toggled: HashMap<usize, HashSet<String>>,
    /// The Source tab's rows, where the failure began and the eval files'
    /// colours, for the attempt shown (see [`source`]).
    attempt_rows: source::AttemptRows,
    /// `view --compare`: the comparison and its screens.
    compare: Option<compare::CompareState>,
    /// A folder of native logs: its sessions as listed (see [`folder`]).
    listing: Option<folder::Listing>,
}

impl App {
    pub fn new(doc: Document, model: Option<String>, prices: PriceTable) -> App {
        let (views, findings) = build_views(&doc, model.as_deref(), &prices);
        App::from_prepared(Prepared::from_views(doc, views, findings), model, prices)
    }

    pub fn from_prepared(prepared: Prepared, model: Option<String>, prices: PriceTable) -> App {
        let Prepared { doc, views, findings, index } = prepared;
        let mut app = App {
            doc,
            views,
            findings,
            model,
            prices,
            mode: Mode::Normal,
            focus: Focus::List,
            tab: Panel::Timeline,
            scope: Scope::default(),
            nav: Vec::new(),
            nav_state: ListState::default(),
            collapsed: HashSet::new(),
            scope_rows: rows::ScopeRows::default(),
            folded_rows: None,
            folded: HashSet::new(),
            nav_width: None,
            merge: true,
            lists: Lists::default(),
            verdict_filter: VerdictFilter::All,
            nav_query: None,
            tool_query: None,
            inspector_search: None,
            inspector_scroll: 0,
            inspector_memo: inspector::Memo::default(),
            theme: crate::styled::ThemeName::Dark,
            jumps: jumps::JumpList::default(),
            raw: false,
            tool_filter: ToolFilter::All,
            tool_sort_by_name: false,
            search: Search::default(),
            viewport: Viewport::default(),
            flash: None,
            effects: Vec::new(),
            help_scroll: 0,
            before_turn_jump: None,
            follow: false,
            live: false,
            should_quit: false,
            debug_keys: false,
            preview_only: None,
            loading: None,
            generation: 0,
            index: ListIndex::default(),
            timing_rows: Vec::new(),
            timing_toggled: HashMap::new(),
            attempt_rows: source::AttemptRows::default(),
            compare: None,
            listing: None,
        };
        // With several attempts, start with them collapsed: the list of attempts.
        if app.doc.attempts.len() > 1 {
            for i in 0..app.doc.attempts.len() {
                app.collapsed.insert(Scope { attempt: i, session: None, turn: None });
            }
        }
        app.reset_index(index);
        app.index_document();
        app.rebuild_nav();
        if app.doc.attempts.len() > 1 {
            app.focus = Focus::Nav;
        }
        app.scope = app.nav.first().map(|n| n.scope).unwrap_or_default();
        app.sync_nav_to_scope();
        app.rebuild_visible();
        app.open_first_failure();
        app
    }

    /// The app with what it is started with (the theme, the debug key,
    /// whether the input is live).
    pub fn with_options(mut self, options: Options) -> App {
        let Options { theme, debug_keys, live } = options;
        (self.theme, self.debug_keys, self.live) = (theme, debug_keys, live);
        self
    }

    /// Whether F12 panics on purpose (`NICEEVAL_DEBUG_PANIC_KEY`).
    pub fn debug_keys(&self) -> bool {
        self.debug_keys
    }

    /// Swap in a reloaded document, keeping the tab, the focus, the scroll
    /// position and the selection on the same event (see [`keep`]).
    pub fn replace_document(&mut self, doc: Document) {
        let prepared = Prepared::new(doc, self.model.as_deref(), &self.prices);
        self.install(prepared);
    }

    /// [`App::replace_document`] with the views already built (off the UI thread).
    pub fn install(&mut self, prepared: Prepared) {
        let Prepared { doc, views, findings, index } = prepared;
        self.generation += 1;
        let keep = keep::Kept::capture(self);
        let offset = self.lists.timeline.offset;
        // A reload is not a jump: the tab, the focus and the inspector stay.
        let (tab, focus, inspector_scroll) = (self.tab, self.focus, self.inspector_scroll);
        let attempts_before = self.doc.attempts.len();
        self.doc = doc;
        self.views = views;
        self.findings = findings;
        self.reset_index(index);
        self.index_document();
        if self.scope.attempt >= self.doc.attempts.len() {
            self.scope = Scope::default();
        }
        let attempt_sessions = self.attempt().map(|a| a.sessions.len()).unwrap_or(0);
        if self.scope.session.is_some_and(|s| s >= attempt_sessions) {
            self.scope = Scope { attempt: self.scope.attempt, session: None, turn: None };
        }
        if let (Some(si), Some(ti)) = (self.scope.session, self.scope.turn)
            && self.attempt().is_none_or(|a| ti >= a.sessions[si].turns.len())
        {
            self.scope.turn = None;
        }
        // A preview of a multi-attempt file holds its first attempts only (a
        // reload may bring more too): attempts new since the last document are
        // listed collapsed, as a fresh open lists them. From a single attempt
        // (shown open, unlike a list of several) that is all but the one being
        // read, which stays open.
        if self.doc.attempts.len() > 1 {
            let first_new = if attempts_before <= 1 { 0 } else { attempts_before };
            for i in (first_new..self.doc.attempts.len()).filter(|&i| i != self.scope.attempt) {
                self.collapsed.insert(Scope { attempt: i, session: None, turn: None });
            }
        }
        self.rebuild_nav();
        self.rebuild_visible();
        if self.follow {
            self.lists.timeline.selected = self.visible().len().saturating_sub(1);
            let rows = self.viewport.list_rows;
            self.lists.timeline.clamp(self.visible().len(), rows);
            return;
        }
        if let Some(r) = keep.and_then(|k| k.find(self)) {
            self.lists.timeline.offset = offset;
            self.select_row(r);
            self.inspector_scroll = inspector_scroll;
        }
        (self.tab, self.focus) = (tab, focus);
        let (len, rows) = (self.list_len(), self.viewport.list_rows);
        self.list_mut().clamp(len, rows);
    }

    /// A failed or errored attempt opens on the Assertions tab, with where
    /// its failure began at the top, on its first failing assertion (or,
    /// with none, on where it began).
    pub fn open_first_failure(&mut self) {
        let Some(attempt) = self.doc.attempts.get(self.scope.attempt) else { return };
        let failing = attempt
            .review
            .assertions
            .as_ref()
            .is_some_and(|a| a.iter().any(|x| crate::model::verdict::assertion_outcome(x).is_failing()));
        if failing || self.began().is_some() {
            self.tab = Panel::Assertions;
            // Below where it began and the fix prompt, when there are.
            let selected = if failing { self.assertion_offset() } else { 0 };
            self.lists.assertions = ListState { selected, offset: 0 };
            if self.doc.attempts.len() > 1 {
                self.focus = Focus::List;
            }
        }
    }

    pub fn view(&self) -> Option<&AttemptView> {
        self.views.get(self.scope.attempt)
    }

    pub fn attempt(&self) -> Option<&crate::model::document::Attempt> {
        self.doc.attempts.get(self.scope.attempt)
    }

    pub fn list(&self) -> &ListState {
        self.lists.of(self.tab)
    }

    pub fn list_mut(&mut self) -> &mut ListState {
        self.lists.of_mut(self.tab)
    }

    pub fn tab_index(&self) -> usize {
        Panel::ALL.iter().position(|t| *t == self.tab).unwrap_or(0)
    }

    /// Timeline rows in scope, for the current merge mode, and every other
    /// list of the scope (see [`index`]).
    pub fn rebuild_visible(&mut self) {
        self.rebuild_attempt_rows();
        self.rebuild_timing();
        self.set_scope_rows();
        self.rebuild_lists();
        self.rerun_search();
        let rows = self.viewport.list_rows;
        self.lists.timeline.clamp(self.visible().len(), rows);
    }

    /// Length of the list shown by the current tab.
    pub fn list_len(&self) -> usize {
        match self.tab {
            Panel::Timeline => self.visible().len(),
            Panel::Tools => self.tool_rows().len(),
            Panel::Hitl => self.hitl_rows().len(),
            Panel::Usage => self.usage_row_count(),
            Panel::Assertions => self.assertion_offset() + self.assertion_rows().len(),
            Panel::Timing => self.timing_rows().len(),
            Panel::Translation => self.attempt().and_then(|a| a.provenance.as_deref()).map_or(0, |p| p.lines.len()),
            Panel::Diagnostics => {
                self.finding_rows().len() + self.attempt().map(|a| a.review.diagnostics.len()).unwrap_or(0)
            }
            Panel::Changes => {
                self.attempt().and_then(|a| a.review.file_changes.as_ref()).map(|f| f.changes.len()).unwrap_or(0)
            }
            Panel::Source => self.source_rows().len(),
            Panel::Commands => self.attempt().map_or(0, |a| a.review.commands.len()),
        }
    }

    /// The timeline row currently selected.
    pub fn selected_row(&self) -> Option<usize> {
        self.visible().row(self.lists.timeline.selected)
    }

    /// Select a timeline row (by index into `Timeline::rows`), widening the scope if needed.
    pub fn select_row(&mut self, row: usize) {
        let Some(addr) = self.view().and_then(|v| v.timeline.rows.get(row)).map(|r| r.addr()) else { return };
        if !self.scope.contains(addr) {
            self.scope = Scope { attempt: self.scope.attempt, session: None, turn: None };
            self.rebuild_visible();
            self.sync_nav_to_scope();
        }
        if self.folded.remove(&(self.scope.attempt, addr)) {
            self.set_scope_rows();
        }
        // `visible` is in ascending row order.
        let pos = match self.visible().position(row) {
            Ok(p) => Some(p),
            Err(_) if self.merge => {
                // A merged-away finish: select its start row.
                self.visible().before(row).checked_sub(1)
            }
            Err(_) => None,
        };
        if let Some(p) = pos {
            self.tab = Panel::Timeline;
            self.lists.timeline.selected = p;
            let rows = self.viewport.list_rows;
            self.lists.timeline.clamp(self.visible().len(), rows);
            self.inspector_scroll = 0;
        }
    }

    /// Say `note` on the footer until the next key.
    pub fn say(&mut self, note: crate::view::note::Note) {
        self.flash = Some(note);
    }

    /// The footer's note in its words (what the screen shows).
    pub fn flash_text(&self) -> Option<String> {
        self.flash.as_ref().map(|note| note.words())
    }
}

/// What a jump key looks for (see [`App::jump_rows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JumpTo {
    Turn,
    Failure,
    Waiting,
    Finding,
}

#[cfg(test)]
mod index_tests;
