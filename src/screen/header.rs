//! Header: file and format; verdict or status, counts, tokens, costs,
//! diagnostics; how long the attempt took, when it started, its evidence.

use crate::app::App;
use crate::styled::{Chrome, Line, Span, spans};

pub fn lines(app: &App, width: usize) -> Vec<Line> {
    let to_review = app.views().iter().filter(|v| v.summary.to_review).count();
    let loading = match (&app.loading(), &app.preview_only()) {
        (Some(l), _) => Some(crate::view::chrome::loading_text(l)),
        (None, Some(p)) => Some(crate::view::chrome::preview_only_text(p)),
        (None, None) => None,
    };
    let preview = loading.is_some();
    let top = crate::view::header::top_line(app.doc(), to_review, loading, width);
    let mut second: Vec<Span> = Vec::new();
    let mut third: Vec<Span> = Vec::new();
    let sel = crate::view::context::Selection::default();
    if let (Some(ctx), Some(view)) = (app.context(&sel), app.view()) {
        // Counted as the inspector and `--json` list them.
        let notices = crate::view::header::attempt_notices(app.doc(), &ctx).len();
        // A preview's figures are of the part read so far.
        let parts = if preview {
            crate::view::header::preview_header_parts(&view.summary, notices)
        } else {
            crate::view::header::header_parts(&view.summary, notices)
        };
        for (i, part) in crate::view::header::header_line(parts, width).into_iter().enumerate() {
            if i > 0 {
                second.push(Span::chrome(crate::view::header::PART_SEPARATOR, Chrome::Dim));
            }
            second.extend(spans(&part));
        }
        let when = crate::view::header::when_parts(ctx.attempt, &view.summary);
        for (i, part) in crate::view::header::header_line(when, width).into_iter().enumerate() {
            if i > 0 {
                third.push(Span::chrome(crate::view::header::PART_SEPARATOR, Chrome::Dim));
            }
            third.extend(spans(&part));
        }
    }
    vec![Line::of(&top), Line::new(second), Line::new(third)]
}
