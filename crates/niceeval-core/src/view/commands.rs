//! Sandbox lifecycle commands (setup, test, teardown, …) for every surface:
//! `show --commands` (one card each), the rows and the card a viewer's
//! Commands tab lists and opens ([`row`], [`card`]),
//! `show --json`'s `commands` ([`json`]) and the first failed step
//! ([`super::first_failure`]). A card says the phase, where it ran among the
//! turns, the command line, the working directory, the exit code (or how it
//! ended otherwise), the duration, and stdout and stderr: sanitised, folded
//! when long (`--full` unfolds), with what the file did not keep said.

use super::blocks::{Block, Section, kv};
use super::context::Ctx;
use super::format::{MISSING, count, duration_ms};
use super::text::{Text, Tone, clean};
use crate::model::document::Completeness;
use crate::model::sandbox::{Invocation, Outcome, SandboxCommand, Stream, WorkingDirectory};
use crate::model::timing::Interval;
use serde_json::{Value, json};

pub const TITLE: &str = "Commands";

/// A stream longer than this many lines is folded: its first
/// [`HEAD_LINES`] and last [`TAIL_LINES`] are shown (the end of a test
/// run's output is where its summary is).
pub const FOLD_LINES: usize = 24;
const HEAD_LINES: usize = 4;
const TAIL_LINES: usize = 16;
/// A command line longer than this is cut (`--full` shows it whole).
pub const LINE_CHARS: usize = 240;
const LINE_LINES: usize = 3;
const W: usize = 6;

/// A turn a command is placed by: its number as every surface prints it
/// (`None` when the send's label names no turn of the attempt) and its name.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRef {
    pub number: Option<u64>,
    pub name: String,
}

/// Where a command ran among the turns.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    During(TurnRef),
    Before(TurnRef),
    After(TurnRef),
    Between(TurnRef, TurnRef),
    /// By its phase, without timing: setup before the turns, teardown after.
    BeforeTurns,
    AfterTurns,
    /// Neither timing nor phase places it.
    Unplaced,
}

impl When {
    pub fn words(&self) -> Option<String> {
        match self {
            When::During(t) => Some(format!("during {}", t.name)),
            When::Before(t) => Some(format!("before {}", t.name)),
            When::After(t) => Some(format!("after {}", t.name)),
            When::Between(a, b) => Some(format!("between {} and {}", a.name, b.name)),
            When::BeforeTurns => Some("before the turns".into()),
            When::AfterTurns => Some("after the turns".into()),
            When::Unplaced => None,
        }
    }
}

/// One command with what the view knows of it.
pub struct Placed<'a> {
    /// 1-based, in recorded order.
    pub number: usize,
    pub command: &'a SandboxCommand,
    pub interval: Option<&'a Interval>,
    pub when: When,
}

/// The attempt's commands, each placed among its turns.
pub fn placed<'a>(ctx: &Ctx<'a>) -> Vec<Placed<'a>> {
    let review = &ctx.attempt.review;
    let links = crate::model::sandbox::intervals(&review.commands, &review.timing);
    let sends = sends(ctx);
    review
        .commands
        .iter()
        .zip(links)
        .enumerate()
        .map(|(i, (command, link))| {
            let interval = link.and_then(|k| review.timing.intervals.get(k));
            let when = match interval.and_then(|iv| iv.start_ms) {
                Some(start) if !sends.is_empty() => when_at(&sends, start),
                _ if sends.is_empty() && ctx.derived.turns.is_empty() => When::Unplaced,
                _ => by_phase(command.phase.as_deref()),
            };
            Placed { number: i + 1, command, interval, when }
        })
        .collect()
}

/// The attempt's sends on its clock: (start, end, the turn).
fn sends(ctx: &Ctx) -> Vec<(f64, f64, TurnRef)> {
    let mut out: Vec<(f64, f64, TurnRef)> = ctx
        .attempt
        .review
        .timing
        .intervals
        .iter()
        .filter(|iv| matches!(iv.phase.as_deref(), Some("agent.send" | "agent.turn")))
        .filter_map(|iv| Some((iv.start_ms?, iv.end_ms()?, turn_ref(ctx, &iv.label))))
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// "turn 3" for the turn a send interval's label names (as every surface
/// numbers it), else the label.
fn turn_ref(ctx: &Ctx, label: &str) -> TurnRef {
    let number = ctx
        .addrs()
        .find(|(_, addr)| super::address::turn_label(ctx.attempt, *addr) == label)
        .map(|(_, addr)| super::address::turn_number(ctx.derived, addr));
    TurnRef { number, name: number.map(|n| format!("turn {n}")).unwrap_or_else(|| clean(label)) }
}

fn when_at(sends: &[(f64, f64, TurnRef)], start: f64) -> When {
    if let Some((_, _, t)) = sends.iter().find(|(s, e, _)| *s <= start && start < *e) {
        return When::During(t.clone());
    }
    let before = sends.iter().rev().find(|(_, e, _)| *e <= start);
    let after = sends.iter().find(|(s, _, _)| *s >= start);
    match (before, after) {
        (Some(b), Some(a)) => When::Between(b.2.clone(), a.2.clone()),
        (Some(b), None) => When::After(b.2.clone()),
        (None, Some(a)) => When::Before(a.2.clone()),
        (None, None) => When::Unplaced,
    }
}

/// Where a command of this phase ran, when no interval places it.
pub(super) fn by_phase(phase: Option<&str>) -> When {
    match phase {
        Some("attempt.setup" | "sandbox.prepare" | "agent.ensure") => When::BeforeTurns,
        Some("attempt.teardown") => When::AfterTurns,
        _ => When::Unplaced,
    }
}

/// "✓ exit 0", "✗ exit 1", "✗ terminated (timeout)", "— outcome not recorded".
pub fn outcome_text(o: &Outcome) -> Text {
    match o {
        Outcome::Exited(0) => Text::toned("✓ exit 0", Tone::Good),
        Outcome::Exited(code) => Text::toned(format!("✗ exit {code}"), Tone::Bad),
        Outcome::Terminated(r) => Text::toned(with_reason("✗ terminated", r.as_deref()), Tone::Bad),
        Outcome::NotStarted(r) => Text::toned(with_reason("✗ not started", r.as_deref()), Tone::Bad),
        Outcome::Other { kind, reason } => {
            Text::toned(with_reason(&format!("✗ {}", clean(kind)), reason.as_deref()), Tone::Bad)
        }
        Outcome::NotRecorded => Text::toned(format!("{MISSING} outcome not recorded"), Tone::Soft),
    }
}

fn with_reason(words: &str, reason: Option<&str>) -> String {
    match reason {
        Some(r) => format!("{words} ({})", clean(r)),
        None => words.to_string(),
    }
}

/// The command line, one line of it ("$ pnpm test"), cut to `chars`.
pub fn line_text(c: &SandboxCommand, chars: usize) -> Text {
    match c.invocation.line() {
        Some(line) => {
            let one: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
            Text::plain(crate::model::text::truncate(&clean(&one), chars))
        }
        None => Text::toned(format!("{MISSING} command not recorded"), Tone::Soft),
    }
}

fn directory_text(w: Option<&WorkingDirectory>) -> Text {
    match w {
        None => Text::toned(format!("{MISSING} not recorded"), Tone::Soft),
        Some(WorkingDirectory::SandboxDefault) => Text::plain("the sandbox's default"),
        Some(WorkingDirectory::ProjectRelative(p)) => Text::plain(clean(p)),
        Some(WorkingDirectory::Redacted) => Text::toned("redacted", Tone::Soft),
        Some(WorkingDirectory::Other(k)) => Text::plain(clean(k)),
    }
}

fn duration_text(p: &Placed) -> Text {
    match p.interval.and_then(|iv| iv.duration_ms) {
        Some(d) => Text::plain(duration_ms(d)),
        None => Text::toned(MISSING, Tone::Soft),
    }
}

/// The widest each column of a viewer's list [`row`] gets (the command line takes the rest).
pub const LIST_CAPS: [usize; 5] = [3, 17, 24, 24, 8];

/// One list row of a command.
pub fn row(p: &Placed) -> Vec<Text> {
    vec![
        Text::toned(p.number.to_string(), Tone::Soft),
        Text::toned(p.command.phase.as_deref().map(clean).unwrap_or_else(|| MISSING.into()), Tone::Soft),
        Text::toned(p.when.words().unwrap_or_else(|| MISSING.into()), Tone::Soft),
        outcome_text(&p.command.outcome),
        duration_text(p),
        line_text(p.command, LINE_CHARS),
    ]
}

/// A card's title: "command 4 · eval.run · during turn 1".
pub fn card_title(p: &Placed) -> String {
    let mut t = format!("command {}", p.number);
    if let Some(phase) = &p.command.phase {
        t.push_str(&format!(" · {}", clean(phase)));
    }
    if let Some(w) = p.when.words() {
        t.push_str(&format!(" · {w}"));
    }
    t
}

/// A card's meta: "✗ exit 1 · 2.3s".
pub fn card_meta(p: &Placed) -> Text {
    let mut t = outcome_text(&p.command.outcome);
    if let Some(d) = p.interval.and_then(|iv| iv.duration_ms) {
        t.push(format!(" · {}", duration_ms(d)), Tone::Soft);
    }
    t
}

/// How a folded card says its whole text is shown: `show`'s flag, or the viewer's pager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfold {
    Flag,
    Pager,
}

impl Unfold {
    fn words(self, what: &str) -> String {
        match self {
            Unfold::Flag => format!("--full shows {what}"),
            Unfold::Pager => {
                format!("{} opens {what} in $PAGER", super::keys::key_for(super::intent::Intent::OpenPager))
            }
        }
    }
}

/// A card's body: the command line, where it ran, how long, and its streams.
pub fn card(p: &Placed, full: bool, unfold: Unfold) -> Vec<Block> {
    let c = p.command;
    let mut b = Vec::new();
    match c.invocation.line() {
        Some(line) => b.extend(command_lines(&line, full, unfold)),
        None => b.push(kv("run", W, Text::toned(format!("{MISSING} command not recorded"), Tone::Soft))),
    }
    b.push(kv("cwd", W, directory_text(c.working_directory.as_ref())));
    let took = match (p.interval.and_then(|iv| iv.duration_ms), p.interval) {
        (Some(d), _) => Text::plain(duration_ms(d)),
        (None, Some(_)) => Text::toned(format!("{MISSING} (its interval records no duration)"), Tone::Soft),
        (None, None) => Text::toned(format!("{MISSING} (not linked to a timing interval)"), Tone::Soft),
    };
    b.push(kv("took", W, took));
    if let Some(checked) = c.checked {
        let words =
            if checked { "yes: a non-zero exit fails the step" } else { "no: the exit code is the eval's to judge" };
        b.push(kv("checked", W, Text::toned(words, Tone::Soft)));
    }
    for (name, stream) in [("stdout", &c.stdout), ("stderr", &c.stderr)] {
        b.extend(stream_blocks(name, stream, full, unfold));
    }
    b
}

/// "$ " and the command line: at most [`LINE_LINES`] lines and
/// [`LINE_CHARS`] characters unless `full`, then what was left out.
fn command_lines(line: &str, full: bool, unfold: Unfold) -> Vec<Block> {
    let chars = line.chars().count();
    let lines = line.lines().count();
    if full || (chars <= LINE_CHARS && lines <= LINE_LINES) {
        return vec![Block::Body(format!("$ {line}"), Tone::Accent)];
    }
    let mut kept: String = line.lines().take(LINE_LINES).collect::<Vec<_>>().join("\n");
    if let Some((at, _)) = kept.char_indices().nth(LINE_CHARS) {
        kept.truncate(at);
    }
    let left = chars.saturating_sub(kept.chars().count());
    vec![
        Block::Body(format!("$ {kept}…"), Tone::Accent),
        Block::Line(Text::toned(
            format!(
                "… {} more of the command line ({})",
                count(left, "character", "characters"),
                unfold.words("it whole")
            ),
            Tone::Soft,
        )),
    ]
}

/// "stdout  3 lines · 53 bytes" and the text, folded past [`FOLD_LINES`].
fn stream_blocks(name: &str, s: &Stream, full: bool, unfold: Unfold) -> Vec<Block> {
    let mut head = match &s.text {
        None => Text::toned(format!("{MISSING} not recorded"), Tone::Soft),
        Some(t) if t.is_empty() => Text::toned("empty", Tone::Soft),
        Some(t) => Text::plain(count(t.lines().count(), "line", "lines")),
    };
    if let Some(n) = s.retained_bytes.filter(|_| s.text.as_deref().is_some_and(|t| !t.is_empty())) {
        head.push(format!(" · {}", bytes(n)), Tone::Soft);
    }
    if let (Some(omitted), Some(total)) = (s.omitted_bytes(), s.total_bytes) {
        let kept = s.retained_bytes.unwrap_or(0);
        head.push(
            format!(" · the file kept {} of {} ({} not recorded)", bytes(kept), bytes(total), bytes(omitted)),
            Tone::Warn,
        );
    } else if s.truncated {
        head.push(" · cut by NiceEval (the rest not recorded)", Tone::Warn);
    }
    let Some(text) = s.text.as_deref().filter(|t| !t.is_empty()) else { return vec![kv(name, W, head)] };
    let tone = if name == "stderr" { Tone::Warn } else { Tone::Plain };
    let lines: Vec<&str> = text.trim_end_matches('\n').split('\n').collect();
    let mut b = Vec::new();
    if full || lines.len() <= FOLD_LINES {
        b.push(Block::Body(lines.join("\n"), tone));
    } else {
        b.push(Block::Body(lines[..HEAD_LINES].join("\n"), tone));
        let hidden = lines.len() - HEAD_LINES - TAIL_LINES;
        b.push(Block::Line(Text::toned(
            format!("… {} not shown ({})", count(hidden, "line", "lines"), unfold.words("all")),
            Tone::Soft,
        )));
        b.push(Block::Body(lines[lines.len() - TAIL_LINES..].join("\n"), tone));
    }
    vec![Block::Section(Section::new(name, head, b))]
}

/// "53 bytes", "4.1 KB", "1.2 MB".
pub fn bytes(n: u64) -> String {
    match n {
        0..1_000 => count(n as usize, "byte", "bytes"),
        1_000..1_000_000 => format!("{:.1} KB", n as f64 / 1_000.0),
        _ => super::format::megabytes(n),
    }
}

/// Whether the command matches `--grep` (its line, its outcome, its streams).
fn grep_matches(ctx: &Ctx, p: &Placed) -> bool {
    ctx.grep(|| {
        let c = p.command;
        [
            c.invocation.line().unwrap_or_default(),
            outcome_text(&c.outcome).as_plain(),
            c.stdout.text.clone().unwrap_or_default(),
            c.stderr.text.clone().unwrap_or_default(),
        ]
        .join("\n")
    })
}

/// "9 commands · ✗ 1 failed", and the collection's state when it is not complete.
pub fn meta(ctx: &Ctx, placed: &[Placed]) -> Text {
    let failed = placed.iter().filter(|p| p.command.outcome.failed()).count();
    if placed.is_empty() && matches!(ctx.attempt.review.commands_state, None | Some(Completeness::NotRecorded)) {
        return Text::toned("not recorded", Tone::Soft);
    }
    let mut t = Text::plain(count(placed.len(), "command", "commands"));
    if failed > 0 {
        t.push(format!(" · ✗ {failed} failed"), Tone::Bad);
    }
    if let Some(state) = state_words(ctx) {
        t.push(format!(" · {state}"), Tone::Warn);
    }
    t
}

/// "partial: text-truncated (…)" when the collection says it is not whole.
fn state_words(ctx: &Ctx) -> Option<String> {
    match &ctx.attempt.review.commands_state {
        Some(Completeness::Partial(why)) => {
            Some(format!("partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")))
        }
        _ => None,
    }
}

/// `show --commands`: a card for each command (those `--grep` matches).
pub fn section(ctx: &Ctx) -> Section {
    let all = placed(ctx);
    let mut body = Vec::new();
    if all.is_empty() {
        body.push(Block::Line(Text::toned(empty_text(ctx), Tone::Soft)));
    }
    let shown: Vec<&Placed> = all.iter().filter(|p| grep_matches(ctx, p)).collect();
    if shown.is_empty() && !all.is_empty() {
        body.push(Block::Line(Text::toned("no command matches --grep", Tone::Soft)));
    }
    for p in shown {
        body.push(Block::Section(Section::new(card_title(p), card_meta(p), card(p, ctx.sel.full, Unfold::Flag))));
    }
    Section::new(TITLE, meta(ctx, &all), body)
}

/// What an attempt without commands says: none run, or none recorded.
pub fn empty_text(ctx: &Ctx) -> String {
    match ctx.attempt.review.commands_state {
        Some(Completeness::NotRecorded) | None => "sandbox commands are not recorded in this input".into(),
        Some(_) => "no sandbox commands were run (the collection is recorded and empty)".into(),
    }
}

fn stream_json(s: &Stream) -> Value {
    json!({
        "text": s.text,
        "bytes": s.retained_bytes,
        "totalBytes": s.total_bytes,
        "omittedBytes": s.omitted_bytes(),
        "truncated": s.truncated || s.omitted_bytes().is_some(),
    })
}

fn outcome_json(o: &Outcome) -> Value {
    match o {
        Outcome::Exited(code) => json!({"kind": "exited", "exitCode": code}),
        Outcome::Terminated(r) => json!({"kind": "terminated", "reason": r}),
        Outcome::NotStarted(r) => json!({"kind": "not-started", "reason": r}),
        Outcome::Other { kind, reason } => json!({"kind": kind, "reason": reason}),
        Outcome::NotRecorded => Value::Null,
    }
}

fn directory_json(w: Option<&WorkingDirectory>) -> Value {
    match w {
        None => Value::Null,
        Some(WorkingDirectory::SandboxDefault) => json!({"kind": "sandbox-default"}),
        Some(WorkingDirectory::ProjectRelative(p)) => json!({"kind": "project-relative", "path": p}),
        Some(WorkingDirectory::Redacted) => json!({"kind": "redacted"}),
        Some(WorkingDirectory::Other(k)) => json!({"kind": k}),
    }
}

/// `show --json`'s `commands`: each command with the same facts as its card.
pub fn json(ctx: &Ctx) -> Value {
    placed(ctx).iter().map(entry_json).collect()
}

/// One command as `show --json` lists it (the viewer's Raw view of a command).
pub fn entry_json(p: &Placed) -> Value {
    let c = p.command;
    json!({
        "command": p.number,
        "id": c.id,
        "phase": c.phase,
        "line": c.invocation.line(),
        "argv": match &c.invocation {
            Invocation::Argv { executable, arguments } => {
                std::iter::once(executable).chain(arguments).map(|a| Value::from(a.as_str())).collect()
            }
            _ => Value::Null,
        },
        "workingDirectory": directory_json(c.working_directory.as_ref()),
        "outcome": outcome_json(&c.outcome),
        "outcomeWords": outcome_text(&c.outcome).as_plain(),
        "failed": c.outcome.failed(),
        "checked": c.checked,
        "when": p.when.words(),
        "startOffsetMs": p.interval.and_then(|iv| iv.start_ms).map(crate::model::usage::number),
        "durationMs": p.interval.and_then(|iv| iv.duration_ms).map(crate::model::usage::number),
        "stdout": stream_json(&c.stdout),
        "stderr": stream_json(&c.stderr),
    })
}

/// The viewer's list title: " Commands · 9 commands · ✗ 1 failed ".
pub fn list_title(ctx: &Ctx, placed: &[Placed]) -> String {
    format!(" {TITLE} · {} ", meta(ctx, placed).as_plain())
}

/// A command whole, as text (what the viewer copies and pages): its line,
/// where it ran, how it ended, and both streams unfolded.
pub fn whole_text(p: &Placed) -> String {
    let mut lines = vec![card_title(p), card_meta(p).as_plain(), String::new()];
    for block in card(p, true, Unfold::Flag) {
        push_plain(&block, &mut lines);
    }
    lines.join("\n")
}

fn push_plain(b: &Block, out: &mut Vec<String>) {
    match b {
        Block::Body(text, _) => out.push(text.clone()),
        Block::Kv(label, value) => out.push(format!("{}{}", label.as_plain(), value.as_plain())),
        Block::Line(t) => out.push(t.as_plain()),
        Block::Section(s) => {
            out.push(format!("{}  {}", s.title, s.meta.as_plain()));
            for b in &s.body {
                push_plain(b, out);
            }
        }
        _ => {}
    }
}

/// What Enter on a command does, for its inspector.
pub fn enter_words(p: &Placed) -> Text {
    use super::{intent::Intent, keys::key_for};
    match p.interval {
        Some(_) => Text::toned(
            format!(
                "{}: its interval in the Timing tab · {} comes back",
                key_for(Intent::Enter),
                key_for(Intent::JumpBack)
            ),
            Tone::Soft,
        ),
        None => Text::toned("not linked to a timing interval: not in the Timing tab", Tone::Soft),
    }
}
