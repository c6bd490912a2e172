//! Missing is not zero, and one name for one thing, in the usage figures
//! every surface words (issue 38 item 6): negative counts are marked, a
//! reasoning count above output is not called "inside output", the cache
//! write bucket has one name, and finding counts read the same everywhere.

use std::process::Command;

fn show(args: &[&str], body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("niceeval-usage-words-{}-{}", std::process::id(), args.join("_")));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("turn.json");
    std::fs::write(&file, body).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_niceeval"))
        .arg("show")
        .arg(&file)
        .args(args)
        .args(["--width", "200"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    String::from_utf8(out.stdout).unwrap()
}

const NEGATIVE: &str = r#"{"status":"completed","events":[{"type":"message","role":"assistant","text":"hi"}],
  "usage":{"inputTokens":-40,"outputTokens":10,"reasoningTokens":25,"cacheCreationTokens":5}}"#;

#[test]
fn a_negative_token_count_is_marked_where_the_sum_is_shown() {
    let text = show(&[], NEGATIVE);
    assert!(text.contains("-30 tokens"), "{text}");
    assert!(text.contains("includes negative token counts the file reports"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&show(&["--json"], NEGATIVE)).unwrap();
    assert_eq!(json["attempts"][0]["tokens"].as_f64(), Some(-30.0));
}

#[test]
fn reasoning_above_output_is_not_said_to_be_inside_output() {
    let text = show(&["--usage", "--model", "claude-sonnet-4-5"], NEGATIVE);
    assert!(text.contains("reasoning (25) exceeds output (10)"), "{text}");
    assert!(!text.contains("reasoning tokens are inside output"), "{text}");
    let fine = NEGATIVE.replace("\"reasoningTokens\":25", "\"reasoningTokens\":4").replace("-40", "40");
    let text = show(&["--usage", "--model", "claude-sonnet-4-5"], &fine);
    assert!(text.contains("reasoning tokens are inside output"), "{text}");
    assert!(!text.contains("negative"), "{text}");
}

#[test]
fn the_cache_write_bucket_has_one_name_and_tokens_missing_says_why_once() {
    let text = show(&[], NEGATIVE);
    assert!(text.contains("cache write 5"), "{text}");
    assert!(!text.contains("cache creation"), "{text}");
    let none = r#"{"status":"completed","events":[]}"#;
    let text = show(&[], none);
    assert!(text.contains("— (no input or output token counts reported)"), "{text}");
    assert!(!text.contains("— tokens (no input"), "{text}");
}

#[test]
fn finding_counts_read_errors_then_warnings() {
    let text = show(&["--diagnostics"], NEGATIVE);
    let line = text.lines().find(|l| l.contains("Diagnostics")).unwrap();
    assert!(line.contains("2 errors · 0 warnings"), "{line}");
}
