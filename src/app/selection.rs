//! What is selected, in the view's terms: the inspector shows it, `y` copies
//! it, Enter follows it. Built from the tab, the focus and the list state;
//! [`selected_value`] is its text for `y` and the pager.

use super::timing::AssertionRow;
use super::{App, Focus, Panel};
use crate::model::timeline::RowKind;
use crate::view::context::Ctx;
use crate::view::inspect::Selected;
use crate::view::report::Selection;
use crate::view::waterfall::Target;
use serde_json::Value;

impl App {
    /// The selection the inspector shows (the scope while the navigator has focus).
    pub fn selected(&self) -> Option<Selected> {
        if self.focus == Focus::Nav && !self.raw {
            return Some(Selected::Scope { session: self.scope.session, turn: self.scope.turn });
        }
        let at = self.list().selected;
        match self.tab {
            Panel::Timeline => self.selected_row().map(Selected::Row),
            Panel::Tools => self.tool_rows().get(at).map(|r| match r.get() {
                Ok(i) => Selected::Tool(i),
                Err(i) => Selected::Orphan(i),
            }),
            Panel::Hitl => self.hitl_rows().get(at).map(|&i| Selected::Request(i)),
            Panel::Usage => Some(Selected::Cost),
            Panel::Assertions => self.assertion_at(at).map(|r| match r {
                AssertionRow::Began(row) => Selected::Began(row),
                AssertionRow::FixPrompt => Selected::FixPrompt,
                AssertionRow::Assertion(i) => Selected::Assertion(i),
            }),
            Panel::Source => (at < self.source_rows().len()).then_some(Selected::SourceRow(at)),
            Panel::Commands => {
                (at < self.attempt().map_or(0, |a| a.review.commands.len())).then_some(Selected::Command(at))
            }
            Panel::Timing => self.timing_rows().get(at).map(|r| match &r.target {
                Target::Node(n) => Selected::Timing { node: *n, fold: false },
                Target::Fold { nodes, .. } => Selected::Timing { node: nodes[0], fold: true },
            }),
            Panel::Diagnostics => {
                let findings = self.finding_rows();
                match findings.get(at) {
                    Some(&(i, _)) => Some(Selected::Finding(i)),
                    None => {
                        let recorded = self.attempt().map(|a| a.review.diagnostics.len()).unwrap_or(0);
                        let i = at - findings.len();
                        (i < recorded).then_some(Selected::Diagnostic(i))
                    }
                }
            }
            Panel::Changes => {
                let n =
                    self.attempt().and_then(|a| a.review.file_changes.as_ref()).map(|f| f.changes.len()).unwrap_or(0);
                (at < n).then_some(Selected::Change(at))
            }
            Panel::Translation => {
                (at < self.provenance().map_or(0, |p| p.lines.len())).then_some(Selected::NativeLine(at))
            }
        }
    }

    /// The view's context for the attempt shown (`sel` decides how much a
    /// value shows; the viewer passes a `full` one: it scrolls).
    pub fn context<'a>(&'a self, sel: &'a Selection) -> Option<Ctx<'a>> {
        Ctx::of(&self.doc, &self.views, &self.findings, sel, self.scope.attempt)
    }
}

/// The value the inspector shows, as plain text (for copy and the pager).
pub fn selected_value(app: &App) -> Option<(String, String)> {
    let view = app.view()?;
    let attempt = app.attempt()?;
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    // A tool's input or output that is a string is its text, not that text JSON-encoded.
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => pretty(other),
    };
    match app.tab {
        Panel::Timeline => {
            let row = &view.timeline.rows[app.selected_row()?];
            let record = &attempt.sessions[row.addr().session].turns[row.addr().turn];
            let event = row.event().and_then(|e| record.turn.events.get(e));
            if app.raw {
                let mut parts: Vec<String> = event.map(|e| pretty(&e.raw())).into_iter().collect();
                if let Some(f) = row.merged_finish().and_then(|e| record.turn.events.get(e)) {
                    parts.push(pretty(&f.raw()));
                }
                return (!parts.is_empty()).then(|| ("raw event".into(), parts.join("\n")));
            }
            match (row.kind, event) {
                (RowKind::Input, _) => record.input.as_ref().map(|i| ("input".into(), pretty(i))),
                (RowKind::ToolStart, Some(e)) => {
                    let mut shown = e.tool_input().as_deref().map(text).unwrap_or_else(|| "(no input)".into());
                    if let Some(f) = row.merged_finish().and_then(|i| record.turn.events.get(i)) {
                        shown.push_str("\n\n");
                        shown.push_str(&f.output().as_deref().map(text).unwrap_or_else(|| "(no output)".into()));
                    }
                    Some(("tool input and output".into(), shown))
                }
                (RowKind::ToolFinish, Some(e)) => Some((
                    "tool output".into(),
                    e.output().as_deref().map(text).unwrap_or_else(|| "(no output)".into()),
                )),
                (_, Some(e)) => match e.text() {
                    Some(t) => Some(("text".into(), t.to_string())),
                    None => Some(("event".into(), pretty(&e.raw()))),
                },
                _ => None,
            }
        }
        Panel::Assertions => match app.assertion_at(app.lists.assertions.selected)? {
            AssertionRow::Began(_) => {
                app.began().map(|f| (crate::view::first_failure::BEGAN.into(), crate::view::first_failure::plain(f)))
            }
            AssertionRow::FixPrompt => app.fix_prompt().ok().map(|p| ("fix prompt".into(), p)),
            AssertionRow::Assertion(i) => {
                Some(("assertion".into(), pretty(&attempt.review.assertions.as_ref()?.get(i)?.raw)))
            }
        },
        Panel::Timing => {
            let sel = Selection::default();
            let ctx = app.context(&sel)?;
            let json = match &app.timing_rows().get(app.lists.timing.selected)?.target {
                Target::Node(n) => crate::view::inspect::timing_json(&ctx, *n),
                Target::Fold { nodes, .. } => {
                    Value::Array(nodes.iter().map(|&n| crate::view::inspect::timing_json(&ctx, n)).collect())
                }
            };
            Some(("timing".into(), pretty(&json)))
        }
        Panel::Tools => {
            let rows = app.tool_rows();
            match rows.get(app.lists.tools.selected)?.get() {
                Ok(o) => Some((
                    "occurrence".into(),
                    pretty(&view.derived.occurrences.occurrences[o].to_json(&view.derived.events(attempt))),
                )),
                Err(o) => Some(("orphan".into(), pretty(&view.derived.occurrences.orphan_finishes[o].to_json()))),
            }
        }
        Panel::Hitl => {
            let rows = app.hitl_rows();
            let r = &view.requests[*rows.get(app.lists.hitl.selected)?];
            let e = attempt.sessions[r.addr.session].turns[r.addr.turn].turn.events.get(r.event)?;
            Some(("input request".into(), pretty(&e.raw())))
        }
        Panel::Changes => {
            let c = attempt.review.file_changes.as_ref()?.changes.get(app.lists.changes.selected)?;
            Some((
                c.path.clone(),
                format!(
                    "--- before\n{}\n+++ after\n{}",
                    c.before.as_deref().unwrap_or(""),
                    c.after.as_deref().unwrap_or("")
                ),
            ))
        }
        Panel::Translation => {
            let p = attempt.provenance.as_deref()?;
            let at = app.lists.translation.selected;
            (at < p.lines.len()).then(|| ("native line".into(), crate::view::translation::raw_pretty(p, at)))
        }
        Panel::Source => {
            let row = app.source_rows().get(app.lists.source.selected)?;
            crate::view::source_rows::value(attempt, row)
        }
        Panel::Commands => {
            let sel = Selection::default();
            let ctx = app.context(&sel)?;
            let placed = crate::view::commands::placed(&ctx);
            let p = placed.get(app.lists.commands.selected)?;
            Some((crate::view::commands::card_title(p), crate::view::commands::whole_text(p)))
        }
        Panel::Usage | Panel::Diagnostics => None,
    }
}
