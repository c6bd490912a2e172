//! The one document model every input format becomes:
//! attempts → sessions → turns → events, plus optional review material.

pub use super::completeness::Completeness;
use super::event::Event;
pub use super::notice::{Notice, NoticeKind, NoticeLevel, TurnPlace, TurnProblem};
pub use super::review::{
    Assertion, Diagnostic, DiagnosticChild, DiagnosticLocator, Fact, FileChange, FileChanges, JudgeResult,
    MatchDiagnostic, Membership, Review, Score, SourceFile, SourceSite, ToolOccurrenceRef,
};
use super::usage::Usage;
use serde_json::Value;

/// A Turn as an Adapter's `send` returned it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Turn {
    pub events: Vec<Event>,
    /// `status` as written; `None` when absent or not a string.
    pub status: Option<String>,
    /// A `status` key whose value is not a string (null, a number): NiceEval
    /// still has an outcome for the turn (it tests `outcome !== undefined`).
    pub status_not_a_string: bool,
    pub usage: Option<Usage>,
    /// The usage object exactly as written (for Raw views and `check`).
    pub usage_raw: Option<Value>,
    pub data: Option<Value>,
    pub evidence_coverage: Option<Value>,
}

impl Turn {
    /// Build a Turn from JSON. Problems (missing `events`, a non-object)
    /// come back typed; the Turn still holds what could be read.
    pub fn from_value(v: &Value) -> (Turn, Vec<TurnProblem>) {
        let mut problems = Vec::new();
        let mut turn = Turn::default();
        let Some(obj) = v.as_object() else {
            problems.push(TurnProblem::NotAnObject(super::event::json_type(v)));
            return (turn, problems);
        };
        match obj.get("events") {
            Some(Value::Array(items)) => turn.events = items.iter().cloned().map(Event::from_value).collect(),
            Some(other) => problems.push(TurnProblem::EventsNotAnArray(super::event::json_type(other))),
            None => problems.push(TurnProblem::NoEvents),
        }
        match obj.get("status") {
            Some(Value::String(s)) => turn.status = Some(s.clone()),
            Some(other) => {
                turn.status_not_a_string = true;
                problems.push(TurnProblem::StatusNotAString(super::event::json_type(other)))
            }
            None => problems.push(TurnProblem::NoStatus),
        }
        if let Some(u) = obj.get("usage").filter(|u| !u.is_null()) {
            turn.usage = Some(Usage::from_value(u));
            turn.usage_raw = Some(u.clone());
        }
        turn.data = obj.get("data").cloned();
        turn.evidence_coverage = obj.get("evidenceCoverage").cloned();
        (turn, problems)
    }

    /// Take ownership of a Turn JSON without cloning its events.
    pub fn from_owned(v: Value) -> (Turn, Vec<TurnProblem>) {
        match v {
            Value::Object(mut obj) => {
                let events = obj.remove("events");
                let (mut turn, mut problems) = Turn::from_value(&Value::Object(obj));
                problems.retain(|p| !matches!(p, TurnProblem::NoEvents | TurnProblem::EventsNotAnArray(_)));
                match events {
                    Some(Value::Array(items)) => turn.events = items.into_iter().map(Event::from_value).collect(),
                    Some(other) => problems.insert(0, TurnProblem::EventsNotAnArray(super::event::json_type(&other))),
                    None => problems.insert(0, TurnProblem::NoEvents),
                }
                (turn, problems)
            }
            other => Turn::from_value(&other),
        }
    }

    /// Hand back to their file the pages of this turn's raw events (see
    /// [`super::event::Bytes::release`]): for a pass over every event that
    /// will not read them again, so that a large file is not all resident.
    pub fn release_pages(&self) {
        super::event::release_pages(&self.events);
    }

    /// Whether NiceEval has an outcome for this turn: any `status` written.
    pub fn has_outcome(&self) -> bool {
        self.status.is_some() || self.status_not_a_string
    }

    pub fn is_waiting(&self) -> bool {
        self.status.as_deref() == Some("waiting")
    }
}

/// One turn of a session with what surrounds it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnRecord {
    /// `turn3` / `session2/turn1` style label when known.
    pub label: Option<String>,
    /// The `TurnInput` (`{text, files?, responses?}`) when known.
    pub input: Option<Value>,
    pub turn: Turn,
    /// Explicit attempt-global turn ordinal, when the file gives one.
    pub ordinal: Option<u64>,
    /// Why the written `ordinal` breaks the contract (`2.0`, `-1`, `"2"`), if it does.
    pub ordinal_misfit: Option<super::indices::IndexMisfit>,
    pub duration_ms: Option<f64>,
    pub trace_id: Option<String>,
    /// Where the events came from when they are not the adapter's own
    /// (e.g. rebuilt from a lossy Record conversation).
    pub reconstructed: bool,
    /// A Record's turn with no item, in a conversation cut by its item cap
    /// (`collection-cap-reached`): its events were not recorded, not none.
    pub past_item_cap: bool,
}

impl TurnRecord {
    pub fn input_text(&self) -> Option<&str> {
        self.input.as_ref().and_then(|i| i.get("text")).and_then(Value::as_str)
    }

    /// `input.responses` (HITL answers) when present.
    pub fn responses(&self) -> &[Value] {
        self.input.as_ref().and_then(|i| i.get("responses")).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Session {
    /// `sessionIndex` (1 = primary).
    pub index: u64,
    pub id: Option<String>,
    pub turns: Vec<TurnRecord>,
    /// Why the written `sessionIndex` breaks the contract (`1.0`, `"1"`), if it does.
    pub index_misfit: Option<super::indices::IndexMisfit>,
}

impl Session {
    /// Assertion-scope name: `session-<index>`.
    pub fn scope_name(&self) -> String {
        format!("session-{}", self.index)
    }
}

/// One attempt of an eval (or the single implicit attempt of a capture).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attempt {
    pub eval_id: Option<String>,
    pub experiment_id: Option<String>,
    /// 1-based.
    pub attempt_number: Option<u64>,
    pub locator: Option<String>,
    pub attempt_id: Option<String>,
    /// NiceEval's verdict, when the file states it or it can be folded.
    pub verdict: Option<super::review::Verdict>,
    /// `completed | errored | cancelled | interrupted` when known.
    pub outcome: Option<String>,
    pub model: Option<String>,
    pub agent: Option<String>,
    pub score: Option<Score>,
    pub duration_ms: Option<f64>,
    pub started_at: Option<String>,
    /// `started_at` is the start of the run that holds the attempt (a
    /// Record keeps no start per attempt), not the attempt's own.
    pub started_at_is_run: bool,
    pub sessions: Vec<Session>,
    /// Usage the file states for the whole attempt (when it is not the sum of turns).
    pub reported_usage: Option<Usage>,
    /// A Record's usage collection as NiceEval's token figure reads it
    /// (`measure::tokens`); `None` when the file has none.
    pub recorded_usage: Option<super::recorded::RecordedUsage>,
    /// `estimatedCostUSD` as the file states it (NiceEval's own estimate).
    pub reported_estimate: Option<f64>,
    /// True when events are the adapter's exact stream; false when rebuilt.
    pub events_exact: bool,
    /// Only listed from a quick read (a folder of native logs): its events
    /// are not read until it is opened, so its counts are not known.
    pub listed_only: bool,
    /// The attempt's evidence coverage as the file records it (an
    /// InvocationSummary's `evidenceCoverage`: the agent's declaration
    /// downgraded by every turn, worst across turns). `None`: not recorded.
    pub recorded_coverage: Option<super::coverage::Coverage>,
    /// True when the file keeps no HITL answers (a Record stores no
    /// `TurnInput.responses`): an input request's answer is then unknown.
    pub answers_not_recorded: bool,
    /// True when the events were rebuilt from a NiceEval Record's
    /// conversation, which keeps what it can represent only: an input
    /// request's prompt (no id or options), no tool finish without output
    /// (`o11y/record/runner-producer.ts`), no items past its cap. What it
    /// drops is then not recorded, not absent.
    pub from_record_conversation: bool,
    /// Whether events were recorded at all.
    pub events: Option<Completeness>,
    pub review: Review,
    pub notices: Vec<Notice>,
    /// The file the attempt came from, when several files were opened together.
    pub source: Option<String>,
    /// `(passed, attempts)` of the attempt's eval, when the file states them
    /// for attempts it does not list (an `exp --json` eval line).
    pub eval_tally: Option<(u64, u64)>,
    /// What a native agent log says beyond NiceEval's reading of it (empty
    /// for every other format).
    pub log_facts: Vec<super::diagnostics::LogFact>,
    /// Each native line (a log's line, a capture's converter call) and the
    /// events it became, when the input records them.
    pub provenance: Option<std::sync::Arc<super::provenance::Provenance>>,
}

impl Attempt {
    /// The stretches of the file its raw events were read from: a pass
    /// that reads every event (writing them out, say) hands them back as
    /// it goes, so the file is not all resident at its end.
    pub fn pages(&self) -> super::event::Pages {
        super::event::Pages::of_all(self.sessions.iter().flat_map(|s| &s.turns).map(|t| &t.turn.events[..]))
    }
}

/// Everything one or more input files became.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// Detected format, e.g. `session capture`, `InvocationSummary`.
    pub format: String,
    /// Paths (or `-`) the document came from.
    pub sources: Vec<String>,
    pub attempts: Vec<Attempt>,
    pub notices: Vec<Notice>,
    /// Input the loader could not take as written, each where it was.
    pub losses: Vec<super::diagnostics::InputLoss>,
    /// Slots the runs expected that hold no attempt (a Record's never-run
    /// slots): not attempts, and counted apart as NiceEval counts them.
    pub slots_not_recorded: Vec<super::recorded::SlotNotRecorded>,
}

impl Document {
    /// Every notice: the document's own, then each attempt's.
    pub fn all_notices(&self) -> impl Iterator<Item = &Notice> {
        self.notices.iter().chain(self.attempts.iter().flat_map(|a| &a.notices))
    }

    pub fn event_count(&self) -> usize {
        self.attempts.iter().flat_map(|a| &a.sessions).flat_map(|s| &s.turns).map(|t| t.turn.events.len()).sum()
    }
}
