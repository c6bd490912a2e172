//! Deterministic generator of large, realistic NiceEval inputs for benchmarks.
//!
//! ```text
//! cargo run --release --example generate -- --format session|jsonl|summary --size 100MB --seed 1 --out FILE
//! cargo run --release --example generate -- --format session-dense|jsonl-dense --events 1000000 --seed 1 --out FILE
//!     [--shape plain|no-command|failing]
//! ```
//!
//! The same `--format`, `--size` (or `--events`) and `--seed` always give the
//! same bytes.
//!
//! The `-dense` formats are many small events (issue 22): exactly `--events`
//! StreamEvents of about 105 bytes each (1,000,000 events: about 105 MB), in
//! 2 sessions of 10 turns for `session-dense` and as one event a line for
//! `jsonl-dense`. Each turn repeats message, tool start, tool finish,
//! thinking, tool start, tool finish, thinking (a `Read` with `input.path`,
//! finished `completed` with output `ok`); a tool start is never the last
//! event of a turn, so every call is finished in its turn.
//!
//! The other formats are payload-heavy.
//! Content mix: tool inputs and outputs of 100 B – 50 KB (about two thirds of
//! the bytes), long assistant messages, thinking, HITL (a turn that ends
//! waiting on `input.requested`, answered by the next turn), several sessions,
//! some failed tools and turns, usage with cache buckets.

use serde_json::{Value, json};
use std::io::{BufWriter, Write};

/// splitmix64: small, deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// Log-uniform size in `[lo, hi]`: many small payloads, a few large.
    fn log_size(&mut self, lo: u64, hi: u64) -> usize {
        let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (a + (b - a) * u).exp() as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "export",
    "row",
    "iterator",
    "test",
    "failing",
    "because",
    "of",
    "an",
    "off-by-one",
    "in",
    "loop",
    "we",
    "should",
    "read",
    "file",
    "and",
    "then",
    "run",
    "suite",
    "again",
    "config",
    "parser",
    "handles",
    "unicode",
    "naïve",
    "café",
    "build",
    "cache",
    "is",
    "stale",
    "fix",
    "résumé",
    "module",
    "returns",
    "null",
    "when",
    "input",
    "empty",
    "check",
    "edge",
    "cases",
    "like",
    "CRLF",
    "endings",
    "quotes",
    "\"quoted\"",
    "tab\there",
    "日本語",
    "emoji 🚀",
];

const TOOLS: &[(&str, &str)] = &[
    ("Read", "file_read"),
    ("Bash", "shell"),
    ("Edit", "file_edit"),
    ("Grep", "grep"),
    ("Write", "file_write"),
    ("WebFetch", "web_fetch"),
    ("Glob", "glob"),
];

const CODE_LINES: &[&str] = &[
    "import { Row } from '../model';",
    "export function toCsv(rows: Row[]): string {",
    "  const out: string[] = [header(rows[0])];",
    "  for (let i = 0; i < rows.length; i++) {",
    "    out.push(line(rows[i]));",
    "  }",
    "  return out.join('\\n');",
    "}",
    "fn main() -> Result<(), Box<dyn std::error::Error>> {",
    "    let cfg = Config::load(\"niceeval.toml\")?;",
    "    println!(\"{:?}\", cfg);",
    " ✓ src/export/csv.test.ts (12 tests) 41ms",
    " × src/export/csv.test.ts > keeps the last row",
    "   AssertionError: expected 2 to be 3",
    "def handler(event, context):",
    "    return {\"statusCode\": 200, \"body\": json.dumps(event)}",
];

fn words(rng: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 16);
    while s.len() < bytes {
        if !s.is_empty() {
            s.push(if rng.chance(8) { '\n' } else { ' ' });
        }
        s.push_str(rng.pick(WORDS));
        if rng.chance(6) {
            s.push('.');
        }
    }
    s
}

fn code(rng: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 64);
    while s.len() < bytes {
        s.push_str(rng.pick(CODE_LINES));
        s.push('\n');
    }
    s
}

/// One turn's worth of content.
struct TurnGen {
    input: String,
    events: Vec<Value>,
    status: &'static str,
    usage: Value,
}

struct Gen {
    rng: Rng,
    op: u64,
    hitl: u64,
    /// The previous turn ended waiting on this request id.
    pending_request: Option<String>,
    /// What the `-dense` tool calls look like.
    shape: DenseShape,
}

/// The `-dense` tool calls: `--shape`. Each shape is an input a real Adapter
/// writes, and each costs the linter differently (issue 37): `plain` has a
/// `command` projection on every start; `no-command` is an Adapter that has not
/// migrated to projections (a warning on every start); `failing` finishes every
/// call `failed`.
#[derive(Clone, Copy, PartialEq)]
enum DenseShape {
    Plain,
    NoCommand,
    Failing,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen { rng: Rng(seed ^ 0x005E_ED0F_BE4C_4D41), op: 0, hitl: 0, pending_request: None, shape: DenseShape::Plain }
    }

    fn tool_input(&mut self, tool: &str, bytes: usize) -> Value {
        match tool {
            "Bash" => {
                json!({ "command": code(&mut self.rng, bytes.min(400)), "description": words(&mut self.rng, bytes.saturating_sub(400).max(20)) })
            }
            "Write" | "Edit" => json!({
                "file_path": format!("src/module_{}.ts", self.rng.below(500)),
                "old_string": code(&mut self.rng, bytes / 3),
                "new_string": code(&mut self.rng, bytes - bytes / 3),
                "replace_all": self.rng.chance(10),
            }),
            "Grep" | "Glob" => {
                json!({ "pattern": words(&mut self.rng, bytes.min(200)), "path": "src", "limit": self.rng.range(1, 500), "ratio": 0.25 })
            }
            _ => {
                json!({ "file_path": format!("src/deep/path/file_{}.rs", self.rng.below(10_000)), "offset": self.rng.below(2000), "padding": words(&mut self.rng, bytes) })
            }
        }
    }

    fn tool_call(&mut self, events: &mut Vec<Value>, failed_turn: bool) -> bool {
        self.op += 1;
        let id = format!("toolu_{:08}", self.op);
        let (name, tool) = TOOLS[self.rng.below(TOOLS.len() as u64) as usize];
        let input_bytes = self.rng.log_size(100, 50_000);
        let input = self.tool_input(name, input_bytes);
        let mut operation = json!({ "kind": "tool", "name": name, "input": input, "tool": tool });
        operation["command"] = if name == "Bash" {
            json!({
                "kind": "command",
                "original": { "state": "available", "executable": "pnpm", "args": ["exec", "vitest", "run"] },
                "logical": { "state": "available", "executable": "vitest", "args": ["run"],
                    "normalizer": "logical-command/v1", "normalization": "pnpm-exec" },
            })
        } else {
            json!({ "kind": "not-command" })
        };
        events.push(json!({ "type": "operation.started", "operationId": id, "operation": operation }));
        let status = if failed_turn && self.rng.chance(50) {
            "failed"
        } else if self.rng.chance(4) {
            if self.rng.chance(50) { "failed" } else { "rejected" }
        } else {
            "completed"
        };
        let out_bytes = self.rng.log_size(100, 50_000);
        let output = if self.rng.chance(70) {
            Value::String(code(&mut self.rng, out_bytes))
        } else {
            json!({ "stdout": code(&mut self.rng, out_bytes), "exitCode": if status == "completed" { 0 } else { 1 }, "durationMs": 1234.5 })
        };
        let mut finished = json!({ "type": "operation.finished", "operationId": id, "kind": "tool", "status": status, "output": output });
        if self.rng.chance(3) {
            finished["truncated"] = json!([{ "path": "output", "originalBytes": out_bytes * 4 }]);
        }
        events.push(finished);
        status != "completed"
    }

    fn turn(&mut self, ordinal: u64) -> TurnGen {
        let rng = &mut self.rng;
        let input = match self.pending_request.take() {
            Some(_) => (if rng.chance(80) { "approve" } else { "deny" }).to_string(),
            None => {
                let n = rng.log_size(40, 2_000);
                words(rng, n)
            }
        };
        let mut events = Vec::new();
        let failed_turn = self.rng.chance(5);
        if ordinal == 1 && self.rng.chance(50) {
            events
                .push(json!({ "type": "context.injected", "source": "AGENTS.md", "text": words(&mut self.rng, 1500) }));
        }
        if self.rng.chance(20) {
            events.push(json!({ "type": "skill.loaded", "skill": format!("skill-{}", self.rng.below(8)) }));
        }
        let steps = self.rng.range(2, 9);
        for _ in 0..steps {
            if self.rng.chance(60) {
                let n = self.rng.log_size(100, 4_000);
                events.push(json!({ "type": "thinking", "text": words(&mut self.rng, n) }));
            }
            if self.rng.chance(50) {
                let n = self.rng.log_size(100, 3_000);
                events.push(json!({ "type": "message", "role": "assistant", "text": words(&mut self.rng, n) }));
            }
            for _ in 0..self.rng.range(1, 3) {
                self.tool_call(&mut events, failed_turn);
            }
        }
        if self.rng.chance(2) {
            events.push(json!({ "type": "compaction", "reason": "context window 90% full" }));
        }
        let n = self.rng.log_size(200, 12_000);
        events.push(json!({ "type": "message", "role": "assistant", "text": words(&mut self.rng, n) }));
        let mut status = if failed_turn { "failed" } else { "completed" };
        if failed_turn {
            events.push(json!({ "type": "error", "message": "agent exited with code 1: tool budget exceeded" }));
        } else if self.rng.chance(8) {
            self.hitl += 1;
            let id = format!("approve-{}", self.hitl);
            events.push(json!({ "type": "input.requested", "request": {
                "id": id, "action": "shell", "prompt": "Allow `rm -rf dist`?",
                "input": { "command": "rm -rf dist" },
                "options": [{ "id": "approve", "label": "Allow once" }, { "id": "deny", "label": "Deny" }],
            }}));
            self.pending_request = Some(id);
            status = "waiting";
        }
        let rng = &mut self.rng;
        let output_tokens = rng.range(50, 8_000);
        let usage = json!({
            "inputTokens": rng.range(100, 20_000),
            "outputTokens": output_tokens,
            "cacheReadTokens": rng.range(0, 200_000),
            "cacheCreationTokens": rng.range(0, 20_000),
            "reasoningTokens": rng.range(0, output_tokens / 2),
            "requests": rng.range(1, 12),
            "costUSD": rng.range(1, 99_999) as f64 / 100_000.0,
        });
        TurnGen { input, events, status, usage }
    }
}

/// Counts bytes written.
struct Counter<W: Write> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn parse_size(s: &str) -> Result<u64, String> {
    let up = s.trim().to_ascii_uppercase();
    let (num, mult) = if let Some(n) = up.strip_suffix("GB") {
        (n, 1_000_000_000)
    } else if let Some(n) = up.strip_suffix("MB") {
        (n, 1_000_000)
    } else if let Some(n) = up.strip_suffix("KB") {
        (n, 1_000)
    } else if let Some(n) = up.strip_suffix('B') {
        (n, 1)
    } else {
        (up.as_str(), 1)
    };
    num.trim().parse::<f64>().map(|n| (n * mult as f64) as u64).map_err(|_| format!("bad --size {s:?}"))
}

struct Args {
    format: String,
    size: u64,
    events: u64,
    seed: u64,
    out: String,
    shape: DenseShape,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        format: "session".into(),
        size: 10_000_000,
        events: 1_000_000,
        seed: 1,
        out: String::new(),
        shape: DenseShape::Plain,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--format" => a.format = v()?,
            "--size" => a.size = parse_size(&v()?)?,
            "--events" => a.events = v()?.replace('_', "").parse().map_err(|_| "bad --events")?,
            "--seed" => a.seed = v()?.parse().map_err(|_| "bad --seed")?,
            "--out" => a.out = v()?,
            "--shape" => {
                a.shape = match v()?.as_str() {
                    "plain" => DenseShape::Plain,
                    "no-command" => DenseShape::NoCommand,
                    "failing" => DenseShape::Failing,
                    other => return Err(format!("--shape must be plain, no-command or failing, not {other}")),
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.out.is_empty() {
        return Err("--out FILE is required".into());
    }
    if !matches!(a.format.as_str(), "session" | "jsonl" | "summary" | "session-dense" | "jsonl-dense") {
        return Err(format!(
            "--format must be session, jsonl, summary, session-dense or jsonl-dense, not {}",
            a.format
        ));
    }
    Ok(a)
}

fn write_session<W: Write>(w: &mut Counter<W>, g: &mut Gen, size: u64) -> std::io::Result<(u64, u64)> {
    let (mut events, mut turns) = (0u64, 0u64);
    write!(
        w,
        "{{\"format\":\"niceeval-viewer.session/1\",\"evalId\":\"bench/generated\",\"model\":\"claude-sonnet-4-5\",\"sessions\":["
    )?;
    let mut session = 0u64;
    while w.bytes < size || session == 0 {
        session += 1;
        if session > 1 {
            w.write_all(b",")?;
        }
        write!(w, "{{\"sessionIndex\":{session},\"sessionId\":\"thread_{session:04}\",\"turns\":[")?;
        let per_session = g.rng.range(5, 40);
        let mut t = 0;
        while t < per_session && (w.bytes < size || t == 0) {
            t += 1;
            let turn = g.turn(t);
            if t > 1 {
                w.write_all(b",")?;
            }
            events += turn.events.len() as u64;
            turns += 1;
            let entry = json!({ "label": format!("turn{t}"), "input": { "text": turn.input },
                "turn": { "events": turn.events, "status": turn.status, "usage": turn.usage } });
            serde_json::to_writer(&mut *w, &entry)?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"]}\n")?;
    Ok((events, turns))
}

fn write_jsonl<W: Write>(w: &mut Counter<W>, g: &mut Gen, size: u64) -> std::io::Result<(u64, u64)> {
    let (mut events, mut turns) = (0u64, 0u64);
    while w.bytes < size || turns == 0 {
        turns += 1;
        let turn = g.turn(turns);
        for e in &turn.events {
            serde_json::to_writer(&mut *w, e)?;
            w.write_all(b"\n")?;
            events += 1;
        }
    }
    Ok((events, turns))
}

fn write_summary<W: Write>(w: &mut Counter<W>, g: &mut Gen, size: u64) -> std::io::Result<(u64, u64)> {
    let (mut events, mut turns) = (0u64, 0u64);
    w.write_all(b"{\"results\":[")?;
    let results = 8u64;
    for r in 0..results {
        if r > 0 {
            w.write_all(b",")?;
        }
        let verdict = if g.rng.chance(30) { "failed" } else { "passed" };
        write!(
            w,
            "{{\"id\":\"bench/eval-{r}\",\"verdict\":\"{verdict}\",\"attempt\":0,\"model\":\"claude-sonnet-4-5\",\"events\":["
        )?;
        let goal = size * (r + 1) / results;
        let mut nodes = Vec::new();
        let mut first = true;
        let mut session = 1u64;
        let mut t = 0u64;
        while w.bytes < goal || nodes.is_empty() {
            t += 1;
            if t > g.rng.range(5, 30) {
                session += 1;
                t = 1;
            }
            let turn = g.turn(t);
            let user = json!({ "type": "message", "role": "user", "text": turn.input,
                "loc": { "file": "evals/generated.eval.ts", "line": 10 + t } });
            for e in std::iter::once(&user).chain(turn.events.iter()) {
                if !first {
                    w.write_all(b",")?;
                }
                first = false;
                serde_json::to_writer(&mut *w, e)?;
                events += 1;
            }
            turns += 1;
            nodes.push(json!({ "key": "agent.turn", "sessionIndex": session, "turnIndex": t, "label": format!("turn{t}"),
                "traceId": format!("trace-{r}-{}", nodes.len()), "usage": turn.usage, "durationMs": g.rng.range(500, 90_000),
                "failed": turn.status == "failed" }));
        }
        let phases = json!([{ "name": "eval.run", "children": nodes }]);
        w.write_all(b"],\"phases\":")?;
        serde_json::to_writer(&mut *w, &phases)?;
        w.write_all(b"}")?;
    }
    w.write_all(b"]}\n")?;
    Ok((events, turns))
}

/// Sessions and turns per session of the `-dense` formats.
const DENSE_SESSIONS: u64 = 2;
const DENSE_TURNS: u64 = 10;

const DENSE_STEPS: &[&str] = &[
    "reading the exporter",
    "checking the row iterator",
    "looking at the tests",
    "the loop is off by one",
    "running the suite again",
    "the cache is stale",
];

/// Writes event `k` (0-based, within its turn of `len` events) of a dense
/// turn into `out`, as compact JSON (the strings need no escaping).
fn dense_event(out: &mut Vec<u8>, g: &mut Gen, k: u64, len: u64) {
    use std::io::Write as _;
    let slot = k % 7;
    // A tool start as the last event would leave its call unfinished.
    let slot = if matches!(slot, 1 | 4) && k + 1 == len { 0 } else { slot };
    match slot {
        0 => {
            let step = g.rng.pick(DENSE_STEPS);
            let n = g.rng.below(1000);
            write!(out, r#"{{"type":"message","role":"assistant","text":"step {n}: {step}"}}"#)
        }
        1 | 4 => {
            g.op += 1;
            let file = g.rng.below(10_000);
            let command = if g.shape == DenseShape::NoCommand { "" } else { r#","command":{"kind":"not-command"}"# };
            write!(
                out,
                r#"{{"type":"operation.started","operationId":"op{:07}","operation":{{"kind":"tool","name":"Read","tool":"file_read","input":{{"path":"src/f{file}.rs"}}{command}}}}}"#,
                g.op
            )
        }
        2 | 5 => {
            let (status, output) =
                if g.shape == DenseShape::Failing { ("failed", "denied") } else { ("completed", "ok") };
            write!(
                out,
                r#"{{"type":"operation.finished","operationId":"op{:07}","kind":"tool","status":"{status}","output":"{output}"}}"#,
                g.op
            )
        }
        _ => {
            let step = g.rng.pick(DENSE_STEPS);
            write!(out, r#"{{"type":"thinking","text":"{step}"}}"#)
        }
    }
    .expect("write to a Vec");
}

/// How many of `events` go to turn `t` (0-based) of `turns`: equal shares,
/// the remainder to the first turns.
fn dense_share(events: u64, turns: u64, t: u64) -> u64 {
    events / turns + u64::from(t < events % turns)
}

fn write_session_dense<W: Write>(w: &mut Counter<W>, g: &mut Gen, events: u64) -> std::io::Result<(u64, u64)> {
    write!(
        w,
        "{{\"format\":\"niceeval-viewer.session/1\",\"evalId\":\"bench/dense\",\"model\":\"claude-sonnet-4-5\",\"sessions\":["
    )?;
    let turns = DENSE_SESSIONS * DENSE_TURNS;
    let mut buf = Vec::with_capacity(256);
    for s in 0..DENSE_SESSIONS {
        if s > 0 {
            w.write_all(b",")?;
        }
        write!(w, "{{\"sessionIndex\":{},\"sessionId\":\"thread_{:04}\",\"turns\":[", s + 1, s + 1)?;
        for t in 0..DENSE_TURNS {
            if t > 0 {
                w.write_all(b",")?;
            }
            let len = dense_share(events, turns, s * DENSE_TURNS + t);
            write!(
                w,
                "{{\"label\":\"turn{}\",\"input\":{{\"text\":\"read the exporter, fix the loop, run the tests (turn {})\"}},\"turn\":{{\"events\":[",
                t + 1,
                t + 1
            )?;
            for k in 0..len {
                buf.clear();
                if k > 0 {
                    buf.push(b',');
                }
                dense_event(&mut buf, g, k, len);
                w.write_all(&buf)?;
            }
            let out = 10 * len + g.rng.below(1000);
            write!(
                w,
                "],\"status\":\"completed\",\"usage\":{{\"inputTokens\":{},\"outputTokens\":{out},\"requests\":{}}}}}}}",
                20 * len + g.rng.below(1000),
                1 + len / 100
            )?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"]}\n")?;
    Ok((events, turns))
}

fn write_jsonl_dense<W: Write>(w: &mut Counter<W>, g: &mut Gen, events: u64) -> std::io::Result<(u64, u64)> {
    let turns = DENSE_SESSIONS * DENSE_TURNS;
    let mut buf = Vec::with_capacity(256);
    for t in 0..turns {
        let len = dense_share(events, turns, t);
        for k in 0..len {
            buf.clear();
            dense_event(&mut buf, g, k, len);
            buf.push(b'\n');
            w.write_all(&buf)?;
        }
    }
    Ok((events, 1))
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "generate: {e}\nusage: generate --format session|jsonl|summary --size 100MB --seed 1 --out FILE\n       \
                 generate --format session-dense|jsonl-dense --events 1000000 --seed 1 --out FILE \
                 [--shape plain|no-command|failing]"
            );
            std::process::exit(2);
        }
    };
    let file = match std::fs::File::create(&a.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("generate: cannot create {}: {e}", a.out);
            std::process::exit(1);
        }
    };
    let mut w = Counter { inner: BufWriter::with_capacity(1 << 20, file), bytes: 0 };
    let mut g = Gen::new(a.seed);
    g.shape = a.shape;
    let result = match a.format.as_str() {
        "session" => write_session(&mut w, &mut g, a.size),
        "jsonl" => write_jsonl(&mut w, &mut g, a.size),
        "session-dense" => write_session_dense(&mut w, &mut g, a.events),
        "jsonl-dense" => write_jsonl_dense(&mut w, &mut g, a.events),
        _ => write_summary(&mut w, &mut g, a.size),
    };
    match result.and_then(|r| w.flush().map(|_| r)) {
        Ok((events, turns)) => {
            eprintln!("generate: wrote {} bytes, {events} events, {turns} turns to {}", w.bytes, a.out)
        }
        Err(e) => {
            eprintln!("generate: cannot write {}: {e}", a.out);
            std::process::exit(1);
        }
    }
}
