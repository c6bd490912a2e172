//! The tool-call sequences of two attempts, diffed: calls are aligned by
//! name (a longest common subsequence), then each aligned pair is the same,
//! or its status or input changed; the rest were added or removed.

use crate::model::derive::AttemptEvents;
use crate::model::occurrence::Occurrence;
use crate::view::text::{Text, Tone};
use similar::{Algorithm, DiffOp, capture_diff_slices};

/// What happened to a tool call between the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolChange {
    Removed,
    Added,
    StatusChanged,
    InputChanged,
    StatusAndInputChanged,
    Same,
}

impl ToolChange {
    pub fn is_change(self) -> bool {
        self != ToolChange::Same
    }

    pub fn word(self) -> &'static str {
        match self {
            ToolChange::Removed => "removed",
            ToolChange::Added => "added",
            ToolChange::StatusChanged => "status changed",
            ToolChange::InputChanged => "input changed",
            ToolChange::StatusAndInputChanged => "status and input changed",
            ToolChange::Same => "same",
        }
    }

    /// "- removed", "+ added", "~ status changed", "= same".
    pub fn text(self) -> Text {
        let (mark, tone) = match self {
            ToolChange::Removed => ("-", Tone::Bad),
            ToolChange::Added => ("+", Tone::Good),
            ToolChange::StatusChanged | ToolChange::InputChanged | ToolChange::StatusAndInputChanged => {
                ("~", Tone::Warn)
            }
            ToolChange::Same => ("=", Tone::Soft),
        };
        Text::toned(format!("{mark} {}", self.word()), tone)
    }

    /// The one-character mark alone.
    pub fn mark(self) -> Text {
        let t = self.text();
        let tone = t.first_tone();
        Text::toned(t.as_plain().chars().next().unwrap_or(' ').to_string(), tone)
    }
}

/// One line of the diff: the call on each side (an index into the
/// attempt's occurrences), and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRow {
    pub sides: [Option<usize>; 2],
    pub change: ToolChange,
}

/// How a call is matched across sides: its own name (the canonical class
/// would match a `Read` with a `Bash`).
fn key(o: &Occurrence) -> &str {
    &o.original_name
}

/// Compare two aligned calls: status (as written) and input (the value).
fn pair_change((a, a_events): (&Occurrence, AttemptEvents), (b, b_events): (&Occurrence, AttemptEvents)) -> ToolChange {
    let status = a.lifecycle.status_word() != b.lifecycle.status_word() || a.ambiguous != b.ambiguous;
    let input = a.input(&a_events).value() != b.input(&b_events).value();
    match (status, input) {
        (true, true) => ToolChange::StatusAndInputChanged,
        (true, false) => ToolChange::StatusChanged,
        (false, true) => ToolChange::InputChanged,
        (false, false) => ToolChange::Same,
    }
}

/// The diff of the attempts' tool calls, in the order they ran.
pub fn diff(before: AttemptEvents, after: AttemptEvents) -> Vec<ToolRow> {
    let (a, b) = (&before.derived.occurrences.occurrences, &after.derived.occurrences.occurrences);
    let ka: Vec<&str> = a.iter().map(key).collect();
    let kb: Vec<&str> = b.iter().map(key).collect();
    let mut rows = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &ka, &kb) {
        match op {
            DiffOp::Equal { old_index, new_index, len } => {
                for k in 0..len {
                    let (i, j) = (old_index + k, new_index + k);
                    rows.push(ToolRow {
                        sides: [Some(i), Some(j)],
                        change: pair_change((&a[i], before), (&b[j], after)),
                    });
                }
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                rows.extend((old_index..old_index + old_len).map(removed));
            }
            DiffOp::Insert { new_index, new_len, .. } => {
                rows.extend((new_index..new_index + new_len).map(added));
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                rows.extend((old_index..old_index + old_len).map(removed));
                rows.extend((new_index..new_index + new_len).map(added));
            }
        }
    }
    rows
}

fn removed(i: usize) -> ToolRow {
    ToolRow { sides: [Some(i), None], change: ToolChange::Removed }
}

fn added(j: usize) -> ToolRow {
    ToolRow { sides: [None, Some(j)], change: ToolChange::Added }
}

/// "1 input changed · 2 added", or "the same calls" when nothing changed.
pub fn summary(rows: &[ToolRow]) -> Text {
    let mut parts = Vec::new();
    for change in [
        ToolChange::Removed,
        ToolChange::Added,
        ToolChange::StatusChanged,
        ToolChange::InputChanged,
        ToolChange::StatusAndInputChanged,
    ] {
        let n = rows.iter().filter(|r| r.change == change).count();
        if n > 0 {
            parts.push(format!("{n} {}", change.word()));
        }
    }
    if parts.is_empty() {
        return Text::toned(
            format!("the same {} on both sides", crate::view::format::count(rows.len(), "call", "calls")),
            Tone::Soft,
        );
    }
    Text::toned(parts.join(" · "), Tone::Warn)
}
