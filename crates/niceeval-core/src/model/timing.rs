//! Where an attempt's time went: the timing intervals a file records (a
//! Record's `timing-data`, an InvocationSummary's `phases`, a legacy
//! result's `phases`/`timings`) and the OTel spans recorded with them, as one
//! tree on one time axis. Pure: the loaders fill [`Timing`], [`tree`] joins.
//!
//! Offsets are milliseconds from the attempt's own zero, as recorded. Spans
//! carry epoch milliseconds; they are placed on the attempt's axis with the
//! epoch of that zero when the file states it (an InvocationSummary's
//! `startedAt`). A Record states none, so each trace is aligned with the
//! `agent.send` interval it belongs to (the k-th trace by start with the
//! k-th send), which [`SpanPlacement`] says.

use super::completeness::Completeness;
use serde_json::Value;
use std::collections::HashMap;

/// One recorded interval, as the file states it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interval {
    /// `intervalId` (Record) or the activity `id` (InvocationSummary).
    pub id: Option<String>,
    pub label: String,
    /// The Record's `phase`; an InvocationSummary phase's `name` or an activity's `key`.
    pub phase: Option<String>,
    pub start_ms: Option<f64>,
    pub duration_ms: Option<f64>,
    /// `parentIntervalId`, for flat lists.
    pub parent_id: Option<String>,
    /// The enclosing node's index in [`Timing::intervals`], for nested lists.
    pub parent_index: Option<usize>,
    /// `completed | failed | cancelled | interrupted | unknown`; `None` when not recorded.
    pub outcome: Option<String>,
    /// The OTel trace of this send (an InvocationSummary `agent.turn`'s `traceId`).
    pub trace_id: Option<String>,
}

impl Interval {
    /// A Record / `show --json` interval: `{intervalId, phase, label,
    /// startOffsetMs, durationMs, parentIntervalId, outcome}`.
    pub fn from_value(v: &Value) -> Interval {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let f = |k: &str| v.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
        Interval {
            id: s("intervalId").or_else(|| s("id")),
            label: s("label").or_else(|| s("phase")).unwrap_or_default(),
            phase: s("phase"),
            start_ms: f("startOffsetMs"),
            duration_ms: f("durationMs").filter(|d| *d >= 0.0),
            parent_id: s("parentIntervalId"),
            parent_index: None,
            outcome: s("outcome"),
            trace_id: s("traceId"),
        }
    }

    pub fn end_ms(&self) -> Option<f64> {
        Some(self.start_ms? + self.duration_ms?)
    }

    /// Failed or interrupted (the official viewer's `failed`).
    pub fn failed(&self) -> bool {
        matches!(self.outcome.as_deref(), Some("failed" | "interrupted"))
    }
}

/// The timing a file recorded for one attempt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timing {
    pub intervals: Vec<Interval>,
    /// How completely the intervals were collected; `None`: not recorded.
    pub state: Option<Completeness>,
    /// Epoch milliseconds of the attempt's zero offset, when the file states it.
    pub epoch_zero_ms: Option<f64>,
    /// A Record's (or NiceEval `show --json` page's) timing collection: the
    /// one NiceEval's attempt duration reads (`measure::duration`).
    pub niceeval_collection: bool,
}

impl Timing {
    /// A Record / `show --json` timing collection `{collection, intervals}`.
    pub fn from_collection(v: &Value, state: Completeness) -> Timing {
        let intervals =
            v.get("intervals").and_then(Value::as_array).map(|l| l.iter().map(Interval::from_value).collect());
        Timing {
            intervals: intervals.unwrap_or_default(),
            state: Some(state),
            epoch_zero_ms: None,
            niceeval_collection: true,
        }
    }

    /// Earliest start to latest end of the top-level intervals (the
    /// attempt's duration as NiceEval's summary states it).
    pub fn span_ms(&self) -> Option<f64> {
        let top = self.intervals.iter().filter(|i| i.parent_id.is_none() && i.parent_index.is_none());
        let (lo, hi) = top
            .filter_map(|i| Some((i.start_ms?, i.end_ms()?)))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (s, e)| (lo.min(s), hi.max(e)));
        (hi >= lo).then_some(hi - lo)
    }
}

/// One OTel span (`TraceSpan`), read from the trace artifact.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub trace_id: String,
    pub span_id: String,
    pub parent_span_id: Option<String>,
    pub name: String,
    /// `turn | model | tool | agent | other` when stated.
    pub kind: Option<String>,
    pub start_epoch_ms: f64,
    pub end_epoch_ms: f64,
    /// `ok | error | unset` when stated.
    pub status: Option<String>,
    /// The tool a tool span ran (`io.tool`, `tool_name`, `gen_ai.tool.name`).
    pub tool: Option<String>,
    /// Index in the trace array (for the raw span).
    pub index: usize,
}

/// The spans of a `TraceSpan[]`, and how many entries were not spans.
pub fn spans(trace: Option<&Value>) -> (Vec<Span>, usize) {
    let Some(list) = trace.and_then(Value::as_array) else { return (Vec::new(), 0) };
    let mut out = Vec::new();
    let mut unreadable = 0;
    for (index, v) in list.iter().enumerate() {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let f = |k: &str| v.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
        let attr = |k: &str| v.get("attributes").and_then(|a| a.get(k)).and_then(Value::as_str).map(str::to_string);
        match (s("traceId"), s("spanId"), f("startMs"), f("endMs")) {
            (Some(trace_id), Some(span_id), Some(start), Some(end)) if end >= start => out.push(Span {
                trace_id,
                span_id,
                parent_span_id: s("parentSpanId"),
                name: s("name").unwrap_or_default(),
                kind: s("kind"),
                start_epoch_ms: start,
                end_epoch_ms: end,
                status: s("status"),
                tool: attr("io.tool").or_else(|| attr("tool_name")).or_else(|| attr("gen_ai.tool.name")),
                index,
            }),
            _ => unreadable += 1,
        }
    }
    (out, unreadable)
}

/// How the spans were put on the attempt's axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanPlacement {
    /// The file states the attempt's start as an instant: exact.
    Exact,
    /// Each trace aligned with its `agent.send` (as many traces as sends).
    AlignedToSends,
    /// Every trace shifted by the first trace's distance to the first send.
    AlignedToFirstSend,
    /// No send to align with: the first span starts where the first interval does.
    Unanchored,
}

/// Whether a node is an interval or a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Index into [`Timing::intervals`].
    Interval(usize),
    /// Index into the spans of [`Tree::spans`].
    Span(usize),
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Unique and stable within the attempt (`i3`, `s12`).
    pub key: String,
    pub label: String,
    /// The interval's phase, or the span's kind.
    pub kind: String,
    /// Offset from the attempt's zero (a span's as placed).
    pub start_ms: Option<f64>,
    pub duration_ms: Option<f64>,
    pub outcome: Option<String>,
    pub failed: bool,
    /// The execution error recorded in this interval's phase (its index in
    /// the attempt's recorded diagnostics), when this is the one interval
    /// of that phase: the interval itself may still say `completed`.
    pub execution_error: Option<usize>,
    /// The attempt's trunk (`eval.run`, `agent.send`): never folded away.
    pub trunk: bool,
    pub source: Source,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// The attempt-wide number (turnOrdinal) of the turn a send interval is
    /// labelled with, when its label names one of the attempt's turns.
    pub turn: Option<u64>,
    /// The sandbox command an interval times (1-based, in recorded order), when the file links them.
    pub command: Option<usize>,
}

impl Node {
    pub fn end_ms(&self) -> Option<f64> {
        Some(self.start_ms? + self.duration_ms?)
    }
}

/// The intervals and spans of an attempt as one tree.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub roots: Vec<usize>,
    pub spans: Vec<Span>,
    /// `(start, duration)` of the axis: earliest start to latest end.
    pub axis: Option<(f64, f64)>,
    pub placement: Option<SpanPlacement>,
    /// Trace entries that are not readable spans.
    pub unreadable_spans: usize,
    /// Execution errors no one interval can carry: `(diagnostic, intervals
    /// of its phase)`, with 0 or several intervals of that phase.
    pub unplaced_errors: Vec<(usize, usize)>,
    /// Parent links cut because they closed a loop (each such node is
    /// a root, or under what its span parent or send says).
    pub loops_cut: usize,
}

impl Tree {
    pub fn failed(&self) -> usize {
        self.nodes.iter().filter(|n| n.failed).count()
    }

    /// Nodes that carry an execution error.
    pub fn errored(&self) -> usize {
        self.nodes.iter().filter(|n| n.execution_error.is_some()).count()
    }

    /// Put each execution error, `(its index, its phase)`, on the interval
    /// of its phase (NiceEval records the phase, not the interval): on the
    /// one interval of that phase, or, with none or several, in
    /// `unplaced_errors` (which one it was is not recorded, so none is guessed).
    pub fn place_execution_errors<'a>(&mut self, timing: &Timing, errors: impl Iterator<Item = (usize, &'a str)>) {
        // No timing at all: there is nothing for an error to agree with.
        if timing.intervals.is_empty() {
            return;
        }
        for (d, phase) in errors {
            let of_phase: Vec<usize> = (0..self.nodes.len())
                .filter(|&n| self.interval(timing, n).is_some_and(|x| x.phase.as_deref() == Some(phase)))
                .collect();
            match of_phase[..] {
                // A second error of the phase: the node already carries the first.
                [n] => {
                    self.nodes[n].execution_error.get_or_insert(d);
                }
                _ => self.unplaced_errors.push((d, of_phase.len())),
            }
        }
    }

    /// The interval behind a node, when it is one.
    pub fn interval<'a>(&self, timing: &'a Timing, node: usize) -> Option<&'a Interval> {
        match self.nodes.get(node)?.source {
            Source::Interval(i) => timing.intervals.get(i),
            Source::Span(_) => None,
        }
    }

    /// The recorded id of a node (interval id or span id).
    pub fn id<'a>(&'a self, timing: &'a Timing, node: usize) -> Option<&'a str> {
        match self.nodes.get(node)?.source {
            Source::Interval(i) => timing.intervals.get(i)?.id.as_deref(),
            Source::Span(s) => Some(&self.spans.get(s)?.span_id),
        }
    }
}

fn is_send(phase: &str) -> bool {
    matches!(phase, "agent.send" | "agent.turn")
}

/// The tree of an attempt's intervals with its spans nested in them.
pub fn tree(timing: &Timing, trace: Option<&Value>) -> Tree {
    let mut t = Tree::default();
    let iv = &timing.intervals;
    let by_id: HashMap<&str, usize> =
        iv.iter().enumerate().rev().filter_map(|(i, x)| Some((x.id.as_deref()?, i))).collect();
    let mut parent: Vec<Option<usize>> = iv
        .iter()
        .enumerate()
        .map(|(i, x)| x.parent_index.or_else(|| by_id.get(x.parent_id.as_deref()?).copied()).filter(|p| *p != i))
        .collect();
    t.loops_cut = break_cycles(&mut parent);
    for (i, x) in iv.iter().enumerate() {
        let kind = x.phase.clone().unwrap_or_else(|| x.label.clone());
        t.nodes.push(Node {
            key: format!("i{i}"),
            label: x.label.clone(),
            trunk: kind == "eval.run" || is_send(&kind),
            kind,
            start_ms: x.start_ms,
            duration_ms: x.duration_ms,
            outcome: x.outcome.clone(),
            failed: x.failed(),
            execution_error: None,
            source: Source::Interval(i),
            parent: parent[i],
            children: Vec::new(),
            turn: None,
            command: None,
        });
    }
    let (spans, unreadable) = spans(trace);
    t.unreadable_spans = unreadable;
    if !spans.is_empty() {
        place_spans(&mut t, timing, spans);
    }
    for i in 0..t.nodes.len() {
        match t.nodes[i].parent {
            Some(p) => t.nodes[p].children.push(i),
            None => t.roots.push(i),
        }
    }
    let nodes = &t.nodes;
    let order = |a: &usize, b: &usize| {
        let k = |n: usize| nodes[n].start_ms.unwrap_or(f64::INFINITY);
        k(*a).total_cmp(&k(*b)).then_with(|| a.cmp(b))
    };
    let mut roots = std::mem::take(&mut t.roots);
    roots.sort_by(order);
    let mut kids: Vec<Vec<usize>> = t.nodes.iter().map(|n| n.children.clone()).collect();
    for k in &mut kids {
        k.sort_by(order);
    }
    for (n, k) in t.nodes.iter_mut().zip(kids) {
        n.children = k;
    }
    t.roots = roots;
    let (lo, hi) = t
        .nodes
        .iter()
        .filter_map(|n| Some((n.start_ms?, n.end_ms().or(n.start_ms)?)))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (s, e)| (lo.min(s), hi.max(e)));
    t.axis = (hi > lo || (hi == lo && t.nodes.iter().any(|n| n.duration_ms.is_some()))).then_some((lo, hi - lo));
    t
}

/// Cut the links that close parent loops, one per loop (the link from the
/// node where the walk up met its own path); returns how many were cut.
/// Linear: each node is walked up once.
fn break_cycles(parent: &mut [Option<usize>]) -> usize {
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        No,
        OnPath,
        Done,
    }
    let mut seen = vec![Seen::No; parent.len()];
    let mut path = Vec::new();
    let mut cut = 0;
    for start in 0..parent.len() {
        let mut at = Some(start);
        while let Some(n) = at.filter(|&n| seen[n] == Seen::No) {
            seen[n] = Seen::OnPath;
            path.push(n);
            at = parent[n];
        }
        if let (Some(n), Some(&last)) = (at, path.last())
            && seen[n] == Seen::OnPath
        {
            parent[last] = None;
            cut += 1;
        }
        for n in path.drain(..) {
            seen[n] = Seen::Done;
        }
    }
    cut
}

/// Put the spans on the attempt's axis and under the interval each falls in.
fn place_spans(t: &mut Tree, timing: &Timing, spans: Vec<Span>) {
    // Traces in order of their first span.
    let mut traces: Vec<(&str, f64)> = Vec::new();
    for s in &spans {
        match traces.iter_mut().find(|(id, _)| *id == s.trace_id) {
            Some((_, first)) => *first = first.min(s.start_epoch_ms),
            None => traces.push((&s.trace_id, s.start_epoch_ms)),
        }
    }
    traces.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut sends: Vec<usize> =
        (0..t.nodes.len()).filter(|&n| is_send(&t.nodes[n].kind) && t.nodes[n].start_ms.is_some()).collect();
    sends.sort_by(|a, b| t.nodes[*a].start_ms.unwrap_or(0.0).total_cmp(&t.nodes[*b].start_ms.unwrap_or(0.0)));
    let start = |n: usize| t.nodes[n].start_ms.unwrap_or(0.0);
    // Per trace: the shift from epoch to offsets, and the send it belongs to.
    let (placement, shifts): (SpanPlacement, Vec<(f64, Option<usize>)>) = if let Some(zero) = timing.epoch_zero_ms {
        let linked = |id: &str| {
            (0..t.nodes.len()).find(|&n| {
                matches!(t.nodes[n].source, Source::Interval(i) if timing.intervals[i].trace_id.as_deref() == Some(id))
            })
        };
        (SpanPlacement::Exact, traces.iter().map(|(id, _)| (-zero, linked(id))).collect())
    } else if !sends.is_empty() && sends.len() == traces.len() {
        let s = traces.iter().zip(&sends).map(|((_, first), &n)| (start(n) - first, Some(n))).collect();
        (SpanPlacement::AlignedToSends, s)
    } else if let (Some(&n), Some((_, first))) = (sends.first(), traces.first()) {
        (SpanPlacement::AlignedToFirstSend, traces.iter().map(|_| (start(n) - first, None)).collect())
    } else {
        let origin = t.nodes.iter().filter_map(|n| n.start_ms).fold(f64::INFINITY, f64::min);
        let origin = if origin.is_finite() { origin } else { 0.0 };
        let first = traces.first().map_or(0.0, |x| x.1);
        (SpanPlacement::Unanchored, traces.iter().map(|_| (origin - first, None)).collect())
    };
    t.placement = Some(placement);
    let intervals = t.nodes.len();
    let depths = interval_depths(t);
    let by_span: HashMap<(&str, &str), usize> =
        spans.iter().enumerate().map(|(i, s)| ((s.trace_id.as_str(), s.span_id.as_str()), intervals + i)).collect();
    let mut placed = Vec::with_capacity(spans.len());
    for (si, s) in spans.iter().enumerate() {
        let ti = traces.iter().position(|(id, _)| *id == s.trace_id).unwrap_or(0);
        let (shift, send) = shifts.get(ti).copied().unwrap_or((0.0, None));
        let begin = s.start_epoch_ms + shift;
        let up = s.parent_span_id.as_deref().and_then(|p| by_span.get(&(s.trace_id.as_str(), p)).copied());
        let parent = up.filter(|p| *p != intervals + si).or(send).or_else(|| containing(t, &depths, begin));
        let kind = s.kind.clone().unwrap_or_else(|| "span".into());
        placed.push(Node {
            key: format!("s{si}"),
            label: s.name.clone(),
            trunk: false,
            kind,
            start_ms: Some(begin),
            duration_ms: Some(s.end_epoch_ms - s.start_epoch_ms),
            outcome: s.status.clone(),
            failed: s.status.as_deref() == Some("error"),
            execution_error: None,
            source: Source::Span(si),
            parent,
            children: Vec::new(),
            turn: None,
            command: None,
        });
    }
    t.nodes.extend(placed);
    let mut parent: Vec<Option<usize>> = t.nodes.iter().map(|n| n.parent).collect();
    t.loops_cut += break_cycles(&mut parent);
    for (n, p) in t.nodes.iter_mut().zip(parent) {
        n.parent = p;
    }
    t.spans = spans;
}

/// Each interval node's depth (its ancestors' count), walked up once each.
/// The parent links are free of loops (`break_cycles` ran).
fn interval_depths(t: &Tree) -> Vec<usize> {
    let mut depth: Vec<Option<usize>> = vec![None; t.nodes.len()];
    let mut path = Vec::new();
    for start in 0..t.nodes.len() {
        let mut at = Some(start);
        while let Some(n) = at.filter(|&n| depth[n].is_none()) {
            path.push(n);
            at = t.nodes[n].parent;
        }
        let mut d = at.and_then(|n| depth[n]).map_or(0, |d| d + 1);
        while let Some(n) = path.pop() {
            depth[n] = Some(d);
            d += 1;
        }
    }
    depth.into_iter().map(|d| d.unwrap_or(0)).collect()
}

/// The deepest interval whose time holds `at` (the shortest, at equal depth).
fn containing(t: &Tree, depths: &[usize], at: f64) -> Option<usize> {
    (0..t.nodes.len())
        .filter(|&n| matches!(t.nodes[n].source, Source::Interval(_)))
        .filter(|&n| t.nodes[n].start_ms.zip(t.nodes[n].end_ms()).is_some_and(|(s, e)| s <= at && at <= e))
        .max_by(|&a, &b| {
            let dur = |n: usize| t.nodes[n].duration_ms.unwrap_or(0.0);
            depths[a].cmp(&depths[b]).then_with(|| dur(b).total_cmp(&dur(a)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn iv(id: &str, label: &str, phase: &str, start: f64, dur: f64, parent: Option<&str>) -> Interval {
        Interval {
            id: Some(id.into()),
            label: label.into(),
            phase: Some(phase.into()),
            start_ms: Some(start),
            duration_ms: Some(dur),
            parent_id: parent.map(str::to_string),
            outcome: Some("completed".into()),
            ..Default::default()
        }
    }

    fn record_timing() -> Timing {
        Timing {
            intervals: vec![
                iv("a", "eval.run", "eval.run", 2.0, 100.0, None),
                iv("c", "turn2", "agent.send", 60.0, 30.0, Some("a")),
                iv("b", "turn1", "agent.send", 5.0, 50.0, Some("a")),
                iv("d", "assertions.evaluate", "assertion.evaluate", 102.0, 3.0, None),
            ],
            state: Some(Completeness::Complete),
            epoch_zero_ms: None,
            niceeval_collection: true,
        }
    }

    #[test]
    fn an_execution_error_goes_on_the_one_interval_of_its_phase_and_is_never_guessed() {
        let timing = record_timing();
        let mut t = tree(&timing, None);
        t.place_execution_errors(&timing, [(4, "eval.run"), (5, "agent.send"), (6, "sandbox.create")].into_iter());
        let run = t.nodes.iter().position(|n| n.label == "eval.run").unwrap();
        assert_eq!(t.nodes[run].execution_error, Some(4));
        assert_eq!(t.errored(), 1, "two agent.send intervals: which one is not recorded");
        assert_eq!(t.unplaced_errors, vec![(5, 2), (6, 0)]);
        let mut none = tree(&Timing::default(), None);
        none.place_execution_errors(&Timing::default(), [(0, "eval.run")].into_iter());
        assert!(none.unplaced_errors.is_empty(), "no timing: nothing to agree with");
    }

    #[test]
    fn intervals_nest_by_parent_and_siblings_sort_by_start() {
        let t = tree(&record_timing(), None);
        let labels = |ns: &[usize]| ns.iter().map(|&n| t.nodes[n].label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&t.roots), ["eval.run", "assertions.evaluate"]);
        assert_eq!(labels(&t.nodes[t.roots[0]].children), ["turn1", "turn2"]);
        assert_eq!(t.axis, Some((2.0, 103.0)));
        assert!(t.nodes[0].trunk && t.nodes[1].trunk && !t.nodes[3].trunk);
    }

    #[test]
    fn a_parent_loop_is_cut_instead_of_hanging() {
        let mut timing = record_timing();
        timing.intervals[0].parent_id = Some("c".into());
        let t = tree(&timing, None);
        assert_eq!(t.nodes.len(), 4);
        assert!(!t.roots.is_empty());
        assert_eq!(t.loops_cut, 1);
    }

    #[test]
    fn one_link_is_cut_per_loop_and_paths_into_a_loop_are_kept() {
        // 0 → 1 → 2 → 0 is a loop and 3 → 2 leads into it; 5 ⇄ 6 is another, 7 → 5 leads into it.
        let mut parent = vec![Some(1), Some(2), Some(0), Some(2), None, Some(6), Some(5), Some(5)];
        assert_eq!(break_cycles(&mut parent), 2);
        assert_eq!(parent.iter().filter(|p| p.is_none()).count(), 3, "{parent:?}");
        assert_eq!(parent[3], Some(2));
        // What is left has no loop: every walk up ends.
        for i in 0..parent.len() {
            let mut at = parent[i];
            let mut steps = 0;
            while let Some(p) = at {
                steps += 1;
                assert!(steps <= parent.len(), "{parent:?} loops from {i}");
                at = parent[p];
            }
        }
    }

    #[test]
    fn record_traces_align_with_their_sends_in_order() {
        let trace = json!([
            {"traceId":"t2","spanId":"x","name":"interaction","startMs":5000,"endMs":5020,"kind":"turn"},
            {"traceId":"t2","spanId":"y","parentSpanId":"x","name":"tool","startMs":5004,"endMs":5010,"kind":"tool","status":"error","attributes":{"io.tool":"Read"}},
            {"traceId":"t1","spanId":"z","name":"interaction","startMs":1000,"endMs":1040,"kind":"turn"},
            {"bad":true}
        ]);
        let t = tree(&record_timing(), Some(&trace));
        assert_eq!(t.placement, Some(SpanPlacement::AlignedToSends));
        assert_eq!(t.unreadable_spans, 1);
        let node = |label: &str, start: f64| t.nodes.iter().position(|n| n.label == label && n.start_ms == Some(start));
        let turn1 = t.nodes.iter().position(|n| n.label == "turn1").unwrap();
        let turn2 = t.nodes.iter().position(|n| n.label == "turn2").unwrap();
        let z = node("interaction", 5.0).expect("t1 starts with turn1");
        let x = node("interaction", 60.0).expect("t2 starts with turn2");
        let y = node("tool", 64.0).expect("its child keeps its distance");
        assert_eq!(t.nodes[z].parent, Some(turn1));
        assert_eq!(t.nodes[x].parent, Some(turn2));
        assert_eq!(t.nodes[y].parent, Some(x));
        assert!(t.nodes[y].failed);
        assert_eq!(t.spans[1].tool.as_deref(), Some("Read"));
    }

    #[test]
    fn a_stated_start_places_spans_exactly_and_links_by_trace_id() {
        let mut timing = record_timing();
        timing.epoch_zero_ms = Some(1_000_000.0);
        timing.intervals[2].trace_id = Some("t1".into());
        let trace = json!([{"traceId":"t1","spanId":"z","name":"i","startMs":1_000_007,"endMs":1_000_010}]);
        let t = tree(&timing, Some(&trace));
        assert_eq!(t.placement, Some(SpanPlacement::Exact));
        let span = t.nodes.last().unwrap();
        assert_eq!(span.start_ms, Some(7.0));
        assert_eq!(t.nodes[span.parent.unwrap()].label, "turn1");
    }

    #[test]
    fn the_summary_span_is_the_top_level_extent() {
        assert_eq!(record_timing().span_ms(), Some(103.0));
        assert_eq!(Timing::default().span_ms(), None);
    }
}
