//! The README cannot drift from the program: its key table is the app's key
//! table, its screenshots exist, and its two commands are the real ones.

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

#[test]
fn key_table_matches_the_app() {
    let text = readme();
    let start = text.find("<!-- keys:start -->").expect("keys:start marker") + "<!-- keys:start -->".len();
    let end = text.find("<!-- keys:end -->").expect("keys:end marker");
    let in_readme = text[start..end].trim();
    let generated = niceeval::app::keymap::markdown_key_table();
    assert_eq!(in_readme, generated.trim(), "README key table is stale; replace it with:\n{generated}");
}

#[test]
fn every_screenshot_the_readme_names_exists() {
    let text = readme();
    let mut named = 0;
    for part in text.split("screenshots/").skip(1) {
        let name: String =
            part.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.').collect();
        if let Some(name) = name.strip_suffix('.').map(str::to_string).or(Some(name)).filter(|n| n.ends_with(".png")) {
            named += 1;
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots").join(&name);
            assert!(path.is_file(), "README names screenshots/{name}, which is missing");
        }
    }
    assert!(named >= 5, "README should show the screenshots ({named} found)");
}

#[test]
fn the_two_commands_are_in_the_readme_and_do_what_it_says() {
    let text = readme();
    assert!(
        text.contains("```sh\ncargo run --release -- view --demo\ncargo test\n```"),
        "the two commands, as one block"
    );
    // The demo opens (off a terminal the viewer prints what `show --all` prints) on the bundled session.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_niceeval")).args(["view", "--demo"]).output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "view --demo: {}", String::from_utf8_lossy(&out.stderr));
    assert!(shown.contains("assets/demo/session.json") && shown.contains("WAITING FOR INPUT"), "{shown:.600}");
    // CI runs the README's test command as it is written.
    let ci = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "cargo test"), ".ci/run does not run `cargo test`");
}

#[test]
fn docs_rules_is_the_rule_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let expected = niceeval::view::rules::markdown();
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    if actual != expected && std::env::var_os("NICEEVAL_WRITE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    assert_eq!(actual, expected, "docs/rules.md differs from the rule table; rerun with NICEEVAL_WRITE_DOCS=1");
}
