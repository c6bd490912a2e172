//! niceeval's hand-written JSON scanning against well-kept crates, side by
//! side in one process (issue 22; results in BENCHMARKS.md, "Hand-written
//! scanning vs crates").
//!
//! ```text
//! cargo run --release --manifest-path benches/scan/Cargo.toml -- DENSE.jsonl HEAVY.jsonl [--rounds 15] [--mb 32]
//! ```
//!
//! DENSE.jsonl: `generate --format jsonl-dense` (small events); HEAVY.jsonl:
//! `generate --format jsonl` (payload-heavy events, long escaped tool
//! outputs). The first `--mb` megabytes of lines of each are read into
//! memory once. Then, for each group, every method runs once per round over
//! all of the inputs, in an order rotated each round (one warm-up round
//! first, not counted); a table gives each method's median and fastest
//! round, MB/s at the median, and the median over rounds of its time / the
//! baseline's time in the same round (the baseline is niceeval's own code,
//! first row).
//!
//! Everything runs on one thread. The library's functions are used as they
//! are (`niceeval::model::json_scan`, `niceeval::load::parse::raw_check::raw_event_ok`,
//! `niceeval::load::parse::compact::from_slice`); serde_json has the features the
//! crate builds it with (preserve_order, arbitrary_precision, raw_value),
//! since Cargo unifies them. simd-json needs its input mutable, so its times
//! include copying each input into a reused buffer. A parse's time includes
//! dropping the value.

mod visitor;

use serde::de::IgnoredAny;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

/// Counts the bytes allocated while `COUNTING` is on (for the memory a
/// parsed value keeps); otherwise only forwards to the system allocator.
struct Counting;
static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        }
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        }
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

type Method<'a> = (&'static str, Box<dyn FnMut() -> u64 + 'a>);

struct Args {
    dense: String,
    heavy: String,
    rounds: usize,
    mb: usize,
}

fn args() -> Args {
    let mut a = Args { dense: String::new(), heavy: String::new(), rounds: 15, mb: 32 };
    let mut it = std::env::args().skip(1);
    let mut files = Vec::new();
    while let Some(k) = it.next() {
        match k.as_str() {
            "--rounds" => a.rounds = it.next().and_then(|v| v.parse().ok()).expect("--rounds N"),
            "--mb" => a.mb = it.next().and_then(|v| v.parse().ok()).expect("--mb N"),
            _ => files.push(k),
        }
    }
    assert!(files.len() == 2, "usage: scan-bench DENSE.jsonl HEAVY.jsonl [--rounds 15] [--mb 32]");
    a.heavy = files.pop().unwrap();
    a.dense = files.pop().unwrap();
    a
}

/// Lines (one event each) kept in one buffer, as a mapped file keeps them.
struct Lines {
    text: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Lines {
    fn read(path: &str, mb: usize) -> Lines {
        let all = std::fs::read(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let mut cut = all.len().min(mb * 1_000_000);
        if let Some(nl) = memchr::memchr(b'\n', &all[cut.min(all.len() - 1)..]) {
            cut = (cut + nl + 1).min(all.len());
        }
        let text = all[..cut].to_vec();
        let mut spans = Vec::new();
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', &text) {
            if nl > start {
                spans.push((start, nl));
            }
            start = nl + 1;
        }
        if start < text.len() {
            spans.push((start, text.len()));
        }
        Lines { text, spans }
    }
    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.spans.iter().map(|&(s, e)| &self.text[s..e])
    }
    fn bytes(&self) -> usize {
        self.spans.iter().map(|(s, e)| e - s).sum()
    }
}

/// The long strings of the payload-heavy events (512 bytes or more, as JSON
/// text with their escapes, exactly as serde_json wrote them into the file),
/// each followed by `,"next":1}` so that no scan can stop at the end of its
/// input; with where each starts and ends.
struct Strings {
    text: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

fn long_strings(lines: &Lines) -> Strings {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) if s.len() >= 512 => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for line in lines.iter() {
        walk(&serde_json::from_slice(line).expect("a heavy line"), &mut found);
    }
    let mut s = Strings { text: Vec::new(), spans: Vec::new() };
    for text in found {
        let start = s.text.len();
        serde_json::to_writer(&mut s.text, &text).unwrap();
        s.spans.push((start, s.text.len()));
        s.text.extend_from_slice(br#","next":1}"#);
    }
    s
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Runs every method once per round (order rotated), after a warm-up
/// round; prints a Markdown table. The first method is the baseline.
fn race(title: &str, bytes: usize, items: usize, rounds: usize, mut methods: Vec<Method<'_>>) {
    let n = methods.len();
    let mut times = vec![Vec::<Duration>::new(); n];
    let mut sums = vec![0u64; n];
    for round in 0..=rounds {
        for k in 0..n {
            let m = (k + round) % n;
            let t = Instant::now();
            let sum = black_box((methods[m].1)());
            let d = t.elapsed();
            if round > 0 {
                times[m].push(d);
            }
            sums[m] = sum;
        }
    }
    println!("#### {title}");
    println!();
    println!("{items} inputs, {:.1} MB, {rounds} rounds (+1 warm-up), one thread", bytes as f64 / 1e6);
    println!();
    println!(
        "| method | median ms | fastest ms | MB/s (median) | × baseline (median of per-round ratios) | accepted / result |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for m in 0..n {
        let ms: Vec<f64> = times[m].iter().map(|d| d.as_secs_f64() * 1e3).collect();
        let ratios: Vec<f64> = (0..rounds).map(|r| times[m][r].as_secs_f64() / times[0][r].as_secs_f64()).collect();
        let med = median(ms.clone());
        let fastest = ms.iter().cloned().fold(f64::INFINITY, f64::min);
        println!(
            "| {} | {:.2} | {:.2} | {:.0} | {:.2} | {} |",
            methods[m].0,
            med,
            fastest,
            bytes as f64 / 1e6 / (med / 1e3),
            median(ratios),
            sums[m]
        );
    }
    println!();
}

/// (a): skip or check one event, each method over every line.
fn skip_methods(lines: &Lines) -> Vec<Method<'_>> {
    use niceeval::model::json_scan::container_end;
    let mut methods: Vec<Method<'_>> = Vec::new();
    methods.push((
        "niceeval `container_end` + `raw_event_ok` (find the end, then check)",
        Box::new(move || {
            lines
                .iter()
                .filter(|l| container_end(l, 0) == Some(l.len()) && niceeval::load::parse::raw_check::raw_event_ok(l))
                .count() as u64
        }),
    ));
    methods.push((
        "serde_json with a visitor that checks what `raw_event_ok` checks (`visitor.rs`; finds the end too)",
        Box::new(move || lines.iter().filter(|l| visitor::raw_event_ok_serde(l)).count() as u64),
    ));
    methods.push((
        "niceeval `raw_event_ok` (check only)",
        Box::new(move || lines.iter().filter(|l| niceeval::load::parse::raw_check::raw_event_ok(l)).count() as u64),
    ));
    methods.push((
        "niceeval `container_end` (find the end only, no check)",
        Box::new(move || lines.iter().filter(|l| container_end(l, 0) == Some(l.len())).count() as u64),
    ));
    methods.push((
        "simdutf8 `from_utf8` only (part of every check)",
        Box::new(move || lines.iter().filter(|l| simdutf8::basic::from_utf8(l).is_ok()).count() as u64),
    ));
    methods.push((
        "serde_json `from_slice::<IgnoredAny>` (no UTF-8 check)",
        Box::new(move || lines.iter().filter(|l| serde_json::from_slice::<IgnoredAny>(l).is_ok()).count() as u64),
    ));
    methods.push((
        "serde_json `from_slice::<IgnoredAny>` + simdutf8",
        Box::new(move || {
            lines
                .iter()
                .filter(|l| simdutf8::basic::from_utf8(l).is_ok() && serde_json::from_slice::<IgnoredAny>(l).is_ok())
                .count() as u64
        }),
    ));
    methods.push((
        "serde_json `from_slice::<&RawValue>`",
        Box::new(move || {
            lines.iter().filter(|l| serde_json::from_slice::<&serde_json::value::RawValue>(l).is_ok()).count() as u64
        }),
    ));
    methods.push((
        "sonic-rs `from_slice::<IgnoredAny>`",
        Box::new(move || lines.iter().filter(|l| sonic_rs::from_slice::<IgnoredAny>(l).is_ok()).count() as u64),
    ));
    methods.push((
        "sonic-rs `get_from_slice(_, &[])` (whole value, checked)",
        Box::new(move || {
            lines
                .iter()
                .filter(|l| sonic_rs::get_from_slice(l, &[] as &[&str]).is_ok_and(|v| v.as_raw_str().len() == l.len()))
                .count() as u64
        }),
    ));
    methods.push((
        "sonic-rs `get_from_slice_unchecked(_, &[])` (no check)",
        Box::new(move || {
            lines
                .iter()
                // SAFETY: the inputs are valid JSON (every checked method accepts them all).
                .filter(|l| {
                    unsafe { sonic_rs::get_from_slice_unchecked(l, &[] as &[&str]) }
                        .is_ok_and(|v| v.as_raw_str().len() == l.len())
                })
                .count() as u64
        }),
    ));
    let mut buf = Vec::new();
    let mut buffers = simd_json::Buffers::default();
    methods.push((
        "simd-json `to_tape_with_buffers` (copy + tape)",
        Box::new(move || {
            let mut ok = 0;
            for l in lines.iter() {
                buf.clear();
                buf.extend_from_slice(l);
                ok += u64::from(simd_json::to_tape_with_buffers(&mut buf, &mut buffers).is_ok());
            }
            ok
        }),
    ));
    methods
}

/// (a'): the same methods on events that are not JSON (or that the lazy
/// path may not keep raw): which ones reject each.
fn rejects() {
    let cases: [(&str, &[u8]); 12] = [
        ("escaped key", br#"{"ty\u0070e":"message"}"#),
        ("marker key", br#"{"$serde_json::private::Number":"1"}"#),
        ("surrogate pair (valid)", br#"{"type":"message","text":"\ud83d\ude00 ok"}"#),
        ("bad escape `\\x`", br#"{"type":"message","text":"a\xb"}"#),
        ("control character in a string", b"{\"type\":\"message\",\"text\":\"a\tb\"}"),
        ("invalid UTF-8", b"{\"type\":\"message\",\"text\":\"a\xff\"}"),
        ("unpaired surrogate `\\ud800`", br#"{"type":"message","text":"\ud800"}"#),
        ("number `01`", br#"{"type":"message","n":01}"#),
        ("trailing comma", br#"{"type":"message","text":"a",}"#),
        ("unterminated", br#"{"type":"message","text":"a"#),
        ("text after the value", br#"{"type":"message"} x"#),
        ("duplicate key (valid JSON; not kept raw)", br#"{"type":"message","type":"thinking"}"#),
    ];
    type Check = (&'static str, fn(&[u8]) -> bool);
    let checks: [Check; 8] = [
        ("niceeval `raw_event_ok`", |l| niceeval::load::parse::raw_check::raw_event_ok(l)),
        ("serde_json checking visitor", visitor::raw_event_ok_serde),
        ("serde_json `IgnoredAny`", |l| serde_json::from_slice::<IgnoredAny>(l).is_ok()),
        ("serde_json `&RawValue`", |l| serde_json::from_slice::<&serde_json::value::RawValue>(l).is_ok()),
        ("sonic-rs `IgnoredAny`", |l| sonic_rs::from_slice::<IgnoredAny>(l).is_ok()),
        ("sonic-rs `get_from_slice`", |l| sonic_rs::get_from_slice(l, &[] as &[&str]).is_ok()),
        ("simd-json tape", |l| simd_json::to_tape(&mut l.to_vec()).is_ok()),
        ("serde_json `Value` (reference)", |l| serde_json::from_slice::<serde_json::Value>(l).is_ok()),
    ];
    println!("#### Which methods accept (✓) or reject (✗) which inputs");
    println!();
    println!(
        "The last column is serde_json's `Value` parse, what JSON allows; a raw event must also have distinct keys, none escaped, none of serde_json's marker keys."
    );
    println!();
    print!("| input |");
    for (name, _) in &checks {
        print!(" {name} |");
    }
    println!();
    println!("|---|{}", "---|".repeat(checks.len()));
    for (what, text) in cases {
        print!("| {what} |");
        for (_, check) in &checks {
            print!(" {} |", if check(text) { "✓" } else { "✗" });
        }
        println!();
    }
    println!();
}

/// (b): where each long string ends.
fn string_methods(s: &Strings) -> Vec<Method<'_>> {
    use niceeval::model::json_scan::{string_end, valid_string_end};
    fn memchr2_end(b: &[u8], i: usize) -> Option<usize> {
        let mut j = i + 1;
        loop {
            j += memchr::memchr2(b'"', b'\\', &b[j..])?;
            if b[j] == b'"' {
                return Some(j + 1);
            }
            j += 2;
        }
    }
    let run = move |f: fn(&[u8], usize) -> Option<usize>| -> u64 {
        s.spans.iter().map(|&(start, _)| f(&s.text, start).unwrap_or(0) as u64).sum()
    };
    vec![
        ("niceeval `json_scan::string_end` (no check)", Box::new(move || run(string_end))),
        (
            "niceeval `json_scan::valid_string_end` (escapes, control characters)",
            Box::new(move || run(valid_string_end)),
        ),
        ("`memchr::memchr2` loop over quotes and backslashes (no check)", Box::new(move || run(memchr2_end))),
        (
            "serde_json `IgnoredAny` from the quote (escapes, control characters)",
            Box::new(move || {
                run(|b, i| {
                    let mut it = serde_json::Deserializer::from_slice(&b[i..]).into_iter::<IgnoredAny>();
                    it.next()?.ok()?;
                    Some(i + it.byte_offset())
                })
            }),
        ),
        (
            "sonic-rs `get_from_slice_unchecked` from the quote (no check)",
            Box::new(move || {
                run(|b, i| {
                    // SAFETY: the strings are valid JSON text.
                    let v = unsafe { sonic_rs::get_from_slice_unchecked(&b[i..], &[] as &[&str]) }.ok()?;
                    Some(i + v.as_raw_str().len())
                })
            }),
        ),
        (
            "sonic-rs `get_from_slice` from the quote (escapes, control characters, UTF-8)",
            Box::new(move || {
                run(|b, i| {
                    let v = sonic_rs::get_from_slice(&b[i..], &[] as &[&str]).ok()?;
                    Some(i + v.as_raw_str().len())
                })
            }),
        ),
    ]
}

/// (c): parse each input into a value (and drop it).
fn parse_methods(lines: &Lines) -> Vec<Method<'_>> {
    let mut buf = Vec::new();
    let mut buffers = simd_json::Buffers::default();
    vec![
        (
            "niceeval `load::parse::compact::from_slice` → serde_json `Value`",
            Box::new(move || lines.iter().map(|l| niceeval::load::parse::compact::from_slice(l).map_or(0, weight)).sum()),
        ),
        (
            "serde_json `from_slice::<Value>`",
            Box::new(move || lines.iter().map(|l| serde_json::from_slice(l).map_or(0, weight)).sum()),
        ),
        (
            "simd-json `owned::to_value_with_buffers` (copy + parse) → `OwnedValue`",
            Box::new(move || {
                lines
                    .iter()
                    .map(|l| {
                        buf.clear();
                        buf.extend_from_slice(l);
                        simd_json::owned::to_value_with_buffers(&mut buf, &mut buffers).map_or(0, |v| {
                            use simd_json::prelude::*;
                            v.as_object().map_or(1, |o| o.len() as u64)
                        })
                    })
                    .sum()
            }),
        ),
        (
            "sonic-rs `from_slice::<sonic_rs::Value>`",
            Box::new(move || {
                lines
                    .iter()
                    .map(|l| {
                        sonic_rs::from_slice::<sonic_rs::Value>(l).map_or(0, |v| {
                            use sonic_rs::JsonContainerTrait;
                            v.as_object().map_or(1, |o| o.len() as u64)
                        })
                    })
                    .sum()
            }),
        ),
    ]
}

/// (c'): the heap a parsed value keeps, every input parsed and kept.
fn kept(title: &str, lines: &Lines) {
    fn measure<T>(lines: &Lines, mut parse: impl FnMut(&[u8]) -> T) -> isize {
        let mut all: Vec<T> = Vec::with_capacity(lines.spans.len());
        LIVE.store(0, Ordering::Relaxed);
        COUNTING.store(true, Ordering::Relaxed);
        for l in lines.iter() {
            all.push(parse(l));
        }
        let live = LIVE.load(Ordering::Relaxed);
        COUNTING.store(false, Ordering::Relaxed);
        drop(black_box(all));
        live
    }
    let bytes = lines.bytes() as f64;
    let mut buf = Vec::new();
    let rows: [(&str, isize); 4] = [
        (
            "niceeval `load::parse::compact::from_slice` → serde_json `Value`",
            measure(lines, |l| niceeval::load::parse::compact::from_slice(l).unwrap()),
        ),
        (
            "serde_json `from_slice::<Value>`",
            measure(lines, |l| serde_json::from_slice::<serde_json::Value>(l).unwrap()),
        ),
        (
            "simd-json `OwnedValue`",
            measure(lines, |l| {
                buf.clear();
                buf.extend_from_slice(l);
                simd_json::to_owned_value(&mut buf).unwrap()
            }),
        ),
        ("sonic-rs `Value`", measure(lines, |l| sonic_rs::from_slice::<sonic_rs::Value>(l).unwrap())),
    ];
    println!("#### {title}");
    println!();
    println!(
        "Heap kept by the values of all {} inputs ({:.1} MB of text), counted by a global allocator; the Vec holding them is not counted.",
        lines.spans.len(),
        bytes / 1e6
    );
    println!();
    println!("| value | heap kept MB | × text | × compact |");
    println!("|---|---:|---:|---:|");
    for (name, live) in rows {
        println!(
            "| {name} | {:.1} | {:.2} | {:.2} |",
            live as f64 / 1e6,
            live as f64 / bytes,
            live as f64 / rows[0].1 as f64
        );
    }
    println!();
}

fn weight(v: serde_json::Value) -> u64 {
    v.as_object().map_or(1, |o| o.len() as u64)
}

fn main() {
    let a = args();
    let dense = Lines::read(&a.dense, a.mb);
    let heavy = Lines::read(&a.heavy, a.mb);
    let strings = long_strings(&heavy);
    let string_bytes: usize = strings.spans.iter().map(|(s, e)| e - s).sum();

    // Every method must give the same answers before it is timed.
    for lines in [&dense, &heavy] {
        for l in lines.iter() {
            assert!(niceeval::load::parse::raw_check::raw_event_ok(l), "raw_event_ok: {}", String::from_utf8_lossy(l));
            assert!(sonic_rs::from_slice::<IgnoredAny>(l).is_ok());
            assert!(simd_json::to_tape(&mut l.to_vec()).is_ok());
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            assert_eq!(niceeval::load::parse::compact::from_slice(l).unwrap(), v);
        }
    }
    for m in string_methods(&strings).iter_mut() {
        let want: u64 = strings.spans.iter().map(|&(_, e)| e as u64).sum();
        assert_eq!((m.1)(), want, "{}", m.0);
    }

    println!(
        "niceeval scan benchmark: dense {} ({} events, {:.1} MB), heavy {} ({} events, {:.1} MB; {} strings of 512 B or more, {:.1} MB)",
        a.dense,
        dense.spans.len(),
        dense.bytes() as f64 / 1e6,
        a.heavy,
        heavy.spans.len(),
        heavy.bytes() as f64 / 1e6,
        strings.spans.len(),
        string_bytes as f64 / 1e6
    );
    println!();
    let r = a.rounds;
    race("(a) skip / check each event — event-dense", dense.bytes(), dense.spans.len(), r, skip_methods(&dense));
    race("(a) skip / check each event — payload-heavy", heavy.bytes(), heavy.spans.len(), r, skip_methods(&heavy));
    rejects();
    race(
        "(b) where a long string ends — payload-heavy strings",
        string_bytes,
        strings.spans.len(),
        r,
        string_methods(&strings),
    );
    race("(c) parse each event into a value — event-dense", dense.bytes(), dense.spans.len(), r, parse_methods(&dense));
    race(
        "(c) parse each event into a value — payload-heavy",
        heavy.bytes(),
        heavy.spans.len(),
        r,
        parse_methods(&heavy),
    );
    kept("(c) memory kept by the parsed values — event-dense", &dense);
    kept("(c) memory kept by the parsed values — payload-heavy", &heavy);
}
