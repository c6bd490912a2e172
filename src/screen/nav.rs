//! Navigator: attempt → session → turn. Selecting a node scopes the other panels.

use super::{Screen, inner, selection};
use crate::app::layout::Rect;
use crate::app::{App, Focus};
use crate::styled::{Chrome, Line, Span, spans};

pub fn panel(out: &mut Screen, area: Rect, app: &App) {
    let focused = app.focus() == Focus::Nav;
    let shown = app.nav().iter().filter(|n| n.scope.session.is_none()).count();
    let title = app
        .listing_title(shown)
        .unwrap_or_else(|| crate::view::chrome::navigator_title(shown, app.doc().attempts.len()));
    let inside = inner(area);
    let width = inside.width as usize;
    let height = inside.height as usize;
    let mut lines = Vec::with_capacity(height);
    for (i, node) in app.nav().iter().enumerate().skip(app.nav_state().offset).take(height) {
        let Some(attempt) = app.doc().attempts.get(node.scope.attempt) else { continue };
        let indent = "  ".repeat(node.depth as usize);
        let fold = crate::view::nav::fold_mark(node.has_children, app.collapsed().contains(&node.scope));
        let mut line = vec![Span::bare(format!("{indent}{fold}"))];
        let Some(view) = app.views().get(node.scope.attempt) else { continue };
        let room = width.saturating_sub(indent.len() + 2);
        let text = match (node.scope.session, node.scope.turn) {
            (None, _) => {
                app.listed_line(node.scope.attempt).unwrap_or_else(|| crate::view::nav::attempt_line_fit(view, room))
            }
            (Some(si), None) => crate::view::nav::session_line(attempt, si),
            (Some(si), Some(ti)) => {
                crate::view::nav::turn_line(attempt, view, crate::model::TurnAddr { session: si, turn: ti })
            }
        };
        line.extend(spans(&text.truncate(room)));
        let mut line = Line::new(line);
        if i == app.nav_state().selected {
            line = line.with_over(selection(focused));
        }
        lines.push(line);
    }
    out.panel(area, Line::chrome(title, Chrome::Title), focused, lines);
}
