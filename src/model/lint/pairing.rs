//! Session-scope rules: orphan finishes, ambiguous ids, kind mismatches,
//! calls left pending, skill loads whose tool call was not suppressed.
//! Tool pairing is read from the session-scope occurrence fold
//! (`DerivedAttempt.sessions`), exactly as NiceEval pairs (derivation §2.2).

use super::{Sink, pos, q};
use crate::model::derive::DerivedAttempt;
use crate::model::diagnostics::Location;
use crate::model::document::Session;
use crate::model::event::EventKind;
use crate::model::occurrence::{EventRef, Lifecycle};
use std::collections::{HashMap, HashSet};

type At = (usize, usize); // (turn index in session, event index)

/// For each tool operation id of an attempt: the one session whose
/// session-scope fold started it, or `None` when several sessions did.
pub type StartedIn<'a> = HashMap<&'a str, Option<usize>>;

/// [`StartedIn`] for an attempt, built once (not once per session).
pub fn started_in(derived: &DerivedAttempt) -> StartedIn<'_> {
    let mut out: StartedIn<'_> = HashMap::new();
    for (si, s) in derived.sessions.iter().enumerate() {
        for o in &s.occurrences.occurrences {
            out.entry(&*o.operation_id)
                .and_modify(|only| {
                    if *only != Some(si) {
                        *only = None;
                    }
                })
                .or_insert(Some(si));
        }
    }
    out
}

pub fn check_session(
    sink: &mut Sink,
    ai: usize,
    si: usize,
    session: &Session,
    derived: &DerivedAttempt,
    started: &StartedIn<'_>,
    statuses_recorded: bool,
) {
    let loc = |(ti, ei): At| Location { attempt: ai, session: si, turn: Some(ti), event: Some(ei) };
    // Map a fold EventRef (attempt scope index + event) to this session's (turn, event).
    let at_of = |r: EventRef| -> Option<At> {
        let t = derived.turns.get(r.scope_turn)?;
        (t.addr.session == si).then_some((t.addr.turn, r.event))
    };
    let skip = |ti: usize| session.turns.get(ti).is_none_or(|t| t.reconstructed);
    let name = session.scope_name();

    // Turn order within the session as NiceEval folds it (by turn ordinal, stable).
    let mut order: Vec<usize> = (0..session.turns.len()).collect();
    let ordinal = |ti: usize| {
        derived
            .turn(crate::model::derive::TurnAddr { session: si, turn: ti })
            .map(|t| t.turn_ordinal)
            .unwrap_or(ti as u64)
    };
    order.sort_by_key(|&ti| ordinal(ti));
    let last_status = order.last().and_then(|&ti| session.turns[ti].turn.status.as_deref());
    let last_turn = order.last().copied();

    // Own replay for what the tool fold ignores: kinds, subagents, skills.
    let mut open_tool: HashMap<&str, At> = HashMap::new();
    let mut open_sub: HashMap<&str, At> = HashMap::new();
    let mut tool_events: HashMap<&str, Vec<At>> = HashMap::new();
    let mut kind_mismatch: HashSet<At> = HashSet::new();
    let mut skills: Vec<(At, &str)> = Vec::new();
    for &ti in &order {
        for (ei, event) in session.turns[ti].turn.events.iter().enumerate() {
            let here = (ti, ei);
            match &event.kind {
                EventKind::ToolStarted { operation_id, .. } => {
                    open_tool.insert(operation_id, here);
                    tool_events.entry(operation_id).or_default().push(here);
                }
                EventKind::SubagentStarted { operation_id, .. } => {
                    open_sub.insert(operation_id, here);
                }
                EventKind::ToolFinished { operation_id, .. } => {
                    tool_events.entry(operation_id).or_default().push(here);
                    if open_tool.remove(&**operation_id).is_none()
                        && let Some(start) = open_sub.get(&**operation_id).copied()
                    {
                        kind_mismatch.insert(here);
                        if !skip(ti) {
                            sink.push(
                                "finish-kind-mismatch",
                                loc(here),
                                format!(
                                    "finish {} says kind \"tool\" but its start at {} is a subagent; NiceEval counts this finish as an orphan tool finish and the subagent stays pending",
                                    q(operation_id),
                                    pos(ordinal(start.0), start.1)
                                ),
                            );
                        }
                    }
                }
                EventKind::SubagentFinished { operation_id, .. } => {
                    if open_sub.remove(&**operation_id).is_some() {
                        continue;
                    }
                    if skip(ti) {
                        continue;
                    }
                    if let Some(start) = open_tool.get(&**operation_id).copied() {
                        kind_mismatch.insert(here);
                        sink.push(
                            "finish-kind-mismatch",
                            loc(here),
                            format!(
                                "finish {} says kind \"subagent\" but its start at {} is a tool; the tool call stays pending and noFailedActions() sees a separate subagent",
                                q(operation_id),
                                pos(ordinal(start.0), start.1)
                            ),
                        );
                    } else {
                        sink.push(
                            "orphan-subagent-finish",
                            loc(here),
                            format!(
                                "subagent finish {} has no open subagent start in {}; NiceEval records a placeholder subagent named \"unknown\"",
                                q(operation_id),
                                name
                            ),
                        );
                    }
                }
                EventKind::SkillLoaded { operation_id: Some(id), .. } => skills.push((here, id)),
                _ => {}
            }
        }
    }
    for (start, (ti, ei)) in open_sub.iter().map(|(id, at)| (*id, *at)) {
        if statuses_recorded && last_status != Some("waiting") && !skip(ti) {
            let end_n = last_turn.map(ordinal).unwrap_or(1);
            sink.push(
                "pending-at-turn-end",
                loc((ti, ei)),
                format!(
                    "subagent {} started at {} never finishes; {} ends with turn {end_n} {}",
                    q(start),
                    pos(ordinal(ti), ei),
                    name,
                    status_word(last_status)
                ),
            );
        }
    }

    // Tool pairing as NiceEval folds it.
    let Some(fold) = derived.sessions.get(si).map(|s| &s.occurrences) else { return };
    // A start with this id in another session's fold.
    let started_elsewhere = |id: &str| started.get(id).is_some_and(|only| *only != Some(si));
    // A start with this id in another session line of the same name (a duplicate sessionIndex).
    let same_name_started = |id: &str| {
        derived.sessions.iter().enumerate().any(|(other, s)| {
            other != si && s.name == name && s.occurrences.occurrences.iter().any(|o| &*o.operation_id == id)
        })
    };
    // Ambiguity: per id, ambiguous occurrences in start order. The first was
    // open when the second started; every later one started on a poisoned id.
    let mut ambiguous: Vec<(&str, At)> = Vec::new();
    for o in &fold.occurrences {
        if o.ambiguous
            && let Some(at) = at_of(o.start_ref)
        {
            ambiguous.push((&*o.operation_id, at));
        }
    }
    let mut first_of: HashMap<&str, At> = HashMap::new();
    let mut poisoned_at: HashMap<&str, At> = HashMap::new();
    for (id, at) in &ambiguous {
        match first_of.get(id).copied() {
            None => {
                first_of.insert(id, *at);
            }
            Some(first) => {
                let message = match poisoned_at.get(id) {
                    None => {
                        poisoned_at.insert(id, *at);
                        format!(
                            "operationId {} starts again while its start at {} is still open: both calls become ambiguous (opaque lifecycle), and {} is poisoned for the rest of {}: every later start is ambiguous and every later finish an orphan",
                            q(id),
                            pos(ordinal(first.0), first.1),
                            q(id),
                            name
                        )
                    }
                    Some(p) => format!(
                        "operationId {} is poisoned in {} since it was started twice at {} and {}: this start is ambiguous too",
                        q(id),
                        name,
                        pos(ordinal(first.0), first.1),
                        pos(ordinal(p.0), p.1)
                    ),
                };
                if !skip(at.0) {
                    sink.push("ambiguous-operation-id", loc(*at), message);
                }
            }
        }
    }
    for orphan in &fold.orphan_finishes {
        let Some(at) = at_of(orphan.event_ref) else { continue };
        if kind_mismatch.contains(&at) || skip(at.0) {
            continue;
        }
        let id = &*orphan.operation_id;
        let message = if orphan.ambiguous_id {
            let first = first_of.get(id).map(|f| pos(ordinal(f.0), f.1)).unwrap_or_else(|| "?".into());
            let again = poisoned_at.get(id).map(|f| pos(ordinal(f.0), f.1)).unwrap_or_else(|| "?".into());
            format!(
                "tool finish {} cannot be paired: the id is ambiguous in {} since it was started twice at {first} and {again}; NiceEval records an orphan finish",
                q(id),
                name
            )
        } else if let Some(later) =
            tool_events.get(id).and_then(|v| v.iter().find(|e| **e > at && is_start(session, **e)).copied())
        {
            format!(
                "tool finish {} comes before its start at {}: events must be in real order, so NiceEval records an orphan finish and a call that never finishes",
                q(id),
                pos(ordinal(later.0), later.1)
            )
        } else if tool_events.get(id).is_some_and(|v| v.iter().any(|e| *e < at && is_start(session, *e))) {
            format!(
                "tool finish {} has no open start in {}: its start was already finished; NiceEval records an orphan finish, so notCalledTool/usedNoTools/maxToolCalls become unavailable",
                q(id),
                name
            )
        } else if started_elsewhere(id) && same_name_started(id) {
            format!(
                "tool finish {} has no start in this session line, but a session line with the same sessionIndex started it: NiceEval pairs them at attempt scope as {}, and records an orphan finish at session scope",
                q(id),
                name
            )
        } else if started_elsewhere(id) {
            format!(
                "tool finish {} has no start in {} (a start with this id is in another session, and pairing never crosses sessions); NiceEval records an orphan finish",
                q(id),
                name
            )
        } else {
            format!(
                "tool finish {} has no start in {}; NiceEval records an orphan finish, so notCalledTool/usedNoTools/maxToolCalls become unavailable",
                q(id),
                name
            )
        };
        let hint = if orphan.ambiguous_id {
            let collision = poisoned_at.get(id).map(|f| pos(ordinal(f.0), f.1)).unwrap_or_else(|| "?".into());
            Some(format!(
                "fix the id collision at {collision} (give each concurrent call its own operationId); this finish then pairs"
            ))
        } else if session.turns.len() == 1 && at.0 == 0 {
            Some("if the start is in an earlier turn (HITL resume), check the whole session file, not this Turn alone; otherwise emit operation.started first".to_string())
        } else {
            None
        };
        sink.push_hint("orphan-finish", loc(at), message, hint);
    }
    // Calls left open: pending at session scope and the session does not end waiting.
    if statuses_recorded && last_status != Some("waiting") {
        let end = last_turn.map(|t| t + 1).unwrap_or(1);
        let end_n = last_turn.map(ordinal).unwrap_or(1);
        for o in &fold.occurrences {
            if o.lifecycle != Lifecycle::Pending {
                continue;
            }
            let Some(at) = at_of(o.start_ref) else { continue };
            if skip(at.0) {
                continue;
            }
            let later = if at.0 + 1 == end { String::new() } else { " and no later turn finishes it".to_string() };
            sink.push(
                "pending-at-turn-end",
                loc(at),
                format!(
                    "tool call {} ({}) is never finished{later}: {} ends with turn {end_n} {}, so NiceEval reports it pending with no output",
                    q(&o.operation_id),
                    q(&o.original_name),
                    name,
                    status_word(last_status)
                ),
            );
        }
    }
    // skill.loaded with an operationId: its tool start/finish must be suppressed.
    for (at, id) in skills {
        if skip(at.0) {
            continue;
        }
        if let Some(events) = tool_events.get(id) {
            let list: Vec<String> = events.iter().map(|e| pos(ordinal(e.0), e.1)).collect();
            sink.push(
                "skill-tool-not-suppressed",
                loc(at),
                format!(
                    "skill.loaded carries operationId {} but the tool call with that id is also emitted at {}: NiceEval counts it as a tool call too",
                    q(id),
                    list.join(", ")
                ),
            );
        }
    }
}

fn is_start(session: &Session, (ti, ei): At) -> bool {
    session
        .turns
        .get(ti)
        .and_then(|t| t.turn.events.get(ei))
        .is_some_and(|e| matches!(e.kind, EventKind::ToolStarted { .. }))
}

fn status_word(status: Option<&str>) -> String {
    match status {
        Some(s) => q(s),
        None => "(no status)".into(),
    }
}
