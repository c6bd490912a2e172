//! A folder of generated Claude Code session logs, shaped like
//! `~/.claude/projects/<project>/`: one `<session>.jsonl` per session.
//!
//! cargo run --release --example generate_folder -- --format claude-code-folder --sessions 2000 --size 1GB --seed 1 --out DIR
//!
//! Each session: user prompts; per prompt several API responses, each
//! written one line per content block (thinking, text, tool_use) with the
//! response's usage repeated on every line, as Claude Code writes them;
//! tool_result lines with large outputs (some failed); timestamps that move
//! forward; sometimes a `summary` line first and a compaction (a
//! `compact_boundary` line and its `isCompactSummary` message). Each file's
//! modification time is its last timestamp. The same arguments always give
//! the same bytes.

use serde_json::{Value, json};
use std::io::Write;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo)
    }
}

const WORDS: [&str; 24] = [
    "the",
    "parser",
    "returns",
    "an",
    "error",
    "when",
    "config",
    "file",
    "is",
    "missing",
    "test",
    "flaky",
    "export",
    "row",
    "index",
    "cache",
    "async",
    "handler",
    "timeout",
    "retry",
    "schema",
    "migration",
    "fix",
    "build",
];

const PROMPTS: [&str; 8] = [
    "Fix the flaky test in parser_spec and run the suite",
    "The CSV export drops the last row. Find the bug and fix it; run the tests.",
    "Add a retry with backoff to the HTTP client",
    "Why does the build fail on CI but not locally?\nHere is the log:\n  error[E0432]: unresolved import",
    "Refactor the cache module so it can be tested without the network",
    "Write a migration that renames users.name to users.full_name",
    "Review this diff for race conditions",
    "Update the README with the new install steps",
];

fn words(rng: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 16);
    while s.len() < bytes {
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        s.push(if rng.below(12) == 0 { '\n' } else { ' ' });
    }
    s
}

/// ISO time of `ms` after the Unix epoch.
fn iso(ms: u64) -> String {
    let (days, rem) = (ms / 86_400_000, ms % 86_400_000);
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (h, mi, s, milli) = (rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

/// One session's lines, about `target` bytes.
struct Session<'a> {
    rng: &'a mut Rng,
    id: String,
    clock: u64,
    uuid: u64,
    out: Vec<u8>,
}

impl Session<'_> {
    fn line(&mut self, mut v: Value) {
        self.uuid += 1;
        self.clock += self.rng.range(80, 9000);
        let o = v.as_object_mut().expect("an object");
        o.insert("parentUuid".into(), json!(format!("u-{}", self.uuid - 1)));
        o.insert("isSidechain".into(), json!(false));
        o.insert("cwd".into(), json!("/home/dev/project"));
        o.insert("sessionId".into(), json!(self.id));
        o.insert("version".into(), json!("2.0.31"));
        o.insert("uuid".into(), json!(format!("u-{}", self.uuid)));
        o.insert("timestamp".into(), json!(iso(self.clock)));
        serde_json::to_writer(&mut self.out, &v).expect("in memory");
        self.out.push(b'\n');
    }

    fn user(&mut self, content: Value) {
        self.line(json!({"type": "user", "userType": "external", "message": {"role": "user", "content": content}}));
    }

    /// One API response: a line per content block, each with its usage.
    fn response(&mut self, n: u64, model: &str, tool_bytes: usize) -> Vec<(String, bool)> {
        let usage = json!({"input_tokens": self.rng.range(2, 40), "cache_creation_input_tokens": self.rng.below(6000),
            "cache_read_input_tokens": self.rng.range(1000, 60_000), "output_tokens": self.rng.range(20, 900),
            "service_tier": "standard"});
        let mut blocks = Vec::new();
        if self.rng.below(3) == 0 {
            blocks.push(json!({"type": "thinking", "thinking": words(self.rng, 300), "signature": "EqQB"}));
        }
        blocks.push(json!({"type": "text", "text": words(self.rng, 200)}));
        let mut uses = Vec::new();
        for k in 0..self.rng.range(1, 4) {
            let id = format!("toolu_{n:04}_{k}");
            let (name, input) = match self.rng.below(4) {
                0 => ("Bash", json!({"command": "cargo test --all 2>&1 | tail -50", "description": "Run the tests"})),
                1 => ("Read", json!({"file_path": format!("/home/dev/project/src/mod_{}.rs", self.rng.below(90))})),
                2 => ("Grep", json!({"pattern": "fn parse", "path": "src"})),
                _ => (
                    "Edit",
                    json!({"file_path": "/home/dev/project/src/lib.rs", "old_string": words(self.rng, 400),
                    "new_string": words(self.rng, 400)}),
                ),
            };
            blocks.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
            uses.push((id, self.rng.below(9) == 0));
        }
        for b in blocks {
            self.line(json!({"type": "assistant", "requestId": format!("req_{n}"), "message": {"id": format!("msg_{}_{n}", self.id),
                "type": "message", "role": "assistant", "model": model, "stop_reason": null, "usage": usage, "content": [b]}}));
        }
        let results: Vec<Value> = uses
            .iter()
            .map(|(id, failed)| {
                let size = self.rng.range(tool_bytes as u64 / 4, tool_bytes as u64 * 2) as usize;
                json!({"type": "tool_result", "tool_use_id": id, "is_error": failed, "content": words(self.rng, size)})
            })
            .collect();
        self.user(Value::Array(results));
        uses
    }
}

fn session(rng: &mut Rng, index: usize, start: u64, target: usize) -> (String, Vec<u8>, u64) {
    let id = format!(
        "{:08x}-{:04x}-4{:03x}-9{:03x}-{:012x}",
        rng.next() as u32,
        index,
        rng.below(4096),
        rng.below(4096),
        rng.next() >> 16
    );
    let model = ["claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805", "claude-haiku-4-5"][rng.below(3) as usize];
    let mut s = Session { rng, id: id.clone(), clock: start, uuid: 0, out: Vec::with_capacity(target + 65_536) };
    if s.rng.below(3) == 0 {
        let title = words(s.rng, 30);
        writeln!(s.out, "{}", json!({"type": "summary", "summary": title.trim(), "leafUuid": "u-1"}))
            .expect("in memory");
    }
    let (mut n, mut prompt) = (0u64, 0usize);
    let tool_bytes = (target / 40).clamp(512, 64 << 10);
    while s.out.len() < target || prompt == 0 {
        let text = PROMPTS[(index + prompt) % PROMPTS.len()];
        s.user(json!(if prompt == 0 { text.to_string() } else { format!("{text} (again, take {prompt})") }));
        prompt += 1;
        for _ in 0..s.rng.range(2, 8) {
            n += 1;
            s.response(n, model, tool_bytes);
            if s.out.len() >= target {
                break;
            }
        }
        if s.rng.below(7) == 0 {
            s.line(json!({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                "compactMetadata": {"trigger": "auto", "preTokens": 150_000}}));
            let summary =
                format!("This session is being continued from a previous conversation. {}", words(s.rng, 600));
            s.line(json!({"type": "user", "isCompactSummary": true, "message": {"role": "user", "content": summary}}));
        }
    }
    (id, s.out, s.clock)
}

fn parse_size(s: &str) -> Result<u64, String> {
    let upper = s.to_ascii_uppercase();
    let (num, mult) = match upper.trim_end_matches('B') {
        x if x.ends_with('G') => (x.trim_end_matches('G'), 1u64 << 30),
        x if x.ends_with('M') => (x.trim_end_matches('M'), 1 << 20),
        x if x.ends_with('K') => (x.trim_end_matches('K'), 1 << 10),
        x => (x, 1),
    };
    num.trim().parse::<f64>().map(|n| (n * mult as f64) as u64).map_err(|_| format!("bad --size {s:?}"))
}

fn run() -> Result<(), String> {
    let (mut sessions, mut size, mut seed, mut out) = (2000usize, 1u64 << 30, 1u64, String::new());
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--format" if v()? == "claude-code-folder" => {}
            "--format" => return Err("--format must be claude-code-folder".into()),
            "--sessions" => sessions = v()?.parse().map_err(|_| "bad --sessions")?,
            "--size" => size = parse_size(&v()?)?,
            "--seed" => seed = v()?.parse().map_err(|_| "bad --seed")?,
            "--out" => out = v()?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if out.is_empty() {
        return Err("--out DIR is required".into());
    }
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let per = (size / sessions.max(1) as u64) as usize;
    // Sessions from 2025-10-01 on, minutes to hours apart.
    let mut start = 1_759_276_800_000u64;
    for i in 0..sessions {
        start += rng.range(60_000, 2 * 3_600_000);
        let target = rng.range(per as u64 / 3, per as u64 * 5 / 3) as usize;
        let (id, bytes, end) = session(&mut rng, i, start, target);
        let path = std::path::Path::new(&out).join(format!("{id}.jsonl"));
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let when = std::time::UNIX_EPOCH + std::time::Duration::from_millis(end);
        let file = std::fs::File::options().write(true).open(&path).map_err(|e| e.to_string())?;
        file.set_modified(when).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!(
            "generate_folder: {e}\nusage: generate_folder --format claude-code-folder --sessions 2000 --size 1GB --seed 1 --out DIR"
        );
        std::process::exit(2);
    }
}
