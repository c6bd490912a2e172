//! Measurements behind `scripts/bench.sh` (see BENCHMARKS.md). Each mode
//! prints one `key=value` line on stdout so the script can tabulate it.
//!
//! ```text
//! bench load FILE          value-parse baseline, then load + derive, same bytes, same process
//! bench mem value|load FILE  one of the two alone (run under /usr/bin/time for peak RSS)
//! bench mem stages FILE      resident and peak memory after the load, after the derivation, after dropping each
//! bench frame EVENTS       median full-frame draw at 200x60 (TestBackend) with EVENTS events
//! bench keys EVENTS        slowest key press (update + draw) with EVENTS events
//!                          (BENCH_VERBOSE=1: every key on stderr, then rarer keys:
//!                          navigator scope moves, jumps, merge, search n/N)
//! bench search EVENTS      search keystroke (Enter) to first highlighted hit with EVENTS events
//! bench string MB          key presses (update + draw) with one MB-megabyte string selected,
//!                          against a 20 KB string, alternately in one process (ratio of medians)
//! ```

use niceeval::app::{Action, App, Intent, Panel, update};
use niceeval::model::usage::PriceTable;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn value_parse(path: &str) -> Duration {
    let t = Instant::now();
    let bytes = std::fs::read(path).expect("read");
    // One parse of the bytes, nothing else: asking `looks_like_jsonl` of a
    // one-line document would parse it whole a first time (an earlier
    // version of this baseline did, and so counted two parses).
    let jsonl = memchr::memchr_iter(b'\n', &bytes).take(2).count() > 1 && bytes.first() == Some(&b'{');
    let v: serde_json::Value = if jsonl {
        // The same bytes as a DOM: one Value per line.
        serde_json::Value::Array(
            bytes
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).expect("line"))
                .collect(),
        )
    } else {
        serde_json::from_slice(&bytes).expect("json")
    };
    let d = t.elapsed();
    drop(std::hint::black_box(v));
    d
}

fn load_derive(path: &str) -> (Duration, Duration, usize) {
    let t = Instant::now();
    let doc = niceeval::load::load_path(path).expect("load");
    let loaded = t.elapsed();
    let derived = niceeval::model::derive_document(&doc, None, &PriceTable::default());
    let d = t.elapsed();
    let events = doc
        .attempts
        .iter()
        .flat_map(|a| &a.sessions)
        .flat_map(|s| &s.turns)
        .map(|t| t.turn.events.len())
        .sum::<usize>();
    drop(std::hint::black_box((doc, derived)));
    (loaded, d, events)
}

/// A StreamEvent JSONL stream of `n` small events (tool calls, messages, thinking).
pub fn small_events(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n * 160);
    let mut i = 0;
    while i < n {
        let k = i / 4;
        let line = match i % 4 {
            0 => format!(
                r#"{{"type":"message","role":"assistant","text":"step {k}: reading the exporter and its tests"}}"#
            ),
            1 => format!(
                r#"{{"type":"operation.started","operationId":"op{k}","operation":{{"kind":"tool","name":"Read","tool":"file_read","input":{{"file_path":"src/f{k}.rs"}},"command":{{"kind":"not-command"}}}}}}"#
            ),
            2 => format!(
                r#"{{"type":"operation.finished","operationId":"op{k}","kind":"tool","status":"completed","output":"fn f{k}() {{}}\n"}}"#
            ),
            _ => format!(r#"{{"type":"thinking","text":"think {k}"}}"#),
        };
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        i += 1;
    }
    // A unique needle in the middle, for the search measurement.
    out
}

fn app_with(n: usize) -> (App, Duration) {
    let mut bytes = small_events(n);
    // Plant the search needle at about the middle of the stream.
    let mid = bytes.len() / 2;
    let nl = mid + bytes[mid..].iter().position(|b| *b == b'\n').unwrap_or(0) + 1;
    let needle = b"{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"the NEEDLE-42 is here\"}\n";
    bytes.splice(nl..nl, needle.iter().copied());
    let t = Instant::now();
    let doc = niceeval::load::load_bytes("bench.jsonl", &bytes).expect("load");
    let mut app = App::new(doc, None, PriceTable::default());
    let built = t.elapsed();
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 200, height: 60 });
    (app, built)
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(200, 60)).expect("terminal")
}

fn draw(term: &mut Terminal<TestBackend>, app: &App, cache: &Theme) -> Duration {
    let t = Instant::now();
    term.draw(|f| niceeval::runtime::term::draw(f, app, cache)).expect("draw");
    t.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn frame(n: usize) {
    let (mut app, built) = app_with(n);
    let mut term = terminal();
    let cache = Theme::new(ThemeName::Dark);
    draw(&mut term, &app, &cache);
    // Move the selection each frame so every frame has new content.
    let mut times = Vec::new();
    for i in 0..200 {
        update(&mut app, if (i / 20) % 2 == 0 { Intent::Down } else { Intent::Up });
        term.clear().expect("clear");
        times.push(draw(&mut term, &app, &cache));
    }
    println!("frame events={n} build_s={:.3} median_ms={:.3}", secs(built), secs(median(times)) * 1e3);
}

/// Frames of an `a`-event and a `b`-event stream drawn alternately in one
/// process, so the machine's noise falls on both alike; the ratio of medians.
fn frames_ratio(a: usize, b: usize) {
    let (mut small, _) = app_with(a);
    let (mut large, _) = app_with(b);
    let (mut term, cache) = (terminal(), Theme::new(ThemeName::Dark));
    draw(&mut term, &small, &cache);
    let (mut term_l, cache_l) = (terminal(), Theme::new(ThemeName::Dark));
    draw(&mut term_l, &large, &cache_l);
    let (mut ts, mut tl) = (Vec::new(), Vec::new());
    for i in 0..400 {
        let action = if (i / 20) % 2 == 0 { Intent::Down } else { Intent::Up };
        update(&mut small, action);
        update(&mut large, action);
        term.clear().expect("clear");
        ts.push(draw(&mut term, &small, &cache));
        term_l.clear().expect("clear");
        tl.push(draw(&mut term_l, &large, &cache_l));
    }
    let (ms, ml) = (secs(median(ts)) * 1e3, secs(median(tl)) * 1e3);
    println!("frames small={a} large={b} small_median_ms={ms:.3} large_median_ms={ml:.3} ratio={:.2}", ml / ms);
}

fn keys(n: usize) {
    let (mut app, _) = app_with(n);
    let mut term = terminal();
    let cache = Theme::new(ThemeName::Dark);
    draw(&mut term, &app, &cache);
    let actions: [Action; 28] = [
        Intent::Down.into(),
        Intent::PageDown.into(),
        Intent::HalfPageDown.into(),
        Intent::Bottom.into(),
        Intent::Up.into(),
        Intent::Top.into(),
        Intent::NextTurn.into(),
        Intent::PrevTurn.into(),
        Intent::NextFailure.into(),
        Intent::FocusNext.into(),
        Intent::FocusPrev.into(),
        Intent::ToggleRaw.into(),
        Intent::ToggleRaw.into(),
        Intent::ToggleMerge.into(),
        Intent::ToggleMerge.into(),
        Intent::ShowTab(Panel::Tools).into(),
        Intent::Down.into(),
        Intent::CycleFilter.into(),
        Intent::CycleSort.into(),
        Intent::ShowTab(Panel::Hitl).into(),
        Intent::ShowTab(Panel::Usage).into(),
        Intent::ShowTab(Panel::Diagnostics).into(),
        Intent::ShowTab(Panel::Timeline).into(),
        Intent::SearchStart.into(),
        Action::SearchChar('x'),
        Intent::SearchCancel.into(),
        Intent::Help.into(),
        Intent::Back.into(),
    ];
    let verbose = std::env::var_os("BENCH_VERBOSE").is_some();
    let mut press = |app: &mut App, a: Action| {
        let name = format!("{a:?}");
        let t = Instant::now();
        update(app, a);
        draw(&mut term, app, &cache);
        let d = t.elapsed();
        if verbose {
            eprintln!("key {name:<40} {:>9.3} ms", secs(d) * 1e3);
        }
        (d, name)
    };
    let mut worst = (Duration::ZERO, String::new());
    for a in actions {
        let (d, name) = press(&mut app, a);
        if d > worst.0 {
            worst = (d, name);
        }
    }
    println!("keys events={n} worst_ms={:.3} worst_key={}", secs(worst.0) * 1e3, worst.1.replace(' ', ""));
    if verbose {
        // Rarer keys, not part of worst_ms: scope moves in the navigator
        // (each rebuilds the scope's lists), jumps, merge, search n/N.
        let extra = [
            Intent::FocusPrev.into(),
            Intent::Down.into(),
            Intent::Down.into(),
            Intent::Up.into(),
            Intent::Top.into(),
            Intent::FocusNext.into(),
            Intent::ShowTab(Panel::Tools).into(),
            Intent::CycleSort.into(),
            Intent::CycleSort.into(),
            Intent::CycleFilter.into(),
            Intent::ShowTab(Panel::Timeline).into(),
            Intent::NextFailure.into(),
            Intent::PrevFailure.into(),
            Intent::NextWaiting.into(),
            Intent::NextFinding.into(),
            Intent::PrevFinding.into(),
            Intent::Bottom.into(),
            Intent::PrevTurn.into(),
            Intent::NextTurn.into(),
            Intent::ToggleMerge.into(),
            Intent::ToggleMerge.into(),
            Intent::SearchStart.into(),
            Action::SearchChar('s'),
            Action::SearchChar('t'),
            Action::SearchChar('e'),
            Action::SearchChar('p'),
            Intent::SearchCommit.into(),
        ];
        for a in extra {
            press(&mut app, a);
        }
        while app.search_pending() {
            niceeval::app::update(&mut app, niceeval::app::Action::SearchStep);
        }
        for a in [Intent::SearchNext, Intent::SearchNext, Intent::SearchPrev, Intent::Back] {
            press(&mut app, a.into());
        }
    }
}

fn search(n: usize) {
    let (mut app, _) = app_with(n);
    let mut term = terminal();
    let cache = Theme::new(ThemeName::Dark);
    draw(&mut term, &app, &cache);
    update(&mut app, Intent::SearchStart);
    for c in "needle-42".chars() {
        update(&mut app, Action::SearchChar(c));
        draw(&mut term, &app, &cache);
    }
    // The keystroke: Enter commits the query. Then run the event loop's idle
    // steps (as the terminal loop does) until the first hit is highlighted.
    let t = Instant::now();
    update(&mut app, Intent::SearchCommit);
    let mut longest_step = secs(t.elapsed());
    if std::env::var_os("BENCH_VERBOSE").is_some() {
        let to = app.search().scan.as_ref().map(|s| s.next).unwrap_or(app.visible().len());
        eprintln!("search commit rows 0..{to}: {:.3} ms", longest_step * 1e3);
    }
    // The two halves of a step: the scan and the draw after it.
    let mut longest_scan = longest_step;
    let mut longest_draw = secs(draw(&mut term, &app, &cache));
    let mut frames = 1;
    let verbose = std::env::var_os("BENCH_VERBOSE").is_some();
    while app.search_pending() && app.search().matches.is_empty() {
        let s = Instant::now();
        let from = app.search().scan.as_ref().map(|s| s.next).unwrap_or(0);
        niceeval::app::update(&mut app, niceeval::app::Action::SearchStep);
        let scan = secs(s.elapsed());
        if verbose {
            let to = app.search().scan.as_ref().map(|s| s.next).unwrap_or(app.visible().len());
            eprintln!("search step rows {from}..{to}: scan {:.3} ms", scan * 1e3);
        }
        longest_scan = longest_scan.max(scan);
        longest_draw = longest_draw.max(secs(draw(&mut term, &app, &cache)));
        longest_step = longest_step.max(secs(s.elapsed()));
        frames += 1;
    }
    let first = t.elapsed();
    let hit = app.selected_row().is_some_and(|r| app.search().matches.contains(&r));
    while app.search_pending() {
        let s = Instant::now();
        niceeval::app::update(&mut app, niceeval::app::Action::SearchStep);
        longest_scan = longest_scan.max(secs(s.elapsed()));
        longest_step = longest_step.max(secs(s.elapsed()));
    }
    let all = t.elapsed();
    println!(
        "search events={n} first_hit_ms={:.3} all_matches_ms={:.3} frames={frames} longest_step_ms={:.3} longest_scan_ms={:.3} longest_draw_ms={:.3} selected_hit={hit} matches={}",
        secs(first) * 1e3,
        secs(all) * 1e3,
        longest_step * 1e3,
        longest_scan * 1e3,
        longest_draw * 1e3,
        app.search().matches.len()
    );
}

/// `/WORD` Enter on a file as a user opens it (read in place, not parsed
/// into values): how long until the first match shows, and until all are found.
fn search_file(path: &str, word: &str) {
    let t = Instant::now();
    let doc = niceeval::load::load_path(path).expect("load");
    let mut app = App::new(doc, None, PriceTable::default());
    update(&mut app, Action::Resize { width: 200, height: 60 });
    let opened = t.elapsed();
    update(&mut app, Intent::SearchStart);
    for c in word.chars() {
        update(&mut app, Action::SearchChar(c));
    }
    let t = Instant::now();
    update(&mut app, Intent::SearchCommit);
    while app.search_pending() && app.search().matches.is_empty() {
        update(&mut app, Action::SearchStep);
    }
    let first = t.elapsed();
    while app.search_pending() {
        update(&mut app, Action::SearchStep);
    }
    println!(
        "search-file opened_s={:.3} first_match_s={:.3} all_s={:.3} matches={} rows={}",
        secs(opened),
        secs(first),
        secs(t.elapsed()),
        app.search().matches.len(),
        app.visible().len()
    );
}

/// One assistant message whose text is `bytes` long, with a control character
/// every thousand bytes so the sanitiser has work; the message row selected.
fn app_with_string(bytes: usize) -> App {
    let mut text = String::with_capacity(bytes + 200);
    text.push_str(r#"{"status":"completed","events":[{"type":"message","role":"assistant","text":""#);
    let start = text.len();
    while text.len() - start < bytes {
        text.push_str(&"abcdefghij".repeat(99));
        text.push_str("\\u001b[31");
    }
    text.push_str(r#""}]}"#);
    // From a file, as a user opens it: its events are then kept as their
    // text, read in place (bytes in memory are parsed into values instead).
    let path = std::env::temp_dir().join(format!("niceeval-bench-string-{}-{bytes}.json", std::process::id()));
    std::fs::write(&path, text.as_bytes()).expect("write the string file");
    let doc = niceeval::load::load_path(path.to_str().expect("a UTF-8 temp path")).expect("load");
    let _ = std::fs::remove_file(&path);
    let mut app = App::new(doc, None, PriceTable::default());
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 200, height: 60 });
    let view = app.view().expect("a view");
    let row =
        app.visible().iter().position(|&r| view.timeline.rows[r as usize].event() == Some(0)).expect("the message row");
    niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(row));
    app
}

/// The huge-string key press (update and draw) as a ratio: both apps take
/// the same keys in turn, so the machine's noise falls on both alike.
fn string_frames(mb: usize) {
    let mut small = app_with_string(20_000);
    let mut large = app_with_string(mb * 1_000_000);
    let (mut term, cache) = (terminal(), Theme::new(ThemeName::Dark));
    let (mut term_l, cache_l) = (terminal(), Theme::new(ThemeName::Dark));
    let press = |app: &mut App, term: &mut Terminal<TestBackend>, cache: &Theme, action| {
        let t = Instant::now();
        update(app, action);
        draw(term, app, cache);
        t.elapsed()
    };
    let (mut ts, mut tl) = (Vec::new(), Vec::new());
    for i in 0..20 {
        let action = if i % 2 == 0 { Intent::Up } else { Intent::Down };
        ts.push(press(&mut small, &mut term, &cache, action));
        tl.push(press(&mut large, &mut term_l, &cache_l, action));
    }
    let (ms, ml) = (secs(median(ts)) * 1e3, secs(median(tl)) * 1e3);
    println!("string mb={mb} small_median_ms={ms:.3} large_median_ms={ml:.3} ratio={:.1}", ml / ms);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    match a.as_slice() {
        ["load", path] => {
            let bytes = std::fs::metadata(path).expect("stat").len();
            // Small files take tens of milliseconds, where one run is mostly
            // the machine's noise: alternate the two measurements several
            // times and take the medians (one pair for 1 GB).
            let reps = (300_000_000 / bytes.max(1)).clamp(1, 9) as usize;
            let (mut vs, mut ls, mut ts) = (Vec::new(), Vec::new(), Vec::new());
            let mut events = 0;
            for _ in 0..reps {
                vs.push(value_parse(path));
                let (loaded, total, n) = load_derive(path);
                ls.push(loaded);
                ts.push(total);
                events = n;
            }
            let (v, loaded, total) = (median(vs), median(ls), median(ts));
            println!(
                "load bytes={bytes} events={events} reps={reps} value_s={:.3} load_s={:.3} load_derive_s={:.3} mbps={:.1} ratio={:.2}",
                secs(v),
                secs(loaded),
                secs(total),
                bytes as f64 / 1e6 / secs(total),
                secs(total) / secs(v)
            );
        }
        ["mem", "value", path] => drop(std::hint::black_box(value_parse(path))),
        ["mem", "load", path] => drop(std::hint::black_box(load_derive(path))),
        ["mem", "stages", path] => {
            let st = |what: &str| {
                let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
                let f = |k: &str| {
                    s.lines()
                        .find(|l| l.starts_with(k))
                        .unwrap_or("")
                        .split_whitespace()
                        .nth(1)
                        .unwrap_or("")
                        .to_string()
                };
                eprintln!(
                    "{what}: rss {} KB (heap and other anonymous {} KB, file pages {} KB) hwm {} KB",
                    f("VmRSS:"),
                    f("RssAnon:"),
                    f("RssFile:"),
                    f("VmHWM:")
                );
            };
            let doc = niceeval::load::load_path(path).expect("load");
            st("loaded");
            let derived = niceeval::model::derive_document(&doc, None, &PriceTable::default());
            st("derived");
            drop(std::hint::black_box(derived));
            st("derived dropped");
            drop(std::hint::black_box(doc));
            st("all dropped");
        }
        // Peak RSS of the load alone (no derivation), to tell the two apart.
        ["mem", "load-only", path] => drop(std::hint::black_box(niceeval::load::load_path(path).expect("load"))),
        ["frame", n] => frame(n.parse().expect("EVENTS")),
        ["frames", a, b] => frames_ratio(a.parse().expect("EVENTS"), b.parse().expect("EVENTS")),
        ["keys", n] => keys(n.parse().expect("EVENTS")),
        ["search", n] => search(n.parse().expect("EVENTS")),
        ["search-file", path, word] => search_file(path, word),
        ["string", mb] => string_frames(mb.parse().expect("MB")),
        _ => {
            eprintln!(
                "usage: bench load FILE | mem value|load|load-only|stages FILE | frame N | frames N M | keys N | search N | search-file FILE WORD | string MB"
            );
            std::process::exit(2);
        }
    }
}
