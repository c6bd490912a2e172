//! The words of the stream and document formats' notices: JSONL streams,
//! captures, `niceeval exp --json` and `niceeval show --json`.

use crate::model::notice::{CaptureNotice, ExpNotice, JsonlNotice, ShowNotice};
use serde_json::Value;

pub fn jsonl(n: &JsonlNotice) -> String {
    match n {
        JsonlNotice::EventStreamRecordsNoTurn => {
            "a raw StreamEvent stream records no Turn status, usage or input; they are shown as not recorded".into()
        }
        JsonlNotice::SessionIndexIgnored { line } => {
            format!("line {line}: `sessionIndex` is not a non-negative integer; ignored")
        }
    }
}

pub fn capture(n: &CaptureNotice) -> String {
    match n {
        CaptureNotice::SessionNotAnObject { session, found } => {
            format!("sessions[{session}] is {found}, not a session {{turns: [...]}}; read as a session with no turns")
        }
        CaptureNotice::NoTurnsArray { session } => format!("sessions[{session}] has no `turns` array"),
        CaptureNotice::EntryWithoutTurn { session, turn } => format!("sessions[{session}].turns[{turn}] has no `turn`"),
    }
}

pub fn exp(n: &ExpNotice) -> String {
    match n {
        ExpNotice::BadLine(failure) => super::load_failure(failure),
        ExpNotice::NoConversation => "exp --json carries no conversation: open the Record for turns and events".into(),
        ExpNotice::NewerSchema { version } => {
            format!(
                "exp stream schemaVersion {version} is newer than this viewer knows (1); reading what it recognises"
            )
        }
        ExpNotice::StreamSays { code, message } => format!("{code}: {message}"),
        ExpNotice::Lifecycle { event, detail } => format!("{event} {detail}").trim_end().to_string(),
        ExpNotice::UnknownEvent { line, event } => {
            format!("line {line}: unknown exp event {:?} kept as a notice", event.as_deref().unwrap_or("(none)"))
        }
        ExpNotice::EvalTally { passed, attempts } => {
            format!("eval summary: {passed} of {attempts} attempts passed (this locator is one of them)")
        }
        ExpNotice::EarlyExit { planned, unstarted } => {
            let written = |v: &Option<Box<Value>>| v.as_ref().map(|v| v.to_string()).unwrap_or_else(|| "?".into());
            format!("early exit: {} planned, {} unstarted", written(planned), written(unstarted))
        }
        ExpNotice::Receipt { completion, runs } => {
            format!("invocation {}; runs {}", completion.as_deref().unwrap_or("?"), runs.join(", "))
        }
    }
}

pub fn show(n: &ShowNotice) -> String {
    match n {
        ShowNotice::AssessmentEvidence { state } => format!("assessment evidence is {state}"),
        ShowNotice::ExecutionEvidence { state } => format!("execution evidence is {state}"),
        ShowNotice::FileChanges { state } => format!("file changes are {state}"),
        ShowNotice::Timing { state } => format!("timing is {state}"),
        ShowNotice::Problem { code, summary } => {
            let (code, summary) = (code.as_deref().unwrap_or("problem"), summary.as_deref().unwrap_or(""));
            // No summary: the code alone, without a dangling ": ".
            format!("show reported {code}: {summary}").trim_end_matches(": ").to_string()
        }
        ShowNotice::AboutAttempt { locator, notice } => {
            format!("{}: {}", locator.as_deref().unwrap_or("-"), super::words(notice))
        }
        ShowNotice::NoAttempts => "this show document names no attempts".into(),
    }
}
