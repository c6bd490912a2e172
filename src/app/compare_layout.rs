//! Where the compare screens' parts go, as pure functions of the terminal
//! size and the state: the renderer draws into these areas and `update`
//! pages and clamps with the same heights.

use super::App;
use super::layout::Rect;

/// The matrix screen: a header, the experiments table, the matrix, its
/// legend, and the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatrixAreas {
    pub header: Rect,
    pub experiments: Rect,
    pub matrix: Rect,
    pub legend: Rect,
    pub footer: Rect,
}

pub fn matrix(width: u16, height: u16, app: &App) -> MatrixAreas {
    let columns = app.compare.as_ref().map_or(0, |c| c.comparing.comparison.columns.len()) as u16;
    let header = 2;
    let legend = 2;
    let footer = 1;
    // The experiments table (a header line and one per column; and its
    // note), at most a third of the screen.
    let experiments = (columns + 3).min(height / 3).max(2);
    let rest = height.saturating_sub(header + experiments + legend + footer + 1);
    let mut y = 0;
    let mut take = |h: u16| {
        let r = Rect::new(0, y, width, h);
        y += h;
        r
    };
    let header = take(header);
    let experiments = take(experiments);
    take(1);
    let matrix = take(rest);
    let legend = take(legend);
    let footer = take(footer);
    MatrixAreas { header, experiments, matrix, legend, footer }
}

/// Matrix rows on screen: below the table's own header line, and above a
/// line saying how many are below when they do not all fit.
pub fn matrix_rows_shown(app: &App) -> usize {
    let room = (matrix(app.viewport.width, app.viewport.height, app).matrix.height as usize).saturating_sub(1);
    let rows = app.compare.as_ref().map_or(0, |c| c.comparing.comparison.rows.len());
    if rows > room { room.saturating_sub(1).max(1) } else { room.max(1) }
}

/// The split screen: a header (the pair and the deltas), the tab bar, the
/// two sides (or one full-width panel on the Usage tab), the inspector of
/// the focused side when open, and the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplitAreas {
    pub header: Rect,
    pub tabs: Rect,
    pub left: Rect,
    pub right: Rect,
    /// Both sides' area, for a tab drawn across it.
    pub body: Rect,
    pub inspector: Option<Rect>,
    pub footer: Rect,
}

pub fn split(width: u16, height: u16, inspector: bool) -> SplitAreas {
    let header = Rect::new(0, 0, width, 2);
    let tabs = Rect::new(0, 2, width, 1);
    let footer = Rect::new(0, height.saturating_sub(1), width, 1);
    let room = height.saturating_sub(4);
    // With the inspector open, the sides keep two fifths (at least 6 rows).
    let sides_h = if inspector { (room * 2 / 5).max(6).min(room) } else { room };
    let body = Rect::new(0, 3, width, sides_h);
    let half = width / 2;
    let left = Rect::new(0, 3, half, sides_h);
    let right = Rect::new(half, 3, width - half, sides_h);
    let inspector = inspector.then(|| Rect::new(0, 3 + sides_h, width, room - sides_h)).filter(|r| r.height >= 3);
    SplitAreas { header, tabs, left, right, body, inspector, footer }
}

/// Lines of each side on screen: inside the border, below the side's figures line.
pub fn split_rows_shown(app: &App) -> usize {
    let open = app.compare.as_ref().and_then(|c| c.split.as_ref()).is_some_and(|s| s.inspector);
    (split(app.viewport.width, app.viewport.height, open).left.height as usize).saturating_sub(3).max(1)
}
