//! Parse a large JSON document piece by piece, so the text and the parsed
//! tree are not both held whole: the document is scanned once for the
//! children of its large containers, then every small piece is parsed on its
//! own and the caller may release the text behind it (the mapped pages of a
//! file). The result is the `Value` that `serde_json::from_slice` gives; on
//! any doubt (a syntax error, a string key with escapes that will not parse)
//! the caller is told to parse the whole text instead, which also gives the
//! exact error position.

use super::lazy::{LazyLoad, Place};
use serde_json::{Map, Value};

mod early;
use early::{Closing, Early, Gather};

/// Containers at least this large are split into their children.
pub const SPLIT_AT_LEAST: usize = 8 << 20;
/// Runs of pieces per parsing thread (see `parse_pieces`).
const RUNS_PER_THREAD: usize = 4;
/// Parsed text is released in spans of about this size.
const RELEASE_AT_LEAST: usize = 1 << 20;
/// Nesting deeper than this is not scanned (serde_json's own limit is 128).
const MAX_DEPTH: usize = 100;

/// One value found by the scan: its span, its key span in an object, and its
/// children when it is a container large enough to be split.
#[derive(Debug, Clone, Copy)]
struct Node {
    start: usize,
    end: usize,
    key: Option<(usize, usize)>,
    /// Children in `Scan::nodes[first..first + count]`, for split containers.
    children: Option<(usize, usize)>,
    /// A stretch of the elements of an `events` array in a raw load (see
    /// `LazyLoad::elements`): it gives several elements, not one.
    run: bool,
}

/// The elements of an `events` array are parsed in stretches of about this
/// many bytes (on the threads, a stretch at a time).
const RUN_BYTES: usize = 256 << 10;

struct Scan<'a> {
    bytes: &'a [u8],
    /// Children of the split containers, each container's together.
    nodes: Vec<Node>,
    /// The keys of `nodes` (`None` for the children of arrays), read while
    /// the scan has the text at hand: assembling the tree then reads no text
    /// (each page it read would be mapped again, with its neighbours).
    keys: Vec<Option<String>>,
    /// Direct children of the containers still open (a stack).
    pending: Vec<Node>,
    split_at_least: usize,
    /// A raw load: containers on the paths to events are split whatever
    /// their size, and `events` arrays into stretches of their elements.
    lazy: bool,
    scanned: &'a dyn Fn(usize, usize),
    /// The text before this was handed to `scanned`.
    scanned_to: usize,
    /// Where the stretches of `events` arrays go to be parsed while the scan
    /// goes on (a raw load on more than one thread).
    early: Option<&'a Early>,
    gather: Gather,
}

impl Scan<'_> {
    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.bytes.len() && crate::model::json_scan::is_ws(self.bytes[i]) {
            i += 1;
        }
        i
    }

    /// End (exclusive) of the string starting at `i` (a `"`).
    fn string_end(&self, i: usize) -> Option<usize> {
        string_end(self.bytes, i)
    }

    /// Scan the value at `i`; returns its node. The children of containers
    /// of at least `split_at_least` bytes are kept in `nodes`; those of
    /// smaller ones are dropped again, so only large containers cost memory.
    fn value(&mut self, i: usize, key: Option<(usize, usize)>, depth: usize, place: Place) -> Option<Node> {
        // Deeper documents are left to the whole parse and its recursion limit.
        if depth > MAX_DEPTH {
            return None;
        }
        let b = *self.bytes.get(i)?;
        if place.is_events() && self.lazy && b == b'[' {
            return self.events_array(i, key);
        }
        match b {
            b'"' => Some(Node { start: i, end: self.string_end(i)?, key, children: None, run: false }),
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                let mark = self.pending.len();
                let mut j = self.skip_ws(i + 1);
                if self.bytes.get(j) == Some(&close) {
                    return Some(Node { start: i, end: j + 1, key, children: None, run: false });
                }
                loop {
                    let child_key = if b == b'{' {
                        if self.bytes.get(j) != Some(&b'"') {
                            return None;
                        }
                        let ke = self.string_end(j)?;
                        let colon = self.skip_ws(ke);
                        if self.bytes.get(colon) != Some(&b':') {
                            return None;
                        }
                        let k = (j, ke);
                        j = self.skip_ws(colon + 1);
                        Some(k)
                    } else {
                        None
                    };
                    let child_place = match child_key {
                        _ if place.is_plain() => Place::Plain,
                        Some((ks, ke)) => place.child(Some(&key_text(&self.bytes[ks..ke])?)),
                        None => place.child(None),
                    };
                    let child = self.value(j, child_key, depth + 1, child_place)?;
                    self.pending.push(child);
                    j = self.skip_ws(child.end);
                    match self.bytes.get(j) {
                        Some(b',') => j = self.skip_ws(j + 1),
                        Some(c) if *c == close => break,
                        _ => return None,
                    }
                }
                let end = j + 1;
                let on_path = self.lazy && place.on_path();
                let children =
                    if end - i >= self.split_at_least || on_path { Some(self.keep_children(mark)?) } else { None };
                self.pending.truncate(mark);
                Some(Node { start: i, end, key, children, run: false })
            }
            _ => {
                // A number or a literal: up to the next delimiter.
                let j = crate::model::json_scan::value_end(self.bytes, i)?;
                Some(Node { start: i, end: j, key, children: None, run: false })
            }
        }
    }

    /// Keep the children pending since `mark` (with their keys) as the
    /// children of the container being closed.
    fn keep_children(&mut self, mark: usize) -> Option<(usize, usize)> {
        let first = self.nodes.len();
        for child in &self.pending[mark..] {
            let key = match child.key {
                Some((ks, ke)) => Some(key_text(&self.bytes[ks..ke])?.into_owned()),
                None => None,
            };
            self.keys.push(key);
        }
        self.nodes.extend_from_slice(&self.pending[mark..]);
        Some((first, self.pending.len() - mark))
    }

    /// An `events` array of a raw load: its elements in stretches of about
    /// [`RUN_BYTES`], each found by its extent alone (it is checked when
    /// parsed), the text behind handed to `scanned` as it goes.
    fn events_array(&mut self, i: usize, key: Option<(usize, usize)>) -> Option<Node> {
        let mark = self.pending.len();
        let mut j = self.skip_ws(i + 1);
        if self.bytes.get(j) == Some(&b']') {
            return Some(Node { start: i, end: j + 1, key, children: None, run: false });
        }
        let mut from = j;
        loop {
            let end = crate::model::json_scan::value_end(self.bytes, j)?;
            j = self.skip_ws(end);
            let last = match self.bytes.get(j) {
                Some(b',') => false,
                Some(b']') => true,
                _ => return None,
            };
            // (Tests that split small documents small get small stretches too.)
            if last || end - from >= RUN_BYTES.min(self.split_at_least) {
                self.pending.push(Node { start: from, end, key: None, children: None, run: true });
                if let Some(early) = self.early {
                    self.gather.stretch(early, (from, end), last, RELEASE_AT_LEAST.min(self.split_at_least));
                }
                if end - self.scanned_to >= RELEASE_AT_LEAST {
                    (self.scanned)(self.scanned_to, end);
                    self.scanned_to = end;
                }
                from = self.skip_ws(j + 1);
            }
            if last {
                break;
            }
            j = self.skip_ws(j + 1);
        }
        let children = self.keep_children(mark)?;
        self.pending.truncate(mark);
        Some(Node { start: i, end: j + 1, key, children: Some(children), run: false })
    }
}

/// Parse `bytes` (one JSON document) into the `Value` `from_slice` would
/// give, splitting containers of at least `split_at_least` bytes, and call
/// `scanned(start, end)` for the spans of text the structure scan has read
/// (as it goes, a megabyte or so at a time, along the paths to events in a
/// lazy load; the rest at its end), and
/// `release(start, end)` for every span of the text that has been parsed
/// (spans follow each other within a run of pieces; only object keys are
/// read again, once, when the tree is assembled). The pieces are parsed on one thread per core (each
/// thread a contiguous run of them, so the text is still released front to
/// back within each run). `None`: parse the whole text instead (a syntax
/// error, or nothing to split).
pub fn parse(
    bytes: &[u8],
    split_at_least: usize,
    scanned: &dyn Fn(usize, usize),
    release: &(dyn Fn(usize, usize) + Sync),
    lazy: Option<&LazyLoad>,
) -> Option<Value> {
    let threads = crate::analysis::parallel::cores(8);
    parse_on(bytes, split_at_least, threads, scanned, release, lazy)
}

fn parse_on(
    bytes: &[u8],
    split_at_least: usize,
    threads: usize,
    scanned: &dyn Fn(usize, usize),
    release: &(dyn Fn(usize, usize) + Sync),
    lazy: Option<&LazyLoad>,
) -> Option<Value> {
    let early = (lazy.is_some() && threads >= 2).then(Early::default);
    let mut scan = Scan {
        bytes,
        nodes: Vec::new(),
        keys: Vec::new(),
        pending: Vec::new(),
        split_at_least,
        lazy: lazy.is_some(),
        scanned,
        scanned_to: 0,
        early: early.as_ref(),
        gather: Gather::default(),
    };
    // The stretches of `events` arrays are parsed on the threads while the
    // scan goes on; the rest of the pieces once it has ended.
    let helpers = if early.is_some() && lazy.is_some() { threads } else { 0 };
    let helper = || {
        if let (Some(early), Some(load)) = (&early, lazy) {
            early.work(bytes, load, release);
        }
    };
    let (root, panicked) = crate::analysis::parallel::alongside(helpers, helper, || {
        let closing = early.as_ref().map(Closing);
        let start = scan.skip_ws(0);
        let root = scan.value(start, None, 0, lazy.map_or(Place::Plain, LazyLoad::root));
        drop(closing);
        root
    });
    // A thread that panicked leaves its batch missing: a doubt like any
    // other (the caller parses whole).
    if let Some(early) = &early
        && panicked > 0
    {
        early.fail();
    }
    let root = root?;
    if scan.skip_ws(root.end) != bytes.len() || root.children.is_none() {
        return None;
    }
    // The scan read the whole text; the caller may drop it now (the pieces
    // read it again, a run at a time).
    scanned(scan.scanned_to, bytes.len());
    let mut pieces = Vec::new();
    collect_pieces(&scan, root, &mut pieces);
    let mut values = match &early {
        None => parse_pieces(bytes, &pieces, threads, release, lazy)?,
        Some(early) => {
            let (stretches, rest): (Vec<Node>, Vec<Node>) = pieces.iter().partition(|p| p.run);
            let mut stretches = early.take_values(stretches.len())?.into_iter();
            let mut rest = parse_pieces(bytes, &rest, threads, release, lazy)?.into_iter();
            pieces.iter().map(|p| if p.run { stretches.next() } else { rest.next() }).collect::<Option<Vec<_>>>()?
        }
    }
    .into_iter();
    build(&scan, root, &mut values)
}

/// The nodes parsed whole (those without split children), in text order.
fn collect_pieces(scan: &Scan<'_>, node: Node, out: &mut Vec<Node>) {
    match node.children {
        None => out.push(node),
        Some((first, count)) => {
            for child in &scan.nodes[first..first + count] {
                collect_pieces(scan, *child, out);
            }
        }
    }
}

pub use crate::model::json_scan::string_end;

/// An object key's text (`bytes` with its quotes).
fn key_text(bytes: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let inner = &bytes[1..bytes.len() - 1];
    if inner.contains(&b'\\') {
        serde_json::from_slice::<String>(bytes).ok().map(std::borrow::Cow::Owned)
    } else {
        std::str::from_utf8(inner).ok().map(std::borrow::Cow::Borrowed)
    }
}

/// Parse every piece, on up to `threads` threads over contiguous runs of
/// about equal bytes. `None` when any piece does not parse.
fn parse_pieces(
    bytes: &[u8],
    pieces: &[Node],
    threads: usize,
    release: &(dyn Fn(usize, usize) + Sync),
    lazy: Option<&LazyLoad>,
) -> Option<Vec<Value>> {
    // A piece that does not parse sends the whole text to the whole parse:
    // the other runs stop at their next piece instead of finishing.
    let failed = std::sync::atomic::AtomicBool::new(false);
    let parse_run = |run: &[Node]| -> Option<Vec<Value>> {
        let mut out = Vec::with_capacity(run.len());
        // Released spans are contiguous (structure between the pieces
        // included), so pages that hold the end of one small piece and the
        // start of the next are released too, not kept for the whole load.
        // They are released a megabyte or so at a time: each release is a
        // system call that also flushes the other threads' page tables.
        let mut released_to = run.first().map_or(0, |p| p.start);
        for piece in run {
            let text = &bytes[piece.start..piece.end];
            let parsed = match (lazy, piece.run) {
                (Some(load), true) => load.elements(text).ok_or(()),
                _ => super::compact::from_slice(text).map_err(drop),
            };
            let parsed = match parsed {
                Ok(v) if !failed.load(std::sync::atomic::Ordering::Relaxed) => v,
                _ => {
                    failed.store(true, std::sync::atomic::Ordering::Relaxed);
                    return None;
                }
            };
            out.push(parsed);
            if piece.end - released_to >= RELEASE_AT_LEAST {
                release(released_to, piece.end);
                released_to = piece.end;
            }
        }
        if let Some(last) = run.last().filter(|p| p.end > released_to) {
            release(released_to, last.end);
        }
        Some(out)
    };
    if threads < 2 || pieces.len() < 2 {
        return parse_run(pieces);
    }
    // Cut the list into runs of about equal bytes, several per thread, which
    // the threads take in turn: a thread slowed down (by another program on
    // its core) takes fewer runs instead of holding up the others.
    let shares = threads * RUNS_PER_THREAD;
    let total: usize = pieces.iter().map(|p| p.end - p.start).sum();
    let mut cuts = vec![0];
    let mut seen = 0;
    for (i, p) in pieces.iter().enumerate() {
        seen += p.end - p.start;
        if cuts.len() < shares && seen >= total / shares * cuts.len() && i + 1 < pieces.len() {
            cuts.push(i + 1);
        }
    }
    cuts.push(pieces.len());
    cuts.dedup();
    // A panicked thread leaves its runs missing: a doubt like any other
    // (the caller parses whole).
    let runs: Vec<Option<Vec<Value>>> =
        crate::analysis::parallel::map_settled(threads, cuts.len() - 1, |k| parse_run(&pieces[cuts[k]..cuts[k + 1]]))
            .into_iter()
            .map(Option::flatten)
            .collect();
    let mut all = Vec::with_capacity(pieces.len());
    for run in runs {
        all.extend(run?);
    }
    Some(all)
}

/// Assemble the tree from the parsed pieces, taken in text order.
fn build(scan: &Scan<'_>, node: Node, values: &mut std::vec::IntoIter<Value>) -> Option<Value> {
    let Some((first, count)) = node.children else {
        return values.next();
    };
    let children = &scan.nodes[first..first + count];
    // A split container has children; an array's have no keys.
    if scan.keys.get(first).is_some_and(Option::is_none) {
        let mut items = Vec::with_capacity(count);
        for child in children {
            match build(scan, *child, values)? {
                // A stretch of an `events` array gives its elements.
                Value::Array(stretch) if child.run => items.extend(stretch),
                item => items.push(item),
            }
        }
        return Some(Value::Array(items));
    }
    let mut map = Map::new();
    for (k, child) in children.iter().enumerate() {
        let key = scan.keys[first + k].clone()?;
        // serde_json reads objects keyed by its private markers (arbitrary
        // precision numbers, raw values) specially: leave those to it.
        if map.is_empty() && key.starts_with("$serde_json::private::") {
            return None;
        }
        map.insert(key, build(scan, *child, values)?);
    }
    Some(Value::Object(map))
}

#[cfg(test)]
mod tests {
    use super::{parse, parse_on};
    use serde_json::Value;
    use std::sync::Mutex;

    fn same_as_from_slice(text: &str, split: usize) {
        let want: Value = serde_json::from_slice(text.as_bytes()).unwrap();
        for threads in [1, 2, 3] {
            let released = Mutex::new(Vec::new());
            let got = parse_on(
                text.as_bytes(),
                split,
                threads,
                &|_, _| {},
                &|s, e| released.lock().unwrap().push((s, e)),
                None,
            );
            if text.trim().len() < split {
                assert!(got.is_none(), "too small to split");
                return;
            }
            let got = got.expect("splits");
            assert_eq!(got, want, "{threads} threads");
            assert_eq!(got.to_string(), want.to_string(), "key order and numbers as written");
            let mut spans = released.into_inner().unwrap();
            spans.sort();
            assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "released spans do not overlap");
        }
    }

    #[test]
    fn split_documents_parse_to_the_same_value() {
        let doc = r#" {"format":"f","n":1.50,"big":-2e10,"t":true,"z":null,"s\"k":"v\\\"]}",
            "sessions":[{"turns":[{"events":[{"type":"message","text":"a ] } \" \\ [ {"},{"x":[1,2,[]],"y":{}}],"status":"completed"}]},
            {"turns":[]}, [], {}, "x", 12, false],
            "dup":1,"dup":2} "#;
        for split in [1, 2, 16, 64, 1 << 20] {
            if split < doc.len() {
                same_as_from_slice(doc, split);
            }
        }
    }

    #[test]
    fn bad_or_unsplittable_text_is_left_to_the_whole_parse() {
        let nothing = &|_: usize, _: usize| {};
        assert!(parse(br#"{"a":[1,2}"#, 1, &|_, _| {}, nothing, None).is_none(), "a syntax error");
        assert!(parse(br#"{"a":1} x"#, 1, &|_, _| {}, nothing, None).is_none(), "trailing text");
        assert!(parse(br#"{"a":1}"#, 1 << 20, &|_, _| {}, nothing, None).is_none(), "too small to split");
        assert!(parse(br#""just a string""#, 1, &|_, _| {}, nothing, None).is_none());
        assert!(parse(br#"{"a":[1,2]"#, 1, &|_, _| {}, nothing, None).is_none(), "unterminated");
        for threads in [1, 2, 3] {
            let bad_piece = br#"{"a":[1,2,tru],"b":[3,{"c":4}],"d":"e"}"#;
            assert!(
                parse_on(bad_piece, 1, threads, &|_, _| {}, nothing, None).is_none(),
                "a piece that does not parse"
            );
        }
        assert!(parse(br#"{"a" 1}"#, 1, &|_, _| {}, nothing, None).is_none(), "missing colon");
        assert!(parse(br#"{"a":[1,2],"b":"xyz\"#, 1, &|_, _| {}, nothing, None).is_none(), "cut inside an escape");
        assert!(parse(br#"{"a":"\"#, 1, &|_, _| {}, nothing, None).is_none(), "cut inside an escape");
        let marker = r#"{"$serde_json::private::Number":"12","pad":"xxxxxxxx"}"#;
        assert!(parse(marker.as_bytes(), 1, &|_, _| {}, nothing, None).is_none(), "serde_json's own marker keys");
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(deep.as_bytes(), 1, &|_, _| {}, nothing, None).is_none(), "too deep: the whole parse reports it");
    }

    #[test]
    fn random_documents_parse_to_the_same_value() {
        let mut random = crate::model::random_json::RandomJson::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..300 {
            let doc = format!("{{\"root\":{},\"more\":{}}}", random.document(), random.document());
            for split in [1, 8, 40] {
                same_as_from_slice(&doc, split);
            }
        }
    }
}
