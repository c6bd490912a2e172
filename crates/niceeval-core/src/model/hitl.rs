//! Human-in-the-loop requests: every `input.requested`, whether it was
//! answered (from the next turn's `input.responses`), and the tool calls
//! that were left pending when it was asked.

use super::derive::{DerivedAttempt, TurnAddr};
use super::document::Attempt;
use super::event::EventKind;
use super::occurrence::Lifecycle;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Option { id: String, label: Option<String> },
    Text(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum HitlState {
    /// Last turn of its session, and that turn is `waiting`.
    Waiting,
    /// The next turn of the session answered it.
    Answered { answer: Answer, turn: TurnAddr },
    /// A next turn exists but its input has no response for this request.
    NeverAnswered { next: TurnAddr },
    /// Last turn of its session, but the turn did not end `waiting`.
    Unanswered { turn_status: Option<String> },
    /// The file keeps no answers (a Record stores no `TurnInput.responses`):
    /// whether and how it was answered is unknown, not "never". `next` is the
    /// turn of its session that followed it, where an answer would have gone.
    AnswerNotRecorded { next: Option<TurnAddr> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct HitlRequest {
    pub addr: TurnAddr,
    pub event: usize,
    pub id: Option<String>,
    pub action: Option<String>,
    pub prompt: Option<String>,
    pub display: Option<String>,
    pub options: Vec<(String, Option<String>)>,
    pub input: Option<Value>,
    pub state: HitlState,
    /// Root-scope occurrence indices of tools started in this turn before the
    /// request and not finished when it was asked: what it most likely gated.
    pub gated: Vec<usize>,
}

impl HitlRequest {
    /// Prompt, else display, else action: what the request asks.
    pub fn question(&self) -> Option<&str> {
        self.prompt.as_deref().or(self.display.as_deref()).or(self.action.as_deref())
    }

    /// The one gated call the request most likely asked about (a root-scope
    /// occurrence index from `gated`): the call whose operation id the
    /// request id names, else the call whose input equals the request's
    /// input, else the only gated call.
    pub fn primary_gated(&self, attempt: &Attempt, derived: &DerivedAttempt) -> Option<usize> {
        let occ = |i: usize| derived.occurrences.occurrences.get(i);
        if let Some(id) = self.id.as_deref().filter(|id| !id.is_empty())
            && let Some(&i) = self
                .gated
                .iter()
                .find(|&&i| occ(i).is_some_and(|o| !o.operation_id.is_empty() && id.contains(&*o.operation_id)))
        {
            return Some(i);
        }
        if let Some(input) = &self.input
            && let Some(&i) = self
                .gated
                .iter()
                .find(|&&i| occ(i).is_some_and(|o| o.input(&derived.events(attempt)).value().as_deref() == Some(input)))
        {
            return Some(i);
        }
        match self.gated.as_slice() {
            [only] => Some(*only),
            _ => None,
        }
    }
}

fn s(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

/// Root-scope occurrences started in scope-turn `scope_index` before its
/// event `asked_at` and not finished by then: pending when the request was
/// asked, whether they finished later in that turn (a Record keeps a resumed
/// call's finish in the turn that asked) or in a later turn, or never.
fn pending_when_asked(
    derived: &DerivedAttempt,
    started_in: &rustc_hash::FxHashMap<usize, Vec<usize>>,
    scope_index: Option<usize>,
    asked_at: usize,
) -> Vec<usize> {
    let Some(st) = scope_index else { return Vec::new() };
    let started = started_in.get(&st).map(Vec::as_slice).unwrap_or(&[]);
    started
        .iter()
        .copied()
        .filter(|&i| {
            let o = &derived.occurrences.occurrences[i];
            o.start_ref.event() < asked_at
                && match (&o.lifecycle, o.finish_ref) {
                    (Lifecycle::Pending, _) => true,
                    (Lifecycle::Finished { .. }, Some(f)) => f.scope_turn() != st || f.event() > asked_at,
                    _ => false,
                }
        })
        .collect()
}

/// Every `input.requested` of an attempt, in order.
pub fn hitl_requests(attempt: &Attempt, derived: &DerivedAttempt) -> Vec<HitlRequest> {
    let mut out = Vec::new();
    // Occurrences by the scope-turn they started in, so each request looks
    // only at its own turn; made at the first request (most runs have none,
    // and a long one has hundreds of thousands of occurrences).
    let mut started_in: Option<rustc_hash::FxHashMap<usize, Vec<usize>>> = None;
    let by_start_turn = || {
        let mut map: rustc_hash::FxHashMap<usize, Vec<usize>> = rustc_hash::FxHashMap::default();
        for (i, o) in derived.occurrences.occurrences.iter().enumerate() {
            map.entry(o.start_ref.scope_turn()).or_default().push(i);
        }
        map
    };
    for (si, session) in attempt.sessions.iter().enumerate() {
        for (ti, record) in session.turns.iter().enumerate() {
            let addr = TurnAddr { session: si, turn: ti };
            let scope_index = derived.scope_index(addr);
            for (ei, event) in record.turn.events.iter().enumerate() {
                if event.kind != EventKind::InputRequested {
                    continue;
                }
                // Requests are few: each is read whole.
                let request = event.request().map(|r| r.to_value().into_owned()).unwrap_or(Value::Null);
                let id = s(&request, "id");
                let options: Vec<(String, Option<String>)> = request
                    .get("options")
                    .and_then(Value::as_array)
                    .map(|opts| {
                        opts.iter().filter_map(|o| Some((o.get("id")?.as_str()?.to_string(), s(o, "label")))).collect()
                    })
                    .unwrap_or_default();
                let state = match session.turns.get(ti + 1) {
                    _ if attempt.answers_not_recorded => HitlState::AnswerNotRecorded {
                        next: session.turns.get(ti + 1).map(|_| TurnAddr { session: si, turn: ti + 1 }),
                    },
                    Some(next) => {
                        let next_addr = TurnAddr { session: si, turn: ti + 1 };
                        let response = next
                            .responses()
                            .iter()
                            .find(|r| id.is_some() && r.get("requestId").and_then(Value::as_str) == id.as_deref());
                        match response {
                            Some(r) => {
                                let answer = match (s(r, "optionId"), s(r, "text")) {
                                    (Some(oid), _) => {
                                        let label =
                                            options.iter().find(|(o, _)| *o == oid).and_then(|(_, l)| l.clone());
                                        Answer::Option { id: oid, label }
                                    }
                                    (None, Some(text)) => Answer::Text(text),
                                    (None, None) => Answer::Text(String::new()),
                                };
                                HitlState::Answered { answer, turn: next_addr }
                            }
                            None => HitlState::NeverAnswered { next: next_addr },
                        }
                    }
                    None if record.turn.is_waiting() => HitlState::Waiting,
                    None => HitlState::Unanswered { turn_status: record.turn.status.clone() },
                };
                let gated = pending_when_asked(derived, started_in.get_or_insert_with(by_start_turn), scope_index, ei);
                out.push(HitlRequest {
                    addr,
                    event: ei,
                    action: s(&request, "action"),
                    prompt: s(&request, "prompt"),
                    display: s(&request, "display"),
                    input: request.get("input").cloned(),
                    id,
                    options,
                    state,
                    gated,
                });
            }
        }
    }
    out
}
