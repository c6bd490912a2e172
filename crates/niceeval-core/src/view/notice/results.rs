//! The words of eval results' notices: an InvocationSummary's results and
//! legacy `niceeval.results` runs.

use crate::model::notice::{LegacyNotice, ResultNotice};

pub fn result(n: &ResultNotice) -> String {
    match n {
        ResultNotice::NoResults => "the InvocationSummary has no results (no eval ran in this invocation)".into(),
        ResultNotice::NotAnObject { found } => format!("a result must be a JSON object, found {found}"),
        ResultNotice::Skipped { reason } => format!("skipped: {reason}"),
        ResultNotice::RetriedSends { count } => {
            format!(
                "{count} retried send attempt(s) are recorded separately (retryAttempts) and are not shown as turns"
            )
        }
        ResultNotice::NoTurns => {
            "no turns: this attempt recorded no events and no agent.turn nodes (nothing was sent to the agent)".into()
        }
        ResultNotice::EventsNotAnArray { found } => format!("`events` must be an array, found {found}"),
        ResultNotice::NoEvents => "no `events` recorded for this attempt".into(),
        ResultNotice::CoverageNotComplete { channels } => {
            let limited: Vec<String> = channels
                .iter()
                .map(|c| match &c.reason {
                    Some(reason) => format!("{} {} ({reason})", c.channel, c.status),
                    None => format!("{} {}", c.channel, c.status),
                })
                .collect();
            format!(
                "evidence coverage of this attempt (worst across its turns) is not complete: {}; the file does not say which turn",
                limited.join("; ")
            )
        }
        ResultNotice::ScoreSkipped { reason } => {
            format!("score skipped: {}", reason.as_deref().unwrap_or("no reason given"))
        }
        ResultNotice::NoTurnNodes { turns } => format!(
            "no agent.turn nodes in `phases`: session boundaries are not recorded, so all {turns} turn(s) are placed in session 1"
        ),
        ResultNotice::TurnNodesMiscounted { messages, nodes } => format!(
            "{messages} runner user message(s) but {nodes} agent.turn node(s): turns are matched in order, so sessions, labels and per-turn usage past the first {} may be wrong or missing",
            nodes.min(messages)
        ),
        ResultNotice::EventsBeforeFirstMessage { events } => format!(
            "{events} event(s) come before the first runner user message; they are shown as a turn with no input"
        ),
        ResultNotice::MessageWithoutText { turn } => format!("turn {turn}: the runner user message has no text"),
        ResultNotice::SendFailed { label, turn } => {
            let label = label.clone().unwrap_or_else(|| format!("turn {turn}"));
            format!(
                "{label}: the runner marked this send as failed (agent.turn failed: true); the Turn status itself is not recorded in this format"
            )
        }
        ResultNotice::TurnIndexDiffers { turn, written, position, session } => format!(
            "turn {turn}: agent.turn says turnIndex {written} but it is turn {position} of session {session} in the events"
        ),
        ResultNotice::SourceWithoutPath => "a source entry has no `path`".into(),
        ResultNotice::DiffNotAnArray { found } => format!("`diff` must be an array of windows, found {found}"),
    }
}

pub fn legacy(n: &LegacyNotice) -> String {
    match n {
        LegacyNotice::NoAttemptDirs => {
            "this legacy run has no attempt directories (<eval>/aN/ with result.json or events.json)".into()
        }
        LegacyNotice::RunSkipped(failure) => format!("{}; that run is skipped", super::load_failure(failure)),
        LegacyNotice::NewestOfSeveral { run, older } => format!(
            "showing the newest legacy run ({}); {older} older run(s) are in the same folder, open one by its directory",
            run.display()
        ),
        LegacyNotice::FileSkipped { file, failure } => format!("{}; {file} skipped", super::load_failure(failure)),
        LegacyNotice::ResultNotAnObject => "result.json is not a JSON object".into(),
        LegacyNotice::NoResultJson { dir } => {
            format!("{}: no result.json (verdict, usage and timing not recorded)", dir.display())
        }
        LegacyNotice::EventsNotAnArray { found } => format!("events.json must be a JSON array, found {found}"),
        LegacyNotice::NoEventsJson => "no events.json: the conversation of this attempt was not recorded".into(),
        LegacyNotice::SourceContentMissing { path, sha256 } => {
            format!("source {path}: content sources/{sha256}.json not found")
        }
    }
}
