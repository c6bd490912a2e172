//! Index lists behind the list tabs, their titles and the jump keys, cached
//! in [`App`] so no key press and no frame recomputes them: at 1 M events
//! each is a pass over hundreds of thousands of large structs, some with a
//! sort, which used to run on every key and every frame.
//!
//! Three levels, each rebuilt only when what it depends on changes:
//! - per attempt ([`AttemptIndex`], once per document): one byte per
//!   timeline row and eight per tool occurrence, the by-name order, the
//!   finding rows, the assertion order;
//! - per attempt and merge mode: the attempt's rows and the jump targets;
//! - per scope (and tool filter and sort): tools, HITL requests, findings,
//!   usage turns. These passes read the small per-attempt arrays.

use super::rows::{RowNumbers, ScopeRows, ScopedFindings, ToolRow};
use super::{App, JumpTo, Scope, ToolFilter};
use crate::model::TurnAddr;
use crate::model::occurrence::{Lifecycle, Occurrence, compact_index};
use crate::model::timeline::{Row, RowKind, RowStatus};
use std::collections::HashMap;

// Row flags.
const MERGED_AWAY: u8 = 1;
const HEADER: u8 = 2;
const FAILURE: u8 = 4;
const WAITING: u8 = 8;
// Tool occurrence flags (the Tools filter).
const TOOL_FAILED: u8 = 1;
const TOOL_PENDING: u8 = 2;
const TOOL_AMBIGUOUS: u8 = 4;

/// What the lists of one attempt are built from, computed once per document.
#[derive(Debug, Clone, Default)]
pub(super) struct AttemptIndex {
    /// One byte of flags per timeline row.
    row_flags: Vec<u8>,
    /// Per occurrence (root fold): its filter flags. (The turns it started
    /// and finished in are read from the occurrence: a copy of them here
    /// was 3 MB at 300,000 calls.)
    tool_flags: Vec<u8>,
    /// Occurrence indices stably sorted by display name, once the Tools tab
    /// is first sorted by name.
    by_name: Option<Vec<u32>>,
    /// Rows that a diagnostic finding points at, ascending.
    finding_rows: Vec<u32>,
    /// Assertion indices, failing gates first, and how many gates fail.
    assertions: Vec<usize>,
    failing_gates: usize,
    /// Largest token count of one turn (the Usage bars).
    max_turn_tokens: f64,
}

/// The cached lists; see the module documentation. After swapping the
/// document in, reset it to `ListIndex::default()` (as
/// [`App::replace_document`] does): everything is then rebuilt on demand.
#[derive(Debug, Clone, Default)]
pub struct ListIndex {
    attempts: HashMap<usize, AttemptIndex>,
    /// Errors and warnings among the document's findings.
    finding_counts: Option<(usize, usize)>,
    /// The (attempt, merge mode) of the row lists below.
    built_for: Option<(usize, bool)>,
    /// Timeline rows of the attempt shown in this merge mode, ascending: the
    /// scope's `visible` rows are one slice of it. Row numbers are `u32`
    /// here (a million rows: 4 MB, not 8).
    all_rows: Vec<u32>,
    /// Rows of `all_rows` that `[`/`]`, `e`/`E` and `w` land on, ascending.
    headers: Vec<u32>,
    failures: Vec<u32>,
    waiting: Vec<u32>,
    // Per scope (and the tool filter and sort):
    /// Turn headers among the scope's rows (a folded turn keeps its header).
    scope_turns: usize,
    tools: Vec<ToolRow>,
    /// How many of `tools` finish here a call started before the scope.
    tools_carried: usize,
    hitl: Vec<usize>,
    hitl_waiting: usize,
    findings: ScopedFindings,
    /// How many of the findings in scope are errors (the Diagnostics title).
    scoped_errors: usize,
    /// The Usage tab's rows for the scope, its column header included.
    usage_rows: usize,
    /// The Diagnostics rows: one per finding code in scope, `(first finding, how many)`.
    finding_rows: Vec<(usize, usize)>,
    /// Derived turns in scope (one Usage row each).
    turns: Vec<usize>,
}

impl App {
    /// Build the per-attempt index of every attempt (at load and reload, so
    /// no key press pays for it).
    pub(super) fn index_document(&mut self) {
        for a in 0..self.views.len() {
            self.attempt_index(a);
        }
    }

    /// Start the index over with per-attempt indexes built elsewhere (off
    /// the UI thread, with the document).
    pub(super) fn reset_index(&mut self, attempts: HashMap<usize, AttemptIndex>) {
        self.index = ListIndex { attempts, ..ListIndex::default() };
    }

    /// The per-attempt index of attempt `a`, built if missing.
    fn attempt_index(&mut self, a: usize) -> Option<&AttemptIndex> {
        if !self.index.attempts.contains_key(&a) {
            let (view, attempt) = (self.views.get(a)?, self.doc.attempts.get(a)?);
            let index = build_attempt_index(a, view, attempt, &self.findings);
            self.index.attempts.insert(a, index);
        }
        self.index.attempts.get(&a)
    }
}

/// The per-attempt index of every attempt of a document.
pub(super) fn index_attempts(
    doc: &crate::model::document::Document,
    views: &[super::AttemptView],
    findings: &[crate::model::diagnostics::Finding],
) -> HashMap<usize, AttemptIndex> {
    views
        .iter()
        .zip(&doc.attempts)
        .enumerate()
        .map(|(a, (v, at))| (a, build_attempt_index(a, v, at, findings)))
        .collect()
}

fn build_attempt_index(
    a: usize,
    view: &super::AttemptView,
    attempt: &crate::model::document::Attempt,
    findings: &[crate::model::diagnostics::Finding],
) -> AttemptIndex {
    let rows = &view.timeline.rows;
    let row_flags = rows.iter().map(row_flags).collect();
    let occurrences = &view.derived.occurrences.occurrences;
    let tool_flags = occurrences.iter().map(tool_flags).collect();
    let mut finding_rows: Vec<u32> = findings
        .iter()
        .filter(|f| f.location.attempt() == a)
        .filter_map(|f| {
            let addr = TurnAddr { session: f.location.session(), turn: f.location.turn()? };
            match f.location.event() {
                Some(e) => view.timeline.row_of_event(addr, e),
                None => view.timeline.by_turn.get(&addr).copied(),
            }
        })
        .map(compact_index)
        .collect();
    finding_rows.sort_unstable();
    finding_rows.dedup();
    let (mut assertions, mut failing_gates) = (Vec::new(), 0);
    if let Some(list) = &attempt.review.assertions {
        assertions = crate::view::assertions::ordered(list);
        failing_gates = list.iter().filter(|a| crate::model::verdict::assertion_outcome(a).is_failing()).count();
    }
    let max_turn_tokens = view
        .derived
        .turns
        .iter()
        .filter_map(|t| {
            attempt.sessions[t.addr.session].turns[t.addr.turn].turn.usage.and_then(|u| u.billable_tokens())
        })
        .fold(0.0, f64::max);
    AttemptIndex { row_flags, tool_flags, by_name: None, finding_rows, assertions, failing_gates, max_turn_tokens }
}

impl App {
    /// Build the attempt's rows and jump targets for this merge mode unless
    /// they are current: a pass over one byte per row.
    pub(super) fn index_rows(&mut self) {
        let key = (self.scope.attempt, self.merge);
        if self.index.built_for == Some(key) {
            return;
        }
        if self.index.finding_counts.is_none() {
            use crate::model::diagnostics::Severity;
            let errors = self.findings.iter().filter(|f| f.severity == Severity::Error).count();
            self.index.finding_counts = Some((errors, self.findings.len() - errors));
        }
        // The vectors are reused: at 1 M rows a fresh 8 MB allocation costs
        // milliseconds of page faults on every merge toggle.
        let index = &mut self.index;
        let mut all = std::mem::take(&mut index.all_rows);
        let mut headers = std::mem::take(&mut index.headers);
        let mut failures = std::mem::take(&mut index.failures);
        let mut waiting = std::mem::take(&mut index.waiting);
        for v in [&mut all, &mut headers, &mut failures, &mut waiting] {
            v.clear();
        }
        if let Some(ai) = self.attempt_index(key.0) {
            // Room for every row: the first unmerged toggle does not reallocate.
            all.reserve(ai.row_flags.len());
            for (i, &f) in ai.row_flags.iter().enumerate() {
                if key.1 && f & MERGED_AWAY != 0 {
                    continue;
                }
                let i = compact_index(i);
                all.push(i);
                if f & HEADER != 0 {
                    headers.push(i);
                }
                if f & FAILURE != 0 {
                    failures.push(i);
                }
                if f & WAITING != 0 {
                    waiting.push(i);
                }
            }
        }
        let index = &mut self.index;
        (index.all_rows, index.headers, index.failures, index.waiting) = (all, headers, failures, waiting);
        index.built_for = Some(key);
    }

    /// Set the scope's rows (a span of the attempt's rows in this merge
    /// mode, which are grouped by turn in address order) and, while some
    /// turn of the attempt is folded, the rows shown.
    pub(super) fn set_scope_rows(&mut self) {
        self.index_rows();
        let scope = self.scope;
        self.scope_rows = ScopeRows::default();
        self.folded_rows = None;
        let Some(view) = self.views.get(scope.attempt) else { return };
        let rows = &view.timeline.rows;
        let all = &self.index.all_rows;
        self.scope_rows = match scope_row_range(rows, scope) {
            Some(range) => ScopeRows::Span(all.before(range.start)..all.before(range.end)),
            None => ScopeRows::Own(all.iter().copied().filter(|&r| scope.contains(rows[r as usize].addr())).collect()),
        };
        let in_scope = self.scope_rows.of(all);
        let headers = &self.index.headers;
        self.index.scope_turns = match (in_scope.first(), in_scope.last()) {
            (Some(&first), Some(&last)) => headers
                [headers.partition_point(|&h| h < first)..headers.partition_point(|&h| h <= last)]
                .iter()
                .filter(|&&h| scope.contains(rows[h as usize].addr()))
                .count(),
            _ => 0,
        };
        // A folded turn shows its header only.
        let folded = &self.folded;
        if folded.iter().any(|(a, _)| *a == scope.attempt) {
            let shown = |&&r: &&u32| {
                let row = &rows[r as usize];
                row.kind == RowKind::TurnHeader || !folded.contains(&(scope.attempt, row.addr()))
            };
            self.folded_rows = Some(in_scope.iter().filter(shown).copied().collect());
        }
    }

    /// Every timeline row in scope, folded turns included (what search and
    /// jumps look in; landing in a folded turn unfolds it).
    pub(super) fn scope_rows(&self) -> &[u32] {
        self.scope_rows.of(&self.index.all_rows)
    }

    /// Timeline rows shown for the scope (indices into the attempt's rows).
    pub fn visible(&self) -> &[u32] {
        self.folded_rows.as_deref().unwrap_or_else(|| self.scope_rows())
    }

    /// Rebuild the scope's lists: tools, HITL requests, findings and usage
    /// turns. [`App::rebuild_visible`] calls it.
    pub fn rebuild_lists(&mut self) {
        self.index_rows();
        let scope = self.scope;
        let index = &mut self.index;
        index.hitl.clear();
        index.hitl_waiting = 0;
        index.turns.clear();
        index.findings = ScopedFindings::of(&self.findings, scope);
        // Identical codes share a row with a count (a long stream can repeat one finding thousands of times).
        let mut rows: Vec<(usize, usize)> = Vec::new();
        let mut row_of: HashMap<&str, usize> = HashMap::new();
        index.scoped_errors = 0;
        for i in index.findings.iter() {
            index.scoped_errors += usize::from(self.findings[i].severity == crate::model::diagnostics::Severity::Error);
            match row_of.get(self.findings[i].code) {
                Some(&r) => rows[r].1 += 1,
                None => {
                    row_of.insert(self.findings[i].code, rows.len());
                    rows.push((i, 1));
                }
            }
        }
        index.finding_rows = rows;
        if let Some(view) = self.views.get(scope.attempt) {
            use crate::model::hitl::HitlState;
            for (i, r) in view.requests.iter().enumerate().filter(|(_, r)| scope.contains(r.addr)) {
                index.hitl.push(i);
                index.hitl_waiting += usize::from(r.state == HitlState::Waiting);
            }
            let turns = view.derived.turns.iter().enumerate();
            index.turns = turns.filter(|(_, t)| scope.contains(t.addr)).map(|(i, _)| i).collect();
        }
        // Counted once per scope: the list's length is asked on every key.
        let sel = crate::view::report::Selection::default();
        let usage = self.context(&sel).map(|c| crate::view::usage::rows(&c, &self.index.turns, true).len());
        // The column header is the first line.
        self.index.usage_rows = usage.map(|n| n + 1).unwrap_or(0);
        self.rebuild_tool_rows();
    }

    /// Rebuild the Tools tab's rows for the scope, filter and sort: a filter
    /// over the attempt's eight bytes per occurrence, in position or name order.
    pub fn rebuild_tool_rows(&mut self) {
        let attempt = self.scope.attempt;
        let scope = self.scope;
        let (filter, by_name) = (self.tool_filter, self.tool_sort_by_name);
        let mut rows = Vec::new();
        self.attempt_index(attempt);
        if by_name {
            self.order_tools_by_name(attempt);
        }
        if let (Some(ai), Some(view)) = (self.index.attempts.get(&attempt), self.views.get(attempt)) {
            let d = &view.derived;
            let in_scope: Vec<bool> = d.turns.iter().map(|t| scope.contains(t.addr)).collect();
            let want = match filter {
                ToolFilter::All => None,
                ToolFilter::Failed => Some(TOOL_FAILED),
                ToolFilter::Pending => Some(TOOL_PENDING),
                ToolFilter::Problems => Some(TOOL_AMBIGUOUS),
            };
            // A call is in the scope it started or finished in (as `show --tools` lists it).
            let occurrences = &d.occurrences.occurrences;
            let keep = |i: usize| {
                let o = &occurrences[i];
                let here = |t: usize| in_scope.get(t).copied().unwrap_or(false);
                (here(o.start_ref.scope_turn()) || o.finish_ref.is_some_and(|f| here(f.scope_turn())))
                    && want.is_none_or(|w| ai.tool_flags[i] & w != 0)
            };
            // Counted first: a filtered collect grows by doubling, and at
            // 285,720 calls the list would hold twice the room it needs.
            let kept = (0..ai.tool_flags.len()).filter(|&i| keep(i)).count();
            rows = Vec::with_capacity(kept + d.occurrences.orphan_finishes.len());
            match ai.by_name.as_ref().filter(|_| by_name) {
                Some(order) => rows.extend(order.iter().map(|&i| i as usize).filter(|&i| keep(i)).map(ToolRow::call)),
                None => rows.extend((0..ai.tool_flags.len()).filter(|&i| keep(i)).map(ToolRow::call)),
            }
            if matches!(filter, ToolFilter::All | ToolFilter::Problems) {
                let orphans = d.occurrences.orphan_finishes.iter().enumerate();
                let in_scope = |t: usize| in_scope.get(t).copied().unwrap_or(false);
                rows.extend(
                    orphans.filter(|(_, o)| in_scope(o.event_ref.scope_turn())).map(|(i, _)| ToolRow::orphan(i)),
                );
            }
        }
        if let Some(q) = &self.tool_query {
            rows = self.tool_rows_matching(rows, &q.matcher);
        }
        let (index, views) = (&mut self.index, &self.views);
        index.tools_carried = match views.get(attempt) {
            Some(view) => {
                let d = &view.derived;
                let started_here = |i: usize| {
                    let turn = d.occurrences.occurrences.get(i).map(|o| o.start_ref.scope_turn());
                    turn.and_then(|t| d.turns.get(t)).is_some_and(|t| scope.contains(t.addr))
                };
                rows.iter().filter(|r| r.get().is_ok_and(|i| !started_here(i))).count()
            }
            _ => 0,
        };
        index.tools = rows;
    }

    /// Sort attempt `a`'s calls by name unless done before.
    fn order_tools_by_name(&mut self, a: usize) {
        let Some(view) = self.views.get(a) else { return };
        if let Some(ai) = self.index.attempts.get_mut(&a)
            && ai.by_name.is_none()
        {
            ai.by_name = Some(order_by_name(&view.derived.occurrences.occurrences));
        }
    }

    /// The tool rows whose words (as the list shows them) match.
    fn tool_rows_matching(&self, rows: Vec<ToolRow>, matcher: &crate::view::search::Matcher) -> Vec<ToolRow> {
        let sel = crate::view::report::Selection::default();
        let Some(ctx) = self.context(&sel) else { return rows };
        let occurrences = &ctx.derived.occurrences;
        let words = |r: &ToolRow| -> String {
            let cells = match r.get() {
                Ok(i) => occurrences.occurrences.get(i).map(|o| crate::view::tools::occurrence_row(&ctx, o)),
                Err(i) => occurrences.orphan_finishes.get(i).map(crate::view::tools::orphan_row),
            };
            cells.unwrap_or_default().iter().map(|t| t.as_plain()).collect::<Vec<_>>().join(" ")
        };
        rows.into_iter().filter(|r| matcher.is_match(&words(r))).collect()
    }

    /// Total count of findings by severity for the header.
    pub fn finding_counts(&self) -> (usize, usize) {
        self.index.finding_counts.unwrap_or_else(|| {
            use crate::model::diagnostics::Severity;
            let errors = self.findings.iter().filter(|f| f.severity == Severity::Error).count();
            (errors, self.findings.len() - errors)
        })
    }

    /// Findings of the current attempt and scope (indices into `findings`).
    pub fn scoped_findings(&self) -> impl Iterator<Item = usize> + '_ {
        self.index.findings.iter()
    }

    /// Turns in scope (one usage row each) plus session and total rows.
    pub fn usage_row_count(&self) -> usize {
        self.index.usage_rows
    }

    /// How many of the findings in scope are errors.
    pub fn scoped_errors(&self) -> usize {
        self.index.scoped_errors
    }

    /// How many findings the current attempt and scope have.
    pub fn scoped_finding_count(&self) -> usize {
        self.index.findings.len()
    }

    /// The Diagnostics tab's finding rows: `(first finding index, count)` per code in scope.
    pub fn finding_rows(&self) -> &[(usize, usize)] {
        &self.index.finding_rows
    }

    /// Occurrence indices (root fold) in scope, filtered and sorted for the Tools tab,
    /// followed by orphan finishes as `Err(index)`.
    pub fn tool_rows(&self) -> &[ToolRow] {
        &self.index.tools
    }

    /// How many of the scope's timeline rows are turn headers.
    pub fn timeline_turns(&self) -> usize {
        self.index.scope_turns
    }

    /// How many of [`App::tool_rows`] finish in scope a call started before it.
    pub fn tool_carried(&self) -> usize {
        self.index.tools_carried
    }

    /// How many of [`App::tool_rows`] are orphan finishes (they come last).
    pub fn tool_orphans(&self) -> usize {
        let rows = self.tool_rows();
        rows.len() - rows.partition_point(|r| r.get().is_ok())
    }

    /// HITL request indices in scope.
    pub fn hitl_rows(&self) -> &[usize] {
        &self.index.hitl
    }

    /// How many of [`App::hitl_rows`] wait for an answer.
    pub fn hitl_waiting(&self) -> usize {
        self.index.hitl_waiting
    }

    fn current_attempt_index(&self) -> Option<&AttemptIndex> {
        self.index.attempts.get(&self.scope.attempt)
    }

    /// Assertion indices of the attempt: failing gates first, then the rest.
    pub fn assertion_rows(&self) -> &[usize] {
        self.current_attempt_index().map(|a| a.assertions.as_slice()).unwrap_or(&[])
    }

    /// How many assertions of the attempt are failing gates.
    pub fn failing_gates(&self) -> usize {
        self.current_attempt_index().map(|a| a.failing_gates).unwrap_or(0)
    }

    /// Derived turn indices in scope: the first rows of the Usage tab.
    pub fn usage_turns(&self) -> &[usize] {
        &self.index.turns
    }

    /// Largest token count of one turn of the attempt.
    pub fn max_turn_tokens(&self) -> f64 {
        self.current_attempt_index().map(|a| a.max_turn_tokens).unwrap_or(0.0)
    }

    /// Timeline rows of the attempt (ascending) that a jump key lands on;
    /// the caller keeps those in `visible`.
    pub fn jump_rows(&self, to: JumpTo) -> &[u32] {
        match to {
            JumpTo::Turn => &self.index.headers,
            JumpTo::Failure => &self.index.failures,
            JumpTo::Waiting => &self.index.waiting,
            JumpTo::Finding => self.current_attempt_index().map(|a| a.finding_rows.as_slice()).unwrap_or(&[]),
        }
    }
}

fn row_flags(r: &Row) -> u8 {
    let mut f = 0;
    if r.merged_away() {
        f |= MERGED_AWAY;
    }
    if r.kind == RowKind::TurnHeader {
        f |= HEADER;
    }
    if r.is_failure() {
        f |= FAILURE;
    }
    if r.status == Some(RowStatus::Waiting) {
        f |= WAITING;
    }
    f
}

fn tool_flags(o: &Occurrence) -> u8 {
    let mut f = 0;
    if matches!(&o.lifecycle, Lifecycle::Finished { status, .. } if &**status == "failed" || &**status == "rejected") {
        f |= TOOL_FAILED;
    }
    if o.lifecycle == Lifecycle::Pending {
        f |= TOOL_PENDING;
    }
    if o.ambiguous {
        f |= TOOL_AMBIGUOUS;
    }
    f
}

/// The rows of `scope` as one range of `rows`, which are grouped by turn in
/// address order; `None` for a turn without a session (not contiguous).
fn scope_row_range(rows: &[Row], scope: Scope) -> Option<std::ops::Range<usize>> {
    let (lo, hi) = match (scope.session, scope.turn) {
        (None, None) => return Some(0..rows.len()),
        (None, Some(_)) => return None,
        (Some(s), None) => (TurnAddr { session: s, turn: 0 }, TurnAddr { session: s + 1, turn: 0 }),
        (Some(s), Some(t)) => (TurnAddr { session: s, turn: t }, TurnAddr { session: s, turn: t + 1 }),
    };
    Some(rows.partition_point(|r| r.addr() < lo)..rows.partition_point(|r| r.addr() < hi))
}

/// Occurrence indices stably sorted by display name: each occurrence's name
/// is looked up once, the distinct names are sorted, then the occurrences
/// are placed by rank (a counting sort, linear in occurrences).
pub(super) fn order_by_name(occurrences: &[Occurrence]) -> Vec<u32> {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let first: Vec<u32> = occurrences
        .iter()
        .map(|o| {
            let name = o.display_name();
            *ids.entry(name).or_insert_with(|| {
                names.push(name);
                names.len() as u32 - 1
            })
        })
        .collect();
    // Rank of each name id in name order.
    let mut sorted: Vec<u32> = (0..names.len() as u32).collect();
    sorted.sort_unstable_by_key(|&i| names[i as usize]);
    let mut rank = vec![0u32; names.len()];
    for (r, &i) in sorted.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    // `start[r]` is where the next occurrence of rank r goes.
    let mut start = vec![0usize; names.len() + 1];
    for &id in &first {
        start[rank[id as usize] as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut order = vec![0u32; occurrences.len()];
    for (i, &id) in first.iter().enumerate() {
        let r = rank[id as usize] as usize;
        order[start[r]] = i as u32;
        start[r] += 1;
    }
    order
}
