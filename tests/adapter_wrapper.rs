//! Runs the TypeScript wrapper from docs/adapters.md (type annotations
//! stripped) under `node` with a fake adapter, then `niceeval check` on the
//! session file it wrote. Skips with a notice when `node` is not installed.

mod common;

use common::bin;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The ```ts block between the wrapper markers of docs/adapters.md.
fn snippet() -> String {
    let docs = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/adapters.md")).unwrap();
    let start = docs.find("<!-- wrapper:start -->").expect("start marker");
    let end = docs.find("<!-- wrapper:end -->").expect("end marker");
    let block = &docs[start..end];
    let code_start = block.find("```ts\n").expect("ts fence") + "```ts\n".len();
    let code_end = block[code_start..].find("```").expect("closing fence") + code_start;
    block[code_start..code_end].to_string()
}

/// TypeScript → JavaScript for this snippet: it is written so that dropping
/// type-only lines and these exact annotations is enough.
fn strip_types(ts: &str) -> String {
    const ANNOTATIONS: [&str; 3] = [": { sessionIndex: number; turns: unknown[] }[]", ": Send", ": string"];
    let mut js = String::new();
    for line in ts.lines() {
        if line.starts_with("import type ") || line.starts_with("type ") {
            continue;
        }
        let mut line = line.to_string();
        for a in ANNOTATIONS {
            line = line.replace(a, "");
        }
        js.push_str(&line);
        js.push('\n');
    }
    js
}

#[test]
fn stripping_leaves_no_type_syntax() {
    let js = strip_types(&snippet());
    for bad in [": Send", ": string", "import type", "unknown[]", ": number"] {
        assert!(!js.contains(bad), "{bad} left in:\n{js}");
    }
    assert!(js.contains("export function logTurns(send, file, sessionIndex = 1) {"), "{js}");
    assert!(js.contains("export function sessionFile(file) {"), "{js}");
}

const DRIVER: &str = r#"
import { logTurns, sessionFile } from "./wrapper.mjs";

const [sessionPath, jsonlPath] = process.argv.slice(2);
const start = (id, name) => ({ type: "operation.started", operationId: id,
  operation: { kind: "tool", name, input: { cmd: name }, command: { kind: "not-command" } } });
const finish = (id, status) => ({ type: "operation.finished", operationId: id, kind: "tool", status });
const say = (text) => ({ type: "message", role: "assistant", text });

// A fake adapter: an HITL approval across two turns, then a second session
// whose resume finish has no start (a real bug the check must catch).
const scripted = {
  "Clean the build.": { events: [start("call_rm", "rm"), { type: "input.requested", request: { id: "r1", prompt: "Delete dist/?" } }], status: "waiting" },
  "approve": { events: [finish("call_rm", "completed"), say("Deleted dist/.")], status: "completed", usage: { inputTokens: 12, outputTokens: 4 } },
  "Retry.": { events: [finish("call_9", "failed"), say("It failed.")], status: "completed" },
};
const fakeSend = async (input) => {
  if (input.text === "boom") throw new Error("transport lost");
  return structuredClone(scripted[input.text]);
};

const record = sessionFile(sessionPath);
const main = logTurns(record(fakeSend), jsonlPath, 1);
const side = logTurns(record(fakeSend, 2), jsonlPath, 2);
await main({ text: "Clean the build." });
await main({ text: "approve", responses: [{ requestId: "r1", optionId: "approve" }] });
try { await side({ text: "boom" }); } catch { /* a thrown send records nothing */ }
const turn = await side({ text: "Retry." });
if (turn.status !== "completed") throw new Error("the wrapper must return the adapter's Turn");
"#;

#[test]
fn docs_wrapper_runs_under_node_and_check_reads_its_file() {
    let node = Command::new("node").arg("--version").output().ok();
    let Some(version) = node.filter(|o| o.status.success()) else {
        common::skip("node (for the adapter wrapper)");
        return;
    };
    println!("adapter wrapper: node {}", String::from_utf8_lossy(&version.stdout).trim());
    let dir = std::env::temp_dir().join(format!("niceeval-wrapper-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wrapper.mjs"), strip_types(&snippet())).unwrap();
    std::fs::write(dir.join("driver.mjs"), DRIVER).unwrap();
    let session_path = dir.join("turns.session.json");
    let jsonl_path = dir.join("turns.jsonl");
    let _ = std::fs::remove_file(&session_path);
    let _ = std::fs::remove_file(&jsonl_path);
    let out = Command::new("node").arg(dir.join("driver.mjs")).arg(&session_path).arg(&jsonl_path).output().unwrap();
    assert!(out.status.success(), "node failed:\n{}", String::from_utf8_lossy(&out.stderr));

    // The JSONL log: one `{"sessionIndex", "input", "turn"}` line per returned Turn.
    let lines: Vec<Value> = std::fs::read_to_string(&jsonl_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 3, "the thrown send is not recorded");
    for line in &lines {
        let keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["sessionIndex", "input", "turn"]);
    }
    assert_eq!(lines[1]["input"]["responses"][0]["optionId"], "approve");
    assert_eq!(lines[2]["sessionIndex"], 2);

    // The session file: check it, as an adapter author would.
    let session: Value = serde_json::from_slice(&std::fs::read(&session_path).unwrap()).unwrap();
    assert_eq!(session["format"], "niceeval-viewer.session/1");
    assert_eq!(session["sessions"].as_array().unwrap().len(), 2);
    let out = Command::new(bin()).args(["check", "--format", "json"]).arg(&session_path).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["checked"]["sessions"], 2);
    assert_eq!(report["checked"]["turns"], 3);
    let findings: Vec<(String, String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["session"].as_str().unwrap().to_string(),
                f["position"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // The HITL approval pairs across turns (silent); the second session's finish is an orphan, at
    // the attempt-wide turn 3 (the first turn of session 2), as every surface says.
    assert_eq!(findings, vec![("orphan-finish".to_string(), "session-2".to_string(), "3:1".to_string())]);

    // The JSONL log must say the same once the JSONL reader reads it.
    let out = Command::new(bin()).args(["check", "--format", "json"]).arg(&jsonl_path).output().unwrap();
    if out.status.code() == Some(2) {
        println!(
            "adapter wrapper: JSONL check skipped ({})",
            String::from_utf8_lossy(&out.stderr).trim().lines().next().unwrap_or("")
        );
        return;
    }
    let jsonl_report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(jsonl_report["findings"], report["findings"]);
}
