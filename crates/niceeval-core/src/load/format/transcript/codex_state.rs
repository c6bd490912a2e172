//! The state `parseCodexTranscript` keeps across lines: the usage totals
//! (read from the first place a line holds usage) and the pairing of calls
//! with their outputs.

use super::Out;
use super::js::{self, get, or};
use rustc_hash::FxHashSet;
use serde_json::{Map, Value};
use std::collections::VecDeque;

pub(super) struct Delta {
    input: f64,
    output: f64,
    cache_read: f64,
    reasoning: f64,
}

fn first_number(o: &Value, keys: &[&str]) -> f64 {
    keys.iter().find_map(|k| js::finite(o.get(*k))).unwrap_or(0.0)
}

/// `readUsage`: cached input is part of `input_tokens` in codex-rs, so it
/// is taken out of the input bucket.
fn read_usage(u: Option<&Value>) -> Option<Delta> {
    let u = u.filter(|u| u.is_object() || u.is_array())?;
    let raw_input = first_number(u, &["input_tokens", "prompt_tokens", "inputTokens", "promptTokens"]);
    let cache_read =
        first_number(u, &["cached_input_tokens", "cache_read_input_tokens", "cache_read_tokens", "cacheReadTokens"]);
    let d = Delta {
        input: (raw_input - cache_read).max(0.0),
        output: first_number(u, &["output_tokens", "completion_tokens", "outputTokens", "completionTokens"]),
        cache_read,
        reasoning: first_number(
            u,
            &["reasoning_output_tokens", "reasoning_tokens", "reasoningOutputTokens", "reasoningTokens"],
        ),
    };
    let zero = d.input == 0.0 && d.output == 0.0 && d.cache_read == 0.0 && d.reasoning == 0.0;
    (!zero).then_some(d)
}

/// `pickUsage`: the first of `usage`, `payload.usage`, `item.usage`,
/// `turn.usage`, `response.usage` that is not nullish.
fn pick_usage(data: &Value) -> Option<&Value> {
    let d = Some(data);
    let mut found = d.and_then(|d| d.get("usage"));
    for holder in ["payload", "item", "turn", "response"] {
        found = or(found, get(get(d, holder), "usage"));
    }
    found
}

#[derive(Default)]
pub(super) struct Totals {
    input: f64,
    output: f64,
    cache_read: f64,
    reasoning: f64,
    requests: u64,
}

impl Totals {
    pub(super) fn add_from(&mut self, data: &Value) -> bool {
        let Some(d) = read_usage(pick_usage(data)) else { return false };
        self.input += d.input;
        self.output += d.output;
        self.cache_read += d.cache_read;
        self.reasoning += d.reasoning;
        self.requests += 1;
        true
    }

    pub(super) fn write(&self) -> Map<String, Value> {
        let buckets = [("cacheReadTokens", self.cache_read), ("reasoningTokens", self.reasoning)];
        js::usage_written(self.requests, self.input, self.output, &buckets)
    }
}

/// The pairing state across lines.
#[derive(Default)]
pub(super) struct State {
    pub(super) totals: Totals,
    /// Calls already started (a completed item does not start them again).
    pub(super) started: FxHashSet<String>,
    /// Calls with no id of their own, for outputs with none (FIFO).
    pub(super) pending: VecDeque<String>,
    synth: u64,
}

impl State {
    /// `nextSynthId`: one counter for every prefix.
    pub(super) fn synth_id(&mut self, prefix: &str) -> String {
        self.synth += 1;
        format!("{prefix}_{}", self.synth)
    }

    pub(super) fn emit_call(
        &mut self,
        out: &mut Out,
        id: String,
        name: &str,
        input: Value,
        tool: Option<Value>,
        command: Value,
    ) {
        self.started.insert(id.clone());
        out.push(super::started(id, name.to_string(), input, tool, command));
    }
}
