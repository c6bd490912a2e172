//! Plain text: lays out the view's blocks for `niceeval show` and for
//! `niceeval view` when stdout is not a terminal. Nothing here decides a
//! word or a number; [`layout`] only measures, wraps, boxes and colours.

mod ahead;
pub mod layout;

use crate::model::diagnostics::Finding;
use crate::model::document::Document;
use crate::view::AttemptView;
pub use crate::view::report::{SectionKind, Selection, TurnSelector};

/// How text is laid out.
#[derive(Debug, Clone)]
pub struct PlainOptions {
    pub width: usize,
    pub boxed: bool,
    pub color: bool,
}

impl Default for PlainOptions {
    fn default() -> Self {
        PlainOptions { width: 80, boxed: false, color: false }
    }
}

/// A report laid out as text, with what the caller needs for its exit code.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub text: String,
    /// Attempts (of those shown) to review: failed, errored, unavailable, or a failed status.
    pub failing: usize,
    /// Attempts shown.
    pub shown: usize,
    /// Messages for stderr (a selection that matched nothing, …).
    pub notes: Vec<String>,
}

/// The chosen sections for every selected attempt, as text.
pub fn render(
    doc: &Document,
    views: &[AttemptView],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
    opts: &PlainOptions,
) -> Report {
    let sel = &drawn_at(sel, opts);
    let r = crate::view::report::build(doc, views, findings, sections, sel);
    let rows = |t: &_| crate::view::report::turn_rows_table(doc, views, findings, sel, t);
    let text = ahead::with_tables_ahead(&r.blocks, &rows, |rows| {
        layout::render(&r.blocks, opts.width, opts.boxed, opts.color, rows)
    });
    Report { text, failing: r.failing, shown: r.shown, notes: r.notes }
}

/// [`render`], its text written to `out` line by line instead of kept in
/// [`Report::text`] (left empty): a payload of many megabytes shown with
/// `--full` is not held as one more string of the whole output.
pub fn render_to(
    doc: &Document,
    views: &[AttemptView],
    findings: &[Finding],
    sections: &[SectionKind],
    sel: &Selection,
    opts: &PlainOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Report> {
    let sel = &drawn_at(sel, opts);
    let r = crate::view::report::build(doc, views, findings, sections, sel);
    let rows = |t: &_| crate::view::report::turn_rows_table(doc, views, findings, sel, t);
    ahead::with_tables_ahead(&r.blocks, &rows, |rows| {
        layout::render_to(&r.blocks, opts.width, opts.boxed, opts.color, rows, out)
    })?;
    Ok(Report { text: String::new(), failing: r.failing, shown: r.shown, notes: r.notes })
}

/// The selection, told how wide text of `opts` is drawn at most.
fn drawn_at(sel: &Selection, opts: &PlainOptions) -> Selection {
    // Text output has the cores to itself: the timeline's parts are measured on all of them.
    Selection {
        widest: Some(layout::drawn_width(opts.width)),
        spread: crate::analysis::parallel::SPREAD,
        ..sel.clone()
    }
}

/// Everything `show --all` prints.
pub fn render_all(doc: &Document, views: &[AttemptView], findings: &[Finding], opts: &PlainOptions) -> String {
    render(doc, views, findings, &SectionKind::ALL, &Selection::default(), opts).text
}
