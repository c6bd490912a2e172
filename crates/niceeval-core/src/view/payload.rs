//! How a payload (a tool's input or output, a structured value) is laid
//! out, decided once: a string is text; a command result reads like a
//! terminal (exit code, stdout, stderr, then the other keys as JSON); any
//! other value is JSON.

use super::blocks::{Block, Section};
use super::text::{Text, Tone};
use serde_json::{Map, Value};

/// Keys of a command result that the terminal layout shows by itself.
const TERMINAL_KEYS: [&str; 5] = ["stdout", "output", "stderr", "exit_code", "exitCode"];

/// The blocks of a payload.
pub fn blocks(v: &Value) -> Vec<Block> {
    match v {
        Value::String(s) if s.is_empty() => vec![Block::Line(Text::toned("\"\" (empty string)", Tone::Soft))],
        Value::String(s) => vec![Block::Body(s.clone(), Tone::Plain)],
        _ => terminal(v).unwrap_or_else(|| vec![Block::Json(v.clone())]),
    }
}

/// `exit_code ?? exitCode` as NiceEval reads it: a present `exit_code`
/// hides `exitCode` even when it is not a number.
fn exit_code(obj: &Map<String, Value>) -> Option<&Value> {
    obj.get("exit_code").or_else(|| obj.get("exitCode"))
}

/// A command result `{exit_code|exitCode, stdout|output, stderr}`.
fn terminal(v: &Value) -> Option<Vec<Block>> {
    let obj = v.as_object()?;
    let stdout = obj.get("stdout").or_else(|| obj.get("output"))?.as_str()?;
    let mut out = Vec::new();
    let exit = match exit_code(obj) {
        Some(Value::Number(n)) => {
            let tone = if n.as_f64() == Some(0.0) { Tone::Good } else { Tone::Bad };
            Text::toned(n.to_string(), tone)
        }
        Some(other) => Text::toned(format!("{other} (not a number)"), Tone::Warn),
        None => Text::toned("—", Tone::Soft),
    };
    out.push(Block::Kv(Text::toned("exit code  ", Tone::Soft), exit));
    let stream = |title: &str, text: &str, tone: Tone| {
        let body = if text.is_empty() {
            vec![Block::Line(Text::toned("(empty)", Tone::Soft))]
        } else {
            vec![Block::Body(text.to_string(), tone)]
        };
        Block::Section(Section::new(title, Text::new(), body))
    };
    out.push(stream("stdout", stdout, Tone::Plain));
    if let Some(stderr) = obj.get("stderr").and_then(Value::as_str) {
        out.push(stream("stderr", stderr, Tone::Warn));
    }
    let rest: Map<String, Value> =
        obj.iter().filter(|(k, _)| !TERMINAL_KEYS.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
    if !rest.is_empty() {
        out.push(Block::Json(Value::Object(rest)));
    }
    Some(out)
}
