//! A native agent log as a document: one attempt, one session, one turn
//! whose events and usage are exactly what NiceEval's parser makes of the
//! log, and notices for every line it read nothing from.

use super::truth::Truth;
use super::{Agent, Parsed, SkipReason, Skipped};
use crate::model::diagnostics::{InputLoss, LogFact, LossKind};
use crate::model::document::{Attempt, Completeness, Document, Notice, NoticeLevel, Session, Turn, TurnRecord};
use crate::model::notice::TranscriptNotice;
use serde_json::{Map, Value};

/// A log read once: NiceEval's parse, and beside it what the parse does
/// not keep (the facts beyond it, a failed Codex turn, whether any line
/// was there at all).
pub struct Reading {
    pub agent: Agent,
    pub parsed: Parsed,
    pub facts: Vec<LogFact>,
    /// Every line's timestamp (line, epoch ms), lines in order.
    pub times: Vec<(usize, i128)>,
    /// The model the log names first.
    pub model: Option<String>,
    /// Each JSON line's kind word, for the provenance.
    pub kinds: super::provenance::LineKinds,
    turn_failed: bool,
    lines: usize,
}

/// Read a log `agent` wrote: every line parsed once, seen by the parser and the watchers, and dropped.
pub fn read(agent: Agent, text: &str) -> Reading {
    let mut truth = Truth::new(agent);
    let (mut turn_failed, mut lines) = (false, 0usize);
    let mut kinds = super::provenance::LineKinds::default();
    let parsed = super::parse_observed(agent, text, &mut |line, v| {
        truth.see(line, v);
        kinds.see(line, v);
        turn_failed |= agent == Agent::Codex && is_failed_turn(v);
        lines += 1;
    });
    let lines = lines + parsed.skipped.iter().filter(|s| matches!(s.reason, SkipReason::NotJson(_))).count();
    let (times, model) = (truth.times().to_vec(), truth.model().map(str::to_string));
    Reading { agent, facts: truth.finish(&parsed), times, model, parsed, kinds, turn_failed, lines }
}

/// A `turn.failed` line, or a `turn.completed` whose `turn.status` is `failed`.
fn is_failed_turn(v: &Value) -> bool {
    match v.get("type").and_then(Value::as_str) {
        Some("turn.failed") => true,
        Some("turn.completed") => v.get("turn").and_then(|t| t.get("status")).and_then(Value::as_str) == Some("failed"),
        _ => false,
    }
}

impl Reading {
    /// The Turn NiceEval's adapter would make of the parse: `{events,
    /// status, usage, evidenceCoverage?}`, status and coverage as
    /// `claude-code-native.ts` and `codex-app-server.ts` set them. Claude
    /// Code's adapter always says `completed` (`waiting` only for a live
    /// question, which a log cannot hold); Codex's says `failed` when its
    /// turn failed. The events are taken out of the parse.
    pub fn take_turn(&mut self) -> Value {
        let mut o = Map::new();
        o.insert("events".into(), Value::Array(std::mem::take(&mut self.parsed.events)));
        o.insert("status".into(), if self.turn_failed { "failed" } else { "completed" }.into());
        o.insert("usage".into(), Value::Object(self.parsed.usage.clone()));
        if let Some(coverage) = self.coverage() {
            o.insert("evidenceCoverage".into(), coverage);
        }
        Value::Object(o)
    }

    /// The adapters' `evidenceCoverage`: unavailable with no log, partial
    /// when a line could not be parsed, else none (every tool start the
    /// parsers emit carries a command projection: nothing is unclassified).
    fn coverage(&self) -> Option<Value> {
        let (what, frames) = match self.agent {
            Agent::ClaudeCode => ("Claude Code stream-json output", "Claude Code stream-json frames"),
            Agent::Codex => ("Codex app-server protocol output", "Codex app-server protocol frames"),
        };
        let entry = |status: &str, reason: &str| serde_json::json!({"status": status, "reason": reason});
        if self.lines == 0 {
            let e = entry("unavailable", &format!("{what} was unavailable; tool trajectory was not observed."));
            return Some(serde_json::json!({"events": e, "actions": e, "usage": e}));
        }
        if !self.parsed.parse_success {
            let e = entry("partial", &format!("Some {frames} could not be parsed."));
            return Some(serde_json::json!({"events": e, "actions": e}));
        }
        None
    }
}

/// `convert --json`: the parse as NiceEval returns it, with its format and agent.
pub fn converted_value(agent: Agent, parsed: &Parsed) -> Value {
    let mut o = Map::new();
    o.insert("format".into(), "niceeval-viewer.transcript/1".into());
    o.insert("agent".into(), agent.name().into());
    if let Value::Object(p) = parsed.to_value() {
        o.extend(p);
    }
    Value::Object(o)
}

/// The text of a log's bytes, as Node reads a UTF-8 file (invalid bytes
/// become U+FFFD), and where bytes were replaced (1-based line, byte column).
pub fn text_of(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, Vec<(usize, usize)>) {
    let mut places = Vec::new();
    let (mut line, mut line_start, mut at) = (1usize, 0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        for (i, b) in chunk.valid().bytes().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = at + i + 1;
            }
        }
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            places.push((line, at - line_start + 1));
            at += chunk.invalid().len();
        }
    }
    (String::from_utf8_lossy(bytes), places)
}

/// How many replaced places are listed as input losses (the count covers them all).
const REPLACED_LISTED: usize = 100;

/// Words for a reason a line gave nothing, for its input loss (a notice
/// keeps the reason; `view::notice` words it the same).
pub(crate) fn reason_text(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotJson(e) => format!("not JSON ({e}); NiceEval's parser skips it and reports parseSuccess false"),
        SkipReason::Throws => {
            "NiceEval's parser fails on this line (a value it cannot make a string) and skips it; parseSuccess false"
                .into()
        }
        SkipReason::Metadata => "session metadata or lifecycle, which NiceEval's parser does not read".into(),
        SkipReason::Incomplete => "an intermediate item state; the completed item is what counts".into(),
        SkipReason::Delta => "streaming text fragments; the whole text comes on another line".into(),
        SkipReason::Unmapped(t) => format!("type {t:?}, which NiceEval's parser does not map"),
        SkipReason::NoText => "a message or reasoning line with no text".into(),
        SkipReason::SkillResult => "the result of a Skill tool use, already shown as skill.loaded".into(),
        SkipReason::NoShape => "no type NiceEval's parser reads".into(),
    }
}

/// Notices and losses for the skipped lines: one each for a lost line,
/// one per reason for lines that are ignored by design.
fn skip_notices(path: &str, skipped: &[Skipped]) -> (Vec<Notice>, Vec<InputLoss>) {
    let mut notices = Vec::new();
    let mut losses = Vec::new();
    let mut ignored: Vec<(&SkipReason, Vec<usize>)> = Vec::new();
    for s in skipped {
        if s.reason.is_loss() {
            let text = reason_text(&s.reason);
            let lost = TranscriptNotice::LineLost { path: path.to_string(), line: s.line, reason: s.reason.clone() };
            notices.push(Notice::new(NoticeLevel::Error, lost));
            losses.push(InputLoss {
                kind: LossKind::LineSkipped,
                path: path.to_string(),
                line: s.line,
                column: None,
                why: text.clone(),
                message: text,
            });
        } else {
            match ignored.iter_mut().find(|(reason, _)| **reason == s.reason) {
                Some((_, lines)) => lines.push(s.line),
                None => ignored.push((&s.reason, vec![s.line])),
            }
        }
    }
    for (reason, lines) in ignored {
        let ignored = TranscriptNotice::LinesIgnored { path: path.to_string(), lines, reason: reason.clone() };
        notices.push(Notice::new(NoticeLevel::Info, ignored));
    }
    (notices, losses)
}

/// The document of a log `agent` wrote (its bytes copied, for the provenance).
pub fn document(path: &str, agent: Agent, bytes: &[u8]) -> Document {
    document_of(path, agent, crate::model::event::Source::shared(std::sync::Arc::new(bytes.to_vec())))
}

/// The document of a log `agent` wrote, whose bytes `source` keeps (a
/// mapping: the provenance points into it).
pub fn document_of(path: &str, agent: Agent, source: crate::model::event::Source) -> Document {
    let kept = source.clone();
    let (text, replaced) = text_of(kept.bytes());
    let mut reading = read(agent, &text);
    let (turn, problems) = Turn::from_owned(reading.take_turn());
    let Reading { parsed, facts, times, model, lines: line_count, kinds, .. } = reading;
    // Ranges are into the text the parser read: the file's bytes when they
    // are UTF-8, else the repaired text, kept instead.
    // (Moved, not copied: the text is not needed past this.)
    let repaired = matches!(text, std::borrow::Cow::Owned(_));
    let lines_source = match text {
        std::borrow::Cow::Borrowed(_) => source,
        std::borrow::Cow::Owned(t) => crate::model::event::Source::shared(std::sync::Arc::new(t.into_bytes())),
    };
    let provenance = super::provenance::of_source(
        agent.name(),
        repaired,
        lines_source,
        &kinds,
        &parsed.event_lines,
        &parsed.skipped,
    );
    let mut attempt = Attempt {
        events_exact: true,
        events: Some(Completeness::Complete),
        agent: Some(agent.name().to_string()),
        model,
        ..Default::default()
    };
    let read = TranscriptNotice::Read {
        path: path.to_string(),
        agent,
        events: turn.events.len(),
        lines: line_count,
        gave_nothing: parsed.skipped.len(),
    };
    attempt.notices.push(Notice::new(NoticeLevel::Info, read));
    if !replaced.is_empty() {
        let invalid = TranscriptNotice::InvalidUtf8 { path: path.to_string(), sequences: replaced.len() };
        attempt.notices.push(Notice::new(NoticeLevel::Warning, invalid));
    }
    for problem in problems {
        let place = crate::model::document::TurnPlace::File(path.to_string());
        attempt.notices.push(Notice::new(NoticeLevel::Warning, crate::model::notice::TurnFault { place, problem }));
    }
    let (notices, losses) = skip_notices(path, &parsed.skipped);
    let lost = losses.len();
    attempt.notices.extend(notices);
    if lost > 0 {
        attempt.events = Some(Completeness::Partial(vec![format!(
            "{lost} line(s) could not be read and were skipped (NiceEval's parseSuccess is false)"
        )]));
    }
    attempt.log_facts = facts;
    attempt.review.timing = super::timing::of(&turn.events, &parsed.event_lines, &times);
    attempt.provenance = Some(std::sync::Arc::new(provenance));
    attempt.sessions.push(Session {
        index: 1,
        // The one turn lasts the log: its first to its last timestamp.
        turns: vec![TurnRecord { turn, duration_ms: attempt.review.timing.span_ms(), ..Default::default() }],
        ..Default::default()
    });
    let format = format!("{} ({})", agent.log_name(), agent.parser());
    let mut doc = super::super::document::document_from_attempts(path, format, vec![attempt]);
    doc.losses = replaced
        .iter()
        .take(REPLACED_LISTED)
        .map(|&(line, column)| InputLoss {
            kind: LossKind::TextReplaced,
            path: path.to_string(),
            line,
            column: Some(column),
            message: "invalid UTF-8 replaced by U+FFFD (\u{fffd})".into(),
            why: "invalid UTF-8".into(),
        })
        .chain(parsed.surrogates_replaced.iter().take(REPLACED_LISTED).map(|&(line, column)| InputLoss {
            kind: LossKind::TextReplaced,
            path: path.to_string(),
            line,
            column: Some(column),
            message:
                "an unpaired UTF-16 surrogate escape read as U+FFFD (\u{fffd}); NiceEval keeps the lone half".into(),
            why: "an unpaired UTF-16 surrogate escape".into(),
        }))
        .chain(losses)
        .collect();
    doc
}

/// A log read from `path` (`-` for stdin): the agent that wrote it
/// (`forced`, else told from its content) and its text.
pub fn open(path: &std::path::Path, forced: Option<Agent>) -> Result<(Agent, String), crate::load::LoadError> {
    let name = crate::load::display_name(path);
    let bytes = crate::load::read_input(path)?;
    let (text, _) = text_of(&bytes);
    match forced.or_else(|| super::detect(&text)) {
        Some(agent) => Ok((agent, text.into_owned())),
        None => Err(crate::load::LoadError::new(
            &name,
            "no line says which agent wrote this log (a Claude Code session log or stream-json, or `codex exec --json` output); name it with --agent claude-code or --agent codex",
        )),
    }
}
