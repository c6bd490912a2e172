//! What the screen model, the terminal loop and the tests read of the app.
//! The state itself is private to the app module: only `update` changes it.

use super::*;

impl App {
    pub fn doc(&self) -> &Document {
        &self.doc
    }
    pub fn views(&self) -> &[AttemptView] {
        &self.views
    }
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }
    pub fn mode(&self) -> Mode {
        self.mode
    }
    pub fn focus(&self) -> Focus {
        self.focus
    }
    pub fn tab(&self) -> Panel {
        self.tab
    }
    pub fn scope(&self) -> Scope {
        self.scope
    }
    /// The navigator's lines.
    pub fn nav(&self) -> &[NavNode] {
        &self.nav
    }
    pub fn nav_state(&self) -> ListState {
        self.nav_state
    }
    /// Navigator nodes shown without their children.
    pub fn collapsed(&self) -> &HashSet<Scope> {
        &self.collapsed
    }
    pub fn merge(&self) -> bool {
        self.merge
    }
    pub fn lists(&self) -> &Lists {
        &self.lists
    }
    pub fn nav_query(&self) -> Option<&crate::view::search::Query> {
        self.nav_query.as_ref()
    }
    pub fn tool_query(&self) -> Option<&crate::view::search::Query> {
        self.tool_query.as_ref()
    }
    pub fn inspector_search(&self) -> Option<&search::InspectorSearch> {
        self.inspector_search.as_ref()
    }
    pub fn inspector_scroll(&self) -> usize {
        self.inspector_scroll
    }
    pub fn raw(&self) -> bool {
        self.raw
    }
    pub fn tool_filter(&self) -> ToolFilter {
        self.tool_filter
    }
    pub fn tool_sort_by_name(&self) -> bool {
        self.tool_sort_by_name
    }
    pub fn search(&self) -> &Search {
        &self.search
    }
    pub fn viewport(&self) -> Viewport {
        self.viewport
    }
    /// The footer's note, until the next key.
    pub fn flash(&self) -> Option<&Flash> {
        self.flash.as_ref()
    }
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }
    /// `--follow`: the last row stays selected as rows arrive.
    pub fn follow(&self) -> bool {
        self.follow
    }
    pub fn should_quit(&self) -> bool {
        self.should_quit
    }
    /// A background load still running: how far it has got.
    pub fn loading(&self) -> Option<&Loading> {
        self.loading.as_ref()
    }
    /// The whole file could not be read: what is shown is its preview.
    pub fn preview_only(&self) -> Option<&Loading> {
        self.preview_only.as_ref()
    }
    /// Bumped each time a document is installed.
    pub fn generation(&self) -> u64 {
        self.generation
    }
    pub fn compare(&self) -> Option<&compare::CompareState> {
        self.compare.as_ref()
    }
}
