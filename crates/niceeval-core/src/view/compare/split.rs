//! The split view of two attempts: their timelines side by side aligned by
//! turn, the tool calls diffed, the assertions paired (changed first), and
//! token and cost deltas. Built once when the split opens; each side's rows,
//! calls and assertions are the ones its own attempt page shows.

use super::tools::{ToolRow, diff};
use super::{Cv, delta, money};
use crate::model::compare::{Cell, PairClass, classify};
use crate::model::timeline::RowKind;
use crate::view::blocks::{Block, Column, Table};
use crate::view::context::{Ctx, Selection};
use crate::view::format::{MISSING, count, duration_ms, number};
use crate::view::inspect::{Inspected, Selected, preview, raw};
use crate::view::intent::Intent;
use crate::view::keys::key_for;
use crate::view::summary::Summary;
use crate::view::text::{Text, Tone, clean};
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::assertions::pair_assertions;
pub use super::assertions::{AssertionChange, AssertionPair};
use super::assertions::{assertion_place, change_tag};
pub use super::tools::ToolChange;

/// What one side shows on one aligned timeline line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A timeline row of the side's attempt (an index into its rows).
    Row(usize),
    /// The side has no turn with this number.
    NoTurn(u64),
    /// Nothing: the other side has more rows in this turn.
    Blank,
}

/// One line of the aligned timelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aligned {
    /// The attempt-wide turn number (`N` in `N:i`) both sides are at.
    pub turn: u64,
    /// The turn's header line.
    pub header: bool,
    pub sides: [Slot; 2],
}

pub use crate::view::panel::Panel;

/// Two attempts compared.
#[derive(Debug, Clone)]
pub struct Split {
    /// Indices into the compared document: before (left) and after (right).
    pub attempts: [usize; 2],
    pub class: PairClass,
    pub timeline: Vec<Aligned>,
    pub tools: Vec<ToolRow>,
    pub assertions: Vec<AssertionPair>,
}

fn single(c: &Cv, i: usize) -> Cell {
    let passed = u64::from(c.summary(i).and_then(|s| s.verdict) == Some(crate::model::verdict::Verdict::Passed));
    Cell { attempts: vec![i], representative: i, passed, total: 1 }
}

impl Split {
    pub fn new(c: &Cv, before: usize, after: usize) -> Split {
        let class = classify(&c.entries, Some(&single(c, before)), Some(&single(c, after)));
        let (vb, va) = (&c.views[before], &c.views[after]);
        Split {
            attempts: [before, after],
            class,
            timeline: align_timelines(c, before, after),
            tools: diff(vb.derived.events(&c.doc.attempts[before]), va.derived.events(&c.doc.attempts[after])),
            assertions: pair_assertions(c, before, after),
        }
    }

    /// How many lines a tab's list has.
    pub fn len(&self, tab: Panel) -> usize {
        match tab {
            Panel::Timeline => self.timeline.len(),
            Panel::Tools => self.tools.len(),
            Panel::Assertions => self.assertions.len(),
            Panel::Usage => usage_rows().len(),
            // The split view has only `Panel::SPLIT`.
            _ => 0,
        }
    }

    /// What a side has selected at `line` of a tab, for the inspector.
    pub fn selected(&self, tab: Panel, line: usize, side: usize) -> Option<Selected> {
        match tab {
            Panel::Timeline => match self.timeline.get(line)?.sides[side] {
                Slot::Row(r) => Some(Selected::Row(r)),
                _ => None,
            },
            Panel::Tools => self.tools.get(line)?.sides[side].map(Selected::Tool),
            Panel::Assertions => self.assertions.get(line)?.sides[side].map(Selected::Assertion),
            Panel::Usage => Some(Selected::Cost),
            _ => None,
        }
    }
}

/// The rows the viewer shows for an attempt (merged lifecycle rows), by turn number.
fn rows_by_turn(c: &Cv, attempt: usize) -> Vec<(u64, Vec<usize>)> {
    let view = &c.views[attempt];
    let mut out: Vec<(u64, Vec<usize>)> = Vec::new();
    for (i, row) in view.timeline.rows.iter().enumerate().filter(|(_, r)| !r.merged_away()) {
        let n = crate::view::timeline::row_turn(view, row);
        match out.last_mut() {
            Some((turn, rows)) if *turn == n && row.kind != RowKind::TurnHeader => rows.push(i),
            _ => out.push((n, vec![i])),
        }
    }
    out
}

/// What a row is, for aligning it with the other side's: its kind, and a
/// tool call's name.
fn signature(c: &Cv, attempt: usize, row: usize) -> String {
    let view = &c.views[attempt];
    let r = &view.timeline.rows[row];
    let tool = r.occurrence().and_then(|o| view.derived.occurrences.occurrences.get(o)).map(|o| &*o.original_name);
    format!("{:?} {}", r.kind, tool.unwrap_or(""))
}

/// Both timelines, turn by turn; inside a turn the rows are aligned by kind
/// and tool name (a longest common subsequence), blanks where a side has fewer.
fn align_timelines(c: &Cv, before: usize, after: usize) -> Vec<Aligned> {
    let (lb, la) = (rows_by_turn(c, before), rows_by_turn(c, after));
    let mut turns: Vec<u64> = lb.iter().chain(&la).map(|(t, _)| *t).collect();
    turns.sort_unstable();
    turns.dedup();
    let mut out = Vec::new();
    for turn in turns {
        let find = |list: &[(u64, Vec<usize>)]| list.iter().find(|(t, _)| *t == turn).map(|(_, r)| r.clone());
        match (find(&lb), find(&la)) {
            (Some(b), Some(a)) => {
                out.push(Aligned { turn, header: true, sides: [Slot::Row(b[0]), Slot::Row(a[0])] });
                let sb: Vec<String> = b[1..].iter().map(|&r| signature(c, before, r)).collect();
                let sa: Vec<String> = a[1..].iter().map(|&r| signature(c, after, r)).collect();
                for op in capture_diff_slices(Algorithm::Myers, &sb, &sa) {
                    let (ob, lenb, oa, lena) = match op {
                        DiffOp::Equal { old_index, new_index, len } => (old_index, len, new_index, len),
                        DiffOp::Delete { old_index, old_len, new_index } => (old_index, old_len, new_index, 0),
                        DiffOp::Insert { old_index, new_index, new_len } => (old_index, 0, new_index, new_len),
                        DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                            (old_index, old_len, new_index, new_len)
                        }
                    };
                    for k in 0..lenb.max(lena) {
                        let slot = |rows: &[usize], at: usize, len: usize| {
                            if k < len { Slot::Row(rows[1 + at + k]) } else { Slot::Blank }
                        };
                        out.push(Aligned { turn, header: false, sides: [slot(&b, ob, lenb), slot(&a, oa, lena)] });
                    }
                }
            }
            (Some(b), None) => {
                out.extend(b.iter().enumerate().map(|(k, &r)| Aligned {
                    turn,
                    header: k == 0,
                    sides: [Slot::Row(r), if k == 0 { Slot::NoTurn(turn) } else { Slot::Blank }],
                }));
            }
            (None, Some(a)) => {
                out.extend(a.iter().enumerate().map(|(k, &r)| Aligned {
                    turn,
                    header: k == 0,
                    sides: [if k == 0 { Slot::NoTurn(turn) } else { Slot::Blank }, Slot::Row(r)],
                }));
            }
            (None, None) => {}
        }
    }
    out
}

/// A side's name: "before · classic/baseline · attempt 1" (the eval too
/// when the two sides are of different evals; the header names a shared one).
pub fn side_title(c: &Cv, split: &Split, side: usize) -> Text {
    let attempt = split.attempts[side];
    let Some(s) = c.summary(attempt) else { return Text::new() };
    let mut parts = Vec::new();
    if let Some(word) = super::side_word(c.side_of(attempt)) {
        parts.push(word.to_string());
    }
    let evals = split.attempts.map(|i| c.summary(i).and_then(|s| s.eval.clone()));
    if evals[0] != evals[1] || s.eval.is_none() {
        parts.push(super::row_label_of(c, attempt));
    }
    parts.push(s.experiment.as_deref().map(clean).unwrap_or_else(|| super::NO_EXPERIMENT.into()));
    if let Some(n) = s.attempt_number {
        parts.push(format!("attempt {n}"));
    }
    Text::toned(parts.join(" · "), Tone::Bold)
}

/// A side's figures: "✗ failed @1ZRK… · 100 tokens · observed — · est. $0.00004".
pub fn side_figures(c: &Cv, attempt: usize) -> Text {
    let Some(s) = c.summary(attempt) else { return Text::new() };
    let mut t = s.headline.clone();
    if let Some(l) = &s.locator {
        t.push(format!(" {}", clean(l)), Tone::Accent);
    }
    t.push(format!(" · {}", s.tokens_short()), Tone::Plain);
    t.push(format!(" · observed {}", s.observed_short()), Tone::Soft);
    if let Some(part) = s.observed_partial() {
        t.push(format!(" ({part})"), Tone::Warn);
    }
    t.push(format!(" · est. {}", s.estimate_short()), Tone::Soft);
    t
}

/// "Δ +138 tokens · observed — · est. +$0.00006 · turns ±0 · tool calls ±0", before → after.
pub fn deltas(c: &Cv, split: &Split) -> Text {
    let [b, a] = split.attempts.map(|i| c.summary(i));
    let (Some(b), Some(a)) = (b, a) else { return Text::new() };
    let mut t = Text::toned("Δ ", Tone::Bold);
    t.append(delta(b.tokens(), a.tokens(), number));
    t.push(" tokens · observed ", Tone::Soft);
    t.append(delta(b.observed.usd, a.observed.usd, money));
    t.push(" · est. ", Tone::Soft);
    t.append(delta(b.estimate.total(), a.estimate.total(), money));
    t.push(" · turns ", Tone::Soft);
    t.append(delta(b.known_turns(), a.known_turns(), number));
    t.push(" · tool calls ", Tone::Soft);
    t.append(delta(b.known_tool_calls(), a.known_tool_calls(), number));
    t
}

/// The split's title line: the pair's class and the eval.
pub fn title(c: &Cv, split: &Split) -> Text {
    let mut t = super::pair_text(split.class);
    let eval = c.summary(split.attempts[0]).and_then(|s| s.eval.clone());
    let other = c.summary(split.attempts[1]).and_then(|s| s.eval.clone());
    match (eval, other) {
        (Some(x), Some(y)) if x != y => {
            t.push(format!("  {} ↔ {}", clean(&x), clean(&y)), Tone::Bold);
        }
        (Some(x), _) | (None, Some(x)) => {
            t.push(format!("  {}", clean(&x)), Tone::Bold);
        }
        (None, None) => {}
    }
    t
}

/// What a tab's panel title says: "Tools diff · 1 input changed".
pub fn tab_meta(split: &Split, tab: Panel) -> Text {
    match tab {
        Panel::Timeline => {
            let turns = split.timeline.iter().filter(|l| l.header).count();
            let missing =
                split.timeline.iter().filter(|l| l.sides.iter().any(|s| matches!(s, Slot::NoTurn(_)))).count();
            if turns == 0 {
                // The panel's empty text says why; "0 turns" would read as a count.
                return Text::toned("aligned by turn", Tone::Soft);
            }
            let mut t = Text::toned(format!("aligned by turn · {}", count(turns, "turn", "turns")), Tone::Soft);
            if missing > 0 {
                t.push(format!(" · {missing} on one side only"), Tone::Warn);
            }
            t
        }
        Panel::Tools => super::tools::summary(&split.tools),
        Panel::Assertions => {
            let mut parts = Vec::new();
            for change in [
                AssertionChange::Broken,
                AssertionChange::Fixed,
                AssertionChange::Changed,
                AssertionChange::OnlyBefore,
                AssertionChange::OnlyAfter,
                AssertionChange::Same,
            ] {
                let n = split.assertions.iter().filter(|p| p.change == change).count();
                if n > 0 {
                    parts.push(format!("{n} {}", change.word()));
                }
            }
            let changed = split.assertions.iter().any(|p| p.change != AssertionChange::Same);
            let tone = if changed { Tone::Warn } else { Tone::Soft };
            if parts.is_empty() {
                return Text::toned("no assertions recorded on either side", Tone::Soft);
            }
            Text::toned(parts.join(" · "), tone)
        }
        Panel::Usage => Text::toned("tokens, costs, turns, tool calls and duration, side by side", Tone::Soft),
        // The split view has only `Panel::SPLIT`.
        _ => Text::new(),
    }
}

/// One side of a tools-diff line: the change mark, the call's status,
/// name and input; an input that changed starts a little before where the
/// two differ, so the difference is on screen.
pub fn tool_cell(c: &Cv, split: &Split, line: usize, side: usize) -> Text {
    let Some(row) = split.tools.get(line) else { return Text::new() };
    let mut t = row.change.mark();
    t.push(" ", Tone::Plain);
    let sel = Selection::default();
    let cells = |s: usize| -> Option<Vec<Text>> {
        let ctx = Ctx::of(c.doc, c.views, c.findings, &sel, split.attempts[s])?;
        let o = ctx.derived.occurrences.occurrences.get(row.sides[s]?)?;
        Some(crate::view::tools::occurrence_row(&ctx, o))
    };
    let Some(mine) = cells(side) else {
        t.push(format!("({} on the other side)", row.change.word()), Tone::Soft);
        return t;
    };
    let mark = mine[0].as_plain().chars().next().unwrap_or(' ').to_string();
    t.push(mark, mine[0].first_tone());
    t.push(format!(" {} ", mine[1].as_plain()), Tone::Plain);
    let input = mine[3].as_plain();
    let shown = match (row.change, cells(1 - side)) {
        (ToolChange::InputChanged | ToolChange::StatusAndInputChanged, Some(other)) => {
            from_difference(&input, &other[3].as_plain())
        }
        _ => input,
    };
    t.push(shown, Tone::Soft);
    t
}

/// `s` from a few characters before where it stops agreeing with `other`
/// ("…recalled=false'"), when they share a long start.
fn from_difference(s: &str, other: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let same = chars.iter().zip(other.chars()).take_while(|(a, b)| **a == *b).count();
    if same < 16 {
        return s.to_string();
    }
    // From the word the difference is in (a space at most 24 characters back), else 8 characters back.
    let from = (same.saturating_sub(24)..same).rev().find(|&i| chars[i].is_whitespace()).map_or(same - 8, |i| i + 1);
    format!("…{}", chars[from..].iter().collect::<String>())
}

/// The rows of the usage comparison: label, and the figure of a summary.
type Figure = fn(&crate::view::summary::Summary) -> Option<f64>;

/// A usage row: its label, its figure, and how the figure is written.
type UsageRow = (&'static str, Figure, fn(f64) -> String);

fn usage_rows() -> Vec<UsageRow> {
    vec![
        ("tokens", |s| s.tokens(), number),
        ("input", |s| s.usage.input_tokens, number),
        ("output", |s| s.usage.output_tokens, number),
        ("cache read", |s| s.usage.cache_read_tokens, number),
        ("cache write", |s| s.usage.cache_creation_tokens, number),
        ("reasoning", |s| s.usage.reasoning_tokens, number),
        ("requests", |s| s.usage.requests, number),
        ("observed cost", |s| s.observed.usd, money),
        ("estimated cost", |s| s.estimate.total(), money),
        ("turns", |s| s.known_turns(), number),
        ("tool calls", |s| s.known_tool_calls(), number),
    ]
}

/// Before, after and the difference of every usage figure (and duration).
pub fn usage_table(c: &Cv, split: &Split) -> Table {
    let [b, a] = split.attempts.map(|i| c.summary(i));
    let cell = |s: Option<&crate::view::summary::Summary>, f: Figure, fmt: fn(f64) -> String| match s.and_then(f) {
        Some(x) => Text::plain(fmt(x)),
        None => Text::toned(MISSING, Tone::Soft),
    };
    let mut rows: Vec<Vec<Text>> = usage_rows()
        .into_iter()
        .map(|(label, f, fmt)| {
            vec![
                Text::toned(label, Tone::Soft),
                cell(b, f, fmt),
                cell(a, f, fmt),
                delta(b.and_then(f), a.and_then(f), fmt),
            ]
        })
        .collect();
    // An observed cost of only some turns says so, as the attempt's header does.
    if let Some(row) = rows.iter_mut().find(|r| r[0].as_plain() == "observed cost") {
        for (k, s) in [b, a].into_iter().enumerate() {
            if let Some(part) = s.and_then(|s| s.observed_partial()) {
                row[k + 1].push(format!(" ({part})"), Tone::Warn);
            }
        }
    }
    let dur = |i: usize| c.summary(i).and_then(Summary::duration);
    let [db, da] = split.attempts.map(dur);
    let ms = |x: Option<f64>| Text::plain(x.map(duration_ms).unwrap_or_else(|| MISSING.into()));
    rows.push(vec![Text::toned("duration", Tone::Soft), ms(db), ms(da), delta(db, da, duration_ms)]);
    let verdicts = split.attempts.map(|i| c.summary(i).map(|s| s.headline.clone()).unwrap_or_default());
    rows.insert(
        0,
        vec![
            Text::toned("verdict", Tone::Soft),
            verdicts[0].clone(),
            verdicts[1].clone(),
            super::pair_text(split.class),
        ],
    );
    Table {
        columns: vec![
            Column::fixed(""),
            Column::right("before"),
            Column::right("after"),
            Column::right("Δ after − before"),
        ],
        rows,
        floor: vec![],
    }
}

/// The inspector of one side's selection: what the viewer's inspector shows
/// for it; a call whose input changed opens on the diff of the two inputs.
pub fn inspect(c: &Cv, split: &Split, tab: Panel, line: usize, side: usize, raw_json: bool) -> Inspected {
    let attempt = split.attempts[side];
    let full = Selection { full: true, ..Selection::default() };
    let Some(ctx) = Ctx::of(c.doc, c.views, c.findings, &full, attempt) else {
        return Inspected { title: "Inspector".into(), blocks: vec![] };
    };
    let Some(sel) = split.selected(tab, line, side) else {
        return Inspected {
            title: "Inspector".into(),
            blocks: vec![Block::Line(Text::toned(
                format!("nothing on this side here ({}: the other side)", key_for(Intent::FocusNext)),
                Tone::Soft,
            ))],
        };
    };
    let mut out = if raw_json { raw(&ctx, sel) } else { preview(&ctx, c.findings, sel) };
    if let (false, Panel::Tools, Some(row)) = (raw_json, tab, split.tools.get(line))
        && matches!(row.change, ToolChange::InputChanged | ToolChange::StatusAndInputChanged)
        && let [Some(i), Some(j)] = row.sides
    {
        let input = |attempt: usize, k: usize| {
            let derived = &c.views[attempt].derived;
            let o = &derived.occurrences.occurrences[k];
            o.input(&derived.events(&c.doc.attempts[attempt]))
                .value()
                .map(|v| serde_json::to_string_pretty(&*v).unwrap_or_default())
                .unwrap_or_default()
        };
        let mut blocks = vec![
            Block::Line(Text::toned("Input, before → after", Tone::Bold)),
            Block::Patch { before: input(split.attempts[0], i), after: input(split.attempts[1], j) },
            Block::Blank,
        ];
        blocks.append(&mut out.blocks);
        out.blocks = blocks;
    }
    out.title = format!("{} · {}", side_name(c, attempt), out.title);
    out
}

/// A side in a word: before or after; with one source, its experiment.
pub fn side_name(c: &Cv, attempt: usize) -> String {
    match super::side_word(c.side_of(attempt)) {
        Some(w) => w.to_string(),
        None => c
            .summary(attempt)
            .and_then(|s| s.experiment.as_deref())
            .map(clean)
            .unwrap_or_else(|| super::NO_EXPERIMENT.into()),
    }
}

/// A side's line where it has no turn of that number.
pub fn no_turn_text(turn: u64) -> Text {
    Text::toned(format!("▌ (no turn {turn} on this side)"), Tone::Soft)
}

/// What a tab shows when neither side has anything for it.
pub fn empty_text(tab: Panel) -> Text {
    Text::toned(
        match tab {
            Panel::Timeline => "no events recorded on either side (exp --json keeps no conversation)",
            Panel::Tools => "no tool calls on either side",
            Panel::Assertions => "no assertions recorded on either side",
            _ => "",
        },
        Tone::Soft,
    )
}

/// The Usage tab's panel title.
pub const USAGE_TITLE: &str = " Usage · before, after and after − before ";

/// The inspector's last line when more lines are below.
pub fn more_below(lines: usize) -> Text {
    let (page, half) = (key_for(Intent::PageDown), key_for(Intent::HalfPageDown));
    Text::toned(format!("↓ {} ({page}, {half})", count(lines, "more line", "more lines")), Tone::Soft)
}

/// The inspector's mode in its title.
pub fn mode_text(raw: bool) -> Text {
    Text::toned(if raw { " Preview │ [Raw] (r) " } else { " [Preview] │ Raw (r) " }, Tone::Soft)
}

/// One side of an assertions line: the outcome and where the assertion is.
pub fn assertion_cell(c: &Cv, split: &Split, line: usize, side: usize) -> Text {
    let Some(pair) = split.assertions.get(line) else { return Text::new() };
    let attempt = &c.doc.attempts[split.attempts[side]];
    let Some(a) = pair.sides[side].and_then(|i| attempt.review.assertions.as_ref()?.get(i)) else {
        let why = if attempt.review.assertions.is_none() {
            "(this side's file records no assertions)"
        } else {
            "(not on this side)"
        };
        return change_tag(pair.change).with(why, Tone::Soft);
    };
    let o = crate::model::verdict::assertion_outcome(a);
    let mut t = change_tag(pair.change);
    t.append(crate::view::verdict::outcome_text(o));
    t.push(" ", Tone::Plain);
    t.push(assertion_place(attempt, a), Tone::Plain);
    if let Some(m) = crate::view::assertions::message(a) {
        t.push(format!(" — {m}"), Tone::Soft);
    }
    t
}
