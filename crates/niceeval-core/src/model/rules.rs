//! The catalog of lint rules: every code `niceeval check` reports, with its
//! severity, the spec rule it enforces, what it catches and its default
//! fix hint. The rules themselves are in `lint`; a finding reads its hint
//! and citation here.

/// Error findings break NiceEval's derivations; warnings are likely mistakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

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
