//! Timeline rows: one per event in real order, with a turn header before
//! each turn and the runner's user message at ordinal 0. A tool start and
//! its finish in the same turn are merged into one lifecycle row when they
//! pair exactly; every other phase keeps its own row. Rows are built once
//! at load; what a row says is the view's (`view::timeline`), made on demand
//! for the rows on screen.

use super::derive::{DerivedAttempt, TurnAddr};
use super::document::Attempt;
use super::event::{EventKind, Role};
use super::hitl::{HitlRequest, HitlState};
use super::occurrence::{Lifecycle, compact_index as index};
use rustc_hash::FxHashMap as HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKind {
    TurnHeader,
    /// The runner's user message (the eval's input), ordinal 0.
    Input,
    UserMessage,
    AssistantMessage,
    ToolStart,
    ToolFinish,
    SubagentStart,
    SubagentFinish,
    Skill,
    InputRequest,
    Thinking,
    Context,
    Compaction,
    Error,
    Unrecognized,
}

/// Lifecycle status shown on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowStatus {
    Completed,
    Failed,
    Rejected,
    Pending,
    /// Started, and the turn has no status: the stream may still be going (`partial-stream`).
    Open,
    Ambiguous,
    Orphan,
    /// A finish status outside the enum.
    Other,
    Waiting,
    Answered,
    Unanswered,
    /// The file keeps no answers (a Record): whether it was answered is unknown.
    AnswerNotRecorded,
    /// Started, with no finish in a Record's conversation, which drops a
    /// finish that has no output: whether and how it finished is unknown.
    FinishNotRecorded,
    TurnCompleted,
    TurnFailed,
    TurnWaiting,
    TurnUnknown,
}

impl RowStatus {
    /// Failures and errors that `e`/`E` jump between.
    pub fn is_failure(self) -> bool {
        matches!(self, RowStatus::Failed | RowStatus::TurnFailed | RowStatus::Ambiguous | RowStatus::Orphan)
    }
}

/// An opaque lifecycle: an ambiguous id, or a stream without a turn status.
pub fn lifecycle_opaque(reason: super::occurrence::OpaqueReason) -> RowStatus {
    match reason {
        super::occurrence::OpaqueReason::PartialStream => RowStatus::Open,
        super::occurrence::OpaqueReason::MissingLifecycleEvidence => RowStatus::Ambiguous,
    }
}

/// Row status of a whole tool lifecycle: pending, the finish status, or opaque.
pub fn lifecycle_status(lifecycle: &Lifecycle) -> RowStatus {
    match lifecycle {
        Lifecycle::Pending => RowStatus::Pending,
        Lifecycle::Finished { status, .. } => finish_status(status),
        Lifecycle::Opaque { reason } => lifecycle_opaque(*reason),
    }
}

/// Row status of a tool lifecycle in `attempt`: a start without a finish
/// in a Record's conversation is a finish not recorded, not a pending call.
pub fn tool_status_in(attempt: &Attempt, lifecycle: &Lifecycle) -> RowStatus {
    match lifecycle_status(lifecycle) {
        RowStatus::Pending if attempt.from_record_conversation => RowStatus::FinishNotRecorded,
        s => s,
    }
}

/// Row status of a finish status as written (`Other` outside the enum).
pub fn finish_status(status: &str) -> RowStatus {
    match status {
        "completed" => RowStatus::Completed,
        "failed" => RowStatus::Failed,
        "rejected" => RowStatus::Rejected,
        _ => RowStatus::Other,
    }
}

/// Row status of an input request: waiting, answered, or unanswered
/// (never answered by the next turn, or no next turn and not waiting).
pub fn request_status(state: &HitlState) -> RowStatus {
    match state {
        HitlState::Waiting => RowStatus::Waiting,
        HitlState::Answered { .. } => RowStatus::Answered,
        HitlState::NeverAnswered { .. } | HitlState::Unanswered { .. } => RowStatus::Unanswered,
        HitlState::AnswerNotRecorded { .. } => RowStatus::AnswerNotRecorded,
    }
}

pub fn turn_status(status: Option<&str>) -> RowStatus {
    match status {
        Some("completed") => RowStatus::TurnCompleted,
        Some("failed") => RowStatus::TurnFailed,
        Some("waiting") => RowStatus::TurnWaiting,
        _ => RowStatus::TurnUnknown,
    }
}

/// One timeline row, 32 bytes: an attempt of a million events has a million
/// of them. Indices are `u32` (a document of four billion events would not
/// fit in memory as events first); [`NONE`] stands for absent.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub turn_ordinal: u64,
    session: u32,
    turn: u32,
    /// Adapter event index; `NONE` for the turn header and the input row.
    event: u32,
    /// A finish in the same turn merged into this start row.
    merged_finish: u32,
    /// The index `link_kind` says what it is of (see [`Row::occurrence`]).
    link: u32,
    pub kind: RowKind,
    pub status: Option<RowStatus>,
    /// This finish row is shown inside its start row when rows are merged.
    merged_away: bool,
    link_kind: LinkKind,
}

const NONE: u32 = u32::MAX;

/// What an event is to the root fold, packed in four bytes (the table
/// holds one per event): an occurrence index, or an orphan finish's with
/// the top bit set, or nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FoldLink(u32);

impl FoldLink {
    const NONE: FoldLink = FoldLink(u32::MAX);
    const ORPHAN: u32 = 1 << 31;

    /// Indices past 2^31 - 1 (no document reaches them) link nothing.
    fn new(kind: LinkKind, i: usize) -> FoldLink {
        match (kind, u32::try_from(i)) {
            (LinkKind::Occurrence, Ok(i)) if i < FoldLink::ORPHAN => FoldLink(i),
            (LinkKind::Orphan, Ok(i)) if i < FoldLink::ORPHAN - 1 => FoldLink(i | FoldLink::ORPHAN),
            _ => FoldLink::NONE,
        }
    }

    fn get(self) -> (LinkKind, u32) {
        match self.0 {
            u32::MAX => (LinkKind::None, NONE),
            i if i & FoldLink::ORPHAN != 0 => (LinkKind::Orphan, i & !FoldLink::ORPHAN),
            i => (LinkKind::Occurrence, i),
        }
    }
}

/// What a row's `link` indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinkKind {
    None,
    /// A root-scope occurrence (tool rows).
    Occurrence,
    /// A root-scope orphan finish.
    Orphan,
    /// The HITL request list (`input.requested` rows).
    Request,
}

fn some(i: u32) -> Option<usize> {
    (i != NONE).then_some(i as usize)
}

impl Row {
    fn new(addr: TurnAddr, turn_ordinal: u64, kind: RowKind, event: Option<usize>, status: Option<RowStatus>) -> Row {
        Row {
            turn_ordinal,
            session: index(addr.session),
            turn: index(addr.turn),
            event: event.map_or(NONE, index),
            merged_finish: NONE,
            link: NONE,
            kind,
            status,
            merged_away: false,
            link_kind: LinkKind::None,
        }
    }

    pub fn addr(&self) -> TurnAddr {
        TurnAddr { session: self.session as usize, turn: self.turn as usize }
    }

    /// Adapter event index; `None` for the turn header and the input row.
    pub fn event(&self) -> Option<usize> {
        some(self.event)
    }

    /// A finish in the same turn merged into this start row.
    pub fn merged_finish(&self) -> Option<usize> {
        some(self.merged_finish)
    }

    /// This finish row is shown inside its start row when rows are merged.
    pub fn merged_away(&self) -> bool {
        self.merged_away
    }

    /// Root-scope occurrence index for tool rows.
    pub fn occurrence(&self) -> Option<usize> {
        self.linked(LinkKind::Occurrence)
    }

    /// Root-scope orphan index for orphan finish rows.
    pub fn orphan(&self) -> Option<usize> {
        self.linked(LinkKind::Orphan)
    }

    /// Index into the HITL request list for `input.requested` rows.
    pub fn request(&self) -> Option<usize> {
        self.linked(LinkKind::Request)
    }

    fn linked(&self, kind: LinkKind) -> Option<usize> {
        if self.link_kind == kind { some(self.link) } else { None }
    }

    fn link_to(&mut self, kind: LinkKind, i: usize) {
        (self.link_kind, self.link) = (kind, index(i));
    }

    /// `turnOrdinal:eventOrdinal` (the user message is 0; a header shows `N`).
    pub fn position(&self) -> String {
        match (self.kind, self.event()) {
            (RowKind::TurnHeader, _) => format!("{}", self.turn_ordinal),
            (_, Some(e)) => format!("{}:{}", self.turn_ordinal, e + 1),
            (_, None) => format!("{}:0", self.turn_ordinal),
        }
    }

    pub fn is_failure(&self) -> bool {
        self.kind == RowKind::Error
            || self.kind == RowKind::Unrecognized
            || self.status.is_some_and(RowStatus::is_failure)
    }
}

/// All rows of an attempt, built once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub rows: Vec<Row>,
    /// The row of each turn's header. The input row follows it, then one row
    /// per event in order, so an event's row is found without an index of its own.
    pub by_turn: HashMap<TurnAddr, usize>,
}

impl Timeline {
    pub fn row_of_event(&self, addr: TurnAddr, event: usize) -> Option<usize> {
        let ri = self.by_turn.get(&addr)? + 2 + event;
        self.rows.get(ri).filter(|r| r.addr() == addr && r.event() == Some(event)).map(|_| ri)
    }
}

pub fn build_timeline(attempt: &Attempt, derived: &DerivedAttempt, requests: &[HitlRequest]) -> Timeline {
    // What each event of the root fold is to its occurrences: one slot per
    // event (`events_before[scope turn]` + event), not a map per kind.
    let mut events_before = Vec::with_capacity(derived.turns.len() + 1);
    let mut total = 0usize;
    for dt in &derived.turns {
        events_before.push(total);
        total += attempt.sessions[dt.addr.session].turns[dt.addr.turn].turn.events.len();
    }
    let slot = |r: super::occurrence::EventRef| events_before.get(r.scope_turn()).map(|b| b + r.event());
    let mut fold_link = vec![FoldLink::NONE; total];
    let mut put = |r, link: FoldLink| {
        if let Some(cell) = slot(r).and_then(|i| fold_link.get_mut(i)) {
            *cell = link;
        }
    };
    for (i, o) in derived.occurrences.occurrences.iter().enumerate() {
        put(o.start_ref, FoldLink::new(LinkKind::Occurrence, i));
        if let Some(f) = o.finish_ref {
            put(f, FoldLink::new(LinkKind::Occurrence, i));
        }
    }
    for (i, o) in derived.occurrences.orphan_finishes.iter().enumerate() {
        put(o.event_ref, FoldLink::new(LinkKind::Orphan, i));
    }
    let request_of: HashMap<(TurnAddr, usize), usize> =
        requests.iter().enumerate().map(|(i, r)| ((r.addr, r.event), i)).collect();
    let mut timeline = Timeline { rows: Vec::with_capacity(total + 2 * derived.turns.len()), ..Timeline::default() };
    for (scope_index, dt) in derived.turns.iter().enumerate() {
        let addr = dt.addr;
        let record = &attempt.sessions[addr.session].turns[addr.turn];
        let ordinal = dt.turn_ordinal;
        timeline.by_turn.insert(addr, timeline.rows.len());
        let status = Some(turn_status(record.turn.status.as_deref()));
        timeline.rows.push(Row::new(addr, ordinal, RowKind::TurnHeader, None, status));
        timeline.rows.push(Row::new(addr, ordinal, RowKind::Input, None, None));
        // Subagent pairing per turn, by id (display only).
        let mut open_subagents: HashMap<&str, usize> = HashMap::default();
        let links = &fold_link[events_before[scope_index]..];
        for (ei, event) in record.turn.events.iter().enumerate() {
            let mut row = Row::new(addr, ordinal, RowKind::Unrecognized, Some(ei), None);
            let (link_kind, link) = links[ei].get();
            let occurrence = (link_kind == LinkKind::Occurrence)
                .then(|| derived.occurrences.occurrences.get(link as usize))
                .flatten();
            match &event.kind {
                EventKind::Message { role: Role::User } => row.kind = RowKind::UserMessage,
                EventKind::Message { role: Role::Assistant } => row.kind = RowKind::AssistantMessage,
                // Neither the user's nor the assistant's: shown as a misfit.
                EventKind::Message { role: Role::Other } => {}
                EventKind::ToolStarted { .. } => {
                    row.kind = RowKind::ToolStart;
                    if let Some(occ) = occurrence {
                        row.link_to(LinkKind::Occurrence, link as usize);
                        row.status = Some(tool_status_in(attempt, &occ.lifecycle));
                        if let Some(f) = occ.finish_ref
                            && f.scope_turn() == scope_index
                        {
                            row.merged_finish = index(f.event());
                        }
                    }
                }
                EventKind::ToolFinished { status, .. } => {
                    row.kind = RowKind::ToolFinish;
                    if let Some(occ) = occurrence {
                        row.link_to(LinkKind::Occurrence, link as usize);
                        row.status = Some(finish_status(status));
                        row.merged_away = occ.start_ref.scope_turn() == scope_index;
                    } else if link_kind == LinkKind::Orphan {
                        row.link_to(LinkKind::Orphan, link as usize);
                        row.status = Some(RowStatus::Orphan);
                    }
                }
                EventKind::SubagentStarted { operation_id, .. } => {
                    row.kind = RowKind::SubagentStart;
                    row.status = Some(RowStatus::Pending);
                    open_subagents.insert(operation_id, timeline.rows.len());
                }
                EventKind::SubagentFinished { operation_id, status } => {
                    row.kind = RowKind::SubagentFinish;
                    row.status = Some(finish_status(status));
                    match open_subagents.remove(&**operation_id) {
                        Some(start_row) => {
                            timeline.rows[start_row].status = Some(finish_status(status));
                            timeline.rows[start_row].merged_finish = index(ei);
                            row.merged_away = true;
                        }
                        None => row.status = Some(RowStatus::Orphan),
                    }
                }
                EventKind::SkillLoaded { .. } => row.kind = RowKind::Skill,
                EventKind::InputRequested => {
                    row.kind = RowKind::InputRequest;
                    if let Some(&ri) = request_of.get(&(addr, ei)) {
                        row.link_to(LinkKind::Request, ri);
                        row.status = Some(request_status(&requests[ri].state));
                    }
                }
                EventKind::Thinking => row.kind = RowKind::Thinking,
                EventKind::ContextInjected => row.kind = RowKind::Context,
                EventKind::Compaction => row.kind = RowKind::Compaction,
                EventKind::Error => row.kind = RowKind::Error,
                EventKind::Unrecognized { .. } => row.kind = RowKind::Unrecognized,
            }
            timeline.rows.push(row);
        }
    }
    timeline
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_row_is_32_bytes() {
        // A million-event attempt holds a million rows.
        assert_eq!(std::mem::size_of::<super::Row>(), 32);
    }

    #[test]
    fn a_fold_link_reads_back_what_was_packed() {
        use super::{FoldLink, LinkKind, NONE};
        assert_eq!(FoldLink::NONE.get(), (LinkKind::None, NONE));
        for i in [0usize, 1, 285_719, (1 << 31) - 2] {
            assert_eq!(FoldLink::new(LinkKind::Occurrence, i).get(), (LinkKind::Occurrence, i as u32));
            assert_eq!(FoldLink::new(LinkKind::Orphan, i).get(), (LinkKind::Orphan, i as u32));
        }
        // Past what four bytes hold, a link is dropped, never read as another.
        assert_eq!(FoldLink::new(LinkKind::Orphan, (1 << 31) - 1).get().0, LinkKind::None);
        assert_eq!(FoldLink::new(LinkKind::Occurrence, 1 << 31).get().0, LinkKind::None);
    }
}
