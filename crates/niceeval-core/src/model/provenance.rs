//! Where an attempt's events came from: for a native agent log, each of its
//! lines; for an sdk-converters capture, each converter call it recorded.
//! Each such "native line" keeps its number, its kind word, a byte range
//! into the source (never a copy: a 1 GB log stays in its mapping), the
//! events it became and, when it became none, why.

use super::event::Source;

/// The agent CLI that wrote a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
}

impl Agent {
    /// The name `--agent` takes and `convert --json` writes.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
        }
    }

    pub fn from_name(name: &str) -> Option<Agent> {
        match name {
            "claude-code" => Some(Agent::ClaudeCode),
            "codex" => Some(Agent::Codex),
            _ => None,
        }
    }

    /// What the log is, for a document's format line.
    pub fn log_name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code transcript",
            Agent::Codex => "codex exec --json transcript",
        }
    }

    /// NiceEval's parser this module ports.
    pub fn parser(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "parseClaudeCodeTranscript",
            Agent::Codex => "parseCodexTranscript",
        }
    }
}

/// Why a line gave no event, no usage and no compaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Not JSON (`JSON.parse` failed): the parser's `parseSuccess` turns false.
    NotJson(String),
    /// NiceEval's code throws on this line (a value it cannot make a
    /// string); it drops the line and `parseSuccess` turns false.
    Throws,
    /// Session metadata or lifecycle: a `system` line, `thread.*`,
    /// `turn.started`, a `turn.completed` that did not fail, `response.*`.
    Metadata,
    /// An intermediate state the parser waits past: `item.updated`, or an
    /// `item.started` of a kind recorded only when completed.
    Incomplete,
    /// Streaming text fragments (`output_text.delta`/`.done`) whose whole
    /// text comes on another line.
    Delta,
    /// A line or item of a type the parser does not map (`todo_list`, …).
    Unmapped(String),
    /// A message or reasoning line with no text.
    NoText,
    /// The result of a Skill tool use, already read as `skill.loaded`.
    SkillResult,
    /// A JSON value that is not an object, or an object with no type the
    /// parser reads.
    NoShape,
}

impl SkipReason {
    /// Whether NiceEval's parser counts this line against `parseSuccess`.
    pub fn is_loss(&self) -> bool {
        matches!(self, SkipReason::NotJson(_) | SkipReason::Throws)
    }
}

/// Why a native line became no event (the loader's reasons, as facts; the
/// view words them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropReason {
    /// A log line the parser skipped, and why.
    Skipped(SkipReason),
    /// Read (for usage or state) but made into no event.
    ReadNoEvent,
    /// A converter call that returned no event.
    ReturnedNothing,
}

impl DropReason {
    /// Whether the line was lost (NiceEval counts it against `parseSuccess`).
    pub fn is_loss(&self) -> bool {
        matches!(self, DropReason::Skipped(s) if s.is_loss())
    }
}

/// What the native lines are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Lines of a native agent log (`claude-code`, `codex`). `repaired`:
    /// the file was not UTF-8, so the ranges are into the text as read
    /// (invalid bytes as U+FFFD), which the provenance keeps.
    AgentLog { agent: String, repaired: bool },
    /// Converter calls recorded in an sdk-converters capture's `raw`.
    ConverterCalls,
}

/// One native line. Compact: a log can have millions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeLine {
    /// 1-based line number (a log) or call number (a capture).
    pub number: u32,
    /// Byte range of its text in [`Provenance::source`].
    pub start: u64,
    pub len: u32,
    /// Index into [`Provenance::kinds`].
    pub kind: u32,
    /// The turn its events went to.
    pub session: u32,
    pub turn: u32,
}

/// A turn's place: session and turn index in the attempt (as
/// `derive::TurnAddr`, which this module cannot name without a circle).
pub type TurnAt = (usize, usize);

/// The events each native line became, and the line of each event.
#[derive(Clone)]
pub struct Provenance {
    pub origin: Origin,
    /// The bytes the lines point into (the mapped log, or the calls' JSON).
    pub source: Source,
    /// Kind words (`assistant`, `item.completed command_execution`, …).
    pub kinds: Vec<String>,
    pub lines: Vec<NativeLine>,
    /// `produced[produced_at[i]..produced_at[i+1]]`: the event indices (in
    /// its turn) line `i` became.
    produced_at: Vec<u32>,
    produced: Vec<u32>,
    /// Lines that became nothing, by line index (sorted).
    dropped: Vec<(u32, DropReason)>,
    /// For each turn with lines, each event's line index.
    turns: Vec<(TurnAt, Vec<u32>)>,
}

impl std::fmt::Debug for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provenance").field("origin", &self.origin).field("lines", &self.lines.len()).finish()
    }
}

impl PartialEq for Provenance {
    fn eq(&self, other: &Self) -> bool {
        self.origin == other.origin
            && self.kinds == other.kinds
            && self.lines == other.lines
            && self.produced_at == other.produced_at
            && self.produced == other.produced
            && self.dropped == other.dropped
            && self.turns == other.turns
    }
}

/// Builds a [`Provenance`] line by line, in order.
pub struct ProvenanceBuilder {
    p: Provenance,
}

impl ProvenanceBuilder {
    pub fn new(origin: Origin, source: Source) -> ProvenanceBuilder {
        ProvenanceBuilder {
            p: Provenance {
                origin,
                source,
                kinds: Vec::new(),
                lines: Vec::new(),
                produced_at: vec![0],
                produced: Vec::new(),
                dropped: Vec::new(),
                turns: Vec::new(),
            },
        }
    }

    /// The index of a kind word, added when new (kinds are few).
    pub fn kind(&mut self, word: &str) -> u32 {
        match self.p.kinds.iter().position(|k| k == word) {
            Some(i) => i as u32,
            None => {
                self.p.kinds.push(word.to_string());
                (self.p.kinds.len() - 1) as u32
            }
        }
    }

    /// A line, the events (indices in its turn) it became, and why it
    /// became none (`None` with no events: read, no event).
    pub fn push(&mut self, line: NativeLine, events: &[u32], dropped: Option<DropReason>) {
        let index = self.p.lines.len() as u32;
        let addr = (line.session as usize, line.turn as usize);
        self.p.lines.push(line);
        self.p.produced.extend_from_slice(events);
        self.p.produced_at.push(self.p.produced.len() as u32);
        if events.is_empty() {
            self.p.dropped.push((index, dropped.unwrap_or(DropReason::ReadNoEvent)));
        }
        if !events.is_empty() {
            let slot = match self.p.turns.iter().position(|(a, _)| *a == addr) {
                Some(s) => s,
                None => {
                    self.p.turns.push((addr, Vec::new()));
                    self.p.turns.len() - 1
                }
            };
            let of_event = &mut self.p.turns[slot].1;
            for &e in events {
                let e = e as usize;
                if of_event.len() <= e {
                    of_event.resize(e + 1, u32::MAX);
                }
                of_event[e] = index;
            }
        }
    }

    pub fn finish(self) -> Provenance {
        self.p
    }
}

impl Provenance {
    /// The raw text of line `i` (its bytes, as they are in the source).
    pub fn text(&self, i: usize) -> &[u8] {
        let Some(l) = self.lines.get(i) else { return &[] };
        let bytes = self.source.bytes();
        let start = (l.start as usize).min(bytes.len());
        let end = (start + l.len as usize).min(bytes.len());
        &bytes[start..end]
    }

    pub fn kind(&self, i: usize) -> &str {
        self.lines.get(i).and_then(|l| self.kinds.get(l.kind as usize)).map_or("", String::as_str)
    }

    /// The turn line `i`'s events went to.
    pub fn turn_of(&self, i: usize) -> TurnAt {
        self.lines.get(i).map_or((0, 0), |l| (l.session as usize, l.turn as usize))
    }

    /// The event indices (in its turn) line `i` became.
    pub fn events(&self, i: usize) -> &[u32] {
        match (self.produced_at.get(i), self.produced_at.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.produced[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Why line `i` became nothing (`None`: it became events).
    pub fn dropped(&self, i: usize) -> Option<&DropReason> {
        let i = i as u32;
        self.dropped.binary_search_by_key(&i, |(l, _)| *l).ok().map(|at| &self.dropped[at].1)
    }

    /// Every dropped line: its index and reason.
    pub fn dropped_lines(&self) -> impl Iterator<Item = (usize, &DropReason)> {
        self.dropped.iter().map(|(l, r)| (*l as usize, r))
    }

    /// Each turn with lines, and how many events its lines became.
    pub fn turns(&self) -> impl Iterator<Item = (TurnAt, usize)> + '_ {
        self.turns.iter().map(|(a, of_event)| (*a, of_event.len()))
    }

    /// The line index event `event` of the turn at `addr` came from.
    pub fn line_of(&self, addr: TurnAt, event: usize) -> Option<usize> {
        let (_, of_event) = self.turns.iter().find(|(a, _)| *a == addr)?;
        of_event.get(event).filter(|&&l| l != u32::MAX).map(|&l| l as usize)
    }
}
