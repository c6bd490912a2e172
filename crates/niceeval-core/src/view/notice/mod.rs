//! The words of every notice about an input. The loaders keep what they
//! found as facts (`model::notice`); this is the one place those facts
//! become sentences, for every surface (the header, `show`, `check`, the
//! JSON outputs). Callers that print still [`clean`](super::text::clean) them.

use crate::model::notice::{Notice, NoticeKind, TurnFault, TurnPlace, TurnProblem};

/// What `n` says, in one line (not yet sanitised for a terminal).
pub fn words(n: &Notice) -> String {
    match &n.kind {
        NoticeKind::Turn(fault) => turn_fault_words(fault),
        NoticeKind::Other
        | NoticeKind::NoEventsRecorded
        | NoticeKind::PreviewLoading
        | NoticeKind::InputLost
        | NoticeKind::SlotsNotRecorded => n.message.clone(),
    }
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
