//! What a native log says beyond NiceEval's reading of it: the places its
//! parser counts, pairs or reads a line otherwise than the log means it
//! ([`LogFact`]). The turn keeps NiceEval's reading; `check` reports these.
//! [`Truth`] sees each line once, as the parser reads it.

use super::js::{self, get, is_str};
use super::{Agent, Parsed, claude_code};
use crate::model::diagnostics::{LogFact, LogFactKind, UsageFigures};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

/// The facts found so far, line by line.
pub struct Truth {
    agent: Agent,
    /// Lines whose usage NiceEval's Claude Code parser adds, with their `message.id`.
    counted: Vec<(usize, Option<String>, UsageFigures)>,
    /// A `compact_boundary` line whose summary line may come next.
    boundary: Option<usize>,
    /// The tool_use ids seen so far.
    uses: FxHashSet<String>,
    /// The latest timestamp so far, its line and text.
    latest: Option<(i128, usize, String)>,
    /// Every line's timestamp (line, epoch ms), lines in order.
    times: Vec<(usize, i128)>,
    /// The model the log names first (`message.model`, or `model`).
    model: Option<String>,
    kinds: Vec<(usize, LogFactKind)>,
}

impl Truth {
    pub fn new(agent: Agent) -> Truth {
        Truth {
            agent,
            counted: Vec::new(),
            boundary: None,
            uses: FxHashSet::default(),
            latest: None,
            times: Vec::new(),
            model: None,
            kinds: Vec::new(),
        }
    }

    /// One parsed line.
    pub fn see(&mut self, line: usize, v: &Value) {
        if self.agent == Agent::ClaudeCode {
            self.count_usage(line, v);
            self.compaction(line, v);
            self.results(line, v);
        }
        self.time(line, v);
        if self.model.is_none() {
            let named = get(v.get("message"), "model").or_else(|| v.get("model"));
            self.model = named.and_then(Value::as_str).filter(|m| !m.trim().is_empty()).map(str::to_string);
        }
    }

    /// The model the log names first, for the cost estimate (NiceEval's
    /// parser reads none; the price table is this viewer's).
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// Every line's timestamp so far (line, epoch ms), lines in order.
    pub fn times(&self) -> &[(usize, i128)] {
        &self.times
    }

    /// The facts, each at the first event its line became (`parsed`: NiceEval's reading).
    pub fn finish(mut self, parsed: &Parsed) -> Vec<LogFact> {
        self.usage_repeated();
        // The lines of events never decrease: the first event of a line by halving.
        let event_of = |line: usize| {
            let i = parsed.event_lines.partition_point(|l| *l < line);
            (parsed.event_lines.get(i) == Some(&line)).then_some(i)
        };
        self.kinds.sort_by_key(|(line, _)| *line);
        self.kinds.into_iter().map(|(line, kind)| LogFact { line, event: event_of(line), kind }).collect()
    }

    /// A user or assistant line (not a compaction marker) with a usage
    /// NiceEval's parser reads: it adds it.
    fn count_usage(&mut self, line: usize, v: &Value) {
        let role = ["type", "role"].iter().any(|k| is_str(v.get(*k), "user") || is_str(v.get(*k), "assistant"));
        if !role || claude_code::is_compaction_marker(v) {
            return;
        }
        let Some(d) = claude_code::read_usage(js::or(get(v.get("message"), "usage"), v.get("usage"))) else { return };
        let id = get(v.get("message"), "id").and_then(Value::as_str).map(str::to_string);
        self.counted.push((line, id, UsageFigures { input: d.input, output: d.output, requests: 1 }));
    }

    /// The `message.id`s whose usage is on several lines: Claude Code writes
    /// a line per content block, each with the response's whole usage.
    fn usage_repeated(&mut self) {
        let counted = &self.counted;
        let mut by_id: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        let mut niceeval = UsageFigures::default();
        for (i, (_, id, u)) in counted.iter().enumerate() {
            add(&mut niceeval, *u);
            if let Some(id) = id {
                by_id.entry(id.as_str()).or_default().push(i);
            }
        }
        // Counted once: every line without an id, and each id's last line.
        let mut once = UsageFigures::default();
        for (i, (_, id, u)) in counted.iter().enumerate() {
            let last = id.as_deref().and_then(|id| by_id.get(id)).and_then(|ix| ix.last().copied());
            if last.is_none_or(|l| l == i) {
                add(&mut once, *u);
            }
        }
        let mut repeated: Vec<&Vec<usize>> = by_id.values().filter(|ix| ix.len() > 1).collect();
        repeated.sort_by_key(|ix| ix[0]);
        let messages: Vec<(String, Vec<usize>)> = repeated
            .iter()
            .map(|ix| (counted[ix[0]].1.clone().unwrap_or_default(), ix.iter().map(|i| counted[*i].0).collect()))
            .collect();
        // Reported where the first repetition is.
        if let Some(line) = messages.iter().map(|(_, lines)| lines[1]).min() {
            self.kinds.push((line, LogFactKind::UsageRepeated { messages, once, niceeval }));
        }
    }

    /// `compact_boundary` followed by its `isCompactSummary` line, and
    /// `summary` lines, which are session titles.
    fn compaction(&mut self, line: usize, v: &Value) {
        let summary_flag = v.get("isCompactSummary") == Some(&Value::Bool(true))
            || get(v.get("message"), "isCompactSummary") == Some(&Value::Bool(true));
        if is_str(v.get("type"), "summary") {
            let title = v.get("summary").and_then(Value::as_str).map(str::to_string);
            self.kinds.push((line, LogFactKind::SummaryTitle { title }));
        } else if is_str(v.get("subtype"), "compact_boundary") {
            self.boundary = Some(line);
            return;
        } else if summary_flag && let Some(b) = self.boundary.take() {
            self.kinds.push((line, LogFactKind::CompactionTwice { boundary_line: b }));
        }
        // Only the summary right after a boundary continues it.
        if !claude_code::is_compaction_marker(v) {
            self.boundary = None;
        }
    }

    /// Tool results with no earlier tool use of their id, and `is_error`
    /// flags that are not booleans.
    fn results(&mut self, line: usize, v: &Value) {
        if claude_code::is_compaction_marker(v) {
            return;
        }
        let blocks = v.get("content").or_else(|| get(v.get("message"), "content")).and_then(Value::as_array);
        let is_assistant = is_str(v.get("type"), "assistant") || is_str(v.get("role"), "assistant");
        let is_user = is_str(v.get("type"), "user") || is_str(v.get("role"), "user");
        for b in blocks.into_iter().flatten() {
            if is_assistant && is_str(b.get("type"), "tool_use") {
                self.uses.insert(id_of(b.get("id")));
            } else if is_user && is_str(b.get("type"), "tool_result") {
                self.result(line, b);
            }
        }
        let top_level = is_str(v.get("type"), "tool_result") || is_str(v.get("type"), "tool_response");
        if !is_user && !is_assistant && top_level {
            self.result(line, v);
        }
    }

    fn result(&mut self, line: usize, r: &Value) {
        let id = id_of(js::or(r.get("tool_use_id"), r.get("id")));
        if !self.uses.contains(&id) {
            self.kinds.push((line, LogFactKind::ResultWithoutUse { id }));
        }
        if let Some(flag) = r.get("is_error").filter(|f| !f.is_boolean() && !f.is_null()) {
            let read_as = if js::truthy(r.get("error")) { "failed" } else { "completed" };
            self.kinds.push((line, LogFactKind::ErrorFlagNotBoolean { value: flag.to_string(), read_as }));
        }
    }

    /// A line's `timestamp` earlier than the latest one before it.
    fn time(&mut self, line: usize, v: &Value) {
        let Some(text) = v.get("timestamp").and_then(Value::as_str) else { return };
        let Some(at) = iso_millis(text) else { return };
        self.times.push((line, at));
        match &self.latest {
            Some((t, prev_line, prev)) if at < *t => {
                let kind = LogFactKind::TimeBackwards {
                    previous_line: *prev_line,
                    previous: prev.clone(),
                    this: text.to_string(),
                };
                self.kinds.push((line, kind));
            }
            Some((t, ..)) if at == *t => {}
            _ => self.latest = Some((at, line, text.to_string())),
        }
    }
}

fn add(a: &mut UsageFigures, b: UsageFigures) {
    a.input += b.input;
    a.output += b.output;
    a.requests += b.requests;
}

/// `String(id ?? "unknown")` (a value that cannot be made a string is no id).
fn id_of(v: Option<&Value>) -> String {
    match v {
        Some(v) if !v.is_null() => js::string(Some(v)).unwrap_or_default(),
        _ => "unknown".to_string(),
    }
}

/// Milliseconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fff…][Z|±HH:MM]`.
fn iso_millis(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i128> { s.get(r)?.parse().ok() };
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' {
        return None;
    }
    let (y, mo, d, h, mi, sec) = (num(0..4)?, num(5..7)?, num(8..10)?, num(11..13)?, num(14..16)?, num(17..19)?);
    let mut i = 19;
    let mut millis = 0i128;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let frac = s.get(start..i.min(start + 3))?;
        millis = format!("{frac:0<3}").parse().ok()?;
    }
    let offset_min = match b.get(i) {
        None | Some(b'Z' | b'z') => 0,
        Some(sign @ (b'+' | b'-')) => {
            let off = num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?;
            if *sign == b'+' { off } else { -off }
        }
        _ => return None,
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y2, m2) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * m2 + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((((days * 24 + h) * 60 + mi - offset_min) * 60 + sec) * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_compare_across_offsets() {
        assert_eq!(iso_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(iso_millis("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(iso_millis("2026-11-28T10:00:00+01:00"), iso_millis("2026-11-28T09:00:00.000Z"));
        assert_eq!(iso_millis("yesterday"), None);
    }
}
