//! Session-scope rules: orphan finishes, ambiguous ids, kind mismatches,
//! calls left pending, skill loads whose tool call was not suppressed.
//! Tool pairing is read from the session-scope occurrence fold
//! (`DerivedAttempt.sessions`), exactly as NiceEval pairs (derivation §2.2).

use super::{Sink, pos, q};
use crate::model::derive::DerivedAttempt;
use crate::model::derive::Occurrences;
use crate::model::diagnostics::Location;
use crate::model::document::Session;
use crate::model::event::EventKind;
use crate::model::occurrence::{EventRef, Lifecycle};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

type At = (usize, usize); // (turn index in session, event index)

/// For each tool operation id of an attempt: the one session whose
/// session-scope fold started it, or `None` when several sessions did.
pub type StartedIn<'a> = HashMap<&'a str, Option<usize>>;

/// [`StartedIn`] for an attempt, built once (not once per session), and
/// only for the ids of orphan finishes: nothing else asks, and a map of
/// every id cost as much as the occurrences.
pub fn started_in(derived: &DerivedAttempt) -> StartedIn<'_> {
    let mut out: StartedIn<'_> = HashMap::default();
    for si in 0..derived.sessions.len() {
        for orphan in derived.session_occurrences(si).orphan_finishes {
            out.insert(&*orphan.operation_id, None);
        }
    }
    if out.is_empty() {
        return out;
    }
    let mut seen: HashSet<&str> = HashSet::default();
    for si in 0..derived.sessions.len() {
        for o in derived.session_occurrences(si).occurrences {
            let Some(only) = out.get_mut(&*o.operation_id) else { continue };
            if seen.insert(&*o.operation_id) {
                *only = Some(si);
            } else if *only != Some(si) {
                *only = None;
            }
        }
    }
    out.retain(|id, _| seen.contains(id));
    out
}

/// One session line being checked: where its events are, in NiceEval's order.
struct Line<'a> {
    ai: usize,
    si: usize,
    session: &'a Session,
    derived: &'a DerivedAttempt,
    name: String,
    /// Turn indices in the order NiceEval folds them (by turn ordinal, stable).
    order: Vec<usize>,
}

impl<'a> Line<'a> {
    fn new(ai: usize, si: usize, session: &'a Session, derived: &'a DerivedAttempt) -> Self {
        let mut line = Line { ai, si, session, derived, name: session.scope_name(), order: Vec::new() };
        let mut order: Vec<usize> = (0..session.turns.len()).collect();
        order.sort_by_key(|&ti| line.ordinal(ti));
        line.order = order;
        line
    }

    fn loc(&self, (ti, ei): At) -> Location {
        Location::new(self.ai, self.si, Some(ti), Some(ei))
    }

    /// A fold EventRef (attempt-scope turn + event) as this session's (turn, event).
    fn at_of(&self, r: EventRef) -> Option<At> {
        let t = self.derived.turns.get(r.scope_turn())?;
        (t.addr.session == self.si).then_some((t.addr.turn, r.event()))
    }

    /// Reconstructed turns are not the adapter's: nothing is said about them.
    fn skip(&self, ti: usize) -> bool {
        self.session.turns.get(ti).is_none_or(|t| t.reconstructed)
    }

    fn ordinal(&self, ti: usize) -> u64 {
        self.derived
            .turn(crate::model::derive::TurnAddr { session: self.si, turn: ti })
            .map(|t| t.turn_ordinal)
            .unwrap_or(ti as u64)
    }

    fn pos(&self, (ti, ei): At) -> String {
        pos(self.ordinal(ti), ei)
    }

    fn last_turn(&self) -> Option<usize> {
        self.order.last().copied()
    }

    fn last_status(&self) -> Option<&'a str> {
        self.last_turn().and_then(|ti| self.session.turns[ti].turn.status.as_deref())
    }
}

/// What the own replay finds that the tool fold ignores: kinds, subagents, skills.
#[derive(Default)]
struct Replay<'a> {
    open_tool: HashMap<&'a str, At>,
    open_sub: HashMap<&'a str, At>,
    /// Every tool start and finish of the ids asked about (orphan finishes,
    /// skill loads), filled by [`tool_events`] after the replay: a list for
    /// every id of a long session cost more than the rest of the lint.
    tool_events: HashMap<&'a str, Vec<At>>,
    kind_mismatch: HashSet<At>,
    skills: Vec<(At, &'a str)>,
}

/// Ids started twice while open: the first start and the one that poisoned the id.
#[derive(Default)]
struct Ambiguity<'a> {
    first_of: HashMap<&'a str, At>,
    poisoned_at: HashMap<&'a str, At>,
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
    let line = Line::new(ai, si, session, derived);
    let mut replay = replay(sink, &line);
    let mut asked: HashSet<&str> = replay.skills.iter().map(|(_, id)| *id).collect();
    if si < derived.sessions.len() {
        asked.extend(derived.session_occurrences(si).orphan_finishes.iter().map(|o| &*o.operation_id));
    }
    tool_events(&line, &asked, &mut replay.tool_events);
    if statuses_recorded && line.last_status() != Some("waiting") {
        pending_subagents(sink, &line, &replay);
    }
    // Tool pairing as NiceEval folds it.
    if si >= derived.sessions.len() {
        return;
    }
    let fold = derived.session_occurrences(si);
    let ambiguity = ambiguous_ids(sink, &line, fold);
    orphan_finishes(sink, &line, fold, &replay, &ambiguity, started);
    if statuses_recorded && line.last_status() != Some("waiting") {
        pending_tools(sink, &line, fold);
    }
    unsuppressed_skills(sink, &line, &replay);
}

/// Replays starts and finishes by kind; says where a finish's kind is not its start's.
fn replay<'a>(sink: &mut Sink, line: &Line<'a>) -> Replay<'a> {
    let mut r = Replay::default();
    for &ti in &line.order {
        for (ei, event) in line.session.turns[ti].turn.events.iter().enumerate() {
            let here = (ti, ei);
            match &event.kind {
                EventKind::ToolStarted { operation_id, .. } => {
                    r.open_tool.insert(operation_id, here);
                }
                EventKind::SubagentStarted { operation_id, .. } => {
                    r.open_sub.insert(operation_id, here);
                }
                EventKind::ToolFinished { operation_id, .. } => {
                    if r.open_tool.remove(&**operation_id).is_none()
                        && let Some(start) = r.open_sub.get(&**operation_id).copied()
                    {
                        r.kind_mismatch.insert(here);
                        if !line.skip(ti) {
                            sink.push(
                                "finish-kind-mismatch",
                                line.loc(here),
                                format!(
                                    "finish {} says kind \"tool\" but its start at {} is a subagent; NiceEval counts this finish as an orphan tool finish and the subagent stays pending",
                                    q(operation_id),
                                    line.pos(start)
                                ),
                            );
                        }
                    }
                }
                EventKind::SubagentFinished { operation_id, .. } => {
                    if r.open_sub.remove(&**operation_id).is_some() || line.skip(ti) {
                        continue;
                    }
                    if let Some(start) = r.open_tool.get(&**operation_id).copied() {
                        r.kind_mismatch.insert(here);
                        sink.push(
                            "finish-kind-mismatch",
                            line.loc(here),
                            format!(
                                "finish {} says kind \"subagent\" but its start at {} is a tool; the tool call stays pending and noFailedActions() sees a separate subagent",
                                q(operation_id),
                                line.pos(start)
                            ),
                        );
                    } else {
                        sink.push(
                            "orphan-subagent-finish",
                            line.loc(here),
                            format!(
                                "subagent finish {} has no open subagent start in {}; NiceEval records a placeholder subagent named \"unknown\"",
                                q(operation_id),
                                line.name
                            ),
                        );
                    }
                }
                EventKind::SkillLoaded { operation_id: Some(id), .. } => r.skills.push((here, id)),
                _ => {}
            }
        }
    }
    r
}

/// The tool starts and finishes of the ids in `asked`, in fold order.
fn tool_events<'a>(line: &Line<'a>, asked: &HashSet<&str>, out: &mut HashMap<&'a str, Vec<At>>) {
    if asked.is_empty() {
        return;
    }
    for &ti in &line.order {
        for (ei, event) in line.session.turns[ti].turn.events.iter().enumerate() {
            if let EventKind::ToolStarted { operation_id, .. } | EventKind::ToolFinished { operation_id, .. } =
                &event.kind
                && asked.contains(&**operation_id)
            {
                out.entry(operation_id).or_default().push((ti, ei));
            }
        }
    }
}

/// Subagents still open when the session ends (not waiting).
fn pending_subagents(sink: &mut Sink, line: &Line<'_>, replay: &Replay<'_>) {
    for (start, (ti, ei)) in replay.open_sub.iter().map(|(id, at)| (*id, *at)) {
        if line.skip(ti) {
            continue;
        }
        let end_n = line.last_turn().map(|t| line.ordinal(t)).unwrap_or(1);
        sink.push(
            "pending-at-turn-end",
            line.loc((ti, ei)),
            format!(
                "subagent {} started at {} never finishes; {} ends with turn {end_n} {}",
                q(start),
                line.pos((ti, ei)),
                line.name,
                status_word(line.last_status())
            ),
        );
    }
}

/// Per id, ambiguous occurrences in start order: the first was open when the
/// second started; every later one started on a poisoned id.
fn ambiguous_ids<'a>(sink: &mut Sink, line: &Line<'_>, fold: Occurrences<'a>) -> Ambiguity<'a> {
    let mut a = Ambiguity::default();
    let ambiguous = fold
        .occurrences
        .iter()
        .filter(|o| o.ambiguous)
        .filter_map(|o| Some((&*o.operation_id, line.at_of(o.start_ref)?)));
    for (id, at) in ambiguous {
        let Some(first) = a.first_of.get(id).copied() else {
            a.first_of.insert(id, at);
            continue;
        };
        let message = match a.poisoned_at.get(id) {
            None => {
                a.poisoned_at.insert(id, at);
                format!(
                    "operationId {} starts again while its start at {} is still open: both calls become ambiguous (opaque lifecycle), and {} is poisoned for the rest of {}: every later start is ambiguous and every later finish an orphan",
                    q(id),
                    line.pos(first),
                    q(id),
                    line.name
                )
            }
            Some(p) => format!(
                "operationId {} is poisoned in {} since it was started twice at {} and {}: this start is ambiguous too",
                q(id),
                line.name,
                line.pos(first),
                line.pos(*p)
            ),
        };
        if !line.skip(at.0) {
            sink.push("ambiguous-operation-id", line.loc(at), message);
        }
    }
    a
}

/// Finishes the fold could not pair, each with why.
fn orphan_finishes(
    sink: &mut Sink,
    line: &Line<'_>,
    fold: Occurrences<'_>,
    replay: &Replay<'_>,
    ambiguity: &Ambiguity<'_>,
    started: &StartedIn<'_>,
) {
    let name = &line.name;
    // A start with this id in another session's fold.
    let started_elsewhere = |id: &str| started.get(id).is_some_and(|only| *only != Some(line.si));
    // A start with this id in another session line of the same name (a duplicate sessionIndex).
    let same_name_started = |id: &str| {
        line.derived.sessions.iter().enumerate().any(|(other, s)| {
            other != line.si
                && s.name == *name
                && line.derived.session_occurrences(other).occurrences.iter().any(|o| &*o.operation_id == id)
        })
    };
    let at_text = |m: &HashMap<&str, At>, id: &str| m.get(id).map(|f| line.pos(*f)).unwrap_or_else(|| "?".into());
    for orphan in fold.orphan_finishes {
        let Some(at) = line.at_of(orphan.event_ref) else { continue };
        if replay.kind_mismatch.contains(&at) || line.skip(at.0) {
            continue;
        }
        let id = &*orphan.operation_id;
        let events = replay.tool_events.get(id);
        let message = if orphan.ambiguous_id {
            format!(
                "tool finish {} cannot be paired: the id is ambiguous in {name} since it was started twice at {} and {}; NiceEval records an orphan finish",
                q(id),
                at_text(&ambiguity.first_of, id),
                at_text(&ambiguity.poisoned_at, id)
            )
        } else if let Some(later) =
            events.and_then(|v| v.iter().find(|e| **e > at && is_start(line.session, **e)).copied())
        {
            format!(
                "tool finish {} comes before its start at {}: events must be in real order, so NiceEval records an orphan finish and a call that never finishes",
                q(id),
                line.pos(later)
            )
        } else if events.is_some_and(|v| v.iter().any(|e| *e < at && is_start(line.session, *e))) {
            format!(
                "tool finish {} has no open start in {name}: its start was already finished; NiceEval records an orphan finish, so notCalledTool/usedNoTools/maxToolCalls become unavailable",
                q(id)
            )
        } else if started_elsewhere(id) && same_name_started(id) {
            format!(
                "tool finish {} has no start in this session line, but a session line with the same sessionIndex started it: NiceEval pairs them at attempt scope as {name}, and records an orphan finish at session scope",
                q(id)
            )
        } else if started_elsewhere(id) {
            format!(
                "tool finish {} has no start in {name} (a start with this id is in another session, and pairing never crosses sessions); NiceEval records an orphan finish",
                q(id)
            )
        } else {
            format!(
                "tool finish {} has no start in {name}; NiceEval records an orphan finish, so notCalledTool/usedNoTools/maxToolCalls become unavailable",
                q(id)
            )
        };
        let hint = if orphan.ambiguous_id {
            Some(format!(
                "fix the id collision at {} (give each concurrent call its own operationId); this finish then pairs",
                at_text(&ambiguity.poisoned_at, id)
            ))
        } else if line.session.turns.len() == 1 && at.0 == 0 {
            Some("if the start is in an earlier turn (HITL resume), check the whole session file, not this Turn alone; otherwise emit operation.started first".to_string())
        } else {
            None
        };
        sink.push_hint("orphan-finish", line.loc(at), message, hint);
    }
}

/// Calls left open: pending at session scope and the session does not end waiting.
fn pending_tools(sink: &mut Sink, line: &Line<'_>, fold: Occurrences<'_>) {
    let end = line.last_turn().map(|t| t + 1).unwrap_or(1);
    let end_n = line.last_turn().map(|t| line.ordinal(t)).unwrap_or(1);
    for o in fold.occurrences {
        if o.lifecycle != Lifecycle::Pending {
            continue;
        }
        let Some(at) = line.at_of(o.start_ref) else { continue };
        if line.skip(at.0) {
            continue;
        }
        let later = if at.0 + 1 == end { String::new() } else { " and no later turn finishes it".to_string() };
        sink.push(
            "pending-at-turn-end",
            line.loc(at),
            format!(
                "tool call {} ({}) is never finished{later}: {} ends with turn {end_n} {}, so NiceEval reports it pending with no output",
                q(&o.operation_id),
                q(&o.original_name),
                line.name,
                status_word(line.last_status())
            ),
        );
    }
}

/// skill.loaded with an operationId: its tool start/finish must be suppressed.
fn unsuppressed_skills(sink: &mut Sink, line: &Line<'_>, replay: &Replay<'_>) {
    for &(at, id) in &replay.skills {
        if line.skip(at.0) {
            continue;
        }
        if let Some(events) = replay.tool_events.get(id) {
            let list: Vec<String> = events.iter().map(|e| line.pos(*e)).collect();
            sink.push(
                "skill-tool-not-suppressed",
                line.loc(at),
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
