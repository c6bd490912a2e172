//! The provenance of a native log's events: each line's byte range, kind
//! word and the events it became, or why none (see `model::provenance`).

use super::{SkipReason, Skipped};
use crate::model::event::Source;
use crate::model::provenance::{DropReason, NativeLine, Origin, Provenance, ProvenanceBuilder};
use serde_json::Value;

/// The kind word of each JSON line, as the parser sees it (interned: a log
/// has few kinds and many lines).
#[derive(Default)]
pub struct LineKinds {
    words: Vec<String>,
    by_line: Vec<(u32, u32)>,
}

impl LineKinds {
    pub fn see(&mut self, line: usize, v: &Value) {
        let word = kind_of(v);
        let at = match self.words.iter().position(|w| *w == word) {
            Some(at) => at,
            None => {
                self.words.push(word);
                self.words.len() - 1
            }
        };
        self.by_line.push((line as u32, at as u32));
    }

    fn of(&self, line: usize) -> Option<&str> {
        let line = line as u32;
        let at = self.by_line.binary_search_by_key(&line, |(l, _)| *l).ok()?;
        self.words.get(self.by_line[at].1 as usize).map(String::as_str)
    }
}

/// `assistant`, `system init`, `item.completed command_execution`,
/// `response_item function_call`: the line's `type` and the sub-type that
/// says what it carries.
pub fn kind_of(v: &Value) -> String {
    let Some(ty) = v.get("type").and_then(Value::as_str) else {
        return if v.is_object() { "(no type)".into() } else { "(not an object)".into() };
    };
    let sub = if ty.starts_with("item.") {
        v.get("item").and_then(|i| i.get("type"))
    } else if matches!(ty, "response_item" | "event_msg") {
        v.get("payload").and_then(|p| p.get("type"))
    } else {
        v.get("subtype")
    };
    match sub.and_then(Value::as_str) {
        Some(sub) => format!("{ty} {sub}"),
        None => ty.to_string(),
    }
}

fn reason(r: &SkipReason) -> DropReason {
    DropReason::Skipped(r.clone())
}

/// [`of_log`] of the text `source` holds (UTF-8: the file's bytes when
/// they were, else the repaired text).
pub fn of_source(
    agent: &str,
    repaired: bool,
    source: Source,
    kinds: &LineKinds,
    event_lines: &[usize],
    skipped: &[Skipped],
) -> Provenance {
    let kept = source.clone();
    let text = std::str::from_utf8(kept.bytes()).unwrap_or_default();
    let mut p = of_log(agent, source, text, kinds, event_lines, skipped);
    p.origin = Origin::AgentLog { agent: agent.to_string(), repaired };
    p
}

/// The provenance of a log whose `text` is `source`'s bytes: every
/// non-blank line (as the parser splits them), the events (`event_lines`:
/// each event's 1-based line) and the skipped lines, all in one turn.
pub fn of_log(
    agent: &str,
    source: Source,
    text: &str,
    kinds: &LineKinds,
    event_lines: &[usize],
    skipped: &[Skipped],
) -> Provenance {
    let mut by_line: Vec<u32> = (0..event_lines.len() as u32).collect();
    by_line.sort_by_key(|&e| event_lines[e as usize]);
    let mut builder = ProvenanceBuilder::new(Origin::AgentLog { agent: agent.to_string(), repaired: false }, source);
    let (mut next_event, mut next_skip, mut offset) = (0usize, 0usize, 0usize);
    for (i, raw) in text.split('\n').enumerate() {
        let line_start = offset;
        offset += raw.len() + 1;
        let trimmed = super::js::trim(raw);
        if trimmed.is_empty() {
            continue;
        }
        let number = i + 1;
        let start = line_start + (trimmed.as_ptr() as usize - raw.as_ptr() as usize);
        let from = next_event;
        while next_event < by_line.len() && event_lines[by_line[next_event] as usize] == number {
            next_event += 1;
        }
        while next_skip < skipped.len() && skipped[next_skip].line < number {
            next_skip += 1;
        }
        let skip = skipped.get(next_skip).filter(|s| s.line == number).map(|s| &s.reason);
        let word = match (kinds.of(number), skip) {
            (Some(word), _) => word.to_string(),
            (None, Some(SkipReason::NotJson(_))) => "(raw text)".to_string(),
            (None, _) => "(unread)".to_string(),
        };
        let kind = builder.kind(&word);
        let line = NativeLine {
            number: number as u32,
            start: start as u64,
            len: trimmed.len() as u32,
            kind,
            session: 0,
            turn: 0,
        };
        builder.push(line, &by_line[from..next_event], skip.map(reason));
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_keeps_its_range_kind_and_events() {
        let text = "{\"type\":\"system\",\"subtype\":\"init\"}\n\n  {\"type\":\"assistant\"}\nnot json\n";
        let mut kinds = LineKinds::default();
        kinds.see(1, &serde_json::json!({"type":"system","subtype":"init"}));
        kinds.see(3, &serde_json::json!({"type":"assistant"}));
        let skipped = vec![
            Skipped { line: 1, reason: SkipReason::Metadata },
            Skipped { line: 4, reason: SkipReason::NotJson("x".into()) },
        ];
        let source = Source::shared(std::sync::Arc::new(text.as_bytes().to_vec()));
        let p = of_log("claude-code", source, text, &kinds, &[3, 3], &skipped);
        assert_eq!(p.lines.len(), 3);
        assert_eq!(p.lines.iter().map(|l| l.number).collect::<Vec<_>>(), vec![1, 3, 4]);
        assert_eq!(p.kind(0), "system init");
        assert_eq!(p.dropped(0), Some(&DropReason::Skipped(SkipReason::Metadata)));
        assert_eq!(p.text(1), b"{\"type\":\"assistant\"}");
        assert_eq!(p.events(1), &[0, 1]);
        assert_eq!(p.kind(2), "(raw text)");
        assert!(p.dropped(2).is_some_and(DropReason::is_loss));
        let addr = (0, 0);
        assert_eq!((p.line_of(addr, 0), p.line_of(addr, 1), p.line_of(addr, 2)), (Some(1), Some(1), None));
    }
}
