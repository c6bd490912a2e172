//! Assertions: what each one checked, how it came out and why, and where its
//! evidence is in the transcript. Unavailable is distinct from failed and
//! from skipped, with its reason. One detail, shown by `show --assertions`,
//! `--failures` and the viewer's inspector; one list row.

use super::attempt::AttemptView;
use super::blocks::{Block, Column, Section, kv};
use super::context::Ctx;
use super::format::{count, number};
use super::preview::value_preview;
use super::text::{Text, Tone, clean};
use super::timeline::row_view;
use super::verdict::{decision_tone, outcome_text};
use crate::model::document::{Assertion, Attempt, Completeness, DiagnosticLocator, Fact, MatchDiagnostic};
use crate::model::evidence::{EvidenceRef, EvidenceTarget, Spot, evidence_refs, resolve, scope_target};
use crate::model::verdict::assertion_outcome;
use serde_json::Value;

const W: usize = 10;

pub use super::format::{assertion_declared_at as declared_at, assertion_message as message, assertion_title as title};

/// Failing gates first, then the rest, each in source order (indices into the list).
pub fn ordered(list: &[Assertion]) -> Vec<usize> {
    let mut v: Vec<usize> = (0..list.len()).collect();
    v.sort_by_key(|&i| {
        let a = &list[i];
        (assertion_outcome(a).rank(), a.source_order.unwrap_or(u64::MAX), i)
    });
    v
}

/// One list row: outcome, required or optional, NiceEval's severity with
/// the points earned, criterion, title (and the matcher's message).
pub fn row(attempt: &Attempt, a: &Assertion) -> Vec<Text> {
    let mut t = Text::plain(title(attempt, a));
    if let Some(m) = message(a).filter(|m| *m != a.label) {
        t.push(format!(" — {m}"), Tone::Soft);
    }
    let mut weight = match super::verdict::severity(a) {
        Some("gate") => Text::toned("gate", Tone::Bad),
        Some(word) => Text::toned(word, Tone::Soft),
        None => Text::toned("—", Tone::Soft),
    };
    if let Some(p) = super::verdict::points(a) {
        weight.push(format!(" {}", super::verdict::points_words(p)), Tone::Plain);
    }
    vec![
        outcome_text(assertion_outcome(a)),
        Text::toned(if a.requirement.as_deref() == Some("optional") { "optional" } else { "required" }, Tone::Soft),
        weight,
        Text::toned(a.criterion.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Soft),
        t,
    ]
}

/// The widest each column of a viewer's list [`row`] gets (the title takes the rest).
pub const LIST_CAPS: [usize; 4] = [16, 8, 14, 18];

/// The columns of the assertion list.
pub fn list_columns() -> Vec<Column> {
    vec![
        Column::fixed("outcome"),
        Column::fixed("gate"),
        Column::fixed("severity"),
        Column::fixed("criterion"),
        Column::cut("assertion"),
    ]
}

/// What `--grep` looks in.
fn assertion_text(attempt: &Attempt, a: &Assertion) -> String {
    format!(
        "{} {} {} {} {} {}",
        title(attempt, a),
        a.criterion.as_deref().unwrap_or(""),
        a.result.as_deref().unwrap_or(""),
        a.gate.as_deref().unwrap_or(""),
        a.reason.as_deref().unwrap_or(""),
        outcome_text(assertion_outcome(a)).as_plain()
    )
}

/// A fact tree (FactValue) as blocks: fields as `label: value`, lists as
/// `- item`, scalars on one line, larger values as JSON.
fn fact_blocks(ctx: &Ctx, f: &Fact) -> Vec<Block> {
    let mut out = Vec::new();
    fact_into(ctx, f, "", &mut out);
    out
}

fn fact_into(ctx: &Ctx, f: &Fact, lead: &str, out: &mut Vec<Block>) {
    let line = |t: Text| Block::Line(Text::toned(lead.to_string(), Tone::Soft).with_text(t));
    match f {
        Fact::Value(v @ (Value::Object(_) | Value::Array(_))) => {
            out.push(ctx.field(Text::toned(lead.to_string(), Tone::Soft), Text::new(), v))
        }
        Fact::Value(Value::String(s)) => out.push(line(Text::plain(ctx.line_text(&format!("{s:?}"))))),
        Fact::Value(v) => out.push(line(Text::plain(clean(&v.to_string())))),
        Fact::Text(t) => out.push(line(Text::plain(ctx.line_text(t)))),
        Fact::Unavailable(r) => out.push(line(Text::toned(format!("unavailable ({})", clean(r)), Tone::Warn))),
        Fact::List(items) if items.is_empty() => out.push(line(Text::toned("(empty list)", Tone::Soft))),
        Fact::List(items) => {
            for item in items {
                fact_into(ctx, item, &format!("{lead}- "), out);
            }
        }
        Fact::Fields(fields) if fields.is_empty() => out.push(line(Text::toned("(no fields)", Tone::Soft))),
        Fact::Fields(fields) => {
            for (label, value) in fields {
                fact_into(ctx, value, &format!("{lead}{}: ", clean(label)), out);
            }
        }
    }
}

/// NiceEval's `expected` policy in words: `{kind: boolean, expected: true}`
/// is "the check holds", `{kind: at-least, threshold: 1}` is "at least 1".
fn policy_words(f: &Fact) -> Option<String> {
    match f.get("kind").and_then(Fact::as_str)? {
        "boolean" => match f.get("expected")? {
            Fact::Value(Value::Bool(true)) => Some("the check holds (is true)".into()),
            Fact::Value(Value::Bool(false)) => Some("the check does not hold (is false)".into()),
            _ => None,
        },
        "at-least" => Some(format!("at least {}", number(f.get("threshold")?.as_f64()?))),
        "at-most" => Some(format!("at most {}", number(f.get("threshold")?.as_f64()?))),
        _ => None,
    }
}

/// Text of a fact for a diff (strings as they are, JSON pretty).
fn fact_text(f: &Fact) -> String {
    match f {
        Fact::Value(Value::String(s)) | Fact::Text(s) => s.clone(),
        Fact::Value(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        other => other.to_line(),
    }
}

/// The code NiceEval writes where it cut a matcher diagnostic to its
/// persisted depth: the same leaf under every field of every candidate.
const TRUNCATED: &str = "diagnostic-truncated";

/// A leaf that only says the diagnostic was cut there.
fn is_truncation(d: &MatchDiagnostic) -> bool {
    d.code.as_deref() == Some(TRUNCATED)
        && d.children.is_empty()
        && d.expected.is_none()
        && d.received.is_none()
        && d.reason.is_none()
        && d.locator.is_none()
}

/// The matcher's diagnostic tree: code, message, expected, received, reason,
/// where it looked, and its children. A truncation leaf is said once per
/// tree (the first); later children it cut are marked on their own line.
fn diagnostic_tree(d: &MatchDiagnostic, depth: usize, out: &mut Vec<Block>) {
    diagnostic_subtree(d, depth, out, &mut false);
}

fn diagnostic_subtree(d: &MatchDiagnostic, depth: usize, out: &mut Vec<Block>, truncation_said: &mut bool) {
    let pad = "  ".repeat(depth);
    let code = d.code.as_deref().map(clean).unwrap_or_else(|| "—".into());
    let tone = if code.ends_with("mismatch") {
        Tone::Bad
    } else if code.contains("unavailable") {
        Tone::Warn
    } else {
        Tone::Accent
    };
    let mut head = Text::toned(format!("{pad}▸ "), Tone::Soft).with(code, tone);
    if !d.path.is_empty() {
        head.push(format!("  at /{}", clean(&d.path.join("/"))), Tone::Soft);
    }
    out.push(Block::Line(head));
    // Label and value as Kv: a wrapped value hangs under itself, not at the panel's edge.
    let row = |label: &str, value: Text| Block::Kv(Text::toned(format!("{pad}  {label:<9}"), Tone::Soft), value);
    if let Some(m) = &d.message {
        out.push(Block::Kv(Text::plain(format!("{pad}  ")), Text::plain(clean(m))));
    }
    if let Some(e) = &d.expected {
        out.push(row("expected", Text::plain(clean(&e.to_line()))));
    }
    if let Some(r) = &d.received {
        out.push(row("received", Text::plain(clean(&r.to_line()))));
    }
    if let Some(r) = &d.reason {
        out.push(row("reason", Text::toned(clean(r), Tone::Warn)));
    }
    match &d.locator {
        Some(DiagnosticLocator::JsonPointer(p)) => out.push(row("at value", Text::toned(clean(p), Tone::Accent))),
        Some(DiagnosticLocator::ToolOccurrence { id, .. }) => {
            out.push(row("call", Text::toned(clean(id), Tone::Accent)))
        }
        Some(DiagnosticLocator::Other(f)) => out.push(row("locator", Text::plain(clean(&f.to_line())))),
        None => {}
    }
    for child in &d.children {
        let state = child.state.as_deref().map(clean).unwrap_or_default();
        let mut line =
            Text::toned(format!("{pad}  [{}] ", child.index.map(|i| i.to_string()).unwrap_or_default()), Tone::Soft);
        line.push(format!("{state} "), decision_tone(&state));
        line.push(child.label.as_deref().map(clean).unwrap_or_default(), Tone::Plain);
        match &child.diagnostic {
            Some(cd) if is_truncation(cd) && *truncation_said => {
                line.push(format!("  ({TRUNCATED}, as above)"), Tone::Soft);
                out.push(Block::Line(line));
            }
            Some(cd) => {
                out.push(Block::Line(line));
                *truncation_said |= is_truncation(cd);
                diagnostic_subtree(cd, depth + 2, out, truncation_said);
            }
            None => out.push(Block::Line(line)),
        }
    }
}

/// What an LLM judge measured, or why it could not.
fn judge_blocks(ctx: &Ctx, j: &crate::model::document::JudgeResult) -> Vec<Block> {
    let mut b = Vec::new();
    let threshold = j.threshold.map(|t| format!(" (passes at ≥ {})", number(t))).unwrap_or_default();
    match (&j.unavailable_reason, j.score) {
        (Some(reason), _) => b.push(kv(
            "score",
            W,
            Text::toned(format!("unavailable: {}", clean(reason)), Tone::Warn).with(threshold, Tone::Soft),
        )),
        (None, Some(score)) => b.push(kv("score", W, Text::plain(number(score)).with(threshold, Tone::Soft))),
        (None, None) => b.push(kv("score", W, Text::toned("— (not recorded)", Tone::Soft))),
    }
    if let Some(r) = &j.recipe {
        b.push(kv("recipe", W, Text::plain(clean(r))));
    }
    for (label, fact) in [("rationale", &j.rationale), ("citations", &j.citations)] {
        if let Some(f) = fact {
            b.push(Block::Section(Section::new(label, Text::new(), fact_blocks(ctx, f))));
        }
    }
    b
}

/// Where one evidence link of an assertion leads: an id NiceEval wrote, or
/// (`evidence` absent) the turn a scope-status check judged.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceLink {
    pub evidence: Option<EvidenceRef>,
    pub target: Option<EvidenceTarget>,
    /// The timeline row it selects (a finish merged into its start: the start's row).
    pub row: Option<usize>,
}

impl EvidenceLink {
    /// What points: the id as written, or the scope the check judged.
    pub fn source_text(&self) -> String {
        match &self.evidence {
            Some(r) => clean(&r.id),
            None => "the scope this status check judged".into(),
        }
    }
}

/// Every evidence link of an assertion, resolved to a timeline row: the
/// turn a scope-status check judged, then every evidence id.
pub fn evidence_links(attempt: &Attempt, view: &AttemptView, a: &Assertion) -> Vec<EvidenceLink> {
    let scope = scope_target(attempt, &view.derived, a).map(|t| (None, Some(t)));
    let ids = evidence_refs(a).into_iter().map(|r| {
        let target = resolve(attempt, &view.derived, &r);
        (Some(r), target)
    });
    scope
        .into_iter()
        .chain(ids)
        .map(|(evidence, target)| EvidenceLink { evidence, target, row: target.and_then(|t| target_row(view, t)) })
        .collect()
}

/// The timeline row of a transcript position (none for an event the transcript does not hold).
pub fn target_row(view: &AttemptView, t: EvidenceTarget) -> Option<usize> {
    let timeline = &view.timeline;
    let e = match t.spot {
        Spot::Turn => return timeline.by_turn.get(&t.addr).copied(),
        Spot::Input => return timeline.by_turn.get(&t.addr).map(|h| h + 1),
        Spot::NotRecorded(_) => return None,
        Spot::Event(e) => e,
    };
    let ri = timeline.row_of_event(t.addr, e)?;
    if !timeline.rows[ri].merged_away() {
        return Some(ri);
    }
    let first = *timeline.by_turn.get(&t.addr)?;
    (first..ri).rev().find(|&s| timeline.rows[s].merged_finish() == Some(e))
}

/// Where a link leads, as `link_text` and the JSON say it: "turn 2",
/// "2:3", or "2:6" for an event the transcript does not hold.
pub fn target_at(ctx: &Ctx, t: EvidenceTarget) -> String {
    match t.spot {
        Spot::Turn => format!("turn {}", super::address::turn_number(ctx.derived, t.addr)),
        Spot::NotRecorded(e) => ctx.at(t.addr, Some(e)),
        _ => ctx.at(t.addr, t.event()),
    }
}

/// "row 6:3", "row 6:0 (approximate: …)", "6:9 is not in the recorded
/// conversation (…)" or "not in this transcript".
pub fn link_text(ctx: &Ctx, l: &EvidenceLink) -> Text {
    let Some(t) = l.target else { return Text::toned("not in this transcript", Tone::Warn) };
    let at = target_at(ctx, t);
    match t.spot {
        Spot::NotRecorded(_) => Text::toned(format!("{at} is {}", not_recorded_words(ctx, t)), Tone::Warn),
        _ if t.exact => Text::plain(format!("row {at}")),
        _ => Text::plain(format!("row {at}"))
            .with(" (approximate: the id's turn or event was not found exactly in this transcript)", Tone::Warn),
    }
}

/// Why an event an id names has no row: "not in the recorded conversation
/// (turn 2 holds 2:1 to 2:4)".
pub fn not_recorded_words(ctx: &Ctx, t: EvidenceTarget) -> String {
    let held =
        ctx.attempt.sessions.get(t.addr.session).and_then(|s| s.turns.get(t.addr.turn)).map(|r| r.turn.events.len());
    let n = super::address::turn_number(ctx.derived, t.addr);
    match held {
        Some(0) | None => format!("not in the recorded conversation (turn {n} holds no events)"),
        Some(k) => format!(
            "not in the recorded conversation (turn {n} holds {} to {})",
            ctx.at(t.addr, Some(0)),
            ctx.at(t.addr, Some(k - 1))
        ),
    }
}

/// Everything known about one assertion.
pub fn detail(ctx: &Ctx, a: &Assertion) -> Vec<Block> {
    let mut b = Vec::new();
    b.push(kv("outcome", W, outcome_text(assertion_outcome(a))));
    if let Some(m) = message(a) {
        b.push(kv("message", W, Text::plain(m)));
    }
    b.push(kv("criterion", W, Text::plain(a.criterion.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    let result = a.result.as_deref().map(clean).unwrap_or_else(|| "—".into());
    let mut decision = Text::toned(result.clone(), decision_tone(&result));
    if let Some(r) = &a.reason {
        decision.push(format!(" ({})", clean(r)), Tone::Soft);
    }
    b.push(kv("decision", W, decision));
    let gate = a.gate.as_deref().map(clean).unwrap_or_else(|| "—".into());
    let mut gate = Text::toned(gate.clone(), decision_tone(&gate));
    gate.push(
        format!(" · {}", a.requirement.as_deref().map(clean).unwrap_or_else(|| "requirement —".into())),
        Tone::Soft,
    );
    b.push(kv("gate", W, gate));
    b.push(kv("severity", W, super::verdict::assertion_severity_text(a)));
    if let Some(p) = super::verdict::points(a) {
        b.push(kv("points", W, Text::plain(super::verdict::points_words(p))));
    }
    if let Some(id) = &a.entry_id {
        b.push(kv("entry", W, Text::toned(clean(id), Tone::Soft)));
    }
    if let Some(j) = &a.judge {
        b.push(Block::Section(Section::new("Judge", Text::new(), judge_blocks(ctx, j))));
    }
    let diagnostic = a.diagnostic();
    if let Some(d) = &diagnostic
        && let (Some(e), Some(r)) = (&d.expected, &d.received)
        && a.result.as_deref() == Some("mismatched")
    {
        let diff = Block::Diff { expected: fact_text(e), received: fact_text(r) };
        b.push(Block::Section(Section::new("Diff (expected → received)", Text::new(), vec![diff])));
    }
    // Check is the condition; Expected is what the policy requires of it
    // (not an expected value); Observed is what the check saw.
    for (label, fact) in [("Check (the condition)", &a.check), ("Expected", &a.expected), ("Observed", &a.observed)] {
        let body = match (label, fact) {
            ("Expected", Some(f)) => match policy_words(f) {
                Some(words) => vec![Block::Line(Text::plain(words))],
                None => fact_blocks(ctx, f),
            },
            (_, Some(f)) => fact_blocks(ctx, f),
            (_, None) => vec![Block::Line(Text::toned("— not recorded", Tone::Soft))],
        };
        b.push(Block::Section(Section::new(label, Text::new(), body)));
    }
    let mut explanation = Vec::new();
    match (&diagnostic, &a.explanation) {
        (Some(d), _) => diagnostic_tree(d, 0, &mut explanation),
        (None, Some(f)) => explanation = fact_blocks(ctx, f),
        (None, None) => explanation.push(Block::Line(Text::toned("— not recorded", Tone::Soft))),
    }
    b.push(Block::Section(Section::new("Explanation", Text::new(), explanation)));
    if let Some(r) = &a.receipt {
        let n = |k: &str| r.get(k).map(value_preview).unwrap_or_else(|| "—".into());
        b.push(kv(
            "receipt",
            W,
            Text::plain(format!(
                "examined {} · matched {} · mismatched {} · unavailable {}",
                n("examined"),
                n("matched"),
                n("mismatched"),
                n("unavailable")
            )),
        ));
    }
    if let Some(v) = &a.checked_value {
        let mut body = Vec::new();
        if let Some(DiagnosticLocator::JsonPointer(p)) = diagnostic.as_ref().and_then(|d| d.locator.clone()) {
            let at = v.pointer(&p).map(value_preview).unwrap_or_else(|| "(not in the value)".into());
            body.push(Block::Line(Text::toned(format!("▶ {} = {}", clean(&p), clean(&at)), Tone::Warn)));
        }
        body.push(ctx.field(Text::new(), Text::new(), v));
        b.push(Block::Section(Section::new("Checked value", Text::new(), body)));
    }
    if let Some(notice) = super::verdict::coverage_notice(a) {
        b.push(Block::Line(notice));
    }
    let source = super::source::snippet(ctx.attempt, a);
    if !source.is_empty() {
        b.push(Block::Section(Section::new("Eval source", Text::new(), source)));
    }
    let links = evidence_links(ctx.attempt, ctx.view, a);
    if !links.is_empty() {
        let lines = links
            .iter()
            .map(|l| {
                Block::Line(Text::toned(format!("{} → ", l.source_text()), Tone::Soft).with_text(link_text(ctx, l)))
            })
            .collect();
        b.push(Block::Section(Section::new(
            "Evidence in the transcript",
            Text::toned(count(links.len(), "link", "links"), Tone::Soft),
            lines,
        )));
    }
    b
}

/// A partial or missing assertions collection, said once.
fn assertions_state(ctx: &Ctx) -> Option<Block> {
    match &ctx.attempt.review.assertions_state {
        Some(Completeness::Partial(why)) => Some(Block::Line(Text::toned(
            format!("! assertions are partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")),
            Tone::Warn,
        ))),
        Some(Completeness::NotRecorded) => Some(Block::Line(Text::toned("! assertions were not recorded", Tone::Warn))),
        _ => None,
    }
}

/// `--assertions`: every assertion, failing gates first.
pub fn section(ctx: &Ctx) -> Section {
    let mut body: Vec<Block> = assertions_state(ctx).into_iter().collect();
    let Some(list) = &ctx.attempt.review.assertions else {
        body.push(Block::Line(Text::toned("unavailable: this input carries no assertion results", Tone::Soft)));
        return Section::new("Assertions", Text::toned("unavailable", Tone::Soft), body);
    };
    if list.is_empty() {
        body.push(Block::Line(Text::toned("No assertions (the eval declared none).", Tone::Soft)));
    }
    let mut shown = 0;
    for a in ordered(list).into_iter().map(|i| &list[i]).filter(|a| ctx.grep(|| assertion_text(ctx.attempt, a))) {
        shown += 1;
        body.push(Block::Section(Section::new(
            title(ctx.attempt, a),
            super::verdict::assertion_meta(a),
            detail(ctx, a),
        )));
    }
    let failing = list.iter().filter(|a| assertion_outcome(a).is_failing()).count();
    let mut meta = Text::toned(count(shown, "shown", "shown"), Tone::Soft);
    if failing > 0 {
        meta = Text::toned(format!("{failing} failing · "), Tone::Bad).with_text(meta);
    }
    Section::new("Assertions", meta, body)
}

/// `--failures` for one attempt to review: why it failed. Its failing
/// assertions with the rows their evidence points at; an errored attempt's
/// execution errors; a capture's failed turns with their error events.
pub fn failures_section(ctx: &Ctx) -> Section {
    let a = ctx.attempt;
    let s = &ctx.view.summary;
    let mut b = Vec::new();
    b.push(kv("locator", W, Text::toned(s.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    b.push(kv("eval", W, Text::plain(s.eval.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    b.push(kv(if s.verdict.is_some() { "verdict" } else { "status" }, W, s.headline.clone()));
    b.extend(super::findings::error_reasons(ctx));
    b.extend(failed_turns(ctx));
    if let Some(state) = assertions_state(ctx) {
        b.push(state);
    }
    match &a.review.assertions {
        None if s.verdict.is_some() => b.push(Block::Line(Text::toned(
            "assertions unavailable: this input carries no assertion results",
            Tone::Soft,
        ))),
        None => {}
        Some(list) => {
            let failing: Vec<&Assertion> = ordered(list)
                .into_iter()
                .map(|i| &list[i])
                .filter(|x| assertion_outcome(x).is_failing())
                .filter(|x| ctx.grep(|| assertion_text(ctx.attempt, x)))
                .collect();
            if failing.is_empty() {
                b.push(Block::Line(Text::toned("no failing assertion recorded", Tone::Soft)));
            }
            for x in failing {
                let mut sec = Section::new(title(ctx.attempt, x), super::verdict::assertion_meta(x), detail(ctx, x));
                let rows: Vec<_> = evidence_links(a, ctx.view, x)
                    .iter()
                    .filter_map(|l| l.row.and_then(|ri| row_view(a, ctx.view, ri)))
                    .collect();
                if !rows.is_empty() {
                    sec.body.push(Block::Section(Section::new(
                        "Evidence rows",
                        Text::new(),
                        vec![Block::Table(super::timeline::table(rows, ctx.sel.full))],
                    )));
                }
                b.push(Block::Section(sec));
            }
        }
    }
    Section::new(format!("{} {}", failures_word(s.verdict), s.title()), s.headline.clone(), b)
}

/// The word a `--failures` section starts with: errored is not failed
/// (NiceEval's run feedback says `ERRORED` for an execution error).
fn failures_word(v: Option<crate::model::verdict::Verdict>) -> &'static str {
    use crate::model::verdict::Verdict;
    match v {
        Some(Verdict::Errored) => "ERRORED",
        Some(Verdict::Unavailable) => "UNAVAILABLE",
        _ => "FAILED",
    }
}

/// A capture's failed turns (no verdict: its status is what failed), each
/// with its error events.
fn failed_turns(ctx: &Ctx) -> Vec<Block> {
    if ctx.attempt.verdict.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (st, addr) in ctx.addrs() {
        let Some(record) = ctx.attempt.sessions.get(addr.session).and_then(|s| s.turns.get(addr.turn)) else {
            continue;
        };
        if record.turn.status.as_deref() != Some("failed") {
            continue;
        }
        let rows: Vec<_> = super::timeline::turn_rows(ctx.attempt, ctx.view, st)
            .into_iter()
            .map(|(_, r)| r)
            .filter(|r| {
                matches!(r.kind, crate::model::timeline::RowKind::Error)
                    || r.status.as_ref().is_some_and(|s| s.as_plain().starts_with('✗'))
            })
            .collect();
        let (title, meta) = super::timeline::turn_header(ctx.attempt, ctx.view, addr);
        let body = if rows.is_empty() {
            vec![Block::Line(Text::toned("the turn failed without an error event or a failed tool call", Tone::Soft))]
        } else {
            vec![Block::Table(super::timeline::table(rows, ctx.sel.full))]
        };
        out.push(Block::Section(Section::new(format!("failed {title}"), meta, body)));
    }
    out
}
