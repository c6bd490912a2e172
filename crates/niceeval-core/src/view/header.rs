//! The attempt header: where it came from, what it is, how it went, counts,
//! tokens, the observed cost and the estimate (never mixed), and notices.
//! `show` prints it as key–value lines; the viewer's header line draws the
//! same facts ([`header_parts`]), fitted to the width by priority.

use super::blocks::{Block, kv_lines};
use super::context::Ctx;
use super::format::MISSING;
use super::summary::Summary;
use super::text::{Text, Tone, clean};
use crate::model::document::{Attempt, Completeness, Document, NoticeLevel};
use crate::model::verdict::ScopeStatus;

/// The section title of an attempt: "eval · experiment · attempt N".
pub fn title(ctx: &Ctx) -> String {
    ctx.view.summary.title()
}

/// The section meta: the verdict, or the status when there is none.
pub fn meta(ctx: &Ctx) -> Text {
    ctx.view.summary.headline.clone()
}

pub fn header(ctx: &Ctx) -> Vec<Block> {
    let a = ctx.attempt;
    let s = &ctx.view.summary;
    let mut rows: Vec<(&str, Text)> = Vec::new();
    // The attempt's own file when several were opened (each attempt names one, not all).
    let files = match (&s.source, ctx.doc.sources.is_empty()) {
        (Some(own), _) => clean(own),
        (None, true) => "—".to_string(),
        (None, false) => ctx.doc.sources.iter().map(|s| clean(s)).collect::<Vec<_>>().join(", "),
    };
    rows.push(("file", Text::plain(files)));
    rows.push(("format", Text::plain(if ctx.doc.format.is_empty() { "—".into() } else { clean(&ctx.doc.format) })));
    rows.push(("eval", Text::plain(s.eval.as_deref().map(clean).unwrap_or_else(|| "—".into()))));
    if let Some(x) = &s.experiment {
        rows.push(("experiment", Text::plain(clean(x))));
    }
    if let Some(n) = s.attempt_number {
        rows.push(("attempt", Text::plain(n.to_string())));
    }
    rows.push(("locator", Text::toned(s.locator.as_deref().map(clean).unwrap_or_else(|| "—".into()), Tone::Accent)));
    let mut verdict = s.headline.clone();
    if let Some(o) = &a.outcome {
        verdict.push(format!(" · outcome {}", clean(o)), Tone::Soft);
    }
    if let Some(score) = s.score_text() {
        verdict.push(format!(" · {score}"), Tone::Soft);
    }
    rows.push((if s.verdict.is_some() { "verdict" } else { "status" }, verdict));
    if let Some(why) = &s.why {
        rows.push(("why", why.line()));
    }
    rows.push((
        "model",
        s.model.as_deref().map(|m| Text::plain(clean(m))).unwrap_or_else(|| Text::toned("—", Tone::Soft)),
    ));
    if let Some(ag) = &a.agent {
        rows.push(("agent", Text::plain(clean(ag))));
    }
    rows.push(("turns", turn_statuses(ctx)));
    rows.push(("counts", s.counts()));
    rows.push(("started", started_text(a)));
    if s.niceeval_duration.is_some() || s.own_duration.is_some() {
        rows.push(("duration", s.duration_text()));
    }
    rows.push(("evidence", capabilities_text(a)));
    rows.push(("tokens", s.tokens_long()));
    rows.push(("observed", s.observed_long()));
    rows.push(("estimated", s.estimate_long()));
    if let Some(f) = s.findings_text() {
        rows.push(("findings", f.with(" (see --diagnostics)", Tone::Soft)));
    }
    if let Some(w) = s.waiting_text() {
        rows.push(("waiting", w));
    }
    let mut blocks = kv_lines(rows);
    for (level, message) in attempt_notices(ctx.doc, ctx) {
        let prefix = match level {
            NoticeLevel::Error => "error: ",
            NoticeLevel::Warning => "",
            NoticeLevel::Info => "note: ",
        };
        blocks.push(Block::Line(Text::toned(format!("! {prefix}{message}"), Tone::Warn)));
    }
    blocks
}

/// "2026-11-30 05:00:46 UTC", with "(the run's start …)" for a Record;
/// "— (not recorded)" when the input has none.
pub fn started_text(a: &Attempt) -> Text {
    let Some(at) = &a.started_at else { return Text::toned(format!("{MISSING} (not recorded)"), Tone::Soft) };
    let mut t = Text::plain(instant(at));
    if a.started_at_is_run {
        t.push(" (the run's start: a Record keeps no start time per attempt)", Tone::Soft);
    }
    t
}

/// `2026-11-30T05:00:46.754Z` as "2026-11-30 05:00:46 UTC"; another form as written.
fn instant(iso: &str) -> String {
    let b = iso.as_bytes();
    let utc = iso.len() >= 20
        && iso.ends_with('Z')
        && b.get(10) == Some(&b'T')
        && b.get(19).is_some_and(|c| matches!(c, b'.' | b'Z'));
    if utc { format!("{} {} UTC", &iso[..10], &iso[11..19]) } else { clean(iso) }
}

/// Which of NiceEval's evidence views the attempt has (its attempt page's
/// capabilities): the eval source, its execution (the conversation), timing
/// intervals, file changes.
pub fn capabilities(a: &Attempt) -> [(&'static str, bool); 4] {
    let recorded = |c: &Option<Completeness>| c.as_ref().is_some_and(|c| *c != Completeness::NotRecorded);
    [
        ("source", a.review.sources.iter().any(|f| f.content.is_some())),
        ("execution", recorded(&a.events)),
        ("timing", !a.review.timing.intervals.is_empty()),
        ("diff", a.review.file_changes.as_ref().is_some_and(|f| recorded(&f.state) || !f.changes.is_empty())),
    ]
}

/// "source · execution · timing · no diff".
pub fn capabilities_text(a: &Attempt) -> Text {
    let mut t = Text::new();
    for (i, (name, has)) in capabilities(a).into_iter().enumerate() {
        if i > 0 {
            t.push(" · ", Tone::Soft);
        }
        if has {
            t.push(name, Tone::Plain)
        } else {
            t.push(format!("no {name}"), Tone::Soft)
        };
    }
    t
}

/// `{source, execution, timing, diff}` as booleans, for `show --json`.
pub fn capabilities_json(a: &Attempt) -> serde_json::Value {
    serde_json::Value::Object(capabilities(a).into_iter().map(|(k, v)| (k.to_string(), v.into())).collect())
}

/// "20 turns: 18 ✓ completed · 2 ✗ failed (turns 7, 12)": the turns
/// counted by status, the most common first. A status most turns have is
/// the rule and names none; every other names its turns (runs folded,
/// "… (N in all)" past eight runs), so the row stays one short line at
/// 1,000 turns. One rule at every size: "5 turns: 2 ✓ completed (turns 1,
/// 4) · 2 ⏸ waiting (turns 2–3) · 1 ✗ failed (turn 5)". Ties keep the
/// order the statuses first appear in; past five statuses the rest are
/// counted.
fn turn_statuses(ctx: &Ctx) -> Text {
    const STATUSES: usize = 5;
    const RUNS: usize = 8;
    // (status words, turn numbers), in the order each status first appears.
    let mut groups: Vec<(Text, Vec<u64>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut total = 0;
    for (_, addr) in ctx.addrs() {
        let status = ctx
            .attempt
            .sessions
            .get(addr.session)
            .and_then(|s| s.turns.get(addr.turn))
            .and_then(|r| r.turn.status.as_deref());
        let words = match status {
            Some(_) => super::verdict::turn_status_text(status),
            None => Text::toned("— no status", Tone::Soft),
        };
        let i = *index.entry(words.as_plain()).or_insert_with(|| {
            groups.push((words, Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push(super::address::turn_number(ctx.derived, addr));
        total += 1;
    }
    if total == 0 {
        return Text::toned("— (no turns recorded)", Tone::Soft);
    }
    // Stable: equal counts keep the order of first appearance.
    groups.sort_by_key(|(_, turns)| std::cmp::Reverse(turns.len()));
    let mut out = Text::plain(format!("{}: ", super::format::count(total, "turn", "turns")));
    for (i, (words, turns)) in groups.iter_mut().take(STATUSES).enumerate() {
        if i > 0 {
            out.push(" · ", Tone::Soft);
        }
        out.push(format!("{} ", super::format::number(turns.len() as f64)), Tone::Plain);
        out.append(words.clone());
        if turns.len() * 2 <= total {
            turns.sort_unstable();
            let word = if turns.len() == 1 { "turn" } else { "turns" };
            out.push(format!(" ({word} {})", super::format::number_runs(turns, RUNS, true)), Tone::Soft);
        }
    }
    if groups.len() > STATUSES {
        let rest: usize = groups[STATUSES..].iter().map(|(_, t)| t.len()).sum();
        let statuses = super::format::count(groups.len() - STATUSES, "other status", "other statuses");
        out.push(format!(" · {} of {statuses}", super::format::count(rest, "turn", "turns")), Tone::Soft);
    }
    out
}

/// What the input says about this attempt's data, then its notices (the
/// header, the inspector and `--json` say the same ones).
pub fn attempt_notices(doc: &Document, ctx: &Ctx) -> Vec<(NoticeLevel, String)> {
    let a = ctx.attempt;
    let mut out = Vec::new();
    let warn = |m: String| (NoticeLevel::Warning, m);
    match &a.events {
        Some(Completeness::NotRecorded) => out.push(warn("events were not recorded for this attempt".into())),
        Some(Completeness::Partial(why)) => out
            .push(warn(format!("events are partial: {}", why.iter().map(|w| clean(w)).collect::<Vec<_>>().join("; ")))),
        _ => {}
    }
    if !a.events_exact && a.events != Some(Completeness::NotRecorded) {
        out.push(warn("events were rebuilt from a lossy record, not the adapter's exact stream".into()));
    }
    let reconstructed = a.sessions.iter().flat_map(|s| &s.turns).filter(|t| t.reconstructed).count();
    if reconstructed > 0 && a.events_exact {
        out.push(warn(format!(
            "{} rebuilt from a lossy source",
            super::format::count(reconstructed, "turn was", "turns were")
        )));
    }
    if !ctx.derived.coverage.is_complete() {
        out.push(warn("evidence coverage is not complete (see --diagnostics)".into()));
    }
    out.extend(a.notices.iter().map(|n| (n.level, clean(&super::notice::words(n)))));
    // The file's own notices are said once for the file, not under each of its attempts.
    if doc.attempts.len() <= 1 {
        out.extend(doc.notices.iter().map(|n| (n.level, clean(&super::notice::words(n)))));
    }
    out
}

/// Between the facts of the viewer's header line.
pub const PART_SEPARATOR: &str = " │ ";

/// One fact of the viewer's header line: its priority (0 first kept),
/// its words, and shorter words for a narrow terminal.
pub struct HeaderPart {
    pub priority: u8,
    pub full: Text,
    pub short: Option<Text>,
}

fn part(priority: u8, full: Text, short: Option<Text>) -> HeaderPart {
    HeaderPart { priority, full, short }
}

/// The facts of the header line, most important first by priority: the
/// verdict or status, waiting, tokens, cost, estimate, findings, then the
/// title, locator, counts and notices.
pub fn header_parts(summary: &Summary, notice_count: usize) -> Vec<HeaderPart> {
    // A status without a verdict can drop "(status)" on a narrow terminal.
    let short_headline = match (summary.verdict, summary.status) {
        (None, Some(st)) => Some(Text::toned(
            format!("{} {}", super::verdict::scope_status_mark(st), st.as_str()),
            super::verdict::scope_status_tone(st),
        )),
        _ => None,
    };
    let waiting =
        summary.waiting_text().map(|w| (w, Text::toned(format!("⏸ WAITING ({})", summary.waiting), Tone::Hitl)));
    // A waiting status and the waiting requests say one thing: said once, by the requests.
    let status_is_waiting = summary.verdict.is_none() && summary.status == Some(ScopeStatus::Waiting);
    let mut parts = Vec::new();
    match &waiting {
        Some((w, short)) if status_is_waiting => parts.push(part(0, w.clone(), Some(short.clone()))),
        _ => parts.push(part(0, summary.headline.clone(), short_headline)),
    }
    if let Some(why) = &summary.why {
        parts.push(part(1, why.text.clone(), Some(why.short.clone())));
    }
    if let (Some((w, short)), false) = (waiting, status_is_waiting) {
        parts.push(part(1, w, Some(short)));
    }
    parts.push(part(6, Text::plain(summary.title()), None));
    if let Some(l) = &summary.locator {
        parts.push(part(7, Text::toned(clean(l), Tone::Accent), None));
    }
    let short_tokens = summary.tokens().map(|t| Text::plain(format!("{} tok", super::format::compact(t))));
    parts.push(part(2, Text::plain(summary.tokens_short()), short_tokens));
    let cost = Text::plain(format!("cost {}", summary.observed_short()));
    match summary.observed_partial_counts() {
        Some((k, n)) => parts.push(part(
            3,
            cost.clone().with(format!(" ({k} of {n} turns)"), Tone::Warn),
            Some(cost.with(format!(" ({k}/{n})"), Tone::Warn)),
        )),
        None => parts.push(part(3, cost, None)),
    }
    parts.push(part(4, Text::plain(format!("est {}", summary.estimate_short())), None));
    parts.push(part(8, summary.counts(), None));
    if let Some(f) = summary.findings_text() {
        parts.push(part(5, f, None));
    }
    if notice_count > 0 {
        let notices = Text::toned(format!("! {}", super::format::count(notice_count, "notice", "notices")), Tone::Warn);
        parts.push(part(9, notices, None));
    }
    parts
}

/// The facts of the viewer's third header line: how long the attempt took
/// (NiceEval's figure, and this viewer's where it differs), when it
/// started, and which of NiceEval's evidence views it has; the words `show`
/// prints beside `duration`, `started` and `evidence`.
pub fn when_parts(a: &Attempt, summary: &Summary) -> Vec<HeaderPart> {
    let mut parts = Vec::new();
    if summary.niceeval_duration.is_some() || summary.own_duration.is_some() {
        let short = summary.duration().map(|d| Text::plain(format!("took {}", super::format::duration_ms(d))));
        parts.push(part(0, Text::plain("took ").with_text(summary.duration_text()), short));
    } else {
        parts.push(part(0, Text::toned(format!("took {MISSING} (not recorded)"), Tone::Soft), None));
    }
    let started = Text::plain("started ").with_text(started_text(a));
    let short = a.started_at.as_ref().map(|at| Text::plain(format!("started {}", instant(at))));
    parts.push(part(1, started, short));
    let evidence = capabilities_text(a);
    parts.push(part(2, Text::toned("evidence ", Tone::Soft).with_text(evidence.clone()), Some(evidence)));
    parts
}

/// [`header_parts`] while only a preview is loaded (the whole file still
/// loading, or a load that stopped): the tokens, costs and counts are of the
/// part read so far, and say so.
pub fn preview_header_parts(summary: &Summary, notice_count: usize) -> Vec<HeaderPart> {
    /// The priorities of the tokens, cost, estimate and counts in [`header_parts`].
    const SO_FAR: [u8; 4] = [2, 3, 4, 8];
    let mut parts = header_parts(summary, notice_count);
    for p in parts.iter_mut().filter(|p| SO_FAR.contains(&p.priority)) {
        p.full.push(PREVIEW_MARK, Tone::Warn);
        if let Some(short) = &mut p.short {
            short.push(PREVIEW_MARK, Tone::Warn);
        }
    }
    parts
}

/// What a figure of a preview says beside it.
pub const PREVIEW_MARK: &str = " so far";

/// The header line's facts that fit in `width` (joined by " │ "): the
/// least important give way first (the title, locator, counts, findings),
/// then the costs, tokens and waiting take their shorter words, then the
/// rest give way; words shortened are made whole again where room is left.
pub fn header_line(parts: Vec<HeaderPart>, width: usize) -> Vec<Text> {
    const GAP: usize = 3;
    /// Parts of this priority or later give way before any is shortened.
    const MINOR: u8 = 5;
    let mut shown: Vec<Option<Text>> = parts.iter().map(|p| Some(p.full.clone())).collect();
    let total = |shown: &[Option<Text>]| {
        let widths: Vec<usize> = shown.iter().flatten().map(Text::width).collect();
        widths.iter().sum::<usize>() + GAP * widths.len().saturating_sub(1)
    };
    let mut least_first: Vec<usize> = (0..parts.len()).collect();
    least_first.sort_by_key(|&i| std::cmp::Reverse(parts[i].priority));
    let drop = |shown: &mut Vec<Option<Text>>, i: usize| {
        if total(shown) > width && shown.iter().flatten().count() > 1 {
            shown[i] = None;
        }
    };
    for &i in least_first.iter().filter(|&&i| parts[i].priority >= MINOR) {
        drop(&mut shown, i);
    }
    for &i in &least_first {
        if total(&shown) > width
            && let Some(short) = &parts[i].short
        {
            shown[i] = Some(short.clone());
        }
    }
    for &i in &least_first {
        drop(&mut shown, i);
    }
    for &i in least_first.iter().rev() {
        if shown[i].is_some() && parts[i].short.is_some() {
            let short = shown[i].replace(parts[i].full.clone());
            if total(&shown) > width {
                shown[i] = short;
            }
        }
    }
    let mut out: Vec<Text> = shown.into_iter().flatten().collect();
    if let [only] = out.as_mut_slice() {
        *only = only.truncate(width);
    }
    out
}

/// NiceEval's counts of the attempts: "4 attempts (3 listed) · pass rate 75%
/// of 4 slots · 1 slot not recorded" — slot memberships (a carried attempt
/// counts in each run that carries it), its pass rate over slots.
pub fn slot_counts(doc: &Document) -> String {
    let t = crate::model::measure::SlotTally::of(doc);
    let mut out = super::format::count(t.slots, "attempt", "attempts");
    if t.slots != doc.attempts.len() {
        out.push_str(&format!(" ({} listed)", super::format::number(doc.attempts.len() as f64)));
    }
    if let Some(r) = t.pass_rate() {
        out.push_str(&format!(" · pass rate {}", super::format::percent(r)));
        if t.partial() {
            out.push_str(&format!(" of {}", super::format::count(t.decided, "slot", "slots")));
        }
    }
    if t.not_recorded > 0 {
        out.push_str(&format!(
            " · {}",
            super::format::count(t.not_recorded, "slot not recorded", "slots not recorded")
        ));
    }
    out
}

/// The viewer's first header line, `width` columns at most: "niceeval",
/// the loading progress, the files and their format, and with several
/// attempts how many there are and how many are to review. Counts and
/// progress are kept first; the files are cut in the middle (their names
/// end the paths), then the format at its end.
pub fn top_line(doc: &Document, to_review: usize, loading: Option<String>, width: usize) -> Text {
    let mut lead = Text::toned("niceeval ", Tone::Bold);
    if let Some(l) = loading {
        lead.push(format!("{}  ", clean(&l)), Tone::Warn);
    }
    let tail = (doc.attempts.len() > 1 || !doc.slots_not_recorded.is_empty()).then(|| {
        Text::toned(
            format!("  {} · {} to review", slot_counts(doc), super::format::number(to_review as f64)),
            Tone::Soft,
        )
    });
    let source = clean(&doc.sources.join(", "));
    let format = clean(&doc.format);
    let room = width.saturating_sub(lead.width() + tail.as_ref().map_or(0, Text::width));
    let (sw, fw) = (crate::model::text::width(&source), crate::model::text::width(&format) + 2);
    // The files keep at least half of the room; the format gets the rest.
    let source_w = sw.min(room.saturating_sub(fw).max(room / 2));
    let format_w = room.saturating_sub(source_w).min(fw);
    lead.push(crate::model::text::middle_ellipsis(&source, source_w), Tone::Plain);
    if format_w > 2 && !format.is_empty() {
        lead.push(format!("  {}", crate::model::text::truncate(&format, format_w - 2)), Tone::Soft);
    }
    if let Some(t) = tail {
        lead.append(t);
    }
    lead.truncate(width)
}
