//! The viewer's narrow timeline columns: a row's status as its mark alone,
//! and its kind as a mark and a padded word (or, compact, the mark only).
//! `show` prints the status word too; the viewer's inspector says it.

use super::{kind_marker, kind_tone, kind_word};
use crate::model::timeline::RowKind;
use crate::view::Text;

/// Columns the kind's word is padded to, so summaries line up.
pub const KIND_WORD_COLUMNS: usize = 10;

/// The status column: the mark of a row's status (its first character, in
/// its tone) and a space; two spaces for a row without a status.
pub fn status_mark(status: Option<&Text>) -> Text {
    match status {
        Some(s) => Text::toned(format!("{} ", s.as_plain().chars().next().unwrap_or(' ')), s.first_tone()),
        None => Text::plain("  "),
    }
}

/// The kind column: `▸ tool       ` (mark, word padded to
/// [`KIND_WORD_COLUMNS`]), or with `compact` the mark alone.
pub fn kind_cell(kind: RowKind, compact: bool) -> Text {
    let cell = if compact {
        format!("{} ", kind_marker(kind))
    } else {
        format!("{} {:<width$} ", kind_marker(kind), kind_word(kind), width = KIND_WORD_COLUMNS)
    };
    Text::toned(cell, kind_tone(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Tone;

    #[test]
    fn a_status_shows_its_mark_in_its_tone_and_no_status_two_spaces() {
        let failed = Text::toned("✗ failed", Tone::Bad);
        let mark = status_mark(Some(&failed));
        assert_eq!((mark.as_plain().as_str(), mark.first_tone()), ("✗ ", Tone::Bad));
        assert_eq!(status_mark(None).as_plain(), "  ");
    }

    #[test]
    fn kind_cells_line_up_and_compact_keeps_the_mark() {
        let widths: Vec<usize> =
            [RowKind::Input, RowKind::ToolStart, RowKind::Compaction].map(|k| kind_cell(k, false).width()).to_vec();
        assert!(widths.windows(2).all(|w| w[0] == w[1]), "{widths:?}");
        assert_eq!(kind_cell(RowKind::ToolStart, true).as_plain(), format!("{} ", kind_marker(RowKind::ToolStart)));
    }
}
