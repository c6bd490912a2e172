//! The compare screens of `view --compare`: the matrix of evals ×
//! experiments (the first screen) and the split view of two attempts. The
//! document and views are the App's own, so `v` opens either attempt in the
//! usual viewer, and Esc there comes back.

use super::compare_state::open_in_viewer;
pub use super::compare_state::{CompareState, Screen, SplitState};
use super::{Action, App, Intent, ListState, Mode};
use crate::view::compare::split::{Panel, Slot, Split};
use crate::view::compare::{Compared, Comparing, Cv};
use crate::view::note::Note;

impl App {
    /// The viewer on a comparison: the matrix first.
    pub fn for_compare(compared: Compared, model: Option<String>, prices: crate::model::usage::PriceTable) -> App {
        let Compared { doc, views, findings, comparing } = compared;
        let mut app = App::from_prepared(super::Prepared::from_views(doc, views, findings), model, prices);
        let column = first_cell(&comparing, 0).unwrap_or(0);
        app.compare = Some(CompareState {
            comparing,
            screen: Screen::Matrix,
            rows: ListState::default(),
            column,
            mark: None,
            split: None,
        });
        app
    }

    /// The comparison with the attempts it compares.
    pub fn cv(&self) -> Option<Cv<'_>> {
        let c = self.compare.as_ref()?;
        Some(Cv { doc: &self.doc, views: &self.views, findings: &self.findings, comparing: &c.comparing })
    }

    /// The compare screen shown, if one is (not the usual viewer).
    pub fn compare_screen(&self) -> Option<Screen> {
        self.compare.as_ref().map(|c| c.screen).filter(|s| *s != Screen::Viewer)
    }

    /// Back from the usual viewer to the compare screen it was opened from.
    pub(super) fn back_to_compare(&mut self) -> bool {
        let Some(c) = self.compare.as_mut() else { return false };
        c.screen = if c.split.is_some() { Screen::Split } else { Screen::Matrix };
        self.say(Note::BackToComparison);
        true
    }
}

/// The first column of a row with a cell, at or after `from`.
fn first_cell(c: &Comparing, row: usize) -> Option<usize> {
    c.comparison.rows.get(row)?.cells.iter().position(Option::is_some)
}

/// Rows a page moves.
fn page(app: &App) -> isize {
    (app.viewport.height as isize - 10).max(1)
}

fn step(index: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (index as isize).saturating_add(delta).clamp(0, len as isize - 1) as usize
}

/// A key on a compare screen.
pub fn key(app: &mut App, action: Action) {
    let intent = match action {
        Action::Intent(intent) => intent,
        Action::ScrollAt { down, .. } => {
            let delta = if down { Intent::Down } else { Intent::Up };
            for _ in 0..3 {
                key(app, delta.into());
            }
            return;
        }
        Action::DebugPanic if app.debug_keys() => {
            panic!("panic requested with the debug key (NICEEVAL_DEBUG_PANIC_KEY)")
        }
        _ => return,
    };
    match intent {
        Intent::Quit => app.should_quit = true,
        Intent::Help => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Intent::Redraw => app.effects.push(super::Effect::Redraw),
        other => match app.compare_screen() {
            Some(Screen::Matrix) => matrix_key(app, other),
            Some(Screen::Split) => super::compare_split::split_key(app, other),
            _ => {}
        },
    }
}

fn matrix_key(app: &mut App, action: Intent) {
    match action {
        Intent::Enter => open_split(app),
        Intent::ViewAttempt => {
            let at = app.compare.as_ref().and_then(|c| c.comparing.comparison.cell((c.rows.selected, c.column)));
            match at.map(|x| x.representative) {
                Some(attempt) => open_in_viewer(app, attempt, None),
                None => app.say(Note::NoAttemptInCell),
            }
        }
        other => {
            let page = page(app);
            let said = app.compare.as_mut().and_then(|c| move_in_matrix(c, other, page));
            if let Some(said) = said {
                app.say(said);
            }
        }
    }
    app.clamp_matrix();
}

/// Move or mark in the matrix; what to say in the footer, if anything.
fn move_in_matrix(c: &mut CompareState, action: Intent, page: isize) -> Option<Note> {
    let len = c.comparison_len();
    if len == 0 {
        return None;
    }
    let move_rows = |c: &mut CompareState, delta: isize| {
        c.rows.selected = step(c.rows.selected, delta, len);
        // Keep the cursor on a cell the row has, when the column is empty.
        let row = &c.comparing.comparison.rows[c.rows.selected];
        if row.cells.get(c.column).is_none_or(Option::is_none)
            && let Some(col) = nearest(row, c.column)
        {
            c.column = col;
        }
    };
    if let Some(delta) = super::motion::movement(action, page) {
        move_rows(c, delta);
        return None;
    }
    match action {
        Intent::CellLeft | Intent::CellRight => {
            let row = &c.comparing.comparison.rows[c.rows.selected.min(len - 1)];
            let n = row.cells.len();
            let forward = action == Intent::CellRight;
            let mut col = c.column;
            // The next column this row has a cell in.
            for _ in 0..n {
                col = if forward { (col + 1) % n } else { (col + n - 1) % n };
                if row.cells[col].is_some() {
                    break;
                }
            }
            if col == c.column {
                // One column, or this row's only cell: nowhere else to go.
                return Some(Note::NoOtherCell);
            }
            c.column = col;
        }
        Intent::NextFailure | Intent::PrevFailure => {
            let forward = action == Intent::NextFailure;
            let rows = &c.comparing.comparison.rows;
            let changed = |i: &usize| rows[*i].change != crate::model::compare::Change::Unchanged;
            let from = c.rows.selected;
            let found = if forward {
                (from + 1..len).find(changed).or_else(|| (0..len).find(changed))
            } else {
                (0..from).rev().find(changed).or_else(|| (0..len).rev().find(changed))
            };
            match found {
                Some(i) => move_rows(c, i as isize - from as isize),
                None => return Some(Note::NoRowChanges),
            }
        }
        Intent::Mark => {
            let at = (c.rows.selected, c.column);
            if c.mark == Some(at) {
                c.mark = None;
                return Some(Note::MarkCleared);
            } else if c.comparing.comparison.cell(at).is_some() {
                c.mark = Some(at);
                return Some(Note::Marked);
            }
            return Some(Note::NoAttemptToMark);
        }
        Intent::Back if c.mark.take().is_some() => return Some(Note::MarkCleared),
        Intent::ShowTab(_) | Intent::FocusNext | Intent::FocusPrev => {
            return Some(Note::MatrixKeys);
        }
        Intent::SearchStart => return Some(Note::SearchInViewerMatrix),
        _ => {}
    }
    None
}

impl CompareState {
    fn comparison_len(&self) -> usize {
        self.comparing.comparison.rows.len()
    }
}

/// The column with a cell nearest `col` in a row.
fn nearest(row: &crate::model::compare::Row, col: usize) -> Option<usize> {
    (0..row.cells.len()).filter(|&i| row.cells[i].is_some()).min_by_key(|&i| i.abs_diff(col))
}

impl App {
    /// Keep the compare screens' selections on screen (after a resize).
    pub fn clamp_compare(&mut self) {
        self.clamp_matrix();
        super::compare_split::clamp(self);
    }

    /// Keep the matrix selection on screen (the table's rows, as laid out).
    pub fn clamp_matrix(&mut self) {
        let rows = super::compare_layout::matrix_rows_shown(self);
        if let Some(c) = self.compare.as_mut() {
            let len = c.comparison_len();
            c.rows.clamp(len, rows);
        }
    }
}

/// The two cells Enter opens: the marked one and the selected one; else,
/// on a row whose verdict changes, its first change (a pair, or two
/// neighbouring cells); else the selected cell and the next one in the row.
fn cells_to_open(c: &CompareState) -> Result<[(usize, usize); 2], Note> {
    let comparison = &c.comparing.comparison;
    let here = (c.rows.selected, c.column);
    if let Some(mark) = c.mark {
        if mark == here {
            return Err(Note::MarkedIsSelected);
        }
        if comparison.cell(here).is_none() {
            return Err(Note::NoAttemptInCell);
        }
        return Ok([mark, here]);
    }
    let row = here.0;
    let Some(r) = comparison.rows.get(row) else { return Err(Note::NoRow) };
    let entries = &c.comparing.entries;
    if let Some((_, pairs)) = &comparison.pairs {
        // The row's pairs with both sides (the only pair of two single attempts has them in two rows).
        let mine = |p: &&crate::model::compare::Pair| match (p.before, p.after) {
            (Some(b), Some(a)) => b.0 == row || a.0 == row,
            _ => false,
        };
        let list: Vec<_> = pairs.iter().filter(mine).collect();
        // The pair of the selected column, else the row's first that changed, else its first.
        let chosen = list
            .iter()
            .find(|p| p.before.map(|b| b.1) == Some(c.column) || p.after.map(|a| a.1) == Some(c.column))
            .filter(|p| p.class != crate::model::compare::PairClass::StillPassing || list.len() == 1)
            .or_else(|| list.iter().find(|p| !matches!(p.class, crate::model::compare::PairClass::StillPassing)))
            .or(list.first());
        if let Some(p) = chosen
            && let (Some(b), Some(a)) = (p.before, p.after)
        {
            return Ok([b, a]);
        }
    }
    let present: Vec<usize> = (0..r.cells.len()).filter(|&i| r.cells[i].is_some()).collect();
    if present.len() < 2 {
        return Err(Note::OneAttemptHere);
    }
    let reading = |col: usize| r.cells[col].as_ref().map(|x| x.reading(entries));
    let step = present.windows(2).find(|w| reading(w[0]) != reading(w[1]));
    let pair = match step {
        Some(w) => [w[0], w[1]],
        None => {
            let i = present.iter().position(|&col| col == c.column).unwrap_or(0);
            let j = if i + 1 < present.len() { i + 1 } else { i.saturating_sub(1) };
            let (a, b) = (present[i.min(j)], present[i.max(j)]);
            [a, b]
        }
    };
    Ok([(row, pair[0]), (row, pair[1])])
}

fn open_split(app: &mut App) {
    let Some(c) = app.compare.as_ref() else { return };
    let here = c.comparing.comparison.cell((c.rows.selected, c.column));
    let attempts = match (cells_to_open(c), here) {
        (Ok(cells), _) => {
            let attempt = |at| c.comparing.comparison.cell(at).map(|x| x.representative);
            attempt(cells[0]).zip(attempt(cells[1]))
        }
        // One cell of several attempts: its first against its last.
        (Err(_), Some(cell)) if c.mark.is_none() && cell.attempts.len() > 1 => {
            Some((cell.attempts[0], cell.representative))
        }
        (Err(why), _) => return app.say(why),
    };
    let Some((before, after)) = attempts else { return app.say(Note::NoAttemptInCell) };
    let Some(cv) = app.cv() else { return };
    let split = Split::new(&cv, before, after);
    let mut state =
        SplitState { split, tab: Panel::Timeline, side: 1, lists: [ListState::default(); 4], inspector: false };
    // Start on the first line the after side has a row on.
    if let Some(i) = state.split.timeline.iter().position(|l| matches!(l.sides[1], Slot::Row(_))) {
        state.lists[0].selected = i;
    }
    app.inspector_scroll = 0;
    if let Some(c) = app.compare.as_mut() {
        c.mark = None;
        c.split = Some(state);
        c.screen = Screen::Split;
    }
}
