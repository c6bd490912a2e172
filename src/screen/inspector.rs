//! Inspector for the selected item: Preview (readable) and Raw (exact JSON).
//! The content is the app's (made once per selection at this width, from
//! `view::inspect`); here it is scrolled, its search matches marked, and
//! what is below said.

use super::{Screen, cut_to, inner};
use crate::app::layout::Rect;
use crate::app::{App, Focus};
use crate::styled::{Chrome, Line, Span, mark};

pub fn panel(out: &mut Screen, area: Rect, app: &App) {
    let inside = inner(area);
    let width = inside.width as usize;
    let content = app.inspector_content(width);
    let focused = app.focus() == Focus::Inspector;
    let title = Line::new(vec![
        Span::chrome(format!(" {} ", cut_to(&content.title, width.saturating_sub(24))), Chrome::Title),
        Span::chrome(crate::view::chrome::inspector_modes(app.raw()), Chrome::Dim),
    ]);
    let height = inside.height as usize;
    let max_scroll = content.lines.len().saturating_sub(height);
    let scroll = app.inspector_scroll().min(max_scroll);
    let mut lines: Vec<Line> = content.lines.iter().skip(scroll).take(height).cloned().collect();
    if let Some(found) = app.inspector_found(&content) {
        let current = found.current.map(|c| found.lines[c].0);
        let shown = scroll..scroll + lines.len();
        for (line_no, ranges) in found.lines.iter().filter(|(l, _)| shown.contains(l)) {
            let over = if Some(*line_no) == current { Chrome::MatchedHere } else { Chrome::Matched };
            let i = line_no - scroll;
            lines[i] = mark(std::mem::take(&mut lines[i]), ranges, over);
        }
    }
    if content.lines.len() > height && !lines.is_empty() {
        let last = lines.len() - 1;
        let more = content.lines.len() - scroll - height.min(content.lines.len() - scroll);
        if more > 0 {
            lines[last] = Line::chrome(crate::view::chrome::more_below(more, focused), Chrome::Dim);
        }
    }
    out.panel(area, title, focused, lines);
}
