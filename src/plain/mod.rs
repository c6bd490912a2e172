//! Plain-text output: the text twin of every viewer panel (`niceeval show`,
//! and `niceeval view` when stdout is not a terminal).

use crate::model::derive::DerivedAttempt;
use crate::model::document::Document;

/// Options for plain rendering.
#[derive(Debug, Clone)]
pub struct PlainOptions {
    pub width: usize,
    pub boxed: bool,
    pub color: bool,
    pub full: bool,
}

impl Default for PlainOptions {
    fn default() -> Self {
        PlainOptions { width: 80, boxed: false, color: false, full: false }
    }
}

/// Everything `show --all` prints.
pub fn render_all(doc: &Document, derived: &[DerivedAttempt], opts: &PlainOptions) -> String {
    let _ = (doc, derived, opts);
    String::new()
}
