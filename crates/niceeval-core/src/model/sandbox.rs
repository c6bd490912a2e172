//! Sandbox lifecycle commands (setup, test, teardown, …): the commands
//! NiceEval ran through its Sandbox API, not the agent's tool calls. Two
//! shapes are read into one: a Record's / `show --json`'s observability
//! `commands` (`{commandId, manifest:{phase, invocation, workingDirectory},
//! result:{outcome, stdout, stderr}}`, each stream with a top-level `text`
//! when its content was resolved) and an InvocationSummary's / legacy
//! `commands.json` (`{timingNodeId, phase, display, exitCode, checked,
//! stdout, stderr, truncated?}`). Absent is `None`, never 0 or "".

use serde_json::Value;

/// What was run.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Invocation {
    /// A shell command line.
    Shell(String),
    /// An executable and its arguments.
    Argv { executable: String, arguments: Vec<String> },
    /// The display line an InvocationSummary keeps (already one line of text).
    Display(String),
    #[default]
    NotRecorded,
}

impl Invocation {
    /// The command as one line a shell would read (argv words joined by spaces).
    pub fn line(&self) -> Option<String> {
        match self {
            Invocation::Shell(s) | Invocation::Display(s) => Some(s.clone()),
            Invocation::Argv { executable, arguments } => Some(
                std::iter::once(executable.as_str())
                    .chain(arguments.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Invocation::NotRecorded => None,
        }
    }

    /// The first word, as NiceEval labels the command's timing interval.
    pub fn first_word(&self) -> Option<String> {
        match self {
            Invocation::Argv { executable, .. } => Some(executable.clone()),
            other => other.line()?.split_whitespace().next().map(str::to_string),
        }
    }
}

/// Where it ran.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkingDirectory {
    SandboxDefault,
    ProjectRelative(String),
    Redacted,
    /// Another kind, as written.
    Other(String),
}

/// How it ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Outcome {
    Exited(i64),
    /// `timeout | cancelled | transport-lost`.
    Terminated(Option<String>),
    /// `spawn-failed | cancelled-before-start`.
    NotStarted(Option<String>),
    /// Another kind, as written.
    Other {
        kind: String,
        reason: Option<String>,
    },
    #[default]
    NotRecorded,
}

impl Outcome {
    /// A non-zero exit, a termination or a command that never started.
    pub fn failed(&self) -> bool {
        match self {
            Outcome::Exited(code) => *code != 0,
            Outcome::Terminated(_) | Outcome::NotStarted(_) | Outcome::Other { .. } => true,
            Outcome::NotRecorded => false,
        }
    }
}

/// One of stdout and stderr.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stream {
    /// The retained text; `None` when its content was not recorded or not resolved.
    pub text: Option<String>,
    /// Bytes the file keeps (`retainedBytes`).
    pub retained_bytes: Option<u64>,
    /// Bytes the command wrote (`totalSafeUtf8Bytes`).
    pub total_bytes: Option<u64>,
    /// The file says the stream was cut (a legacy `truncated` naming it).
    pub truncated: bool,
}

impl Stream {
    /// Bytes the file did not keep, when it says so.
    pub fn omitted_bytes(&self) -> Option<u64> {
        let (kept, total) = (self.retained_bytes?, self.total_bytes?);
        (total > kept).then_some(total - kept)
    }
}

/// One lifecycle command.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SandboxCommand {
    /// `commandId` (Record) or `timingNodeId` (InvocationSummary).
    pub id: Option<String>,
    /// `attempt.setup`, `agent.ensure`, `eval.run`, `sandbox.command`, `attempt.teardown`, …
    pub phase: Option<String>,
    pub invocation: Invocation,
    pub working_directory: Option<WorkingDirectory>,
    pub outcome: Outcome,
    pub stdout: Stream,
    pub stderr: Stream,
    /// Whether the runner checked the exit code (InvocationSummary only).
    pub checked: Option<bool>,
    /// The timing node it ran as (InvocationSummary's `timingNodeId`).
    pub timing_node: Option<String>,
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

fn stream_of(v: Option<&Value>, truncated: bool) -> Stream {
    match v {
        Some(Value::String(text)) => Stream { text: Some(text.clone()), truncated, ..Stream::default() },
        Some(o @ Value::Object(_)) => Stream {
            text: s(o.get("text")).or_else(|| {
                let storage = o.get("storage")?;
                (storage.get("kind")?.as_str()? == "inline").then(|| s(storage.get("text")))?
            }),
            retained_bytes: o.get("retainedBytes").and_then(Value::as_u64),
            total_bytes: o.get("totalSafeUtf8Bytes").and_then(Value::as_u64),
            truncated,
        },
        _ => Stream { truncated, ..Stream::default() },
    }
}

fn outcome_of(o: Option<&Value>) -> Outcome {
    let Some(o) = o else { return Outcome::NotRecorded };
    let reason = s(o.get("reason"));
    match o.get("kind").and_then(Value::as_str) {
        Some("exited") => match o.get("exitCode").and_then(Value::as_i64) {
            Some(code) => Outcome::Exited(code),
            None => Outcome::Other { kind: "exited".into(), reason: Some("no exit code recorded".into()) },
        },
        Some("terminated") => Outcome::Terminated(reason),
        Some("not-started") => Outcome::NotStarted(reason),
        Some(other) => Outcome::Other { kind: other.to_string(), reason },
        None => Outcome::NotRecorded,
    }
}

fn working_directory_of(w: Option<&Value>) -> Option<WorkingDirectory> {
    let w = w?;
    Some(match w.get("kind").and_then(Value::as_str) {
        Some("sandbox-default") => WorkingDirectory::SandboxDefault,
        Some("project-relative") => WorkingDirectory::ProjectRelative(s(w.get("path")).unwrap_or_default()),
        Some("redacted") => WorkingDirectory::Redacted,
        Some(other) => WorkingDirectory::Other(other.to_string()),
        None => WorkingDirectory::Other(w.to_string()),
    })
}

impl SandboxCommand {
    /// One command of either shape; what a shape lacks stays `None`.
    pub fn from_value(v: &Value) -> SandboxCommand {
        match v.get("manifest") {
            Some(m) => {
                let inv = m.get("invocation");
                let invocation = match inv.and_then(|i| i.get("kind")).and_then(Value::as_str) {
                    Some("shell") => {
                        s(inv.and_then(|i| i.get("command"))).map(Invocation::Shell).unwrap_or(Invocation::NotRecorded)
                    }
                    Some("argv") => Invocation::Argv {
                        executable: s(inv.and_then(|i| i.get("executable"))).unwrap_or_default(),
                        arguments: inv
                            .and_then(|i| i.get("arguments"))
                            .and_then(Value::as_array)
                            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                            .unwrap_or_default(),
                    },
                    _ => Invocation::NotRecorded,
                };
                let result = v.get("result");
                SandboxCommand {
                    id: s(v.get("commandId")),
                    phase: s(m.get("phase")),
                    invocation,
                    working_directory: working_directory_of(m.get("workingDirectory")),
                    outcome: outcome_of(result.and_then(|r| r.get("outcome"))),
                    stdout: stream_of(result.and_then(|r| r.get("stdout")), false),
                    stderr: stream_of(result.and_then(|r| r.get("stderr")), false),
                    checked: None,
                    timing_node: None,
                }
            }
            None => {
                // `truncated`: the streams it names (or `true`: both).
                let cut = |name: &str| match v.get("truncated") {
                    Some(Value::Bool(b)) => *b,
                    Some(Value::Array(a)) => a.iter().any(|x| x.as_str() == Some(name)),
                    Some(Value::Object(o)) => o.get(name).and_then(Value::as_bool) == Some(true),
                    _ => false,
                };
                SandboxCommand {
                    id: s(v.get("timingNodeId")),
                    phase: s(v.get("phase")),
                    invocation: s(v.get("display")).map(Invocation::Display).unwrap_or(Invocation::NotRecorded),
                    working_directory: None,
                    outcome: match v.get("exitCode").and_then(Value::as_i64) {
                        Some(code) => Outcome::Exited(code),
                        None => Outcome::NotRecorded,
                    },
                    stdout: stream_of(v.get("stdout"), cut("stdout")),
                    stderr: stream_of(v.get("stderr"), cut("stderr")),
                    checked: v.get("checked").and_then(Value::as_bool),
                    timing_node: s(v.get("timingNodeId")),
                }
            }
        }
    }
}

/// The timing interval each command ran as (an index into
/// `timing.intervals`): an InvocationSummary's `timingNodeId` names its
/// activity; a Record keeps no link, but NiceEval records each command as
/// one `sandbox.command` interval labelled with its first word, in the same
/// order, so the k-th command is the k-th such interval when the counts
/// match and every label agrees; otherwise none is linked (a guess is not
/// a link).
pub fn intervals(commands: &[SandboxCommand], timing: &super::timing::Timing) -> Vec<Option<usize>> {
    let by_id = |id: &str| timing.intervals.iter().position(|i| i.id.as_deref() == Some(id));
    if commands.iter().any(|c| c.timing_node.is_some()) {
        return commands.iter().map(|c| c.timing_node.as_deref().and_then(by_id)).collect();
    }
    let runs: Vec<usize> = (0..timing.intervals.len())
        .filter(|&i| timing.intervals[i].phase.as_deref() == Some("sandbox.command"))
        .collect();
    let agree = runs.len() == commands.len()
        && runs
            .iter()
            .zip(commands)
            .all(|(&i, c)| c.invocation.first_word().as_deref() == Some(timing.intervals[i].label.as_str()));
    if agree { runs.into_iter().map(Some).collect() } else { vec![None; commands.len()] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_command_reads_its_manifest_and_result() {
        let c = SandboxCommand::from_value(&json!({
            "commandId": "command_1",
            "manifest": {"phase": "eval.run", "invocation": {"kind": "argv", "executable": "pnpm", "arguments": ["test"]},
                         "workingDirectory": {"kind": "project-relative", "path": "app"}},
            "result": {"outcome": {"kind": "exited", "exitCode": 1},
                       "stdout": {"storage": {"kind": "inline", "text": "ok\n"}, "retainedBytes": 3, "totalSafeUtf8Bytes": 3},
                       "stderr": {"storage": {"kind": "blob", "ref": {}}, "retainedBytes": 10, "totalSafeUtf8Bytes": 90, "text": "boom"}}
        }));
        assert_eq!(c.invocation.line().as_deref(), Some("pnpm test"));
        assert_eq!(c.working_directory, Some(WorkingDirectory::ProjectRelative("app".into())));
        assert_eq!(c.outcome, Outcome::Exited(1));
        assert!(c.outcome.failed());
        assert_eq!(c.stdout.text.as_deref(), Some("ok\n"));
        assert_eq!(c.stderr.text.as_deref(), Some("boom"));
        assert_eq!(c.stderr.omitted_bytes(), Some(80));
        assert_eq!(c.stdout.omitted_bytes(), None);
    }

    #[test]
    fn a_summary_command_reads_its_display_and_exit_code() {
        let c = SandboxCommand::from_value(&json!({
            "timingNodeId": "n4", "phase": "eval.run", "display": "pnpm test", "exitCode": 2,
            "checked": true, "stdout": "", "stderr": "FAIL", "truncated": ["stderr"]
        }));
        assert_eq!(c.invocation, Invocation::Display("pnpm test".into()));
        assert_eq!(c.outcome, Outcome::Exited(2));
        assert_eq!(c.checked, Some(true));
        assert!(c.stderr.truncated && !c.stdout.truncated);
        assert_eq!(c.working_directory, None);
    }

    #[test]
    fn record_commands_link_to_their_intervals_only_when_every_label_agrees() {
        use crate::model::timing::{Interval, Timing};
        let iv = |phase: &str, label: &str| Interval {
            phase: Some(phase.into()),
            label: label.into(),
            ..Interval::default()
        };
        let cmd =
            |line: &str| SandboxCommand { invocation: Invocation::Shell(line.into()), ..SandboxCommand::default() };
        let timing = Timing {
            intervals: vec![
                iv("eval.run", "eval.run"),
                iv("sandbox.command", "git"),
                iv("agent.send", "turn1"),
                iv("sandbox.command", "pnpm"),
            ],
            ..Timing::default()
        };
        assert_eq!(intervals(&[cmd("git add -A"), cmd("pnpm test")], &timing), [Some(1), Some(3)]);
        assert_eq!(intervals(&[cmd("git add -A"), cmd("npm test")], &timing), [None, None]);
        assert_eq!(intervals(&[cmd("git add -A")], &timing), [None]);
    }

    #[test]
    fn absent_is_not_recorded_not_zero() {
        let c = SandboxCommand::from_value(&json!({"manifest": {}}));
        assert_eq!(c.outcome, Outcome::NotRecorded);
        assert!(!c.outcome.failed());
        assert_eq!(c.invocation.line(), None);
        assert_eq!(c.stdout.text, None);
        let t = SandboxCommand::from_value(
            &json!({"manifest": {}, "result": {"outcome": {"kind": "terminated", "reason": "timeout"}}}),
        );
        assert_eq!(t.outcome, Outcome::Terminated(Some("timeout".into())));
        assert!(t.outcome.failed());
    }
}
