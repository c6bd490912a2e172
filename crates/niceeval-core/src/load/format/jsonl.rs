//! JSONL inputs, recognised from content (never from the file name):
//!
//! - one StreamEvent per line: an adapter's raw stream for one turn, which
//!   becomes one session with one turn whose `status` is not recorded;
//! - one Turn per line: one session;
//! - one capture entry per line `{input, turn, sessionId?, sessionIndex?, label?}`
//!   (what the adapter wrapper writes), grouped into sessions;
//! - a `niceeval exp --json` NDJSON stream (dispatched to [`super::exp`]);
//! - native agent CLI logs (a Claude Code session log or stream-json,
//!   `codex exec --json`), read as NiceEval's parsers read them
//!   ([`super::transcript`]).
//!
//! The kind is decided by the first lines ([`detect_kind`]). A bad line
//! becomes an Error notice naming the file and line; the good lines around
//! it still load. The lines themselves are read by `load::parse::lines`.

use super::transcript::Agent;
use crate::load::error::LoadError;
use crate::load::input::strip_bom;
use crate::load::input::{io_message, looks_binary};
use crate::load::parse::lazy::{self, LazyLoad};
use crate::load::parse::lines::{
    BLOCK, Blocks, ChunkParse, DETECT_AT_MOST, first_lines, is_json_object_line, parse_all, parse_raw_lines,
    single_line,
};
use crate::model::diagnostics::{InputLoss, LossKind};
use crate::model::document::{Attempt, Completeness, Document, Notice, NoticeLevel, Session, Turn, TurnRecord};
use crate::model::event::Event;
use crate::model::indices::{index_misfit, js_index};
use crate::model::notice::{JsonlNotice, NoticeKind};
use serde_json::Value;

/// The kind of a JSONL input, decided by its first valid lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Events,
    Turns,
    CaptureEntries,
    Exp,
    ClaudeCodeTranscript,
    CodexTranscript,
}

/// The ten StreamEvent `type`s, plus the old `action.*` vocabulary.
pub const STREAM_EVENT_TYPES: [&str; 11] = [
    "message",
    "operation.started",
    "operation.finished",
    "skill.loaded",
    "input.requested",
    "thinking",
    "context.injected",
    "compaction",
    "error",
    "action.called",
    "action.result",
];

pub fn is_capture_entry(v: &Value) -> bool {
    v.get("turn").is_some_and(Value::is_object) && v.get("type").is_none()
}

pub fn is_stream_event(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str).is_some_and(|t| STREAM_EVENT_TYPES.contains(&t))
}

fn transcript_kind(v: &Value) -> Option<Kind> {
    super::transcript::agent_of_line(v).map(|agent| match agent {
        Agent::ClaudeCode => Kind::ClaudeCodeTranscript,
        Agent::Codex => Kind::CodexTranscript,
    })
}

/// Decide the kind from the first valid lines. `None` when nothing fits.
pub fn detect_kind(values: &[(usize, Value)]) -> Option<Kind> {
    let first = &values.first()?.1;
    if super::exp::looks_like_first_line(first) {
        return Some(Kind::Exp);
    }
    if is_capture_entry(first) {
        return Some(Kind::CaptureEntries);
    }
    if super::capture::looks_like_turn(first) {
        return Some(Kind::Turns);
    }
    if is_stream_event(first) {
        return Some(Kind::Events);
    }
    if let Some(kind) = transcript_kind(first) {
        return Some(kind);
    }
    // A first event of an unknown type: still a StreamEvent stream when the
    // following lines are StreamEvents (unknown events are kept).
    if first.get("type").is_some_and(Value::is_string)
        && values.iter().take(20).skip(1).any(|(_, v)| is_stream_event(v))
    {
        return Some(Kind::Events);
    }
    // An agent log may start with a line of a shape both agents share (or
    // none reads): a later line that only one agent writes tells.
    values.iter().take(50).skip(1).find_map(|(_, v)| transcript_kind(v))
}

/// What a single line must hold to be read as a one-line JSONL stream.
pub fn is_one_line_stream(v: &Value) -> bool {
    is_stream_event(v) || is_capture_entry(v) || super::exp::looks_like_first_line(v) || transcript_kind(v).is_some()
}

/// True when the buffer is one JSON object per line: the first non-blank
/// line is a whole JSON object and another line follows, or a single line
/// holds a StreamEvent or a capture entry (a one-line stream).
pub fn looks_like_jsonl(bytes: &[u8]) -> bool {
    let lines = first_lines(bytes, 2);
    match lines.as_slice() {
        [a, _] => is_json_object_line(a),
        [a] => serde_json::from_slice::<Value>(a).is_ok_and(|v| is_one_line_stream(&v)),
        _ => false,
    }
}

/// Load a whole JSONL buffer.
pub fn load(path: &str, bytes: &[u8]) -> Result<Document, LoadError> {
    if let Some(agent) = native_log_in_head(bytes) {
        return Ok(super::transcript::load::document(path, agent, bytes));
    }
    from_parsed(path, parse_all(bytes), || Ok(std::borrow::Cow::Borrowed(bytes)))
}

/// [`agent_log_in_head`] of a whole buffer's first lines.
pub(crate) fn native_log_in_head(bytes: &[u8]) -> Option<Agent> {
    agent_log_in_head(&bytes[..bytes.len().min(DETECT_AT_MOST)])
}

/// The agent of a native log when its first lines tell, so that such a
/// log is parsed once, by the transcript reader, and not first as JSONL.
pub(crate) fn agent_log_in_head(head: &[u8]) -> Option<Agent> {
    let firsts: Vec<(usize, Value)> =
        first_lines(head, 50).into_iter().filter_map(|l| serde_json::from_slice(l).ok().map(|v| (0, v))).collect();
    match detect_kind(&firsts)? {
        Kind::ClaudeCodeTranscript => Some(Agent::ClaudeCode),
        Kind::CodexTranscript => Some(Agent::Codex),
        _ => None,
    }
}

/// Load a large file that is a JSONL stream, block by block (see
/// [`Blocks`]). `None` when the file does not start like a multi-line JSONL
/// stream: the caller loads it as one document.
pub fn load_file(path: &str, file: std::fs::File) -> Option<Result<Document, LoadError>> {
    // Read again through the same open file, never by its name (which may
    // not be the file's real name, or name another file by now).
    let again = file.try_clone();
    let reread = move || {
        use std::io::{Read, Seek};
        let mut file = again.map_err(|e| LoadError::new(path, io_message(&e)))?;
        let mut bytes = Vec::new();
        file.rewind().and_then(|()| file.read_to_end(&mut bytes)).map_err(|e| LoadError::new(path, io_message(&e)))?;
        Ok(bytes)
    };
    load_in_blocks(path, file, BLOCK, reread)
}

fn load_in_blocks(
    path: &str,
    file: impl std::io::Read,
    block_size: usize,
    reread: impl FnOnce() -> Result<Vec<u8>, LoadError>,
) -> Option<Result<Document, LoadError>> {
    let blocks = match Blocks::start(file, block_size) {
        Ok(blocks) => blocks,
        Err(e) => return Some(Err(LoadError::new(path, io_message(&e)))),
    };
    let head = blocks.head();
    if looks_binary(strip_bom(head)) || single_line(head) || !looks_like_jsonl(head) {
        return None;
    }
    if let Some(agent) = agent_log_in_head(head) {
        let source = |bytes: Vec<u8>| crate::model::event::Source::shared(std::sync::Arc::new(bytes));
        return Some(reread().map(|bytes| super::transcript::load::document_of(path, agent, source(bytes))));
    }
    let all = match blocks.parse_all() {
        Ok(all) => all,
        Err(e) => return Some(Err(LoadError::new(path, io_message(&e)))),
    };
    // Only an `exp --json` stream needs the text again (it is small).
    Some(from_parsed(path, all, || reread().map(std::borrow::Cow::Owned)))
}

/// Load a mapped JSONL stream of StreamEvents with raw events (see
/// [`parse_raw_lines`]). `None` when the first lines are not a StreamEvent
/// stream, or the raw events could not all be placed: the caller loads the
/// file as before.
pub fn load_lazy(
    path: &str,
    source: crate::model::event::Source,
    searched: &(dyn Fn(usize, usize) + Sync),
) -> Option<Result<Document, LoadError>> {
    let bytes = source.bytes();
    let head = &bytes[..bytes.len().min(DETECT_AT_MOST)];
    let firsts: Vec<(usize, Value)> =
        first_lines(head, 50).into_iter().filter_map(|l| serde_json::from_slice(l).ok().map(|v| (0, v))).collect();
    if detect_kind(&firsts) != Some(Kind::Events) {
        return None;
    }
    // Each line is one event: no paths to follow.
    let load = LazyLoad::new(source.clone(), &[]);
    let all = parse_raw_lines(bytes, &load, searched);
    let mut doc = match from_parsed_as(path, all, Some(Kind::Events), || Ok(std::borrow::Cow::Borrowed(bytes))) {
        Ok(doc) => doc,
        Err(e) => return Some(Err(e)),
    };
    lazy::attach(&mut doc, load).then_some(Ok(doc))
}

/// The document of parsed JSONL lines; `text` gives the whole input for the
/// formats that read it again.
fn from_parsed<'a>(
    path: &str,
    chunk: ChunkParse,
    text: impl FnOnce() -> Result<std::borrow::Cow<'a, [u8]>, LoadError>,
) -> Result<Document, LoadError> {
    from_parsed_as(path, chunk, None, text)
}

/// [`from_parsed`], with the kind when it was decided already (a lazy load's
/// lines hold placeholders, not the events the kind is read from).
fn from_parsed_as<'a>(
    path: &str,
    chunk: ChunkParse,
    known: Option<Kind>,
    text: impl FnOnce() -> Result<std::borrow::Cow<'a, [u8]>, LoadError>,
) -> Result<Document, LoadError> {
    if chunk.values.is_empty() {
        if let Some(e) = chunk.errors.first() {
            return Err(LoadError::at(
                path,
                e.line,
                e.column.unwrap_or(1),
                format!(
                    "no line of this JSONL file could be read ({} bad lines); first: {}",
                    chunk.errors.len(),
                    e.message()
                ),
            ));
        }
        return Err(LoadError::new(path, "the file is empty (expected JSON or JSONL)"));
    }
    let Some(kind) = known.or_else(|| detect_kind(&chunk.values)) else {
        let (line, shape) = match chunk.values.first() {
            Some((line, v)) => (*line, super::document::describe_shape(v)),
            None => (1, "nothing".to_string()),
        };
        return Err(LoadError::at(
            path,
            line,
            1,
            format!(
                "unrecognised JSONL line shape ({shape}); expected one StreamEvent, one Turn or one capture entry {{\"input\", \"turn\"}} per line (a native Claude Code or Codex log opens with --agent claude-code or --agent codex)"
            ),
        ));
    };
    let lost = |e: &super::super::parse::lines::LineError| {
        let line = NoticeKind::LineSkipped { path: path.to_string(), line: e.skipped() };
        Notice::new(NoticeLevel::Error, line)
    };
    let line_notices: Vec<Notice> = chunk.errors.iter().map(lost).collect();
    let losses: Vec<InputLoss> = chunk
        .errors
        .iter()
        .map(|e| InputLoss {
            kind: LossKind::LineSkipped,
            path: path.to_string(),
            line: e.line,
            column: e.column,
            message: e.message(),
            why: e.why.clone(),
        })
        .collect();
    let (format, attempts) = match kind {
        Kind::Exp => return super::exp::load(path, &text()?),
        Kind::Events => ("JSONL StreamEvents".to_string(), vec![from_event_lines(chunk.values)]),
        Kind::Turns => ("JSONL Turns".to_string(), vec![from_turn_lines(chunk.values)]),
        Kind::CaptureEntries => ("JSONL capture entries".to_string(), vec![from_capture_lines(chunk.values)]),
        Kind::ClaudeCodeTranscript => return Ok(super::transcript::load::document(path, Agent::ClaudeCode, &text()?)),
        Kind::CodexTranscript => return Ok(super::transcript::load::document(path, Agent::Codex, &text()?)),
    };
    let mut attempts = attempts;
    if !chunk.errors.is_empty()
        && let Some(a) = attempts.first_mut()
    {
        a.events = Some(Completeness::Partial(vec![format!(
            "{} line(s) could not be read and were skipped",
            chunk.errors.len()
        )]));
        let mut all = line_notices;
        all.append(&mut a.notices);
        a.notices = all;
    }
    let mut doc = super::document::document_from_attempts(path, format, attempts);
    doc.losses = losses;
    Ok(doc)
}

fn base_attempt() -> Attempt {
    Attempt { events_exact: true, events: Some(Completeness::Complete), ..Default::default() }
}

/// One StreamEvent per line: one session, one turn, status not recorded.
pub fn from_event_lines(values: Vec<(usize, Value)>) -> Attempt {
    let mut attempt = base_attempt();
    let mut turn = Turn::default();
    let mut old = 0usize;
    for (_, v) in values {
        let (v, mapped) = super::legacy::map_old_vocabulary(v);
        old += usize::from(mapped);
        turn.events.push(Event::from_value(v));
    }
    if old > 0 {
        attempt.notices.push(Notice::new(NoticeLevel::Info, NoticeKind::OldVocabulary { events: old }));
    }
    attempt.notices.push(Notice::new(NoticeLevel::Info, JsonlNotice::EventStreamRecordsNoTurn));
    attempt.sessions.push(Session {
        index: 1,
        turns: vec![TurnRecord { turn, ..Default::default() }],
        ..Default::default()
    });
    attempt
}

fn turn_with_problems(v: Value, line: usize, attempt: &mut Attempt) -> Turn {
    let (turn, problems) = Turn::from_owned(v);
    for problem in problems {
        let fault = crate::model::notice::TurnFault { place: crate::model::document::TurnPlace::Line(line), problem };
        attempt.notices.push(Notice::new(NoticeLevel::Warning, fault));
    }
    turn
}

/// One Turn per line: one session.
pub fn from_turn_lines(values: Vec<(usize, Value)>) -> Attempt {
    let mut attempt = base_attempt();
    let mut session = Session { index: 1, ..Default::default() };
    for (line, v) in values {
        let turn = turn_with_problems(v, line, &mut attempt);
        session.turns.push(TurnRecord { turn, ..Default::default() });
    }
    attempt.sessions.push(session);
    attempt
}

/// One capture entry per line, grouped into sessions by `sessionIndex` /
/// `sessionId` in first-appearance order (no key: session 1).
pub fn from_capture_lines(values: Vec<(usize, Value)>) -> Attempt {
    let mut attempt = base_attempt();
    for (line, mut v) in values {
        let index = v.get("sessionIndex").and_then(js_index);
        let id = v.get("sessionId").and_then(Value::as_str).map(str::to_string);
        if v.get("sessionIndex").is_some_and(|x| js_index(x).is_none()) {
            attempt.notices.push(Notice::new(NoticeLevel::Warning, JsonlNotice::SessionIndexIgnored { line }));
        }
        let pos = match (index, &id) {
            (Some(i), _) => attempt.sessions.iter().position(|s| s.index == i),
            (None, Some(id)) => attempt.sessions.iter().position(|s| s.id.as_deref() == Some(id)),
            (None, None) => attempt.sessions.iter().position(|s| s.index == 1),
        };
        let pos = match pos {
            Some(p) => p,
            None => {
                let next = attempt.sessions.iter().map(|s| s.index).max().map_or(1, |m| m + 1);
                let index = match (index, &id) {
                    (Some(i), _) => i,
                    (None, Some(_)) => next,
                    (None, None) => 1,
                };
                let index_misfit = v.get("sessionIndex").and_then(|w| index_misfit("sessionIndex", w, "ignored"));
                attempt.sessions.push(Session { index, id: id.clone(), turns: Vec::new(), index_misfit });
                attempt.sessions.len() - 1
            }
        };
        if let Some(s) = attempt.sessions.get_mut(pos)
            && s.id.is_none()
        {
            s.id = id;
        }
        let turn_value = v.get_mut("turn").map(Value::take).unwrap_or(Value::Null);
        let turn = turn_with_problems(turn_value, line, &mut attempt);
        let record = TurnRecord {
            label: v.get("label").and_then(Value::as_str).map(str::to_string),
            input: v.get_mut("input").map(Value::take),
            turn,
            ordinal: v.get("ordinal").and_then(js_index),
            ordinal_misfit: v.get("ordinal").and_then(|w| index_misfit("ordinal", w, super::capture::ORDINAL_UNREAD)),
            ..Default::default()
        };
        if let Some(s) = attempt.sessions.get_mut(pos) {
            s.turns.push(record);
        }
    }
    attempt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_by_block_loads_the_same_document_as_the_whole_buffer() {
        let inputs: [&[u8]; 5] = [
            b"\xef\xbb\xbf{\"type\":\"message\",\"role\":\"user\",\"text\":\"a\"}\r\n\n{\"type\":\"thinking\",\"text\":\"bb\"}\n{bad\n{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"last, no newline\"}",
            b"{\"type\":\"message\",\"role\":\"user\",\"text\":\"a line much longer than one block of seven bytes\"}\n{\"type\":\"error\",\"message\":\"x\"}\n",
            b"{\"input\":\"hi\",\"turn\":{\"events\":[],\"status\":\"completed\"}}\n{\"input\":\"again\",\"turn\":{\"events\":[],\"status\":\"waiting\"},\"sessionId\":\"s2\"}\n",
            b"{\"type\":\"thinking\",\"text\":\"ok\"}\n{\"type\":\"message\",\"role\":\"user\",\"text\":\"bad utf-8 \xff here\"}\n",
            b"{\"events\":[{\"type\":\"message\",\"role\":\"user\",\"text\":\"t\"}],\"status\":\"failed\"}\n{\"events\":[],\"status\":\"completed\"}\n\n\n",
        ];
        let summary = |d: &Document| {
            let events: Vec<(usize, usize, String)> = d.attempts[0]
                .sessions
                .iter()
                .enumerate()
                .flat_map(|(si, s)| {
                    s.turns
                        .iter()
                        .enumerate()
                        .flat_map(move |(ti, t)| t.turn.events.iter().map(move |e| (si, ti, e.raw().to_string())))
                })
                .collect();
            let notices: Vec<String> = d.notices.iter().map(crate::view::notice::words).collect();
            let attempt_notices: Vec<String> = d.attempts[0].notices.iter().map(crate::view::notice::words).collect();
            (d.format.clone(), events, notices, attempt_notices)
        };
        for (i, input) in inputs.iter().enumerate() {
            let whole = load("f.jsonl", input).unwrap();
            for block in [7, 16, 61, 4096] {
                let blocks =
                    load_in_blocks("f.jsonl", *input, block, || Ok(input.to_vec())).expect("a JSONL stream").unwrap();
                assert_eq!(summary(&blocks), summary(&whole), "input {i}, blocks of {block}");
            }
        }
    }

    #[test]
    fn a_one_line_document_is_not_read_block_by_block() {
        let none = || Ok(Vec::new());
        assert!(load_in_blocks("f.json", &b"{\"format\":\"x\",\n\"sessions\":[]}"[..], 7, none).is_none());
        assert!(load_in_blocks("f.json", &b"{\"sessions\":[]}\n"[..], 4096, none).is_none());
        // A first line that is not a JSON object: the whole-document loader decides.
        assert!(load_in_blocks("f.jsonl", &b"{\"text\":\"\xff\"}\n{\"type\":\"error\"}\n"[..], 7, none).is_none());
    }

    #[test]
    fn capture_entries_group_by_session_in_first_appearance_order() {
        let values = vec![
            (1, serde_json::json!({"input":{"text":"a"},"turn":{"events":[],"status":"completed"}})),
            (2, serde_json::json!({"sessionIndex":3,"turn":{"events":[],"status":"completed"}})),
            (3, serde_json::json!({"sessionIndex":1,"label":"turn2","turn":{"events":[],"status":"waiting"}})),
            (4, serde_json::json!({"sessionId":"x","turn":{"events":[],"status":"completed"}})),
            (5, serde_json::json!({"sessionId":"x","turn":{"events":[],"status":"completed"}})),
        ];
        let a = from_capture_lines(values);
        let shape: Vec<(u64, usize)> = a.sessions.iter().map(|s| (s.index, s.turns.len())).collect();
        assert_eq!(shape, vec![(1, 2), (3, 1), (4, 2)]);
        assert_eq!(a.sessions[2].id.as_deref(), Some("x"));
        assert_eq!(a.sessions[0].turns[1].label.as_deref(), Some("turn2"));
        assert_eq!(a.sessions[0].turns[0].input_text(), Some("a"));
    }
}
