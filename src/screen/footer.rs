//! The footer: the search prompt, a flash message, or the search status and
//! the key hints of where the focus is.

use crate::app::{App, Focus, Mode};
use crate::model::text::{Lines, sanitize, truncate};
use crate::styled::{Chrome, Line, Span};
use crate::view::chrome::HintsFor;

/// The viewer's footer at `width` columns.
pub fn viewer_line(app: &App, width: usize) -> Line {
    use crate::view::search;
    if app.mode() == Mode::Search {
        let status = search::prompt_status(&app.search().input, app.prompt_matches(), app.search().error.as_deref());
        let status_look = if app.search().error.is_some() { Chrome::Error } else { Chrome::Matched };
        return Line::new(vec![
            Span::chrome(crate::view::chrome::search_lead(app.search().regex), Chrome::Key),
            Span::bare(sanitize(&app.search().input, Lines::Single).into_owned()),
            Span::chrome("▏", Chrome::Accent),
            Span::chrome(status, status_look),
            Span::chrome(search::prompt_hint(app.search().target, app.search().regex), Chrome::Dim),
        ]);
    }
    if let Some(line) = flash_line(app, width) {
        return line;
    }
    let mut spans = Vec::new();
    let inspector = app.inspector_search().filter(|_| app.focus() == Focus::Inspector);
    let status = match (inspector, &app.search().query) {
        (Some(s), _) => {
            let count = app.inspector_match_count();
            Some(search::inspector_status(&s.query, count.map(|n| (s.current.filter(|&c| c < n).unwrap_or(0), n))))
        }
        (None, Some(q)) => Some(search::search_status(q, app.search().matches.len())),
        (None, None) => None,
    };
    if let Some(status) = status {
        spans.push(Span::chrome(format!("{status} "), Chrome::Matched));
        spans.push(Span::bare(" "));
    }
    if app.follow() {
        spans.push(Span::chrome(crate::view::chrome::FOLLOWING, Chrome::Hitl));
    }
    let at = match app.focus() {
        Focus::Nav => HintsFor::Navigator,
        Focus::Inspector => HintsFor::Inspector,
        Focus::List => HintsFor::Panel(app.tab()),
    };
    let used: usize = spans.iter().map(Span::width).sum();
    spans.extend(hint_spans(at, used, width));
    Line::new(spans)
}

/// The compare screens' footer: a flash message, else the hints for the screen.
pub fn compare_line(app: &App, at: HintsFor, width: usize) -> Line {
    flash_line(app, width).unwrap_or_else(|| Line::new(hint_spans(at, 0, width)))
}

fn flash_line(app: &App, width: usize) -> Option<Line> {
    let note = app.flash()?;
    let look = if note.is_error() { Chrome::Error } else { Chrome::Accent };
    let words = note.words();
    Some(Line::chrome(truncate(&sanitize(&words, Lines::Single), width), look))
}

/// The footer's hints for `at` in the room left after `used` columns: on
/// a narrow terminal the last hints give way, but `? help` stays. The keys
/// are the key table's.
pub fn hint_spans(at: HintsFor, used: usize, room: usize) -> Vec<Span> {
    let mut hints: Vec<(String, &crate::view::hints::Hint)> =
        crate::view::chrome::hints(at).iter().map(|h| (crate::view::hints::hint_keys(h), h)).collect();
    let width = |h: &[(String, &crate::view::hints::Hint)]| {
        h.iter().map(|(k, h)| k.chars().count() + h.word.chars().count() + 3).sum::<usize>()
    };
    while used + width(&hints) > room && hints.len() > 1 {
        let drop = hints.iter().rposition(|(_, h)| !h.is_help()).unwrap_or(hints.len() - 1);
        hints.remove(drop);
    }
    hints
        .into_iter()
        .flat_map(|(k, h)| [Span::chrome(k, Chrome::Key), Span::chrome(format!(" {}  ", h.word), Chrome::Dim)])
        .collect()
}
