//! Lint rules for event streams (`niceeval check`, the Diagnostics tab).
//!
//! NiceEval validates almost nothing in a returned Turn (derivation §5.5): a
//! wrong stream silently makes assertions unavailable or wrong. These rules
//! say what is wrong, where, and how to fix it. Pure: no I/O.
//!
//! Every rule has a stable kebab-case code listed in [`RULES`] with its
//! severity, the spec rule it enforces and a default fix hint.

mod events;
mod input;
mod log;
mod pairing;
mod sums;
mod turn;

pub use input::findings as input_findings;

use super::derive::DerivedAttempt;
use super::diagnostics::{Finding, Location, Severity};
use super::document::Document;
use super::spread::Spread;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One rule of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    pub code: &'static str,
    pub severity: Severity,
    /// The spec rule it enforces, e.g. `derivation §2.2`.
    pub rule: &'static str,
    /// What the rule catches, for docs and `--list-rules`.
    pub summary: &'static str,
    /// Default fix hint.
    pub hint: &'static str,
}

use Severity::{Error as E, Warning as W};

macro_rules! rules {
    ($( $code:literal, $sev:ident, $rule:literal, $summary:literal, $hint:literal; )*) => {
        /// Every rule, in the order the docs list them.
        pub const RULES: &[RuleInfo] = &[
            $( RuleInfo { code: $code, severity: $sev, rule: $rule, summary: $summary, hint: $hint }, )*
        ];
    };
}

rules! {
    // Event shape.
    "unknown-event-type", E, "derivation §1.2",
        "an event whose `type` is not one of the ten StreamEvent variants",
        "emit only message, operation.started, operation.finished, skill.loaded, input.requested, thinking, context.injected, compaction or error; drop or map the native event";
    "missing-field", E, "derivation §1.2",
        "an event without a field its variant requires",
        "add the required field; without it NiceEval misreads the event or cannot read it at all";
    "invalid-field", E, "derivation §1.2",
        "a field with the wrong JSON type or a value outside its set",
        "write the field with the type and values the StreamEvent contract gives";
    "unknown-field", W, "derivation §1.2, §1.3",
        "an event, operation or input-request key the contract does not have (NiceEval ignores it)",
        "drop the key, or carry what it holds in a field NiceEval reads (e.g. inside `output`)";
    "invalid-truncated", E, "derivation §1.1",
        "`truncated` is not an array of `{path: string, originalBytes: number}`",
        "write `truncated: [{\"path\": \"output\", \"originalBytes\": <integer>}]` or omit it";
    "invalid-redacted", E, "derivation §1.2",
        "`redacted` is not an array of strings",
        "write `redacted` as an array of field paths, e.g. [\"operation.input.apiKey\"]";
    "limit-path-unmatched", E, "derivation §2.3",
        "a `truncated`/`redacted` path that points at no field of the event, so NiceEval ignores it",
        "use `operation.input[.key…]` on a tool start, `output[.key…]` on a finish, or a field name of this event";
    "tool-input-json-string", W, "derivation §1.2, §3.5",
        "a tool input that is a string holding a JSON object or array (arguments not parsed)",
        "parse the provider's argument string (JSON.parse) and emit the object as `operation.input`, so toolMatch input matchers see fields";
    "unknown-canonical-tool", W, "derivation §1.6",
        "`operation.tool` outside the closed ToolName set",
        "use one of file_read, file_write, file_edit, shell, web_fetch, web_search, glob, grep, list_dir, agent_task, unknown";
    // Sessions and turn order.
    "index-written-as-float", W, "derivation §2.6",
        "a `sessionIndex` or `ordinal` written with a fraction part (`2.0`): NiceEval reads the integer",
        "write session indices and turn ordinals as JSON integers";
    "invalid-index", E, "derivation §2.2, §2.6",
        "a `sessionIndex` or `ordinal` that is not a non-negative integer",
        "write session indices and turn ordinals as non-negative JSON integers";
    "duplicate-session-index", W, "derivation §2.2, §2.6",
        "two sessions of one attempt with the same `sessionIndex`: NiceEval names both session-N and pairs their tool calls as one session at attempt scope",
        "give every session line of an attempt its own sessionIndex";
    // Pairing.
    "orphan-finish", E, "derivation §2.2",
        "a tool finish with no open start of its id in its session",
        "emit operation.started before operation.finished with the same operationId in the same session; a resume turn must reuse the id of the start it finishes";
    "ambiguous-operation-id", E, "derivation §2.2",
        "an id started again while still open: both calls become ambiguous and the id is poisoned for the rest of the session",
        "give every concurrent call its own operationId (e.g. suffix a counter); reuse an id only after its finish";
    "finish-kind-mismatch", E, "derivation §1.2, §2.1",
        "a finish whose `kind` differs from its start's",
        "set operation.finished `kind` to the start's `operation.kind` (tool or subagent)";
    "orphan-subagent-finish", W, "derivation §2.1",
        "a subagent finish with no open subagent start of its id",
        "emit the subagent operation.started before its finish, with the same operationId";
    "subagent-rejected", E, "derivation §1.2, §5.1",
        "a subagent finish with status `rejected` (subagents have no rejected)",
        "use `failed` (or `completed`) for a subagent; `rejected` exists only for tool calls";
    "invalid-finish-status", E, "derivation §1.2",
        "a finish status outside completed|failed|rejected (tool) or completed|failed (subagent)",
        "map the native outcome to completed, failed or (tools only) rejected";
    "pending-at-turn-end", W, "derivation §2.4, §5.1",
        "a call started but never finished in a session that does not end waiting",
        "emit operation.finished when the call ends; leave a call open only in a `waiting` turn that a later turn finishes";
    "skill-tool-not-suppressed", E, "derivation §1.2, §6.25",
        "a `skill.loaded` with an operationId whose tool start/finish was also emitted",
        "when the load is expressed as skill.loaded with operationId, drop that tool call's operation.started/finished";
    // Turn status and HITL.
    "turn-shape", E, "derivation §1.4",
        "a Turn that is not an object or has no `events` array",
        "return {events: StreamEvent[], status, …} from send";
    "turn-status-missing", E, "derivation §1.4",
        "a Turn without a string `status`",
        "return status completed, failed or waiting";
    "invalid-turn-status", E, "derivation §1.4",
        "a Turn `status` outside completed|failed|waiting",
        "return status completed, failed or waiting; a crash must be a thrown SendFailure, not a status";
    "waiting-without-input-request", E, "derivation §5.1",
        "a `waiting` turn with no `input.requested` event",
        "emit one input.requested per native question, or return completed";
    "input-request-not-waiting", E, "derivation §5.1",
        "an `input.requested` in a turn whose status is not `waiting`",
        "return status waiting when the turn stops for human input";
    "input-request-without-id", W, "derivation §5.2",
        "an input request without a string `request.id`: t.respond() cannot answer it",
        "give every input request a stable `id`";
    "failed-without-error", W, "derivation §5.1",
        "a `failed` turn with no `error` event",
        "emit an error event saying why the task failed";
    // Usage.
    "usage-not-object", E, "derivation §1.5",
        "`usage` is not an object",
        "return usage as an object of numbers, or omit it";
    "usage-not-a-number", E, "derivation §1.5",
        "a usage field that is not a number (NiceEval adds a null as 0 and misreads the rest)",
        "write the count as a JSON number, or omit the field when the protocol did not supply it";
    "usage-negative", E, "derivation §1.5",
        "a negative token count, request count or cost",
        "report counts as the protocol gave them; subtract cache subsets with a floor of 0";
    "usage-not-integer", E, "derivation §1.5",
        "a token or request count with a fraction",
        "report whole token and request counts";
    "usage-not-finite", E, "derivation §1.5",
        "a usage number too large to be finite",
        "report the real count";
    "usage-too-large", E, "derivation §1.5, §4.1",
        "a token or request count above 2^53 − 1, which a JavaScript number cannot hold exactly",
        "report the real count; a number this large is a unit or overflow bug in the adapter";
    "usage-sum-overflow", E, "derivation §4.1, §4.2",
        "a session or attempt usage sum, or the cost estimate, that is not finite or is beyond 2^53 − 1 tokens",
        "report the real counts per turn; NiceEval adds them up and prices the sum";
    "usage-reasoning-exceeds-output", E, "derivation §1.5",
        "`reasoningTokens` greater than `outputTokens` (reasoning is a subset of output)",
        "add reasoning tokens into outputTokens; reasoningTokens is informational and already included";
    "usage-zero-requests", W, "derivation §1.5",
        "`requests: 0` (a padded value?)",
        "omit `requests` when the protocol does not report it";
    "usage-unknown-field", W, "derivation §1.5",
        "a usage key NiceEval does not read",
        "use inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens, reasoningTokens, requests, costUSD";
    // Command projection.
    "command-malformed", E, "derivation §1.7",
        "an `operation.command` that is none of the projection shapes",
        "build it with commandProjection(), opaqueCommandProjection() or notCommandProjection() from niceeval/adapter";
    "command-empty-executable", E, "derivation §1.7",
        "an available original command with an empty executable",
        "pass the real executable, or use opaqueCommandProjection(reason)";
    "command-args-not-strings", E, "derivation §1.7",
        "an available original command whose args are not an array of strings",
        "pass argv as an array of string tokens";
    "command-logical-mismatch", E, "derivation §1.7",
        "a `logical` that is not normalizeLogicalCommand(original)",
        "do not write `logical` by hand: build the projection with commandProjection(original)";
    "command-unknown-opaque-reason", W, "derivation §1.7",
        "an opaque original with a reason outside redacted|truncated|compound-shell|dynamic-shell|unsupported-protocol",
        "use one of the OriginalCommandOpaqueReason values";
    "command-unclassified", W, "derivation §1.7, §3.3",
        "a tool start without `command` while actions coverage claims complete (or the file does not say)",
        "set command (notCommandProjection() for non-commands) or attach unclassifiedToolActionsCoverage(events) to the Turn";
    "needless-unclassified-coverage", W, "derivation §3.3",
        "a turn declares the UNCLASSIFIED actions downgrade but every tool start carries a command",
        "attach unclassifiedToolActionsCoverage(events) (it returns undefined when nothing is unclassified) instead of a fixed downgrade";
    // Evidence coverage.
    "coverage-not-object", E, "derivation §3.1, §5.5",
        "`evidenceCoverage` is not an object",
        "return evidenceCoverage as {channel: {status, reason?}}, or omit it";
    "coverage-unknown-channel", W, "derivation §3.2",
        "an evidenceCoverage key that is not a channel (NiceEval ignores it)",
        "use events, actions, messages, usage, status or data";
    "coverage-invalid-entry", E, "derivation §5.5",
        "a coverage channel entry that is not an object",
        "write {\"status\": \"complete\"} or {\"status\": \"partial\"|\"unavailable\", \"reason\": \"…\"}";
    "coverage-invalid-status", E, "derivation §3.1, §5.5",
        "a coverage status outside complete|partial|unavailable",
        "use complete, partial or unavailable";
    "coverage-missing-reason", E, "derivation §3.1, §5.5",
        "a partial/unavailable coverage entry without a non-empty reason",
        "say why the channel is incomplete in `reason`";
    "coverage-reason-on-complete", E, "derivation §3.1, §5.5",
        "a complete coverage entry that carries a reason",
        "drop `reason`, or downgrade the status";
    // Content.
    "tool-output-as-message", W, "derivation §1.2",
        "an assistant message whose text equals a tool output in the same turn",
        "emit tool results only as operation.finished output, not as assistant messages";
    "data-repeats-message", W, "derivation §1.4",
        "`data` that merely repeats the reply text",
        "omit `data` for text-only agents; use it for structured output";
    "user-message-echo", W, "derivation §1.4, §2.6",
        "the adapter echoed the user's input as a user message (core already adds it)",
        "do not return the sent text as a user message; NiceEval adds the user message itself";
    // Native agent logs: what they say beyond NiceEval's reading of them.
    "log-usage-repeated", W, "derivation §1.5, §4.1",
        "one API response's usage written on several lines (one per content block), which NiceEval's parser adds once per line",
        "read NiceEval's token and request sums as over-counted; count a response's usage once per message.id";
    "log-compaction-counted-twice", W, "derivation §1.2",
        "a `compact_boundary` line and the `isCompactSummary` line after it, which NiceEval's parser counts as two compactions",
        "count one compaction per compact_boundary; the summary line after it is that compaction's content";
    "log-summary-read-as-compaction", W, "derivation §1.2",
        "a `type: \"summary\"` line (the session's title) that NiceEval's parser reads as a compaction",
        "do not count summary lines as compactions; they title the session";
    "log-result-without-use", W, "derivation §2.2",
        "a tool result whose id no earlier tool_use has: the log was cut or resumed, and NiceEval emits a finish with no start",
        "open the whole session log, or read that call as one whose start is missing";
    "log-error-flag-not-boolean", W, "derivation §1.2, §5.4",
        "an `is_error` that is not a boolean: NiceEval's parser tests `is_error === true`, so the string \"true\" reads as completed",
        "read the result's status from what the flag says; NiceEval's reading (shown) ignores it";
    "log-time-backwards", W, "derivation §1.1",
        "a line whose timestamp is earlier than an earlier line's (a clock change, or logs merged or resumed)",
        "order by the log's lines, as NiceEval does; durations from these timestamps are not reliable";
    // The input file itself.
    "input-line-skipped", E, "derivation §1.1, RFC 8259 §2",
        "a JSONL line that is not one JSON value in UTF-8 was skipped: whatever it held is missing",
        "write one complete JSON value per line with a JSON serializer; a line cut short means the writer stopped mid-line";
    "input-text-replaced", W, "derivation §1.1, RFC 8259 §8",
        "invalid UTF-8 or an unpaired UTF-16 surrogate escape, replaced by U+FFFD so the file opens",
        "write UTF-8 and let a JSON serializer escape strings; do not cut strings inside a UTF-8 sequence or a surrogate pair";
}

/// The catalog entry for a code.
pub fn rule_info(code: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.code == code)
}

/// How many of a turn's events one thread digests at a time (a long turn's
/// outputs are digested on every core).
const EVENTS_AT_ONCE: usize = 2048;

/// Collects findings with the catalog's severity, rule and default hint.
pub(crate) struct Sink {
    pub findings: Vec<Finding>,
}

impl Sink {
    pub fn push(&mut self, code: &'static str, location: Location, message: String) {
        self.push_hint(code, location, message, None);
    }

    pub fn push_hint(&mut self, code: &'static str, location: Location, message: String, hint: Option<String>) {
        let info = rule_info(code);
        debug_assert!(info.is_some(), "unknown lint code {code}");
        let (severity, rule, default_hint) = match info {
            Some(i) => (i.severity, i.rule, i.hint),
            None => (Severity::Error, "derivation", ""),
        };
        self.findings.push(Finding {
            code: info.map(|i| i.code).unwrap_or(code),
            severity,
            location,
            message,
            hint: hint.map_or(std::borrow::Cow::Borrowed(default_hint), std::borrow::Cow::Owned),
            rule,
            input: None,
        });
    }
}

/// Quote an input-derived string for a message: shortened, JSON-quoted.
/// (Callers that print still sanitize.)
pub(crate) fn q(s: &str) -> String {
    const MAX: usize = 60;
    let short: String =
        if s.chars().count() > MAX { format!("{}…", s.chars().take(MAX).collect::<String>()) } else { s.to_string() };
    serde_json::to_string(&short).unwrap_or_default()
}

/// `N:i` as every surface prints it: the attempt-wide turn number
/// (turnOrdinal) and the event ordinal (adapter event index + 1).
pub(crate) fn pos(turn_ordinal: u64, event: usize) -> String {
    format!("{turn_ordinal}:{}", event + 1)
}

/// Whether the input records Turn statuses at all. Some formats (an
/// InvocationSummary's flat event list) keep the adapter's events but not the
/// Turn `status`; then status rules cannot judge the adapter. A Turn that
/// omits `status` in a Turn-shaped input still counts as recorded: the loader
/// notes it, and `turn-status-missing` reports it.
pub fn statuses_recorded(attempt: &super::document::Attempt) -> bool {
    attempt.sessions.iter().flat_map(|s| &s.turns).any(|t| t.turn.status.is_some())
        || attempt.notices.iter().any(|n| n.kind.is_turn_status_problem())
}

/// True when the attempt's events are the adapter's own stream.
pub fn attempt_is_checkable(attempt: &super::document::Attempt) -> bool {
    attempt.events_exact
}

/// Every finding for every attempt of a document. `derived[i]` belongs to `doc.attempts[i]`.
///
/// Attempts whose events were rebuilt from a lossy source (`events_exact ==
/// false`, e.g. a Record conversation) and reconstructed turns are skipped:
/// those events are not the adapter's.
pub fn lint_document(doc: &Document, derived: &[DerivedAttempt]) -> Vec<Finding> {
    let turns = lint_turns_with(doc, |ai, addr| derived.get(ai).and_then(|d| d.turn(addr)).map(|t| t.coverage.clone()));
    let sessions = lint_sessions(doc, derived);
    let mut findings = input::findings(doc);
    findings.extend(merge(turns, sessions));
    findings
}

/// The per-turn half of [`lint_document`] (notices, event, status, usage,
/// coverage and content rules), shared out a turn at a time to whichever
/// thread [`help`](SharedTurnLint::help)s (`analysis::lint_turns_while`
/// runs it beside the derivation). It needs no derivation: each turn's
/// coverage is the one `derive_attempt` computes (the agent default
/// downgraded by the turn's declaration). A long turn's texts are digested
/// over `spread`.
pub fn shared_turn_lint(doc: &Document, spread: Spread) -> SharedTurnLint<'_> {
    SharedTurnLint::new(doc, spread)
}

/// The coverage [`derive_attempt`](super::derive::derive_attempt) gives a
/// turn, worked out without the derivation.
fn agent_coverage(doc: &Document, ai: usize, addr: super::derive::TurnAddr) -> Option<super::coverage::Coverage> {
    let record = doc.attempts.get(ai)?.sessions.get(addr.session)?.turns.get(addr.turn)?;
    Some(super::coverage::Coverage::complete().downgrade(record.turn.evidence_coverage.as_ref()))
}

/// The per-turn lint of [`shared_turn_lint`], its turns handed out one at a time
/// to whichever thread [`SharedTurnLint::help`]s.
pub struct SharedTurnLint<'d> {
    doc: &'d Document,
    /// (attempt, session, turn, whether the attempt records statuses), in
    /// the order [`turn_findings_with`] visits them.
    turns: Vec<(usize, usize, usize, bool)>,
    next: AtomicUsize,
    done: Mutex<Vec<Option<Vec<Finding>>>>,
    spread: Spread,
}

impl<'d> SharedTurnLint<'d> {
    fn new(doc: &'d Document, spread: Spread) -> Self {
        let mut turns = Vec::new();
        // A dry run of the assembly lists the turns in its own order.
        turn_findings_with(doc, |ai, si, ti, statuses| {
            turns.push((ai, si, ti, statuses));
            Vec::new()
        });
        let done = Mutex::new(turns.iter().map(|_| None).collect());
        SharedTurnLint { doc, turns, next: AtomicUsize::new(0), done, spread }
    }

    /// Lint turns until none is left.
    pub fn help(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(ai, si, ti, statuses)) = self.turns.get(i) else { return };
            let coverage = |ai, addr| agent_coverage(self.doc, ai, addr);
            let findings = lint_turn(self.doc, (ai, si, ti), statuses, coverage, self.spread);
            self.done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(findings);
        }
    }

    /// The findings, once every helper has returned.
    pub fn finish(self) -> TurnFindings {
        let mut done = self.done.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter();
        turn_findings_with(self.doc, |_, _, _, _| done.next().flatten().unwrap_or_default())
    }
}

/// Findings of [`shared_turn_lint`]: per attempt, the notice findings and, per
/// session, its turns' findings, in the order [`lint_document`] reports them.
#[derive(Debug, Default)]
pub struct TurnFindings {
    attempts: Vec<(Vec<Finding>, Vec<Vec<Finding>>)>,
}

/// Findings of [`lint_sessions`]: per attempt, per session (pairing rules).
#[derive(Debug, Default)]
pub struct SessionFindings {
    attempts: Vec<Vec<Vec<Finding>>>,
}

fn lint_turns_with(
    doc: &Document,
    coverage_of: impl Fn(usize, super::derive::TurnAddr) -> Option<super::coverage::Coverage>,
) -> TurnFindings {
    turn_findings_with(doc, |ai, si, ti, statuses| {
        lint_turn(doc, (ai, si, ti), statuses, &coverage_of, Spread::SEQUENTIAL)
    })
}

/// The findings of [`shared_turn_lint`], each turn's from `turn` (given the
/// attempt, session and turn, and whether the attempt records statuses).
fn turn_findings_with(doc: &Document, mut turn: impl FnMut(usize, usize, usize, bool) -> Vec<Finding>) -> TurnFindings {
    let mut out = TurnFindings::default();
    for (ai, attempt) in doc.attempts.iter().enumerate() {
        let mut notices = Sink { findings: Vec::new() };
        let mut sessions = Vec::new();
        if attempt_is_checkable(attempt) {
            let statuses = statuses_recorded(attempt);
            for notice in &attempt.notices {
                if let Some((si, ti)) = turn_shape_notice(notice) {
                    let location = Location { attempt: ai, session: si, turn: Some(ti), event: None };
                    notices.push("turn-shape", location, notice.message.clone());
                }
            }
            for (si, session) in attempt.sessions.iter().enumerate() {
                let mut sink = Sink { findings: Vec::new() };
                check_index(
                    &mut sink,
                    Location { attempt: ai, session: si, turn: None, event: None },
                    &session.index_misfit,
                );
                for (ti, record) in session.turns.iter().enumerate() {
                    if !record.reconstructed {
                        sink.findings.extend(turn(ai, si, ti, statuses));
                    }
                }
                sessions.push(sink.findings);
            }
        }
        out.attempts.push((notices.findings, sessions));
    }
    out
}

/// One turn's findings (index, event, status, usage, coverage and content rules).
fn lint_turn(
    doc: &Document,
    (ai, si, ti): (usize, usize, usize),
    statuses: bool,
    coverage_of: impl Fn(usize, super::derive::TurnAddr) -> Option<super::coverage::Coverage>,
    spread: Spread,
) -> Vec<Finding> {
    let attempt = &doc.attempts[ai];
    let record = &attempt.sessions[si].turns[ti];
    let mut sink = Sink { findings: Vec::new() };
    let here = Location { attempt: ai, session: si, turn: Some(ti), event: None };
    check_index(&mut sink, here, &record.ordinal_misfit);
    let coverage = coverage_of(ai, super::derive::TurnAddr { session: si, turn: ti });
    events::check_turn_events(&mut sink, here, record);
    let recorded = attempt.recorded_coverage.as_ref().and_then(|c| c.get("actions"));
    turn::check_turn(&mut sink, here, record, coverage.as_ref(), recorded, statuses, spread);
    // Nothing reads this turn's text again in the lint.
    record.turn.release_pages();
    sink.findings
}

/// A written `sessionIndex` or `ordinal` outside the contract.
fn check_index(sink: &mut Sink, at: Location, misfit: &Option<super::indices::IndexMisfit>) {
    use super::indices::IndexMisfit;
    match misfit {
        Some(IndexMisfit::WrittenAsFloat(why)) => sink.push("index-written-as-float", at, why.clone()),
        Some(IndexMisfit::Invalid(why)) => sink.push("invalid-index", at, why.clone()),
        None => {}
    }
}

/// The session-scope half of [`lint_document`]: tool pairing, read from the derivation.
pub fn lint_sessions(doc: &Document, derived: &[DerivedAttempt]) -> SessionFindings {
    let mut out = SessionFindings::default();
    for (ai, attempt) in doc.attempts.iter().enumerate() {
        let mut sessions = Vec::new();
        if attempt_is_checkable(attempt)
            && let Some(d) = derived.get(ai)
        {
            let statuses = statuses_recorded(attempt);
            let started = pairing::started_in(d);
            for (si, session) in attempt.sessions.iter().enumerate() {
                let mut sink = Sink { findings: Vec::new() };
                if let Some(first) = attempt.sessions[..si].iter().position(|s| s.index == session.index) {
                    sink.push(
                        "duplicate-session-index",
                        Location { attempt: ai, session: si, turn: None, event: None },
                        format!(
                            "session line {} has the sessionIndex of session line {} ({}): NiceEval's attempt scope pairs their tool calls as one session, their session scopes do not",
                            si + 1,
                            first + 1,
                            session.scope_name()
                        ),
                    );
                }
                pairing::check_session(&mut sink, ai, si, session, d, &started, statuses);
                sessions.push(sink.findings);
            }
            let mut sink = Sink { findings: Vec::new() };
            sums::check_attempt(&mut sink, ai, attempt, d);
            log::check_attempt(&mut sink, ai, attempt);
            // Sum and log findings belong to sessions (the attempt's own to the first).
            for f in sink.findings {
                if let Some(part) = sessions.get_mut(f.location.session) {
                    part.push(f);
                }
            }
        }
        out.attempts.push(sessions);
    }
    out
}

/// Both halves in [`lint_document`]'s order: per attempt its notices, then
/// per session its turns' findings and its pairing findings; then sorted by
/// location (stable), errors first at the same location.
pub fn merge(turns: TurnFindings, sessions: SessionFindings) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut sessions = sessions.attempts.into_iter();
    for (notices, turn_parts) in turns.attempts {
        findings.extend(notices);
        let mut pairing = sessions.next().unwrap_or_default().into_iter();
        for part in turn_parts {
            findings.extend(part);
            findings.extend(pairing.next().unwrap_or_default());
        }
        findings.extend(pairing.flatten());
    }
    findings.extend(sessions.flatten().flatten());
    findings.sort_by(|a, b| a.location.cmp(&b.location).then(b.severity.cmp(&a.severity)));
    findings
}

/// Whether a load notice is reported by `check` as a finding (turn shape or
/// status), so surfaces need not print it twice.
pub fn notice_is_finding(notice: &super::document::Notice) -> bool {
    turn_shape_notice(notice).is_some() || notice.kind.is_turn_status_problem()
}

/// `(session, turn)` of a loader notice about a Turn's shape, where the
/// Turn's place in the attempt is known.
fn turn_shape_notice(notice: &super::document::Notice) -> Option<(usize, usize)> {
    use super::document::{NoticeKind, TurnPlace};
    match notice.kind {
        NoticeKind::Turn { place: TurnPlace::At { session, turn }, problem } if !problem.is_status() => {
            Some((session, turn))
        }
        _ => None,
    }
}
