//! The viewer's own session file, `niceeval-viewer.session/1`, and the
//! shapes it accepts: a capture `{sessions: [{turns: [{turn}]}]}`, a bare
//! Turn, and an array of Turns (one session).

use crate::load::error::LoadError;
use crate::model::document::{Attempt, Completeness, Notice, NoticeLevel, Session, Turn, TurnPlace, TurnRecord};
use crate::model::indices::{index_misfit, js_index};
use crate::model::notice::{CaptureNotice, TurnFault};
use serde_json::Value;

pub const FORMAT_NAME: &str = "niceeval-viewer.session/1";

/// What happens to an `ordinal` that is no turn ordinal at all.
pub const ORDINAL_UNREAD: &str =
    "NiceEval throws (turnOrdinal must be a non-negative safe integer); the viewer numbers the turn by its place";

fn warn(attempt: &mut Attempt, fact: CaptureNotice) {
    attempt.notices.push(Notice::new(NoticeLevel::Warning, fact));
}

/// The Turn of `value`, its problems noted at `place`.
fn turn_from(value: Value, attempt: &mut Attempt, place: TurnPlace) -> Turn {
    let (read, problems) = Turn::from_owned(value);
    for problem in problems {
        attempt.notices.push(Notice::new(NoticeLevel::Warning, TurnFault { place: place.clone(), problem }));
    }
    read
}

/// A capture: `{model?, evalId?, sessions: [{sessionIndex?, sessionId?, turns: [{label?, input?, turn, ordinal?}]}]}`.
pub fn from_capture(path: &str, mut root: Value) -> Result<Attempt, LoadError> {
    let mut attempt = Attempt { events_exact: true, events: Some(Completeness::Complete), ..Default::default() };
    attempt.eval_id = root.get("evalId").and_then(Value::as_str).map(str::to_string);
    attempt.model = root.get("model").and_then(Value::as_str).map(str::to_string);
    let Some(Value::Array(sessions)) = root.get_mut("sessions").map(Value::take) else {
        return Err(LoadError::new(path, "a session file needs a `sessions` array"));
    };
    let mut calls = Vec::new();
    for (si, mut s) in sessions.into_iter().enumerate() {
        let written = s.get("sessionIndex");
        let index = written.and_then(js_index).unwrap_or(si as u64 + 1);
        let mut session = Session {
            index,
            id: s.get("sessionId").and_then(Value::as_str).map(str::to_string),
            turns: Vec::new(),
            index_misfit: written.and_then(|v| {
                index_misfit("sessionIndex", v, &format!("the viewer names the session by its place, session-{index}"))
            }),
        };
        let turns = match s.get_mut("turns").map(Value::take) {
            Some(Value::Array(t)) => t,
            _ if !s.is_object() => {
                let found = crate::model::event::json_type(&s);
                warn(&mut attempt, CaptureNotice::SessionNotAnObject { session: si, found });
                Vec::new()
            }
            _ => {
                warn(&mut attempt, CaptureNotice::NoTurnsArray { session: si });
                Vec::new()
            }
        };
        for (ti, mut t) in turns.into_iter().enumerate() {
            if let Some(raw) = t.get_mut("raw").map(Value::take) {
                calls.push((crate::model::derive::TurnAddr { session: attempt.sessions.len(), turn: ti }, raw));
            }
            let (turn_value, entry) = match t.get_mut("turn").map(Value::take) {
                Some(turn) => (turn, t),
                // A bare Turn in place of an entry.
                None if t.get("events").is_some() => (t, Value::Null),
                None => {
                    warn(&mut attempt, CaptureNotice::EntryWithoutTurn { session: si, turn: ti });
                    (Value::Null, t)
                }
            };
            let input = entry.get("input").cloned().or_else(|| {
                entry
                    .get("recordedUserMessage")
                    .and_then(|m| m.get("text"))
                    .map(|text| serde_json::json!({ "text": text }))
            });
            let turn = if turn_value.is_null() {
                Turn::default()
            } else {
                turn_from(turn_value, &mut attempt, TurnPlace::Entry { session: si, turn: ti })
            };
            session.turns.push(TurnRecord {
                label: entry.get("label").and_then(Value::as_str).map(str::to_string),
                input,
                turn,
                ordinal: entry.get("ordinal").and_then(js_index),
                ordinal_misfit: entry.get("ordinal").and_then(|v| index_misfit("ordinal", v, ORDINAL_UNREAD)),
                ..Default::default()
            });
        }
        attempt.sessions.push(session);
    }
    super::capture_provenance::attach(&mut attempt, &calls);
    Ok(attempt)
}

/// One session made of Turns (a bare Turn is a list of one).
pub fn from_turns(turns: Vec<Value>) -> Attempt {
    let mut attempt = Attempt { events_exact: true, events: Some(Completeness::Complete), ..Default::default() };
    let mut session = Session { index: 1, ..Default::default() };
    for (i, t) in turns.into_iter().enumerate() {
        let turn = turn_from(t, &mut attempt, TurnPlace::Listed(i));
        session.turns.push(TurnRecord { turn, ..Default::default() });
    }
    attempt.sessions.push(session);
    attempt
}

/// Shape tests used by detection.
pub fn looks_like_capture(v: &Value) -> bool {
    let Some(sessions) = v.get("sessions").and_then(Value::as_array) else { return false };
    // A file that names the format is one, whatever its sessions hold (each
    // bad one is then reported at its place); without it, the shape decides.
    v.get("format").and_then(Value::as_str) == Some(FORMAT_NAME) || sessions.iter().all(|x| x.get("turns").is_some())
}

pub fn looks_like_turn(v: &Value) -> bool {
    v.get("events").is_some_and(Value::is_array) && v.get("type").is_none()
}
