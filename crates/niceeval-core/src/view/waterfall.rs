//! The waterfall: the timing tree as rows of a label, a duration and bars
//! on one time axis, with siblings folded as the official viewer folds them
//! (official-viewer §1.8): consecutive short siblings (under 1 % of the
//! attempt, at least two) into "kind ×n · kind ×m", and three or more
//! consecutive siblings of the same kind and label into "label ×N". Failed,
//! trunk (`eval.run`, `agent.send`) and unmeasured nodes never fold.
//!
//! The bar geometry is decided here, for a width ([`Layout`]), so `show`
//! and the viewer draw the same cells.

use super::format::{MISSING, count, duration_ms};
use super::text::{Text, Tone, clean};
use crate::model::timing::{Node, Source, Tree};
use std::collections::HashSet;

/// Share of the attempt below which a sibling is short (the official 1 %).
const SHORT_SHARE: f64 = 0.01;
/// Fewest short siblings worth a summary row.
const SHORT_MIN: usize = 2;
/// Fewest same-named siblings worth a summary row.
const REPEAT_MIN: usize = 3;
/// Levels of the tree drawn (36 columns of rails at most); a node at the
/// last level has one row under it that counts all below it (input may nest
/// spans thousands deep). That row starts at the left edge, where the rails
/// would leave it no room to be read.
pub const DEPTH_DRAWN: usize = 12;

/// A bar on the axis: fractions of the axis, in a tone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    pub from: f64,
    pub to: f64,
    pub tone: Tone,
}

/// One waterfall line before layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: Text,
    pub duration: Text,
    pub bars: Vec<Bar>,
}

/// The waterfall as a block: its lines and the axis total they share.
#[derive(Debug, Clone, PartialEq)]
pub struct Waterfall {
    pub lines: Vec<Line>,
    /// The axis length in words ("9.0s"), for the scale line.
    pub total: String,
}

/// What a row stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Node(usize),
    /// Folded siblings: short ones (`short`) or repeats.
    Fold {
        nodes: Vec<usize>,
        short: bool,
    },
}

/// One row, with what the viewer needs to expand it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Stable key: the node's, or `fold:` and its first node's.
    pub key: String,
    pub target: Target,
    pub expandable: bool,
    pub expanded: bool,
    pub line: Line,
}

/// Which nodes and folds are open. Nodes start open, folds closed; a key in
/// `toggled` flips that. `all_folds` opens every fold (`show --full`).
#[derive(Debug, Clone, Copy)]
pub struct Expand<'a> {
    pub toggled: &'a HashSet<String>,
    pub all_folds: bool,
}

impl Expand<'_> {
    fn open(&self, key: &str, fold: bool) -> bool {
        if fold { self.all_folds || self.toggled.contains(key) } else { !self.toggled.contains(key) }
    }
}

/// The key of a fold row (its first node's key behind a prefix).
pub fn fold_key(first: &Node) -> String {
    format!("fold:{}", first.key)
}

/// Siblings after both folds, in order.
pub fn fold_siblings(tree: &Tree, siblings: &[usize]) -> Vec<Target> {
    let total = tree.axis.map(|(_, d)| d).filter(|d| *d > 0.0);
    let foldable = |n: usize| {
        let node = &tree.nodes[n];
        !node.failed && !node.trunk && node.duration_ms.is_some()
    };
    // Short siblings first (official order): a run of consecutive short ones.
    let mut items: Vec<Target> = Vec::new();
    for &n in siblings {
        let short = total.is_some_and(|t| foldable(n) && tree.nodes[n].duration_ms.unwrap_or(0.0) < t * SHORT_SHARE);
        match items.last_mut() {
            Some(Target::Fold { nodes, short: true }) if short => nodes.push(n),
            _ if short => items.push(Target::Fold { nodes: vec![n], short: true }),
            _ => items.push(Target::Node(n)),
        }
    }
    let items: Vec<Target> = items
        .into_iter()
        .map(|t| match t {
            Target::Fold { nodes, short: true } if nodes.len() < SHORT_MIN => Target::Node(nodes[0]),
            other => other,
        })
        .collect();
    // Then repeats: consecutive foldable nodes of one kind and label.
    let mut out = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let flush = |run: &mut Vec<usize>, out: &mut Vec<Target>| {
        if run.len() >= REPEAT_MIN {
            out.push(Target::Fold { nodes: std::mem::take(run), short: false });
        } else {
            out.extend(run.drain(..).map(Target::Node));
        }
    };
    for item in items {
        match item {
            Target::Node(n) if foldable(n) => {
                let same = run.first().is_some_and(|&r| {
                    tree.nodes[r].kind == tree.nodes[n].kind && tree.nodes[r].label == tree.nodes[n].label
                });
                if !same {
                    flush(&mut run, &mut out);
                }
                run.push(n);
            }
            other => {
                flush(&mut run, &mut out);
                out.push(other);
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Every row to show, depth first, honouring what is open.
pub fn rows(tree: &Tree, expand: Expand) -> Vec<Row> {
    let mut out = Vec::new();
    walk(tree, &tree.roots, "", 0, expand, &mut out);
    out
}

/// The rows of `siblings` (at `depth`) and below. Recursion stops at
/// [`DEPTH_DRAWN`]: what is deeper is one counted row.
fn walk(tree: &Tree, siblings: &[usize], prefix: &str, depth: usize, expand: Expand, out: &mut Vec<Row>) {
    let items = fold_siblings(tree, siblings);
    let last = items.len().saturating_sub(1);
    for (i, item) in items.into_iter().enumerate() {
        let (rail, below) = match (prefix.is_empty() && siblings == tree.roots.as_slice(), i == last) {
            (true, _) => ("", String::new()),
            (false, true) => ("└─ ", format!("{prefix}   ")),
            (false, false) => ("├─ ", format!("{prefix}│  ")),
        };
        match item {
            Target::Node(n) => {
                if push_node(tree, n, format!("{prefix}{rail}"), expand, out) {
                    below_node(tree, n, &below, depth, expand, out);
                }
            }
            Target::Fold { nodes, short } => {
                let key = fold_key(&tree.nodes[nodes[0]]);
                let expanded = expand.open(&key, true);
                let mut label = Text::toned(format!("{prefix}{rail}"), Tone::Soft);
                label.push(if expanded { "▾ " } else { "▸ " }, Tone::Accent);
                label.push(fold_label(tree, &nodes, short), Tone::Plain);
                let total: f64 = nodes.iter().filter_map(|&n| tree.nodes[n].duration_ms).sum();
                let line = Line {
                    label,
                    duration: Text::toned(format!("{} total", duration_ms(total)), Tone::Soft),
                    bars: bars(tree, &nodes),
                };
                let members = nodes.clone();
                out.push(Row { key, target: Target::Fold { nodes, short }, expandable: true, expanded, line });
                if expanded {
                    // The members, one by one (their own subtrees included).
                    for &n in &members {
                        member(tree, n, &below, depth, expand, out);
                    }
                }
            }
        }
    }
}

/// A folded member listed under its open fold: itself and its subtree.
fn member(tree: &Tree, n: usize, prefix: &str, depth: usize, expand: Expand, out: &mut Vec<Row>) {
    if push_node(tree, n, format!("{prefix}· "), expand, out) {
        below_node(tree, n, &format!("{prefix}  "), depth, expand, out);
    }
}

/// The rows under open node `n` (at `depth`): its children's, or past
/// [`DEPTH_DRAWN`] one row counting every node below it.
fn below_node(tree: &Tree, n: usize, prefix: &str, depth: usize, expand: Expand, out: &mut Vec<Row>) {
    if depth + 1 < DEPTH_DRAWN {
        return walk(tree, &tree.nodes[n].children, prefix, depth + 1, expand, out);
    }
    let mut below = 0;
    let mut stack: Vec<usize> = tree.nodes[n].children.clone();
    while let Some(m) = stack.pop() {
        below += 1;
        stack.extend(&tree.nodes[m].children);
    }
    let first = tree.nodes[n].children[0];
    let mut label = Text::new();
    label.push(
        format!("… {} folded ({DEPTH_DRAWN} levels drawn)", count(below, "deeper node", "deeper nodes")),
        Tone::Warn,
    );
    out.push(Row {
        key: format!("deeper:{}", tree.nodes[n].key),
        target: Target::Node(first),
        expandable: false,
        expanded: false,
        line: Line { label, duration: Text::new(), bars: Vec::new() },
    });
}

/// One node's row after `lead` (its rail); says whether it is open.
fn push_node(tree: &Tree, n: usize, lead: String, expand: Expand, out: &mut Vec<Row>) -> bool {
    let node = &tree.nodes[n];
    let expandable = !node.children.is_empty();
    let expanded = expandable && expand.open(&node.key, false);
    let mut label = Text::toned(lead, Tone::Soft);
    if expandable && !expanded {
        label.push("▸ ", Tone::Accent);
    }
    label.append(node_label(tree, node));
    out.push(Row {
        key: node.key.clone(),
        target: Target::Node(n),
        expandable,
        expanded,
        line: Line { label, duration: node_duration(node), bars: bars(tree, &[n]) },
    });
    expanded
}

/// "tool ×4 · model ×1" (short siblings, kinds in order) or "label ×N" (repeats).
pub fn fold_label(tree: &Tree, nodes: &[usize], short: bool) -> String {
    if !short {
        return format!("{} ×{}", clean(&tree.nodes[nodes[0]].label), nodes.len());
    }
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for &n in nodes {
        let kind = tree.nodes[n].kind.as_str();
        match counts.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, c)) => *c += 1,
            None => counts.push((kind, 1)),
        }
    }
    counts.iter().map(|(k, c)| format!("{} ×{c}", clean(k))).collect::<Vec<_>>().join(" · ")
}

/// The kind as a reader sees it: a span's is said to be OTel's.
pub fn kind_word(node: &Node) -> String {
    match node.source {
        Source::Span(_) => format!("otel {}", clean(&node.kind)),
        Source::Interval(_) => clean(&node.kind),
    }
}

/// Marks first (`✗` failed, `!` an execution error recorded in its phase,
/// `…` never closed: the left of a cut label is what stays), then the name, an outcome word other than completed or
/// failed, and the kind when it says more than the name.
pub fn node_label(tree: &Tree, node: &Node) -> Text {
    let mut t = Text::new();
    if node.failed {
        t.push("✗ ", Tone::Bad);
    }
    if node.execution_error.is_some() {
        t.push("! ", super::verdict::verdict_tone(crate::model::verdict::Verdict::Errored));
    }
    if node.duration_ms.is_none() {
        t.push("… ", Tone::Pending);
    }
    match node.turn.filter(|n| node.label != format!("turn{n}")) {
        Some(n) => t.push(format!("turn {n} · {}", clean(&node.label)), Tone::Plain),
        None => t.push(clean(&node.label), Tone::Plain),
    };
    if let Some(n) = node.command {
        t.push(format!(" · command {n}"), Tone::Soft);
    }
    if let Source::Span(s) = node.source
        && let Some(tool) = tree.spans.get(s).and_then(|s| s.tool.as_deref())
    {
        t.push(format!(" · {}", clean(tool)), Tone::Plain);
    }
    match node.outcome.as_deref() {
        None | Some("completed" | "failed" | "ok" | "error" | "unset") => {}
        Some(other) => {
            t.push(format!("  {}", clean(other)), if node.failed { Tone::Bad } else { Tone::Warn });
        }
    }
    if node.kind != node.label || matches!(node.source, Source::Span(_)) {
        t.push(format!("  {}", kind_word(node)), Tone::Soft);
    }
    t
}

/// How a node ended, in words: "✗ failed", "✗ interrupted", another
/// outcome as written, and "… open" when it never closed.
pub fn outcome_mark(node: &Node) -> Text {
    let mut t = Text::new();
    match node.outcome.as_deref() {
        Some("interrupted") if node.failed => {
            t.push("  ✗ interrupted", Tone::Bad);
        }
        // A span's `error` status and a failed interval read alike.
        _ if node.failed => {
            t.push("  ✗ failed", Tone::Bad);
        }
        None | Some("completed" | "ok" | "unset") => {}
        Some(other) => {
            t.push(format!("  {}", clean(other)), Tone::Warn);
        }
    }
    if node.duration_ms.is_none() {
        t.push("  … open", Tone::Pending);
    }
    t
}

fn node_duration(node: &Node) -> Text {
    match node.duration_ms {
        Some(d) => Text::plain(duration_ms(d)),
        None => Text::toned(MISSING, Tone::Soft),
    }
}

/// The categorical tone of a kind: a stable hash into the series that
/// leave red to failures.
pub fn kind_tone(kind: &str) -> Tone {
    // FNV-1a: the same kind always gets the same slot.
    let hash = kind.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    Tone::Series((hash % 5) as u8)
}

/// The bars of some nodes on the tree's axis (none without a measured axis).
fn bars(tree: &Tree, nodes: &[usize]) -> Vec<Bar> {
    let Some((origin, total)) = tree.axis.filter(|(_, d)| *d > 0.0) else { return Vec::new() };
    nodes
        .iter()
        .filter_map(|&n| {
            let node = &tree.nodes[n];
            let (start, d) = (node.start_ms?, node.duration_ms?);
            let from = ((start - origin) / total).clamp(0.0, 1.0);
            let to = ((start + d - origin) / total).clamp(from, 1.0);
            Some(Bar { from, to, tone: if node.failed { Tone::Bad } else { kind_tone(&node.kind) } })
        })
        .collect()
}

/// Column widths of a waterfall at a width: label, duration, bar track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub label: usize,
    pub duration: usize,
    pub bar: usize,
}

impl Layout {
    /// The axis takes a third of a wide width (at most 64 columns), a
    /// quarter of a narrower one (labels need the room), none under 40;
    /// the widest duration; the rest is the label's.
    pub fn new<'a>(lines: impl Iterator<Item = &'a Line>, width: usize) -> Layout {
        let duration = lines.map(|l| l.duration.width()).max().unwrap_or(0).max(4);
        let bar = match width {
            w if w >= 100 => (w / 3).min(64),
            w if w >= 40 => (w / 4).max(8),
            _ => 0,
        };
        let label = width.saturating_sub(duration + bar + 3).max(8);
        Layout { label, duration, bar }
    }

    /// One line: label (cut), duration (right-aligned), bar cells.
    pub fn line(&self, l: &Line) -> Text {
        let mut t = l.label.truncate(self.label).pad_to(self.label);
        t.push("  ", Tone::Plain);
        t.push(" ".repeat(self.duration.saturating_sub(l.duration.width())), Tone::Plain);
        t.append(l.duration.truncate(self.duration));
        if self.bar > 0 {
            t.push(" ", Tone::Plain);
            t.append(self.cells(&l.bars));
        }
        t
    }

    /// The scale above the bars: "0" at the left, the total at the right.
    pub fn scale(&self, total: &str) -> Text {
        let mut t = Text::plain(" ".repeat(self.label + 2 + self.duration + 1));
        if self.bar > 0 {
            let fill = self.bar.saturating_sub(1 + crate::model::text::width(total));
            t.push(format!("0{}{total}", " ".repeat(fill)), Tone::Soft);
        }
        t
    }

    /// Cells of the track: `█` where a bar covers the cell (every bar at
    /// least one cell, a failed one over any other), `░` elsewhere.
    pub fn cells(&self, bars: &[Bar]) -> Text {
        let w = self.bar;
        let mut cells: Vec<Option<Tone>> = vec![None; w];
        for b in bars {
            let c0 = ((b.from * w as f64).floor() as usize).min(w.saturating_sub(1));
            let c1 = ((b.to * w as f64).ceil() as usize).clamp(c0 + 1, w);
            for c in &mut cells[c0..c1] {
                if *c != Some(Tone::Bad) {
                    *c = Some(b.tone);
                }
            }
        }
        let mut t = Text::new();
        for c in cells {
            match c {
                Some(tone) => t.push("█", tone),
                None => t.push("░", Tone::Soft),
            };
        }
        t
    }
}

/// A waterfall laid out at a width: the scale, then one text per line.
pub fn layout(w: &Waterfall, width: usize) -> Vec<Text> {
    let layout = Layout::new(w.lines.iter(), width);
    std::iter::once(layout.scale(&w.total)).chain(w.lines.iter().map(|l| layout.line(l))).collect()
}
