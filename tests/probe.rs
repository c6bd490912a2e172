//! What a hostile probe found (issue 17): each test here failed before its
//! fix. Inputs are made in a temp dir, except the grapheme fixture in
//! tests/fixtures/probe.

mod common;

use common::{bin, fixture};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("niceeval-probe-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(bin()).args(args).env("NO_COLOR", "1").output().unwrap();
    done(out)
}

fn done(out: Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Wait for `child` at most `limit`; a child still running then is killed
/// and the test fails (the bug was a hang).
fn wait_at_most(mut child: Child, limit: Duration, what: &str) -> Run {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return done(child.wait_with_output().unwrap());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("{what}: still running after {limit:?}; stderr: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const TWO_EVENTS: &str = "{\"type\":\"message\",\"role\":\"user\",\"text\":\"first line here\"}\n{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"second line here\"}\n";

// 1. Boxed layout on grapheme clusters.

#[test]
fn boxed_layout_survives_emoji_zwj_sequences_at_every_width() {
    let path = fixture("probe").join("grapheme-clusters.json");
    let path = path.to_str().unwrap();
    for width in ["20", "59", "60", "61", "64", "72", "80", "99", "100", "120"] {
        for section in ["--tools", "--all", "--timeline", "--usage"] {
            let r = run(&["show", "--boxed", section, "--width", width, path]);
            assert_eq!(r.code, 0, "show --boxed {section} --width {width}: {}", r.stderr);
            let w: usize = width.parse().unwrap();
            let box_w = w.min(100);
            for line in r.stdout.lines() {
                let lw = niceeval::model::text::width(line);
                if w >= 60 && (line.starts_with('│') || line.starts_with('╭') || line.starts_with('╰')) {
                    assert_eq!(lw, box_w, "--width {width} {section}: a box line is {lw} wide: {line:?}");
                } else {
                    assert!(lw <= w, "--width {width} {section}: line is {lw} wide: {line:?}");
                }
            }
        }
    }
}

// 2. Unbounded stdin.

#[test]
fn endless_zeros_on_stdin_are_refused_as_binary_at_once() {
    for command in ["show", "check", "view", "derive"] {
        let mut child = Command::new(bin())
            .args([command, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let zeros = vec![0u8; 1 << 16];
            // Until the reader goes away (a broken pipe ends this loop).
            while stdin.write_all(&zeros).is_ok() {}
        });
        let r = wait_at_most(child, common::HANG_LIMIT, &format!("{command} - on /dev/zero"));
        writer.join().unwrap();
        assert_eq!(r.code, 2, "{command}: {}", r.stderr);
        assert!(r.stderr.contains("binary"), "{command}: {}", r.stderr);
    }
}

#[test]
fn a_text_stream_that_does_not_end_is_an_error() {
    let mut child = Command::new(bin())
        .args(["show", "-"])
        .env("NICEEVAL_MAX_STREAM", "2000000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = "{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"again\"}\n".repeat(1000);
        while stdin.write_all(line.as_bytes()).is_ok() {}
    });
    let r = wait_at_most(child, common::HANG_LIMIT, "show - on an endless stream");
    writer.join().unwrap();
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("stdin") && r.stderr.contains("2.0 MB"), "{}", r.stderr);
}

// 3. FIFOs and pipes given as paths.

#[cfg(unix)]
#[test]
fn pipes_and_fifos_given_as_paths_are_read_as_streams() {
    let dir = TempDir::new("fifo");
    let file = dir.write("s.jsonl", TWO_EVENTS.as_bytes());
    // `show <(cat f)`
    let out =
        Command::new("bash").arg("-c").arg(format!("'{}' show <(cat '{file}')", bin().display())).output().unwrap();
    let r = done(out);
    assert_eq!(r.code, 0, "show <(cat f): {}", r.stderr);
    assert!(r.stdout.contains("second line here"), "{}", r.stdout);
    // `cat f | check /dev/stdin`
    let out =
        Command::new(bin()).args(["check", "/dev/stdin"]).stdin(std::fs::File::open(&file).unwrap()).output().unwrap();
    let r = done(out);
    assert!(r.stdout.contains("2 events"), "check /dev/stdin: {} {}", r.stdout, r.stderr);
    // A FIFO with a writer.
    let fifo = dir.0.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let f2 = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(&f2).unwrap();
        w.write_all(TWO_EVENTS.as_bytes()).unwrap();
    });
    let child = Command::new(bin())
        .args(["show", fifo.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let r = wait_at_most(child, common::HANG_LIMIT, "show FIFO");
    writer.join().unwrap();
    assert_eq!(r.code, 0, "show FIFO: {}", r.stderr);
    assert!(r.stdout.contains("second line here"), "{}", r.stdout);
}

#[cfg(unix)]
#[test]
fn dev_urandom_as_a_path_is_refused_as_binary() {
    let child =
        Command::new(bin()).args(["show", "/dev/urandom"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let r = wait_at_most(child.unwrap(), common::HANG_LIMIT, "show /dev/urandom");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("/dev/urandom") && r.stderr.contains("binary"), "{}", r.stderr);
}

// 4. Lossy input.

#[test]
fn skipped_jsonl_lines_are_check_errors_with_their_position() {
    let dir = TempDir::new("skipped");
    let (first, second) = TWO_EVENTS.split_once('\n').unwrap();
    let text = format!("{first}\nnot json at all\n{second}");
    let path = dir.write("skip.jsonl", text.as_bytes());
    let r = run(&["check", &path]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("input-line-skipped"), "{}", r.stdout);
    assert!(r.stdout.contains("skip.jsonl:2:"), "no position: {}", r.stdout);
    let r = run(&["check", "--format", "json", &path]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let f = v["findings"].as_array().unwrap().iter().find(|f| f["code"] == "input-line-skipped").unwrap();
    assert_eq!(f["severity"], "error");
    assert_eq!(f["line"], 2, "{f}");
    let r = run(&["derive", &path]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("skip.jsonl:2:") && r.stderr.contains("skipped"), "derive is silent: {}", r.stderr);
    let r = run(&["show", &path]);
    assert!(r.stderr.contains("skip.jsonl:2:"), "{}", r.stderr);
}

#[test]
fn replaced_text_is_a_check_warning_with_its_position() {
    let dir = TempDir::new("replaced");
    let path = dir.write(
        "bad.json",
        b"{\"status\":\"completed\",\"events\":[{\"type\":\"message\",\"role\":\"user\",\n\"text\":\"bad \xff byte \\ud800 x\"}]}",
    );
    let r = run(&["check", &path]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("input-text-replaced"), "{}", r.stdout);
    assert!(r.stdout.contains("bad.json:2:13"), "invalid UTF-8 position: {}", r.stdout);
    assert!(r.stdout.contains("bad.json:2:20"), "surrogate position: {}", r.stdout);
    let r = run(&["check", "--deny-warnings", &path]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let r = run(&["derive", &path]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("bad.json:2:13") && r.stderr.contains("U+FFFD"), "derive is silent: {}", r.stderr);
    let r = run(&["show", &path]);
    assert!(r.stderr.contains("U+FFFD"), "{}", r.stderr);
}

// 6. Absurd numbers.

fn capture_with_usage(usage: &str) -> String {
    format!(
        r#"{{"model":"claude-sonnet-4-5","sessions":[{{"turns":[{{"turn":{{"status":"completed","events":[{{"type":"message","role":"assistant","text":"x"}}],"usage":{usage}}}}},{{"turn":{{"status":"completed","events":[],"usage":{usage}}}}}]}}]}}"#
    )
}

#[test]
fn tokens_beyond_2_53_and_sums_that_overflow_are_findings() {
    let dir = TempDir::new("numbers");
    let huge = dir
        .write("huge.json", capture_with_usage(r#"{"inputTokens":1e308,"outputTokens":9007199254740993}"#).as_bytes());
    let r = run(&["check", "--format", "json", &huge]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let codes: Vec<&str> = v["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert!(codes.contains(&"usage-too-large"), "{codes:?}");
    assert!(codes.contains(&"usage-sum-overflow"), "{codes:?}");
    // Just below 2^53 and finite: clean.
    let fine =
        dir.write("fine.json", capture_with_usage(r#"{"inputTokens":4503599627370495,"outputTokens":1}"#).as_bytes());
    let r = run(&["check", &fine]);
    assert!(!r.stdout.contains("usage-too-large") && !r.stdout.contains("usage-sum-overflow"), "{}", r.stdout);
}

#[test]
fn derive_refuses_to_print_an_infinite_estimate_as_null() {
    let dir = TempDir::new("inf");
    let huge = dir.write("huge.json", capture_with_usage(r#"{"inputTokens":1e308,"outputTokens":1e308}"#).as_bytes());
    let r = run(&["derive", &huge]);
    assert_eq!(r.code, 2, "stdout: {}", r.stdout);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(r.stderr.contains("huge.json") && r.stderr.contains("not a finite number"), "{}", r.stderr);
}

/// `show --json` is the view as data: an infinite sum (or input + output
/// past 1.8e308) is not printed as `null`, which would say "not reported"
/// while `show` says "∞ tokens".
#[test]
fn show_json_refuses_to_print_an_infinite_number_as_null() {
    let dir = TempDir::new("inf-json");
    for (name, usage) in
        [("sum.json", r#"{"inputTokens":1.7e308}"#), ("tokens.json", r#"{"inputTokens":1e308,"outputTokens":1e308}"#)]
    {
        let huge = dir.write(name, capture_with_usage(usage).as_bytes());
        let r = run(&["show", "--json", &huge]);
        assert_eq!(r.code, 2, "{name}: stdout: {}", r.stdout);
        assert!(r.stdout.is_empty(), "{name}: {}", r.stdout);
        assert!(r.stderr.contains(name) && r.stderr.contains("not a finite number"), "{name}: {}", r.stderr);
    }
    let one = dir.write("one.json", br#"{"status":"completed","events":[],"usage":{"inputTokens":1e308}}"#);
    let r = run(&["show", "--json", &one]);
    assert_eq!(r.code, 0, "a finite 1e308 is a number: {}", r.stderr);
}

#[test]
fn prices_must_be_finite_and_not_negative() {
    let dir = TempDir::new("prices");
    let turn =
        dir.write("u.json", br#"{"status":"completed","events":[],"usage":{"inputTokens":100,"outputTokens":10}}"#);
    for (name, table, words) in [
        ("neg.json", r#"{"m":{"inputPerMTok":-5,"outputPerMTok":1}}"#, "inputPerMTok"),
        ("inf.json", r#"{"m":{"inputPerMTok":1,"outputPerMTok":1e999}}"#, "outputPerMTok"),
        ("cat.json", r#"{"prices":{"m":{"in":1,"out":2,"cacheRead":-0.5}}}"#, "cacheRead"),
        ("catinf.json", r#"{"prices":{"m":{"in":1e400,"out":2}}}"#, "\"in\""),
    ] {
        let prices = dir.write(name, table.as_bytes());
        for command in ["show", "derive"] {
            let r = run(&[command, "--model", "m", "--prices", &prices, &turn]);
            assert_eq!(r.code, 2, "{command} --prices {name}: {} {}", r.stdout, r.stderr);
            assert!(
                r.stderr.contains(name) && r.stderr.contains(words) && r.stderr.contains("\"m\""),
                "{command} {name}: {}",
                r.stderr
            );
        }
    }
}

// 7. The smaller ones.

#[test]
fn one_nul_line_in_jsonl_skips_that_line_only() {
    let dir = TempDir::new("nul");
    let (first, second) = TWO_EVENTS.split_once('\n').unwrap();
    let text = format!("{first}\n\0\0\0\n{second}");
    let path = dir.write("nul.jsonl", text.as_bytes());
    let r = run(&["show", &path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("first line here") && r.stdout.contains("second line here"), "{}", r.stdout);
    assert!(r.stderr.contains("nul.jsonl:2:"), "{}", r.stderr);
    // A file that starts with NUL is still binary.
    let bin_path = dir.write("zeros.jsonl", &[0u8; 100]);
    let r = run(&["show", &bin_path]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("binary"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn non_utf8_file_names_are_opened() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("names");
    let name = std::ffi::OsStr::from_bytes(b"n\xffame.jsonl");
    let path = dir.0.join(name);
    std::fs::write(&path, TWO_EVENTS).unwrap();
    for command in ["show", "check", "derive"] {
        let out = Command::new(bin()).arg(command).arg(&path).output().unwrap();
        let r = done(out);
        assert_eq!(r.code, 0, "{command}: {}", r.stderr);
        assert!(r.stdout.contains("second line here") || command != "show", "{}", r.stdout);
    }
    let out = Command::new(bin()).arg("show").arg(dir.0.join(std::ffi::OsStr::from_bytes(b"gone\xfe.json"))).output();
    let r = done(out.unwrap());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("gone") && r.stderr.contains("no such file"), "{}", r.stderr);
}

#[test]
fn width_is_bounded() {
    let dir = TempDir::new("width");
    let path = dir.write("s.jsonl", TWO_EVENTS.as_bytes());
    let started = Instant::now();
    let r = run(&["show", "--width", "5000", &path]);
    assert_eq!(r.code, 2, "{}", &r.stdout[..r.stdout.len().min(200)]);
    assert!(r.stderr.contains("--width"), "{}", r.stderr);
    let r = run(&["show", "--width", "4294967296", &path]);
    assert_eq!(r.code, 2);
    assert!(started.elapsed() < common::HANG_LIMIT);
    let r = run(&["show", "--width", "1000", &path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn record_symlinks_that_lead_outside_the_record_are_not_followed() {
    let dir = TempDir::new("symlinks");
    let src = fixture("record").join("project");
    let project = dir.0.join("project");
    common::copy_dir(&src, &project);
    let attempt = project.join(
        ".niceeval/record/runs/11111111-1111-4111-8111-111111111111/attempts/aaaaaaaa-0000-4000-8000-000000000002",
    );
    let payload = attempt.join("attachments/niceeval.assertions/payload.json");
    let outside = dir.0.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let text = std::fs::read_to_string(&payload).unwrap().replace("answer is polite", "OUTSIDE-SECRET-LABEL");
    std::fs::write(outside.join("payload.json"), text).unwrap();
    std::fs::remove_file(&payload).unwrap();
    std::os::unix::fs::symlink(outside.join("payload.json"), &payload).unwrap();
    // A symlink that stays inside the Record is followed.
    let inside = attempt.join("attempt.json");
    let moved = attempt.join("attempt.real.json");
    std::fs::rename(&inside, &moved).unwrap();
    std::os::unix::fs::symlink("attempt.real.json", &inside).unwrap();
    let r = run(&["show", "--assertions", project.to_str().unwrap()]);
    assert!(!r.stdout.contains("OUTSIDE-SECRET-LABEL"), "followed a symlink out of the Record:\n{}", r.stdout);
    assert!(r.stderr.contains("outside the Record"), "{}", r.stderr);
    assert!(r.stdout.contains("judge"), "the attempt whose attempt.json is an inside symlink is gone:\n{}", r.stdout);
}

#[test]
fn copying_a_huge_value_is_capped_and_says_so() {
    use niceeval::app::{App, Effect, Intent, update};
    let text = "y".repeat(3 << 20);
    let turn =
        format!(r#"{{"status":"completed","events":[{{"type":"message","role":"assistant","text":"{text}"}}]}}"#);
    let doc = niceeval::load::load_bytes("big.json", turn.as_bytes()).unwrap();
    let mut app = App::new(doc, None, niceeval::model::usage::builtin_prices());
    update(&mut app, Intent::Bottom);
    let effects = update(&mut app, Intent::Copy);
    let copied = effects.iter().find_map(|e| match e {
        Effect::Copy(t) => Some(t.len()),
        _ => None,
    });
    let copied = copied.expect("a copy effect");
    assert!(copied < text.len(), "all {copied} bytes were sent over OSC 52");
    let flash = app.flash_text().unwrap_or_default();
    assert!(flash.contains("first") && flash.contains("$PAGER"), "{flash}");
}

// 8. `show --full` on one huge string.

#[cfg(target_os = "linux")]
#[test]
fn show_full_on_one_huge_string_streams() {
    let dir = TempDir::new("full");
    let size = 8 << 20;
    let text = "word ".repeat(size / 5);
    // A tool's output: `--full` prints it whole (a message's timeline summary
    // is a preview, cut at 4096 characters, so it would measure nothing).
    let turn = format!(
        r#"{{"status":"completed","events":[{{"type":"operation.started","operationId":"c","operation":{{"kind":"tool","name":"Bash","input":{{"command":"cat big"}}}}}},{{"type":"operation.finished","operationId":"c","kind":"tool","status":"completed","output":"{text}"}}]}}"#
    );
    let path = dir.write("big.json", turn.as_bytes());
    for section in ["--tools", "--all"] {
        let out = dir.0.join(format!("out{section}.txt"));
        let mut child = Command::new(bin())
            .args(["show", "--full", "--boxed", section, &path])
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // VmHWM, the peak of the process's own memory since its exec (its
        // rusage would also count the test process it was spawned from).
        let status = format!("/proc/{}/status", child.id());
        let mut peak_kb = 0u64;
        let code = loop {
            if let Some(kb) = std::fs::read_to_string(&status).ok().and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
            }) {
                peak_kb = peak_kb.max(kb);
            }
            if let Some(code) = child.try_wait().unwrap() {
                break code;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        assert!(code.success(), "show --full {section} failed");
        let printed = std::fs::read_to_string(&out).unwrap();
        let words = printed.matches("word").count();
        // (`--all` also prints the timeline's preview of it.)
        assert!(words >= size / 5, "show --full {section} printed {words} of the {} words", size / 5);
        let peak_mb = peak_kb as f64 / 1024.0;
        let string_mb = size as f64 / 1048576.0;
        common::report(&format!("show --full {section} on one {string_mb:.0} MB string: peak {peak_mb:.0} MB"));
        assert!(peak_kb > 0, "no memory reading");
        assert!(peak_mb < 5.0 * string_mb + 40.0, "peak {peak_mb:.0} MB for a {string_mb:.0} MB string");
    }
}
