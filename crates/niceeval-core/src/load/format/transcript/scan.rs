//! The facts a folder's list shows of one native log (first user message,
//! model, times, counts, usage), read without NiceEval's full parse: each
//! line of a Claude Code log is read into a few borrowed fields, its large
//! tool inputs and results skipped unread. A line whose shape the borrowed
//! reading refuses (a number where a string belongs, duplicate keys, not
//! JSON) is read by the full parser on its own, so the facts agree with
//! [`super::parse`] (the tests compare them). A Codex log is read by the full
//! parser: it has no cheap reading yet.

use super::claude_code::{Totals, read_usage};
use super::{Agent, Parsed};
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;

pub use crate::model::listed::SessionFacts;

/// Reading [`SessionFacts`] from the parser's output.
pub trait Scanned: Sized {
    /// The facts of the events, usage and losses of a full parse (times
    /// and model are not in it).
    fn add_parsed(&mut self, parsed: &Parsed);
    /// The facts of a full parse (with the times and model of its lines).
    fn of_parse(agent: Agent, text: &str) -> Self;
    fn see_value(&mut self, v: &Value);
}

impl Scanned for SessionFacts {
    fn add_parsed(&mut self, parsed: &Parsed) {
        for e in &parsed.events {
            match e.get("type").and_then(Value::as_str) {
                Some("message") if e.get("role").and_then(Value::as_str) == Some("user") => {
                    self.user_message(e.get("text").and_then(Value::as_str).unwrap_or_default())
                }
                Some("operation.started") => self.tool_calls += 1,
                Some("operation.finished") if e.get("status").and_then(Value::as_str) == Some("failed") => {
                    self.failures += 1
                }
                _ => {}
            }
        }
        self.compactions += parsed.compactions;
        self.lost_lines += parsed.skipped.iter().filter(|s| s.reason.is_loss()).count();
    }

    fn of_parse(agent: Agent, text: &str) -> SessionFacts {
        let mut facts = SessionFacts::default();
        let parsed = super::parse_observed(agent, text, &mut |_, v| facts.see_value(v));
        facts.add_parsed(&parsed);
        facts.usage = crate::model::usage::Usage::from_value(&Value::Object(parsed.usage.clone()));
        facts
    }

    fn see_value(&mut self, v: &Value) {
        if let Some(t) = v.get("timestamp").and_then(Value::as_str) {
            self.time(t);
        }
        let model = v.get("message").and_then(|m| m.get("model")).or_else(|| v.get("payload")?.get("model"));
        if let Some(m) = model.and_then(Value::as_str).filter(|m| !m.is_empty()) {
            self.model = Some(m.to_string());
        }
    }
}

/// The facts of a log `agent` wrote (its bytes, read as Node reads them).
pub fn scan(agent: Agent, bytes: &[u8]) -> SessionFacts {
    match agent {
        Agent::ClaudeCode => scan_claude_code(bytes),
        Agent::Codex => SessionFacts::of_parse(agent, &super::load::text_of(bytes).0),
    }
}

fn scan_claude_code(bytes: &[u8]) -> SessionFacts {
    let mut scan = Scan::default();
    for line in bytes.split(|b| *b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<ClaudeLine>(line) {
            Ok(l) => scan.line(&l),
            Err(_) => scan.alone(line),
        }
    }
    let mut facts = scan.facts;
    facts.usage = crate::model::usage::Usage::from_value(&Value::Object(scan.totals.write()));
    facts
}

/// The scan under way: the facts, the usage sums and the Skill tool uses
/// (whose results the parser drops).
#[derive(Default)]
struct Scan {
    facts: SessionFacts,
    totals: Totals,
    skill_calls: rustc_hash::FxHashSet<String>,
}

impl Scan {
    /// A line the borrowed reading refused, read by the full parser alone.
    fn alone(&mut self, line: &[u8]) {
        let text = super::load::text_of(line).0;
        let parsed = super::parse_observed(Agent::ClaudeCode, &text, &mut |_, v| self.facts.see_value(v));
        self.facts.add_parsed(&parsed);
        let u = crate::model::usage::Usage::from_value(&Value::Object(parsed.usage.clone()));
        let t = &mut self.totals;
        t.input += u.input_tokens.unwrap_or(0.0);
        t.output += u.output_tokens.unwrap_or(0.0);
        t.cache_read += u.cache_read_tokens.unwrap_or(0.0);
        t.cache_creation += u.cache_creation_tokens.unwrap_or(0.0);
        t.requests += parsed.usage.get("requests").and_then(Value::as_u64).unwrap_or(0);
    }

    /// One line, by the rules of the Claude Code parser (`claude_code.rs`).
    fn line(&mut self, l: &ClaudeLine) {
        if let Some(t) = &l.timestamp {
            self.facts.time(t);
        }
        let message = l.message.as_ref();
        if let Some(m) = message.and_then(|m| m.model.as_deref()).filter(|m| !m.is_empty()) {
            self.facts.model = Some(m.to_string());
        }
        let compact = l.ty.as_deref() == Some("summary")
            || l.is_compact_summary == Some(Value::Bool(true))
            || message.is_some_and(|m| m.is_compact_summary == Some(Value::Bool(true)))
            || l.subtype.as_deref() == Some("compact_boundary");
        if compact {
            self.facts.compactions += 1;
            return;
        }
        let (ty, role) = (l.ty.as_deref(), l.role.as_deref());
        let user = ty == Some("user") || role == Some("user");
        if user || ty == Some("assistant") || role == Some("assistant") {
            let usage = message.and_then(|m| m.usage.as_ref()).or(l.usage.as_ref());
            if let Some(d) = read_usage(usage) {
                let t = &mut self.totals;
                (t.input, t.output) = (t.input + d.input, t.output + d.output);
                (t.cache_read, t.cache_creation) = (t.cache_read + d.cache_read, t.cache_creation + d.cache_creation);
                t.requests += 1;
            }
            if user { self.user_line(l) } else { self.assistant_line(l) }
        } else if ty == Some("tool_result") || ty == Some("tool_response") {
            let id = l.tool_use_id.as_deref().or(l.id.as_deref()).unwrap_or("unknown");
            if !self.skill_calls.contains(id) && is_error(l.is_error.as_ref(), l.error.as_ref()) {
                self.facts.failures += 1;
            }
        }
    }

    fn user_line(&mut self, l: &ClaudeLine) {
        let blocks = l.blocks();
        let mut results = blocks.iter().filter(|b| b.ty.as_deref() == Some("tool_result")).peekable();
        if results.peek().is_none() {
            let text = l.text();
            if !text.is_empty() {
                self.facts.user_message(&text);
            }
            return;
        }
        for r in results {
            let id = r.tool_use_id.as_deref().or(r.id.as_deref()).unwrap_or("unknown");
            if !self.skill_calls.contains(id) && is_error(r.is_error.as_ref(), r.error.as_ref()) {
                self.facts.failures += 1;
            }
        }
    }

    fn assistant_line(&mut self, l: &ClaudeLine) {
        for b in l.blocks().iter().filter(|b| b.ty.as_deref() == Some("tool_use")) {
            let name = b.name.as_deref().unwrap_or("unknown");
            let skill = b.input.as_ref().and_then(|i| i.0.as_deref()).filter(|s| !s.is_empty());
            if name.to_lowercase() == "skill" && skill.is_some() {
                self.skill_calls.insert(b.id.as_deref().unwrap_or("unknown").to_string());
            } else {
                self.facts.tool_calls += 1;
            }
        }
    }
}

/// `is_error === true || !!error`.
fn is_error(flag: Option<&Value>, error: Option<&Value>) -> bool {
    flag == Some(&Value::Bool(true)) || super::js::truthy(error)
}

/// The fields of a Claude Code line the list needs; the rest is skipped unread.
#[derive(Deserialize)]
struct ClaudeLine<'a> {
    #[serde(rename = "type", borrow)]
    ty: Option<Cow<'a, str>>,
    #[serde(borrow)]
    role: Option<Cow<'a, str>>,
    #[serde(borrow)]
    subtype: Option<Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(rename = "isCompactSummary")]
    is_compact_summary: Option<Value>,
    #[serde(borrow)]
    message: Option<Message<'a>>,
    #[serde(borrow)]
    content: Option<Content<'a>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    usage: Option<Value>,
    #[serde(borrow)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    is_error: Option<Value>,
    error: Option<Value>,
}

impl ClaudeLine<'_> {
    /// `content`, else `message.content`, when it is an array.
    fn blocks(&self) -> &[Block<'_>] {
        fn of<'b, 'c>(c: Option<&'b Content<'c>>) -> Option<&'b [Block<'c>]> {
            match c {
                Some(Content::Blocks(b)) => Some(b.as_slice()),
                _ => None,
            }
        }
        of(self.content.as_ref()).or_else(|| of(self.message.as_ref()?.content.as_ref())).unwrap_or(&[])
    }

    /// `extractText`, as the parser reads it.
    fn text(&self) -> Cow<'_, str> {
        fn of<'b>(c: Option<&'b Content<'_>>) -> Option<&'b str> {
            match c {
                Some(Content::Text(t)) => Some(t.as_ref()),
                _ => None,
            }
        }
        let string = of(self.content.as_ref()).or_else(|| of(self.message.as_ref()?.content.as_ref()));
        if let Some(s) = string.filter(|s| !s.is_empty()) {
            return Cow::Borrowed(s);
        }
        let texts: Vec<&str> = self
            .blocks()
            .iter()
            .filter(|b| b.ty.as_deref() == Some("text"))
            .filter_map(|b| b.text.as_deref())
            .collect();
        if !texts.is_empty() {
            return Cow::Owned(texts.join("\n"));
        }
        Cow::Borrowed(self.text.as_deref().unwrap_or_default())
    }
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    model: Option<Cow<'a, str>>,
    usage: Option<Value>,
    #[serde(borrow)]
    content: Option<Content<'a>>,
    #[serde(rename = "isCompactSummary")]
    is_compact_summary: Option<Value>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    ty: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    tool_use_id: Option<Cow<'a, str>>,
    is_error: Option<Value>,
    error: Option<Value>,
    input: Option<SkillInput>,
}

/// A content that is text, blocks, or anything else (read as neither).
enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Block<'a>>),
    Other,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(s)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut blocks = Vec::new();
                while let Some(b) = seq.next_element()? {
                    blocks.push(b);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_unit<E>(self) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A tool input's `skill` when it is a string; any other input is skipped unread.
struct SkillInput(Option<String>);

impl<'de> Deserialize<'de> for SkillInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SkillInput;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SkillInput, A::Error> {
                let mut skill = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "skill" {
                        skill = map.next_value::<Value>()?.as_str().map(str::to_string);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(SkillInput(skill))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SkillInput, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(SkillInput(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
            fn visit_unit<E>(self) -> Result<SkillInput, E> {
                Ok(SkillInput(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
