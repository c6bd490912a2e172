//! The inspector's content for whatever is selected: a timeline row, a tool
//! occurrence, a request, the cost, an assertion, a finding, a file change,
//! or a scope (attempt, session, turn). Preview is blocks; Raw is the exact
//! JSON. The viewer only scrolls and draws what this returns.

use super::blocks::{Block, Section, kv};
use super::context::Ctx;
use super::format::count;
use super::text::{Text, Tone, clean};
use super::timeline::{kind_word, position, turn_header};
use crate::model::derive::TurnAddr;
use crate::model::document::TurnRecord;
use crate::model::event::{Event, EventKind};
use crate::model::timeline::RowKind;
use serde_json::{Map, Value};

/// What is selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selected {
    /// A timeline row (index into the attempt's rows).
    Row(usize),
    /// A tool occurrence (root-scope index).
    Tool(usize),
    /// An orphan finish (root-scope index).
    Orphan(usize),
    /// An input request (index into the attempt's requests).
    Request(usize),
    /// The cost of the attempt.
    Cost,
    /// An assertion (index into the attempt's assertions).
    Assertion(usize),
    /// A finding (index into the document's findings).
    Finding(usize),
    /// A diagnostic the input records (index into the attempt's).
    Diagnostic(usize),
    /// A file change.
    Change(usize),
    /// A waterfall row: a node of the timing tree, or the fold that starts with it.
    Timing { node: usize, fold: bool },
    /// The fix prompt of the attempt.
    FixPrompt,
    /// A native line (index into the attempt's provenance lines).
    NativeLine(usize),
    /// A row of the Source tab (index into `source_rows::rows`).
    SourceRow(usize),
    /// A sandbox command (index in recorded order).
    Command(usize),
    /// A row of where the failure began, above the fix prompt.
    Began(super::first_failure::BeganRow),
    /// The attempt as a whole, a session, or a turn.
    Scope { session: Option<usize>, turn: Option<usize> },
}

/// The inspector's title and content.
#[derive(Debug, Clone)]
pub struct Inspected {
    pub title: String,
    pub blocks: Vec<Block>,
}

fn nothing(title: &str) -> Inspected {
    Inspected { title: title.into(), blocks: vec![Block::Line(Text::toned("nothing selected", Tone::Soft))] }
}

/// The readable view of the selection.
pub fn preview(ctx: &Ctx, all_findings: &[crate::model::diagnostics::Finding], sel: Selected) -> Inspected {
    let d = ctx.derived;
    match sel {
        Selected::Row(ri) => row(ctx, all_findings, ri).unwrap_or_else(|| nothing("Inspector")),
        Selected::Tool(i) => match d.occurrences.occurrences.get(i) {
            Some(o) => Inspected {
                title: format!("Tool · {}", clean(o.display_name())),
                blocks: super::tools::occurrence_detail(ctx, o),
            },
            None => nothing("Tool"),
        },
        Selected::Orphan(i) => match d.occurrences.orphan_finishes.get(i) {
            Some(o) => {
                let ev = d.turns.get(o.event_ref.scope_turn()).and_then(|t| event(ctx, t.addr, o.event_ref.event()));
                Inspected { title: "Orphan finish".into(), blocks: super::tools::orphan_detail(ctx, o, ev) }
            }
            None => nothing("Orphan finish"),
        },
        Selected::Request(i) => match ctx.view.requests.get(i) {
            Some(r) => {
                Inspected { title: super::hitl::request_title(ctx, r), blocks: super::hitl::request_detail(ctx, r) }
            }
            None => nothing("Input request"),
        },
        Selected::Cost => Inspected { title: "Cost".into(), blocks: super::usage::cost_detail(ctx) },
        Selected::Assertion(i) => match ctx.attempt.review.assertions.as_ref().and_then(|l| l.get(i)) {
            Some(a) => {
                Inspected { title: super::assertions::title(ctx.attempt, a), blocks: super::assertions::detail(ctx, a) }
            }
            None => nothing("Assertion"),
        },
        Selected::Finding(i) => match all_findings.get(i) {
            Some(f) => {
                Inspected { title: format!("Finding · {}", f.code), blocks: super::findings::finding_detail(ctx, f) }
            }
            None => nothing("Finding"),
        },
        Selected::Diagnostic(i) => match ctx.attempt.review.diagnostics.get(i) {
            Some(x) => Inspected { title: "Recorded diagnostic".into(), blocks: super::findings::diagnostic_detail(x) },
            None => nothing("Diagnostic"),
        },
        Selected::Change(i) => match ctx.attempt.review.file_changes.as_ref().and_then(|f| f.changes.get(i)) {
            Some(c) => Inspected { title: "File change".into(), blocks: super::changes::detail(c) },
            None => nothing("File change"),
        },
        Selected::Scope { session, turn } => scope(ctx, session, turn),
        Selected::Timing { node, fold } => timing(ctx, node, fold).unwrap_or_else(|| nothing("Timing")),
        Selected::FixPrompt => fix_prompt(ctx),
        Selected::NativeLine(i) => super::translation::line_detail(ctx, i)
            .map(|(title, blocks)| Inspected { title, blocks })
            .unwrap_or_else(|| nothing("Native line")),
        Selected::SourceRow(i) => match super::source_rows::rows(ctx).get(i) {
            Some(row) => {
                let (title, blocks) = super::source_rows::detail(ctx, row);
                Inspected { title, blocks }
            }
            None => nothing(super::source::TITLE),
        },
        Selected::Command(i) => match super::commands::placed(ctx).get(i) {
            Some(p) => {
                let mut blocks = vec![Block::Line(super::commands::card_meta(p))];
                blocks.extend(super::commands::card(p, false, super::commands::Unfold::Pager));
                blocks.push(Block::Blank);
                blocks.push(Block::Line(super::commands::enter_words(p)));
                Inspected { title: super::commands::card_title(p), blocks }
            }
            None => nothing(super::commands::TITLE),
        },
        Selected::Began(row) => match super::first_failure::of(ctx) {
            Some(f) => Inspected {
                title: super::first_failure::BEGAN.into(),
                blocks: super::first_failure::row_detail(ctx, &f, row),
            },
            None => nothing(super::first_failure::BEGAN),
        },
    }
}

/// A waterfall row: the node, or the fold of its siblings that starts with it.
fn timing(ctx: &Ctx, node: usize, fold: bool) -> Option<Inspected> {
    let target = timing_target(ctx, node, fold)?;
    let title = super::timing::row_title(ctx, &target);
    let blocks = match &target {
        super::waterfall::Target::Node(n) => super::timing::detail(ctx, *n),
        super::waterfall::Target::Fold { nodes, short } => super::timing::fold_detail(ctx, nodes, *short),
    };
    Some(Inspected { title, blocks })
}

/// The row a selection names: folds are found again among the node's siblings.
pub fn timing_target(ctx: &Ctx, node: usize, fold: bool) -> Option<super::waterfall::Target> {
    let tree = &ctx.view.timing;
    let n = tree.nodes.get(node)?;
    if !fold {
        return Some(super::waterfall::Target::Node(node));
    }
    let siblings = match n.parent {
        Some(p) => &tree.nodes[p].children,
        None => &tree.roots,
    };
    super::waterfall::fold_siblings(tree, siblings)
        .into_iter()
        .find(|t| matches!(t, super::waterfall::Target::Fold { nodes, .. } if nodes.first() == Some(&node)))
}

/// The fix prompt as NiceEval composes it, or why there is none.
fn fix_prompt(ctx: &Ctx) -> Inspected {
    let blocks = match super::fix_prompt::compose(ctx.attempt, &ctx.view.summary) {
        Ok(p) => vec![
            Block::Line(Text::toned("y copies it (OSC 52); niceeval show --fix-prompt prints it", Tone::Soft)),
            Block::Blank,
            Block::Body(p, Tone::Plain),
        ],
        Err(why) => vec![Block::Line(Text::toned(format!("no fix prompt: {why}"), Tone::Soft))],
    };
    Inspected { title: "Fix prompt".into(), blocks }
}

/// The exact JSON behind the selection.
pub fn raw(ctx: &Ctx, sel: Selected) -> Inspected {
    let d = ctx.derived;
    let json = |title: &str, v: Option<Value>| match v {
        Some(v) => Inspected { title: format!("{title} · raw"), blocks: vec![Block::Json(v)] },
        None => nothing(title),
    };
    match sel {
        Selected::Row(ri) => raw_row(ctx, ri).unwrap_or_else(|| nothing("Inspector")),
        Selected::Tool(i) => json("Tool", d.occurrences.occurrences.get(i).map(|o| o.to_json(&ctx.events()))),
        Selected::Orphan(i) => json("Orphan finish", d.occurrences.orphan_finishes.get(i).map(|o| o.to_json())),
        Selected::Request(i) => json(
            "Input request",
            ctx.view.requests.get(i).and_then(|r| event(ctx, r.addr, r.event)).map(|e| e.raw().into_owned()),
        ),
        Selected::Assertion(i) => {
            json("Assertion", ctx.attempt.review.assertions.as_ref().and_then(|l| l.get(i)).map(|a| a.raw.clone()))
        }
        Selected::Timing { node, fold: false } => json("Timing", Some(timing_json(ctx, node))),
        Selected::Command(i) => {
            json(super::commands::TITLE, super::commands::placed(ctx).get(i).map(super::commands::entry_json))
        }
        Selected::NativeLine(i) => super::translation::line_raw(ctx, i)
            .map(|(title, blocks)| Inspected { title, blocks })
            .unwrap_or_else(|| nothing("Native line")),
        // Usage, findings, diagnostics, changes, scopes, folds and the fix prompt have no JSON of their own: Raw shows the preview.
        other => preview(ctx, &[], other),
    }
}

/// A timing node's JSON: the span as the trace holds it, or the interval as `show --json` lists it.
pub fn timing_json(ctx: &Ctx, node: usize) -> Value {
    let tree = &ctx.view.timing;
    match tree.nodes.get(node).map(|n| n.source) {
        Some(crate::model::timing::Source::Span(s)) => {
            let index = tree.spans.get(s).map(|s| s.index);
            let raw = ctx.attempt.review.trace.as_ref().and_then(Value::as_array).zip(index);
            raw.and_then(|(list, i)| list.get(i).cloned()).unwrap_or(Value::Null)
        }
        Some(_) => super::timing::node_json(ctx, node),
        None => Value::Null,
    }
}

fn event<'a>(ctx: &Ctx<'a>, addr: TurnAddr, e: usize) -> Option<&'a Event> {
    record(ctx, addr)?.turn.events.get(e)
}

fn record<'a>(ctx: &Ctx<'a>, addr: TurnAddr) -> Option<&'a TurnRecord> {
    ctx.attempt.sessions.get(addr.session)?.turns.get(addr.turn)
}

/// The raw JSON of a row: the turn without its events, the input, or the event (and its merged finish).
fn raw_row(ctx: &Ctx, ri: usize) -> Option<Inspected> {
    let r = ctx.view.timeline.rows.get(ri)?;
    let rec = record(ctx, r.addr())?;
    let title = format!("{} {} · raw", kind_word(r.kind), position(r));
    let blocks = match (r.kind, r.event()) {
        (RowKind::TurnHeader, _) => {
            let mut t = Map::new();
            t.insert("status".into(), rec.turn.status.clone().map(Value::from).unwrap_or(Value::Null));
            for (k, v) in [
                ("usage", &rec.turn.usage_raw),
                ("data", &rec.turn.data),
                ("evidenceCoverage", &rec.turn.evidence_coverage),
            ] {
                if let Some(v) = v {
                    t.insert(k.into(), v.clone());
                }
            }
            vec![Block::Line(Text::toned("the turn without its events", Tone::Soft)), Block::Json(Value::Object(t))]
        }
        (RowKind::Input, _) => match &rec.input {
            Some(i) => vec![Block::Json(i.clone())],
            None => vec![Block::Line(Text::toned("input not recorded", Tone::Soft))],
        },
        (_, Some(e)) => {
            let mut b = vec![Block::Json(rec.turn.events.get(e)?.raw().into_owned())];
            if let Some(f) = r.merged_finish().and_then(|f| rec.turn.events.get(f)) {
                b.push(Block::Section(Section::new(
                    format!("finish {}", super::address::event_address(r.turn_ordinal, r.merged_finish())),
                    Text::new(),
                    vec![Block::Json(f.raw().into_owned())],
                )));
            }
            b
        }
        _ => return None,
    };
    Some(Inspected { title, blocks })
}

/// The readable view of a timeline row.
fn row(ctx: &Ctx, all_findings: &[crate::model::diagnostics::Finding], ri: usize) -> Option<Inspected> {
    let r = ctx.view.timeline.rows.get(ri)?;
    let rec = record(ctx, r.addr())?;
    let ev = r.event().and_then(|e| rec.turn.events.get(e));
    let title = match r.kind {
        RowKind::TurnHeader => position(r),
        kind => format!("{} {}", kind_word(kind), position(r)),
    };
    let mut blocks = match (r.kind, ev) {
        (RowKind::TurnHeader, _) => turn_detail(ctx, r.addr()),
        (RowKind::Input, _) => input_detail(ctx, rec),
        (RowKind::ToolStart | RowKind::ToolFinish, _) if r.occurrence().is_some() => {
            let o = ctx.derived.occurrences.occurrences.get(r.occurrence()?)?;
            super::tools::occurrence_detail(ctx, o)
        }
        (RowKind::ToolFinish, Some(e)) => match r.orphan().and_then(|i| ctx.derived.occurrences.orphan_finishes.get(i))
        {
            Some(o) => super::tools::orphan_detail(ctx, o, Some(e)),
            None => generic_event(ctx, e),
        },
        (RowKind::InputRequest, _) if r.request().is_some() => {
            super::hitl::request_detail(ctx, ctx.view.requests.get(r.request()?)?)
        }
        (RowKind::Unrecognized, Some(e)) => {
            let mut b = Vec::new();
            if let EventKind::Unrecognized { reason, .. } = &e.kind {
                b.push(Block::Line(Text::toned(format!("unrecognized: {}", clean(reason)), Tone::Bad)));
            }
            b.push(Block::Line(Text::toned("kept as written (never dropped):", Tone::Soft)));
            b.push(Block::Json(e.raw().into_owned()));
            b
        }
        (_, Some(e)) => generic_event(ctx, e),
        _ => Vec::new(),
    };
    blocks.extend(marks_at(ctx, all_findings, r.addr(), r.event()));
    if let Some(source) = r.event().and_then(|e| super::translation::row_source(ctx, r.addr(), e)) {
        blocks.push(Block::Blank);
        blocks.push(Block::Line(source));
    }
    Some(Inspected { title, blocks })
}

/// The findings and assertions that point at a row.
fn marks_at(
    ctx: &Ctx,
    all_findings: &[crate::model::diagnostics::Finding],
    addr: TurnAddr,
    event: Option<usize>,
) -> Vec<Block> {
    let mut out = Vec::new();
    let here: Vec<&crate::model::diagnostics::Finding> = all_findings
        .iter()
        .filter(|f| f.location.attempt() == ctx.index && f.location.session() == addr.session)
        .filter(|f| f.location.turn() == Some(addr.turn) && f.location.event() == event)
        .collect();
    if !here.is_empty() {
        let lines = here
            .iter()
            .map(|f| {
                Block::Line(
                    super::verdict::severity_text(f.severity)
                        .with(format!(" {} ", f.code), Tone::Accent)
                        .with(clean(&super::findings::message(f)), Tone::Plain),
                )
            })
            .collect();
        out.push(Block::Section(Section::new(
            format!("⚑ {} here", count(here.len(), "finding", "findings")),
            Text::new(),
            lines,
        )));
    }
    let tool_row =
        event.and_then(|e| event_kind(ctx, addr, e)).is_some_and(|k| matches!(k, EventKind::ToolStarted { .. }));
    if let (Some(list), false) = (ctx.view.badges.get(&(addr, event)), tool_row)
        && let Some(assertions) = ctx.attempt.review.assertions.as_ref()
    {
        let lines = list
            .iter()
            .filter_map(|&i| assertions.get(i))
            .map(|a| Block::Line(Text::plain(super::assertions::title(ctx.attempt, a))))
            .collect();
        out.push(Block::Section(Section::new(
            format!("◆ asserted by {}", count(list.len(), "assertion", "assertions")),
            Text::new(),
            lines,
        )));
    }
    out
}

fn event_kind<'a>(ctx: &Ctx<'a>, addr: TurnAddr, e: usize) -> Option<&'a EventKind> {
    event(ctx, addr, e).map(|ev| &ev.kind)
}

/// A turn: status, label, scope names, counts, duration, its usage, coverage, structured data.
fn turn_detail(ctx: &Ctx, addr: TurnAddr) -> Vec<Block> {
    let Some(rec) = record(ctx, addr) else { return Vec::new() };
    let (title, meta) = turn_header(ctx.attempt, ctx.view, addr);
    let mut b = vec![Block::Line(Text::toned(title, Tone::Bold)), Block::Line(meta)];
    if let Some(t) = ctx.derived.turn(addr) {
        b.push(kv(
            "scope",
            9,
            Text::plain(format!("{}/{} (turnOrdinal {})", t.session_name, t.turn_name, t.turn_ordinal)),
        ));
        // Counted over the session's calls, as the Tools tab and `show --tools` count
        // them: a call started earlier and finished here is no orphan.
        let here = ctx.derived.turns.iter().position(|d| d.addr == addr);
        let counts = super::tools::ToolCounts::of(ctx.derived, |st| Some(st) == here);
        b.push(kv("tools", 9, Text::plain(counts.text())));
    }
    b.push(kv(
        "duration",
        9,
        rec.duration_ms
            .map(|ms| Text::plain(super::format::duration_ms(ms)))
            .unwrap_or_else(|| Text::toned("— (timing unavailable)", Tone::Soft)),
    ));
    if let Some(tr) = &rec.trace_id {
        b.push(kv("trace", 9, Text::plain(clean(tr))));
    }
    let usage = rec.turn.usage.as_ref();
    let mut cells = super::usage::token_cells(usage).into_iter().chain(super::usage::cost_cells(usage));
    let mut rows = Vec::new();
    for name in super::usage::TOKEN_COLUMNS.iter().chain(super::usage::COST_COLUMNS.iter()) {
        rows.push(kv(name, 11, cells.next().unwrap_or_default()));
    }
    b.push(Block::Section(Section::new("Usage reported for this turn", Text::new(), rows)));
    if let Some(t) = ctx.derived.turn(addr)
        && !t.coverage.is_complete()
    {
        let mut cov = Vec::new();
        for (i, ch) in crate::model::coverage::CHANNELS.iter().enumerate() {
            let e = &t.coverage.entries[i];
            if e.status != crate::model::coverage::CoverageStatus::Complete {
                let reason = e.reason.clone().unwrap_or_default();
                cov.push(kv(ch, 9, Text::toned(format!("{}: {}", e.status.as_str(), clean(&reason)), Tone::Warn)));
            }
        }
        b.push(Block::Section(Section::new("Evidence coverage (downgraded by the turn)", Text::new(), cov)));
    }
    if let Some(data) = &rec.turn.data {
        b.push(Block::Section(Section::new("Data (structured output)", Text::new(), super::payload::blocks(data))));
    }
    b
}

/// The eval's input: its text, the HITL answers it carries, attached files.
fn input_detail(ctx: &Ctx, rec: &TurnRecord) -> Vec<Block> {
    let mut b = vec![Block::Line(Text::toned("the eval's input (the runner's user message, ordinal 0)", Tone::Soft))];
    match rec.input_text() {
        Some(t) => b.push(Block::Body(t.to_string(), Tone::Plain)),
        None => b.push(Block::Line(Text::toned("— (input text not recorded)", Tone::Soft))),
    }
    let answers: Vec<Block> =
        rec.responses().iter().map(|r| Block::Line(Text::plain(super::hitl::answer_text(r)))).collect();
    if !answers.is_empty() {
        b.push(Block::Section(Section::new("Answers to input requests", Text::new(), answers)));
    }
    if let Some(files) = rec.input.as_ref().and_then(|i| i.get("files")).and_then(Value::as_array) {
        b.push(kv("files", 9, Text::plain(format!("{} attached", files.len()))));
    }
    let _ = ctx;
    b
}

/// Any other event: its source or id, its text, its output.
fn generic_event(ctx: &Ctx, e: &Event) -> Vec<Block> {
    let mut b = Vec::new();
    if let Some(src) = e.source() {
        b.push(kv("source", 9, Text::plain(clean(&src))));
    }
    if let Some(id) = e.operation_id() {
        b.push(kv("id", 9, Text::plain(clean(id))));
    }
    match e.text().or(e.reason()) {
        Some(t) => b.push(Block::Body(t.into_owned(), Tone::Plain)),
        None => b.push(Block::Json(e.raw().into_owned())),
    }
    if let Some(out) = e.output() {
        b.push(ctx.field(Text::toned("output    ", Tone::Soft), Text::new(), &out));
    }
    b
}

/// The attempt (identity, verdict, model, usage, costs, notices), a session, or a turn.
fn scope(ctx: &Ctx, session: Option<usize>, turn: Option<usize>) -> Inspected {
    match (session, turn) {
        (Some(s), Some(t)) => {
            let addr = TurnAddr { session: s, turn: t };
            Inspected { title: ctx.turn_title(addr), blocks: turn_detail(ctx, addr) }
        }
        (Some(s), None) => session_detail(ctx, s),
        _ => Inspected { title: "Attempt".into(), blocks: attempt_detail(ctx) },
    }
}

fn session_detail(ctx: &Ctx, si: usize) -> Inspected {
    let Some(session) = ctx.attempt.sessions.get(si) else { return nothing("Session") };
    let mut b = vec![
        kv("session", 9, Text::plain(session.scope_name())),
        kv("id", 9, Text::plain(session.id.as_deref().map(clean).unwrap_or_else(|| "—".into()))),
        kv("turns", 9, Text::plain(count(session.turns.len(), "turn", "turns"))),
    ];
    if let Some(ds) = ctx.derived.sessions.get(si) {
        let calls = ctx.derived.session_occurrences(si).occurrences.len();
        b.push(kv("tool calls", 9, Text::plain(count(calls, "occurrence", "occurrences"))));
        b.push(kv("tokens", 9, Text::plain(super::format::opt_number(ds.usage.billable_tokens()))));
        b.push(kv("costUSD", 9, Text::plain(super::format::opt_usd(ds.usage.cost_usd))));
    }
    Inspected { title: session.scope_name(), blocks: b }
}

fn attempt_detail(ctx: &Ctx) -> Vec<Block> {
    let s = &ctx.view.summary;
    let a = ctx.attempt;
    let mut b = vec![Block::Line(s.headline.clone())];
    if let Some(why) = &s.why {
        b.push(kv("why", 10, why.line()));
    }
    let opt = |x: &Option<String>| {
        x.as_deref().map(|v| Text::plain(clean(v))).unwrap_or_else(|| Text::toned("—", Tone::Soft))
    };
    b.push(kv("eval", 10, opt(&s.eval)));
    b.push(kv("experiment", 10, opt(&s.experiment)));
    b.push(kv(
        "attempt",
        10,
        s.attempt_number.map(|n| Text::plain(n.to_string())).unwrap_or_else(|| Text::toned("—", Tone::Soft)),
    ));
    b.push(kv("locator", 10, Text::toned(s.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    b.push(kv("outcome", 10, opt(&a.outcome)));
    b.push(kv("model", 10, opt(&s.model)));
    if let Some(score) = s.score_text() {
        b.push(kv("score", 10, Text::plain(score)));
    }
    b.push(kv("duration", 10, s.duration_text()));
    b.push(kv("counts", 10, s.counts()));
    b.push(kv("tokens", 10, s.tokens_long()));
    b.push(kv("observed", 10, s.observed_long()));
    b.push(kv("estimated", 10, s.estimate_long()));
    if let Some(list) = &a.review.assertions {
        let failing = list.iter().filter(|x| crate::model::verdict::assertion_outcome(x).is_failing()).count();
        let tone = if failing > 0 { Tone::Bad } else { Tone::Plain };
        b.push(kv(
            "assertions",
            10,
            Text::toned(
                format!(
                    "{} · {failing} failing (tab {})",
                    count(list.len(), "assertion", "assertions"),
                    super::keys::panel_key(super::panel::Panel::Assertions)
                ),
                tone,
            ),
        ));
    }
    if let Some(f) = s.findings_text() {
        let tab = super::keys::panel_key(super::panel::Panel::Diagnostics);
        b.push(kv("findings", 10, f.with(format!(" (tab {tab})"), Tone::Soft)));
    }
    let mut notices = super::header::attempt_notices(ctx.doc, ctx);
    // The viewer shows one attempt at a time: the file's own notices stand with each.
    if ctx.doc.attempts.len() > 1 {
        notices.extend(ctx.doc.notices.iter().map(|n| (n.level, clean(&super::notice::words(n)))));
    }
    if !notices.is_empty() {
        let lines = notices.into_iter().map(|(_, m)| Block::Line(Text::toned(format!("! {m}"), Tone::Warn))).collect();
        b.push(Block::Section(Section::new("Notices", Text::new(), lines)));
    }
    if ctx.doc.attempts.len() > 1 {
        b.push(Block::Blank);
        use super::{intent::Intent, keys::key_for};
        let [open, filter, find] = [Intent::Enter, Intent::CycleFilter, Intent::SearchStart].map(key_for);
        let keys = format!("{open} opens · {filter} filters by verdict · {find} filters by eval or experiment");
        b.push(Block::Line(Text::toned(keys, Tone::Soft)));
    }
    b
}
