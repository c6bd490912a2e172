//! Material for reviewing an attempt: NiceEval's verdict, score, assertions
//! and their evidence, diagnostics, file changes, sources and run membership.

use super::completeness::Completeness;
use serde_json::Value;

/// NiceEval's attempt verdict (`eval/record/verdict.ts`), or `unavailable`
/// when a page says the evidence to fold one is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Failed,
    Errored,
    Unavailable,
    Skipped,
    Passed,
}

impl Verdict {
    pub const ALL: [Verdict; 5] =
        [Verdict::Failed, Verdict::Errored, Verdict::Unavailable, Verdict::Skipped, Verdict::Passed];

    /// The word as NiceEval writes it; `None` for any other word.
    pub fn parse(word: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == word)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Failed => "failed",
            Verdict::Errored => "errored",
            Verdict::Skipped => "skipped",
            Verdict::Unavailable => "unavailable",
        }
    }

    /// Failed, errored and unavailable attempts are the ones to review.
    pub fn needs_review(self) -> bool {
        matches!(self, Verdict::Failed | Verdict::Errored | Verdict::Unavailable)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Score {
    pub earned: Option<f64>,
    pub points: Option<f64>,
}

/// Material for reviewing a failed eval. Each part may be absent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Review {
    pub assertions: Option<Vec<Assertion>>,
    pub assertions_state: Option<Completeness>,
    pub diagnostics: Vec<Diagnostic>,
    pub file_changes: Option<FileChanges>,
    pub sources: Vec<SourceFile>,
    pub source_sites: Vec<SourceSite>,
    /// Sends the source navigation could not map to a line (`source.state:
    /// unmapped`): the turn's label when its timing names it, and why.
    pub unmapped_sends: Vec<UnmappedSend>,
    /// Sandbox lifecycle commands, in recorded order (stream text
    /// resolved: inline storage copied, Record blobs read).
    pub commands: Vec<super::sandbox::SandboxCommand>,
    /// How completely the commands were collected; `None`: the input has no
    /// commands collection (an empty list then is not "none were run").
    pub commands_state: Option<Completeness>,
    /// The `otel-trace.json` artifact (`TraceSpan[]`) when recorded.
    pub trace: Option<Value>,
    /// The timing intervals the file records (Record `timing-data`,
    /// InvocationSummary or legacy `phases`).
    pub timing: super::timing::Timing,
    /// Where a Record/`show --json` attempt sits in its run (None for captures).
    pub membership: Option<Membership>,
}

/// Run membership of an attempt (Record `members/<SlotId>.json`, or `show --json`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Membership {
    /// The (first) run whose member points at this attempt.
    pub run_id: Option<String>,
    /// The run whose `attempts/` dir holds the attempt.
    pub origin_run_id: Option<String>,
    pub slot_id: Option<String>,
    /// `executed | carried | accepted | not-dispatched | interrupted`.
    pub action: Option<String>,
    /// Other runs that carry or accept the same attempt: `(run_id, action)`.
    pub also_in: Vec<(String, String)>,
}

/// A FactValue-like display tree (value, text, list, fields, unavailable).
#[derive(Debug, Clone, PartialEq)]
pub enum Fact {
    Value(Value),
    Text(String),
    List(Vec<Fact>),
    Fields(Vec<(String, Fact)>),
    Unavailable(String),
}

impl Fact {
    /// The value of a `fields` entry with this label.
    pub fn get(&self, label: &str) -> Option<&Fact> {
        match self {
            Fact::Fields(fields) => fields.iter().find(|(l, _)| l == label).map(|(_, f)| f),
            _ => None,
        }
    }

    /// A string scalar (`value` holding a string, or `text`).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Fact::Value(Value::String(s)) => Some(s),
            Fact::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Fact::Value(v) => v.as_f64(),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Fact]> {
        match self {
            Fact::List(items) => Some(items),
            _ => None,
        }
    }

    /// One-line text face, as the official text renderer prints facts:
    /// fields `label: value` joined with `; `, lists joined with `; `,
    /// string scalars JSON-quoted, unavailable as `unavailable (reason)`.
    pub fn to_line(&self) -> String {
        match self {
            Fact::Value(v) => v.to_string(),
            Fact::Text(t) => t.clone(),
            Fact::List(items) => items.iter().map(Fact::to_line).collect::<Vec<_>>().join("; "),
            Fact::Fields(fields) => {
                fields.iter().map(|(l, f)| format!("{l}: {}", f.to_line())).collect::<Vec<_>>().join("; ")
            }
            Fact::Unavailable(reason) => format!("unavailable ({reason})"),
        }
    }
}

/// A matcher diagnostic (`MatchDiagnostic`) read back from its Fact encoding:
/// `code`, `message`, `path`, optional `expected`/`received`/`reason`,
/// `locator`, and nested `children`. Built by [`MatchDiagnostic::from_fact`];
/// the Fact itself stays in `Assertion::explanation`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatchDiagnostic {
    pub code: Option<String>,
    pub message: Option<String>,
    pub path: Vec<String>,
    pub expected: Option<Fact>,
    pub received: Option<Fact>,
    pub reason: Option<String>,
    pub locator: Option<DiagnosticLocator>,
    pub children: Vec<DiagnosticChild>,
}

/// `locator` of a diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub enum DiagnosticLocator {
    JsonPointer(String),
    /// The id as written, and its parts when it parses.
    ToolOccurrence {
        id: String,
        parsed: Option<ToolOccurrenceRef>,
    },
    Other(Fact),
}

/// `["niceeval.logical-tool-occurrence/1", session, turn, turnOrdinal, eventOrdinal]`.
/// `session`/`turn` are assertion-scope names (`session-1`, `turn-1`);
/// `event_ordinal` 0 is the runner-inserted user message, so adapter
/// `events[i]` is ordinal `i + 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOccurrenceRef {
    pub session: String,
    pub turn: String,
    pub turn_ordinal: u64,
    pub event_ordinal: u64,
}

impl ToolOccurrenceRef {
    /// Parse an occurrence id (the JSON array string). Text before the
    /// first `[` (e.g. `candidate `) is ignored.
    pub fn parse(s: &str) -> Option<ToolOccurrenceRef> {
        let start = s.find('[')?;
        let v: Value = serde_json::from_str(s[start..].trim()).ok()?;
        let a = v.as_array()?;
        if a.len() != 5 || a[0].as_str()? != "niceeval.logical-tool-occurrence/1" {
            return None;
        }
        Some(ToolOccurrenceRef {
            session: a[1].as_str()?.to_string(),
            turn: a[2].as_str()?.to_string(),
            turn_ordinal: a[3].as_u64()?,
            event_ordinal: a[4].as_u64()?,
        })
    }

    /// 1-based session index from `session-N`.
    pub fn session_index(&self) -> Option<u64> {
        self.session.strip_prefix("session-")?.parse().ok()
    }

    /// 1-based turn index within the session from `turn-N`.
    pub fn turn_index(&self) -> Option<u64> {
        self.turn.strip_prefix("turn-")?.parse().ok()
    }

    /// Index into the adapter's `Turn.events` (None for the runner's user message at 0).
    pub fn event_index(&self) -> Option<usize> {
        usize::try_from(self.event_ordinal).ok()?.checked_sub(1)
    }
}

/// One entry of a diagnostic's `children`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiagnosticChild {
    pub index: Option<u64>,
    pub state: Option<String>,
    pub label: Option<String>,
    /// When the label names a tool-occurrence candidate.
    pub occurrence: Option<ToolOccurrenceRef>,
    pub diagnostic: Option<MatchDiagnostic>,
}

impl MatchDiagnostic {
    /// Read a diagnostic from its `fields` encoding; None when `fact` is
    /// not a fields tree with at least a `code` or `message`.
    pub fn from_fact(fact: &Fact) -> Option<MatchDiagnostic> {
        if !matches!(fact, Fact::Fields(_)) || (fact.get("code").is_none() && fact.get("message").is_none()) {
            return None;
        }
        let text = |l: &str| fact.get(l).and_then(|f| f.as_str().map(str::to_string).or_else(|| Some(f.to_line())));
        let path = fact
            .get("path")
            .and_then(Fact::as_list)
            .map(|items| items.iter().map(|i| i.as_str().map(str::to_string).unwrap_or_else(|| i.to_line())).collect())
            .unwrap_or_default();
        let locator = fact.get("locator").map(|l| match (l.get("kind").and_then(Fact::as_str), l) {
            (Some("json-pointer"), _) => {
                DiagnosticLocator::JsonPointer(l.get("pointer").and_then(Fact::as_str).unwrap_or_default().to_string())
            }
            (Some("tool-occurrence"), _) => {
                let id = l.get("id").and_then(Fact::as_str).unwrap_or_default().to_string();
                let parsed = ToolOccurrenceRef::parse(&id);
                DiagnosticLocator::ToolOccurrence { id, parsed }
            }
            (_, other) => DiagnosticLocator::Other(other.clone()),
        });
        let children = fact
            .get("children")
            .and_then(Fact::as_list)
            .map(|items| {
                items
                    .iter()
                    .map(|c| {
                        let label = c.get("label").and_then(Fact::as_str).map(str::to_string);
                        DiagnosticChild {
                            index: c.get("index").and_then(Fact::as_f64).map(|x| x as u64),
                            state: c.get("state").and_then(Fact::as_str).map(str::to_string),
                            occurrence: label.as_deref().and_then(ToolOccurrenceRef::parse),
                            label,
                            diagnostic: c.get("diagnostic").and_then(MatchDiagnostic::from_fact),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(MatchDiagnostic {
            code: text("code"),
            message: text("message"),
            path,
            expected: fact.get("expected").cloned(),
            received: fact.get("received").cloned(),
            reason: text("reason"),
            locator,
            children,
        })
    }

    /// Every tool occurrence this diagnostic or its descendants point at
    /// (locators and candidate labels), depth first.
    pub fn tool_occurrences(&self) -> Vec<ToolOccurrenceRef> {
        let mut out = Vec::new();
        self.collect_occurrences(&mut out);
        out
    }

    fn collect_occurrences(&self, out: &mut Vec<ToolOccurrenceRef>) {
        if let Some(DiagnosticLocator::ToolOccurrence { parsed: Some(r), .. }) = &self.locator
            && !out.contains(r)
        {
            out.push(r.clone());
        }
        for c in &self.children {
            if let Some(r) = &c.occurrence
                && !out.contains(r)
            {
                out.push(r.clone());
            }
            if let Some(d) = &c.diagnostic {
                d.collect_occurrences(out);
            }
        }
    }
}

/// One assertion entry, normalized from any of the result formats.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assertion {
    pub entry_id: Option<String>,
    pub label: String,
    pub group_path: Vec<String>,
    /// `value-match`, `scope-status`, `occurrence`, `judge-measurement`, `sandbox-result`, `direct-score`, or third-party name.
    pub criterion: Option<String>,
    /// matched / mismatched / unavailable / errored / not-applicable.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// not-gate / satisfied / failed / unavailable / not-applicable.
    pub gate: Option<String>,
    /// required / optional.
    pub requirement: Option<String>,
    pub check: Option<Fact>,
    pub expected: Option<Fact>,
    pub observed: Option<Fact>,
    pub explanation: Option<Fact>,
    /// The checked value (material snapshot).
    pub checked_value: Option<Value>,
    pub receipt: Option<Value>,
    pub contribution: Option<Value>,
    pub source_order: Option<u64>,
    pub raw: Value,
    /// Coverage of the checked material (`materials.coverage` / `source.coverage`):
    /// `{state: complete|partial|unavailable|not-applicable, reason?}`.
    pub coverage: Option<Value>,
    /// What the checked material lacks (`materials.limitations`): a kind,
    /// and how many bytes were left out when it says.
    pub limitations: Vec<Limitation>,
    /// Judge-specific reading for `judge-measurement` entries.
    pub judge: Option<JudgeResult>,
}

/// One thing an assertion's checked material lacks (`{kind, omittedBytes?}`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Limitation {
    pub kind: String,
    pub omitted_bytes: Option<u64>,
}

impl Limitation {
    /// The limitations a Record or a show page lists (unreadable entries are left out).
    pub fn list(v: Option<&Value>) -> Vec<Limitation> {
        let Some(items) = v.and_then(Value::as_array) else { return Vec::new() };
        items
            .iter()
            .filter_map(|l| {
                let kind = l.get("kind").and_then(Value::as_str)?.to_string();
                Some(Limitation { kind, omitted_bytes: l.get("omittedBytes").and_then(Value::as_u64) })
            })
            .collect()
    }
}

/// What an LLM-judge assertion measured, or why it could not.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeResult {
    /// The judged score in [0, 1] when measured.
    pub score: Option<f64>,
    /// `at-least` policy threshold.
    pub threshold: Option<f64>,
    /// `closed-qa | factuality | summarizes` when recorded.
    pub recipe: Option<String>,
    pub rationale: Option<Fact>,
    pub citations: Option<Fact>,
    /// `failureDetail` (e.g. `judge-model-unresolved`) when the judge was unavailable.
    pub unavailable_reason: Option<String>,
}

impl Assertion {
    /// The matcher diagnostic tree of `explanation`, when it holds one.
    pub fn diagnostic(&self) -> Option<MatchDiagnostic> {
        self.explanation.as_ref().and_then(MatchDiagnostic::from_fact)
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diagnostic {
    pub kind: String,
    pub code: String,
    pub phase: Option<String>,
    pub message: String,
    pub causes: Vec<String>,
}

impl Diagnostic {
    /// An execution error (kind `execution-error`): what makes an attempt errored.
    pub fn is_execution_error(&self) -> bool {
        self.kind == "execution-error"
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileChanges {
    pub state: Option<Completeness>,
    pub changes: Vec<FileChange>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileChange {
    pub window: Option<String>,
    pub path: String,
    /// A, M or D.
    pub kind: char,
    pub before: Option<String>,
    pub after: Option<String>,
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceFile {
    pub id: Option<String>,
    pub path: String,
    pub content: Option<String>,
    pub sha256: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnmappedSend {
    pub turn_label: Option<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceSite {
    pub entry_id: Option<String>,
    pub source_id: Option<String>,
    pub line: u64,
    /// `declaration | threshold | score | gate | optional | stop`, or `send`
    /// for a turn's `t.send` site (from source-navigation).
    pub role: Option<String>,
    pub column: Option<u64>,
    pub source_order: Option<u64>,
    /// For `send` sites: the turn label (`turn2`, `session2/turn1`).
    pub turn_label: Option<String>,
}
