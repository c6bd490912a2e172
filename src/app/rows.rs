//! Timeline row numbers as the lists keep them: `u32` (a million rows take
//! 4 MB, not 8), ascending. The scope's rows are a span of the attempt's
//! rows rather than a copy of them, and the rows shown are a list of their
//! own only while some turn is folded: at a million rows each copy was
//! 8 MB the viewer held for nothing.

use crate::model::occurrence::compact_index;

/// Row lookups on an ascending list of row numbers.
pub trait RowNumbers {
    /// The row at position `i`.
    fn row(&self, i: usize) -> Option<usize>;
    /// Where `row` is (`Ok`), or where it would go (`Err`).
    fn position(&self, row: usize) -> Result<usize, usize>;
    /// How many rows come before `row`.
    fn before(&self, row: usize) -> usize;
    /// Is `row` in the list?
    fn holds(&self, row: usize) -> bool {
        self.position(row).is_ok()
    }
}

impl RowNumbers for [u32] {
    fn row(&self, i: usize) -> Option<usize> {
        self.get(i).map(|&r| r as usize)
    }

    fn position(&self, row: usize) -> Result<usize, usize> {
        if row > u32::MAX as usize {
            return Err(self.len());
        }
        self.binary_search(&compact_index(row))
    }

    fn before(&self, row: usize) -> usize {
        self.partition_point(|&r| (r as usize) < row)
    }
}

/// Which of the attempt's rows (in the merge mode shown) are the scope's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ScopeRows {
    /// Positions in the attempt's rows: the whole attempt, a session or a
    /// turn (rows are grouped by turn in address order).
    Span(std::ops::Range<usize>),
    /// A turn number across sessions: rows of several spans.
    Own(Vec<u32>),
}

impl Default for ScopeRows {
    fn default() -> Self {
        ScopeRows::Span(0..0)
    }
}

impl ScopeRows {
    /// The scope's rows, given the attempt's.
    pub(super) fn of<'a>(&'a self, all: &'a [u32]) -> &'a [u32] {
        match self {
            ScopeRows::Span(span) => all.get(span.clone()).unwrap_or(&[]),
            ScopeRows::Own(rows) => rows,
        }
    }
}

/// Which findings (indices into the document's list) are the scope's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ScopedFindings {
    /// The list is in place order, so a whole attempt's, session's or
    /// turn's findings are one span of it (a stream can have a finding per
    /// tool call: a list of them would be megabytes).
    Span(std::ops::Range<usize>),
    /// A turn number across sessions, or a list out of place order.
    Own(Vec<u32>),
}

impl Default for ScopedFindings {
    fn default() -> Self {
        ScopedFindings::Span(0..0)
    }
}

impl ScopedFindings {
    pub(super) fn of(findings: &[crate::model::diagnostics::Finding], scope: super::Scope) -> ScopedFindings {
        use crate::model::diagnostics::Location;
        let key = |l: &Location| (l.attempt(), l.session(), l.turn());
        let in_scope = |l: &Location| {
            l.attempt() == scope.attempt
                && scope.session.is_none_or(|s| s == l.session())
                && scope.turn.is_none_or(|t| Some(t) == l.turn())
        };
        let sorted = findings.is_sorted_by_key(|f| key(&f.location));
        match (scope.session, scope.turn) {
            (None, Some(_)) => {}
            _ if !sorted => {}
            _ => {
                let start = findings.partition_point(|f| key(&f.location) < first_key(scope));
                let end = start + findings[start..].partition_point(|f| in_scope(&f.location));
                return ScopedFindings::Span(start..end);
            }
        }
        let picked = findings.iter().enumerate().filter(|(_, f)| in_scope(&f.location));
        ScopedFindings::Own(picked.map(|(i, _)| crate::model::occurrence::compact_index(i)).collect())
    }

    pub(super) fn len(&self) -> usize {
        match self {
            ScopedFindings::Span(span) => span.len(),
            ScopedFindings::Own(list) => list.len(),
        }
    }

    /// The findings' indices, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (span, list) = match self {
            ScopedFindings::Span(span) => (span.clone(), &[][..]),
            ScopedFindings::Own(list) => (0..0, &list[..]),
        };
        span.chain(list.iter().map(|&i| i as usize))
    }
}

/// The least place key of a scope that is one span: its attempt, and its
/// session and turn when given (`None` sorts first).
fn first_key(scope: super::Scope) -> (usize, usize, Option<usize>) {
    (scope.attempt, scope.session.unwrap_or(0), scope.turn)
}

/// A Tools row in four bytes: an occurrence of the root fold, or an orphan
/// finish (the top bit). A stream can have hundreds of thousands of calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolRow(u32);

const ORPHAN: u32 = 1 << 31;

impl ToolRow {
    /// Occurrence `i` (indices past 2^31 - 1, not reachable in memory, saturate).
    pub fn call(i: usize) -> ToolRow {
        ToolRow(compact_index(i).min(ORPHAN - 1))
    }

    /// Orphan finish `i`.
    pub fn orphan(i: usize) -> ToolRow {
        ToolRow(compact_index(i).min(ORPHAN - 1) | ORPHAN)
    }

    /// `Ok(occurrence)` or `Err(orphan finish)`.
    pub fn get(self) -> Result<usize, usize> {
        let i = (self.0 & !ORPHAN) as usize;
        if self.0 & ORPHAN == 0 { Ok(i) } else { Err(i) }
    }
}
