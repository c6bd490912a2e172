//! The help overlay: the key table's lines (the app's, as it measures
//! them) in a popup, scrolled, with what is below said.

use super::{Part, Screen, inner};
use crate::app::App;
use crate::app::layout::Rect;
use crate::styled::{Chrome, Line};

pub fn overlay(out: &mut Screen, area: Rect, app: &App) {
    let popup = crate::app::help::area(area.width, area.height);
    let lines = crate::app::help::lines(popup.width);
    let height = inner(popup).height as usize;
    let max = lines.len().saturating_sub(height);
    let scroll = app.help_scroll().min(max);
    let mut shown: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
    let below = max - scroll;
    if below > 0 && !shown.is_empty() {
        let last = shown.len() - 1;
        shown[last] = Line::chrome(crate::view::chrome::more_help(below), Chrome::Dim);
    }
    out.parts.push(Part::Clear(popup));
    out.panel(popup, Line::chrome(crate::view::chrome::help_title(), Chrome::Title), true, shown);
}
