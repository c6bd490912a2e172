//! The value `y` copies and `o` opens in $PAGER: what the inspector shows,
//! as plain text.

use super::{App, Tab};
use crate::model::timeline::RowKind;
use serde_json::Value;

/// The value the inspector shows, as plain text (for copy and the pager).
pub fn selected_value(app: &App) -> Option<(String, String)> {
    let view = app.view()?;
    let attempt = app.attempt()?;
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    match app.tab {
        Tab::Timeline => {
            let row = &view.timeline.rows[app.selected_row()?];
            let record = &attempt.sessions[row.addr.session].turns[row.addr.turn];
            let event = row.event.and_then(|e| record.turn.events.get(e));
            if app.raw {
                let mut parts: Vec<String> = event.map(|e| pretty(e.raw())).into_iter().collect();
                if let Some(f) = row.merged_finish.and_then(|e| record.turn.events.get(e)) {
                    parts.push(pretty(f.raw()));
                }
                return (!parts.is_empty()).then(|| ("raw event".into(), parts.join("\n")));
            }
            match (row.kind, event) {
                (RowKind::Input, _) => record.input.as_ref().map(|i| ("input".into(), pretty(i))),
                (RowKind::ToolStart, Some(e)) => {
                    let mut text = e.tool_input().as_deref().map(pretty).unwrap_or_else(|| "(no input)".into());
                    if let Some(f) = row.merged_finish.and_then(|i| record.turn.events.get(i)) {
                        text.push_str("\n\n");
                        text.push_str(&f.output().as_deref().map(pretty).unwrap_or_else(|| "(no output)".into()));
                    }
                    Some(("tool input and output".into(), text))
                }
                (_, Some(e)) => match e.text() {
                    Some(t) => Some(("text".into(), t.to_string())),
                    None => Some(("event".into(), pretty(e.raw()))),
                },
                _ => None,
            }
        }
        Tab::Assertions => {
            let rows = app.assertion_rows();
            let a = attempt.review.assertions.as_ref()?.get(*rows.get(app.lists.assertions.selected)?)?;
            Some(("assertion".into(), pretty(&a.raw)))
        }
        Tab::Tools => {
            let rows = app.tool_rows();
            match rows.get(app.lists.tools.selected)? {
                Ok(o) => Some(("occurrence".into(), pretty(&view.derived.occurrences.occurrences[*o].to_json()))),
                Err(o) => Some(("orphan".into(), pretty(&view.derived.occurrences.orphan_finishes[*o].to_json()))),
            }
        }
        Tab::Hitl => {
            let rows = app.hitl_rows();
            let r = &view.requests[*rows.get(app.lists.hitl.selected)?];
            let e = attempt.sessions[r.addr.session].turns[r.addr.turn].turn.events.get(r.event)?;
            Some(("input request".into(), pretty(e.raw())))
        }
        Tab::Changes => {
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
        Tab::Usage | Tab::Diagnostics => None,
    }
}

/// The most bytes `y` sends over OSC 52: terminals and multiplexers cut or
/// drop longer sequences, and a value of many megabytes stalls the terminal.
pub const COPY_AT_MOST: usize = 100_000;
