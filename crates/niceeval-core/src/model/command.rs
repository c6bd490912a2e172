//! Command projections (spec §1.7) and the `logical-command/v1` normalizer.

use serde_json::{Map, Value};

pub const NORMALIZER: &str = "logical-command/v1";

/// The exact reason string adapters use for unclassified tool actions.
pub const UNCLASSIFIED: &str = "The source protocol did not classify every tool operation as command or not-command.";

/// The four observable states of `operation.command` on a tool start.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandState<'a> {
    Available {
        executable: &'a str,
        args: Vec<&'a str>,
        logical: &'a Value,
    },
    Opaque {
        reason: &'a str,
        logical: Option<&'a Value>,
    },
    NotCommand,
    Absent,
    /// Present but not one of the shapes above.
    Malformed(String),
}

/// Read the state of a tool start's `command` field.
pub fn command_state(command: Option<&Value>) -> CommandState<'_> {
    let Some(command) = command else {
        return CommandState::Absent;
    };
    match command.get("kind").and_then(Value::as_str) {
        Some("not-command") => CommandState::NotCommand,
        Some("command") => {
            let original = command.get("original");
            let logical = command.get("logical");
            match original.and_then(|o| o.get("state")).and_then(Value::as_str) {
                Some("available") => {
                    let o = original.unwrap_or(&Value::Null);
                    let executable = o.get("executable").and_then(Value::as_str).unwrap_or("");
                    let args = o
                        .get("args")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().map(|x| x.as_str().unwrap_or("")).collect())
                        .unwrap_or_default();
                    match logical {
                        Some(l) => CommandState::Available { executable, args, logical: l },
                        None => CommandState::Malformed("command projection has no `logical`".into()),
                    }
                }
                Some("opaque") => CommandState::Opaque {
                    reason: original.and_then(|o| o.get("reason")).and_then(Value::as_str).unwrap_or(""),
                    logical,
                },
                _ => CommandState::Malformed("`original.state` is neither \"available\" nor \"opaque\"".into()),
            }
        }
        _ => CommandState::Malformed("`kind` is neither \"command\" nor \"not-command\"".into()),
    }
}

fn opaque(reason: &str) -> Value {
    let mut o = Map::new();
    o.insert("state".into(), "opaque".into());
    o.insert("normalizer".into(), NORMALIZER.into());
    o.insert("reason".into(), reason.into());
    Value::Object(o)
}

fn available(executable: &str, args: &[Value], normalization: &str) -> Value {
    let mut o = Map::new();
    o.insert("state".into(), "available".into());
    o.insert("executable".into(), executable.into());
    o.insert("args".into(), Value::Array(args.to_vec()));
    o.insert("normalizer".into(), NORMALIZER.into());
    o.insert("normalization".into(), normalization.into());
    Value::Object(o)
}

/// `normalizeLogicalCommand(original)`: the whole of `logical-command/v1`.
pub fn normalize_logical_command(original: &Value) -> Value {
    if original.get("state").and_then(Value::as_str) == Some("opaque") {
        let mut o = match opaque("original-opaque") {
            Value::Object(o) => o,
            _ => unreachable!(),
        };
        o.insert("originalReason".into(), original.get("reason").cloned().unwrap_or(Value::Null));
        return Value::Object(o);
    }
    let executable = original.get("executable").and_then(Value::as_str).unwrap_or("");
    let empty = Vec::new();
    let args = original.get("args").and_then(Value::as_array).unwrap_or(&empty);
    let arg = |i: usize| args.get(i).and_then(Value::as_str);
    let target_ok = |t: Option<&str>| matches!(t, Some(t) if !t.is_empty() && t != "--" && !t.starts_with('-'));
    match executable {
        "pnpm" => {
            let target = if arg(0) == Some("exec") {
                1
            } else if arg(0) == Some("--silent") && arg(1) == Some("exec") {
                2
            } else if args.iter().any(|a| matches!(a.as_str(), Some("-r" | "--recursive"))) {
                return opaque("multiple-executions");
            } else {
                return opaque("unsupported-wrapper-form");
            };
            if !target_ok(arg(target)) {
                return opaque("ambiguous-wrapper-target");
            }
            available(arg(target).unwrap_or(""), &args[target + 1..], "pnpm-exec")
        }
        "npx" => {
            if !target_ok(arg(0)) {
                return opaque("unsupported-wrapper-form");
            }
            available(arg(0).unwrap_or(""), &args[1..], "npx")
        }
        _ => available(executable, args, "identity"),
    }
}

/// One-line rendering of an argv for people: tokens with spaces are quoted.
pub fn argv_text(executable: &str, args: &[&str]) -> String {
    let quote = |t: &str| {
        if t.is_empty() || t.chars().any(|c| c.is_whitespace() || "'\"\\$`".contains(c)) {
            format!("'{}'", t.replace('\'', "'\\''"))
        } else {
            t.to_string()
        }
    };
    std::iter::once(executable).chain(args.iter().copied()).map(quote).collect::<Vec<_>>().join(" ")
}

/// Human summary of a projection: "original → logical", or why it is opaque.
pub fn describe(command: Option<&Value>) -> String {
    match command_state(command) {
        CommandState::Absent => "absent (adapter did not classify this call)".into(),
        CommandState::NotCommand => "not a command".into(),
        CommandState::Malformed(why) => format!("malformed: {why}"),
        CommandState::Opaque { reason, .. } => format!("opaque original ({reason})"),
        CommandState::Available { executable, args, logical } => {
            let original = argv_text(executable, &args);
            match logical.get("state").and_then(Value::as_str) {
                Some("available") => {
                    let lx = logical.get("executable").and_then(Value::as_str).unwrap_or("");
                    let la: Vec<&str> = logical
                        .get("args")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().map(|x| x.as_str().unwrap_or("")).collect())
                        .unwrap_or_default();
                    let norm = logical.get("normalization").and_then(Value::as_str).unwrap_or("?");
                    if norm == "identity" {
                        original
                    } else {
                        format!("{original} → {} ({norm})", argv_text(lx, &la))
                    }
                }
                _ => {
                    let reason = logical.get("reason").and_then(Value::as_str).unwrap_or("?");
                    format!("{original} → logical opaque ({reason})")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wrapper_forms() {
        let n = |exe: &str, args: Value| {
            normalize_logical_command(&json!({"state":"available","executable":exe,"args":args}))
        };
        assert_eq!(n("pnpm", json!(["exec", "niceeval", "show"]))["executable"], "niceeval");
        assert_eq!(n("pnpm", json!(["exec", "-r", "tsc"]))["reason"], "ambiguous-wrapper-target");
        assert_eq!(n("pnpm", json!(["-r", "exec", "tsc"]))["reason"], "multiple-executions");
        assert_eq!(n("pnpm", json!(["test"]))["reason"], "unsupported-wrapper-form");
        assert_eq!(n("npx", json!(["-y", "cowsay"]))["reason"], "unsupported-wrapper-form");
        assert_eq!(n("npx", json!(["pnpm", "exec", "x"]))["normalization"], "npx");
        assert_eq!(n("PNPM", json!(["exec", "x"]))["normalization"], "identity");
    }

    #[test]
    fn describe_reads_like_a_sentence() {
        let c = json!({"kind":"command","original":{"state":"available","executable":"pnpm","args":["exec","vitest","run"]},
            "logical":{"state":"available","executable":"vitest","args":["run"],"normalizer":NORMALIZER,"normalization":"pnpm-exec"}});
        assert_eq!(describe(Some(&c)), "pnpm exec vitest run → vitest run (pnpm-exec)");
        assert_eq!(describe(None), "absent (adapter did not classify this call)");
    }
}
