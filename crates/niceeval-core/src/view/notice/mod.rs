//! The words of every notice about an input. The loaders keep what they
//! found as facts (`model::notice`); this is the one place those facts
//! become sentences, for every surface (the header, `show`, `check`, the
//! JSON outputs). Callers that print still [`clean`](super::text::clean) them.

mod other_files;
mod record;
mod results;
mod streams;
mod transcript;
mod viewer;

use super::text::clean;
use crate::model::notice::{LoadFailure, Notice, NoticeKind, Repaired, SkippedLine, TurnFault, TurnPlace, TurnProblem};

/// What `n` says, in one line (not yet sanitised for a terminal).
pub fn words(n: &Notice) -> String {
    match &n.kind {
        NoticeKind::Turn(fault) => turn_fault_words(fault),
        NoticeKind::OldVocabulary { events } => format!(
            "{events} event(s) used the old action.called/action.result vocabulary and were read as operation.started/operation.finished"
        ),
        NoticeKind::UnknownVerdict { word } => format!(
            "verdict {} is not one NiceEval writes (passed, failed, errored, skipped, unavailable); shown as not recorded",
            serde_json::to_string(word).unwrap_or_default()
        ),
        NoticeKind::TextRepaired(repaired) => repaired_words(repaired),
        NoticeKind::LineSkipped { path, line } => skipped_line(path, line),
        NoticeKind::NotAConversation(n) => other_files::not_a_conversation(n),
        NoticeKind::Jsonl(n) => streams::jsonl(n),
        NoticeKind::Capture(n) => streams::capture(n),
        NoticeKind::Exp(n) => streams::exp(n),
        NoticeKind::Show(n) => streams::show(n),
        NoticeKind::Result(n) => results::result(n),
        NoticeKind::Legacy(n) => results::legacy(n),
        NoticeKind::Record(n) => record::record(n),
        NoticeKind::Observability(n) => record::observability(n),
        NoticeKind::SlotsNotRecorded(slots) => record::slots_not_recorded(slots),
        NoticeKind::Transcript(n) => transcript::transcript(n),
        NoticeKind::Viewer(n) => viewer::viewer(n),
    }
}

/// `path:line:column: why`, as a load error says it (path and why made
/// safe apart, as the error's own words are).
fn load_failure(f: &LoadFailure) -> String {
    let (path, why) = (clean(&f.path), clean(&f.why));
    match f.position {
        Some((line, column)) => format!("{path}:{line}:{column}: {why}"),
        None => format!("{path}: {why}"),
    }
}

/// `f.jsonl:3:10: why; line skipped`: a JSONL line that could not be read,
/// in the form of a load error.
fn skipped_line(path: &str, s: &SkippedLine) -> String {
    let message = match (s.last_line, s.column) {
        (true, Some(_)) => format!("{}; line skipped (last line, no newline at end)", s.why),
        (true, None) | (false, _) => format!("{}; line skipped", s.why),
    };
    match s.column {
        Some(column) => format!("{}:{}:{column}: {}", clean(path), s.line, clean(&message)),
        None => format!("{}:{}: {}", clean(path), s.line, clean(&message)),
    }
}

/// "f.json: 2 invalid UTF-8 sequence(s) replaced by U+FFFD (�), first at line 3 column 7".
fn repaired_words(r: &Repaired) -> String {
    let mut parts = Vec::new();
    if r.invalid_utf8 > 0 {
        parts.push(format!("{} invalid UTF-8 sequence(s)", r.invalid_utf8));
    }
    if r.lone_surrogates > 0 {
        parts.push(format!("{} unpaired UTF-16 surrogate escape(s) (\\uD800–\\uDFFF)", r.lone_surrogates));
    }
    let at = r.first.map(|(l, c)| format!(", first at line {l} column {c}")).unwrap_or_default();
    format!("{}: {} replaced by U+FFFD (\u{fffd}){at}", r.path, parts.join(" and "))
}

/// "sessions[0].turns[1]: Turn has no `events` array": the notice of a
/// Turn's problem, and the `turn-shape` finding's words.
pub fn turn_fault_words(fault: &TurnFault) -> String {
    let problem = turn_problem_words(fault.problem);
    match &fault.place {
        TurnPlace::Entry { session, turn } => format!("sessions[{session}].turns[{turn}]: {problem}"),
        TurnPlace::Listed(n) => format!("turn {}: {problem}", n + 1),
        TurnPlace::Line(line) => format!("line {line}: {problem}"),
        TurnPlace::File(path) => format!("{path}: {problem}"),
    }
}

/// What is wrong with a Turn's JSON.
pub fn turn_problem_words(problem: TurnProblem) -> String {
    match problem {
        TurnProblem::NotAnObject(found) => format!("a Turn must be a JSON object, found {found}"),
        TurnProblem::EventsNotAnArray(found) => format!("Turn `events` must be an array, found {found}"),
        TurnProblem::NoEvents => "Turn has no `events` array".into(),
        TurnProblem::StatusNotAString(found) => format!("Turn `status` must be a string, found {found}"),
        TurnProblem::NoStatus => "Turn has no `status`".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::notice::NoticeLevel;

    /// A skipped line is worded here as the loader describes it for the
    /// input loss beside it (`LineError::describe`).
    #[test]
    fn a_skipped_line_reads_as_its_load_error() {
        let bytes = b"{\"type\":\"message\"}\n{bad\n\xff\n{\"type\":\"thinking\"}\n{\"cut\":";
        let parsed = crate::load::parse::lines::parse_all(bytes);
        assert_eq!(parsed.errors.len(), 3);
        for e in &parsed.errors {
            let kind = NoticeKind::LineSkipped { path: "a\u{1b}.jsonl".into(), line: e.skipped() };
            assert_eq!(words(&Notice::new(NoticeLevel::Error, kind)), e.describe("a\u{1b}.jsonl"));
        }
    }

    #[test]
    fn repairs_are_counted_and_placed() {
        let r = Repaired { path: "f.json".into(), invalid_utf8: 0, lone_surrogates: 4, first: Some((1, 8)) };
        assert_eq!(
            words(&Notice::new(NoticeLevel::Warning, NoticeKind::TextRepaired(r))),
            "f.json: 4 unpaired UTF-16 surrogate escape(s) (\\uD800–\\uDFFF) replaced by U+FFFD (\u{fffd}), first at line 1 column 8"
        );
    }
}
