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
use super::occurrence::Lifecycle;
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

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub addr: TurnAddr,
    pub kind: RowKind,
    /// Adapter event index; `None` for the turn header and the input row.
    pub event: Option<usize>,
    /// A finish in the same turn merged into this start row.
    pub merged_finish: Option<usize>,
    /// This finish row is shown inside its start row when rows are merged.
    pub merged_away: bool,
    /// Root-scope occurrence index for tool rows.
    pub occurrence: Option<usize>,
    /// Root-scope orphan index for orphan finish rows.
    pub orphan: Option<usize>,
    /// Index into the HITL request list for `input.requested` rows.
    pub request: Option<usize>,
    pub status: Option<RowStatus>,
    pub turn_ordinal: u64,
}

impl Row {
    /// `turnOrdinal:eventOrdinal` (the user message is 0; a header shows `N`).
    pub fn position(&self) -> String {
        match (self.kind, self.event) {
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
        self.rows.get(ri).filter(|r| r.addr == addr && r.event == Some(event)).map(|_| ri)
    }
}

pub fn build_timeline(attempt: &Attempt, derived: &DerivedAttempt, requests: &[HitlRequest]) -> Timeline {
    // Index the root fold by event reference.
    let mut start_of: HashMap<(usize, usize), usize> = HashMap::default();
    let mut finish_of: HashMap<(usize, usize), usize> = HashMap::default();
    for (i, o) in derived.occurrences.occurrences.iter().enumerate() {
        start_of.insert((o.start_ref.scope_turn, o.start_ref.event), i);
        if let Some(f) = o.finish_ref {
            finish_of.insert((f.scope_turn, f.event), i);
        }
    }
    let orphan_of: HashMap<(usize, usize), usize> = derived
        .occurrences
        .orphan_finishes
        .iter()
        .enumerate()
        .map(|(i, o)| ((o.event_ref.scope_turn, o.event_ref.event), i))
        .collect();
    let request_of: HashMap<(TurnAddr, usize), usize> =
        requests.iter().enumerate().map(|(i, r)| ((r.addr, r.event), i)).collect();
    // Subagent pairing per turn, by id (display only).
    let mut timeline = Timeline::default();
    for (scope_index, dt) in derived.turns.iter().enumerate() {
        let addr = dt.addr;
        let record = &attempt.sessions[addr.session].turns[addr.turn];
        let ordinal = dt.turn_ordinal;
        timeline.by_turn.insert(addr, timeline.rows.len());
        let base = Row {
            addr,
            kind: RowKind::TurnHeader,
            event: None,
            merged_finish: None,
            merged_away: false,
            occurrence: None,
            orphan: None,
            request: None,
            status: Some(turn_status(record.turn.status.as_deref())),
            turn_ordinal: ordinal,
        };
        timeline.rows.push(base.clone());
        timeline.rows.push(Row { kind: RowKind::Input, status: None, ..base.clone() });
        let mut open_subagents: HashMap<&str, usize> = HashMap::default();
        for (ei, event) in record.turn.events.iter().enumerate() {
            let mut row = Row { kind: RowKind::Unrecognized, event: Some(ei), status: None, ..base.clone() };
            let key = (scope_index, ei);
            match &event.kind {
                EventKind::Message { role: Role::User } => row.kind = RowKind::UserMessage,
                EventKind::Message { role: Role::Assistant } => row.kind = RowKind::AssistantMessage,
                // Neither the user's nor the assistant's: shown as a misfit.
                EventKind::Message { role: Role::Other } => {}
                EventKind::ToolStarted { .. } => {
                    row.kind = RowKind::ToolStart;
                    if let Some(&oi) = start_of.get(&key) {
                        let occ = &derived.occurrences.occurrences[oi];
                        row.occurrence = Some(oi);
                        row.status = Some(lifecycle_status(&occ.lifecycle));
                        if let Some(f) = occ.finish_ref
                            && f.scope_turn == scope_index
                        {
                            row.merged_finish = Some(f.event);
                        }
                    }
                }
                EventKind::ToolFinished { status, .. } => {
                    row.kind = RowKind::ToolFinish;
                    if let Some(&oi) = finish_of.get(&key) {
                        row.occurrence = Some(oi);
                        row.status = Some(finish_status(status));
                        let occ = &derived.occurrences.occurrences[oi];
                        row.merged_away = occ.start_ref.scope_turn == scope_index;
                    } else if let Some(&orphan) = orphan_of.get(&key) {
                        row.orphan = Some(orphan);
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
                            timeline.rows[start_row].merged_finish = Some(ei);
                            row.merged_away = true;
                        }
                        None => row.status = Some(RowStatus::Orphan),
                    }
                }
                EventKind::SkillLoaded { .. } => row.kind = RowKind::Skill,
                EventKind::InputRequested => {
                    row.kind = RowKind::InputRequest;
                    if let Some(&ri) = request_of.get(&(addr, ei)) {
                        row.request = Some(ri);
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
