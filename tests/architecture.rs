//! The architecture the README states, checked on the source: `model` is
//! pure, `view` depends on `model` only, `app` does not import `ui`, and the
//! two renderers (`src/ui`, `src/plain`) decide no word, number or mark: a
//! string literal there that holds a word, a status mark, a `$` or a number
//! format is a decision the view should make (and the other surface would
//! then make differently).

use std::path::{Path, PathBuf};

/// The folders a layer's code lives in: the core's layers are in the
/// `niceeval-core` crate, the rest in this one.
const SOURCE_ROOTS: [&str; 2] = ["src", "crates/niceeval-core/src"];

fn sources(dir: &str) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(d).unwrap().flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for root in SOURCE_ROOTS {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        let p = root.join(dir);
        if p.is_dir() {
            walk(&p, &mut out);
        }
        let file = root.join(format!("{dir}.rs"));
        if file.is_file() {
            out.push(file);
        }
    }
    // A layer that moved and was not found would pass every check here.
    assert!(!out.is_empty(), "no source files for the layer `{dir}` under {SOURCE_ROOTS:?}");
    out
}

/// The code of a file without its unit tests (`#[cfg(test)]` to the end),
/// without `_tests.rs` files, and without comments.
fn code(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs")) {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("//") { "" } else { l }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// String literals of some Rust code, with the line they start on.
fn literals(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        match chars[i] {
            '\n' => line += 1,
            // A char literal ('"', '\'') or a lifetime: skip it whole.
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 2,
            '\'' if chars.get(i + 1) == Some(&'\\') => {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
            }
            // A panic message is for a developer, not a decision about what a user reads.
            '"' if chars[i.saturating_sub(40)..i].iter().collect::<String>().trim_end().ends_with("expect(") => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '"' => {
                let start = line;
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                out.push((start, s));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Why a literal in a renderer is a decision, if it is one.
fn decision(s: &str) -> Option<&'static str> {
    // Names a renderer passes to a library, not words a user reads.
    const NOT_WORDS: [&str; 3] = ["base16-ocean.dark", "InspiredGitHub", "json"];
    if NOT_WORDS.contains(&s) {
        return None;
    }
    // Format placeholders ({label:<10}, {}) are layout, not words.
    let mut bare = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => bare.push(c),
            _ => {}
        }
    }
    let mut run = 0;
    for c in bare.chars() {
        run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return Some("a word");
        }
    }
    if bare.chars().any(|c| "✓✗⊘⏸⚑▲‼⁇◆".contains(c)) {
        return Some("a status mark");
    }
    if bare.contains('$') {
        return Some("a $ amount");
    }
    // `{:.2}` or `{:>4}` formats a number; `{label:<10}` only pads a word.
    if s.contains(":.") || s.contains("{:>") {
        return Some("a number format");
    }
    None
}

#[test]
fn the_renderers_decide_no_word_number_or_mark() {
    let mut found = Vec::new();
    let mut files = 0;
    for dir in ["ui", "plain", "screen", "styled"] {
        for path in sources(dir) {
            files += 1;
            for (line, s) in literals(&code(&path)) {
                if let Some(why) = decision(&s) {
                    let rel = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&path).display().to_string();
                    found.push(format!("{rel}:{line}: {why} in {s:?}"));
                }
            }
        }
    }
    assert!(files >= 10, "only {files} renderer files found");
    assert!(found.is_empty(), "decisions written in a renderer (they belong in src/view):\n{}", found.join("\n"));
}

/// `crate::X` paths a layer uses outside its unit tests.
fn imports(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in sources(dir) {
        let code = code(&path);
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.push((path.display().to_string(), name));
        }
    }
    out
}

#[test]
fn dependencies_point_one_way() {
    for (layer, forbidden) in [
        ("model", &["load", "view", "analysis", "ui", "plain", "app", "cli", "runtime"][..]),
        ("load", &["view", "ui", "plain", "app", "cli", "runtime"][..]),
        ("view", &["load", "analysis", "ui", "plain", "app", "cli", "runtime"][..]),
        ("analysis", &["load", "ui", "plain", "app", "cli", "runtime"][..]),
        ("plain", &["load", "ui", "app", "cli", "runtime"][..]),
        ("ui", &["load", "plain", "cli", "runtime", "app", "analysis"][..]),
        ("screen", &["load", "ui", "plain", "cli", "runtime", "analysis"][..]),
        ("styled", &["load", "ui", "plain", "cli", "runtime", "app", "screen", "analysis"][..]),
        ("app", &["ui", "plain", "cli", "runtime", "screen"][..]),
        ("runtime", &["cli"][..]),
    ] {
        let bad: Vec<String> = imports(layer)
            .into_iter()
            .filter(|(_, name)| forbidden.contains(&name.as_str()))
            .map(|(file, name)| format!("{file} uses crate::{name}"))
            .collect();
        assert!(bad.is_empty(), "{layer} must not depend on these:\n{}", bad.join("\n"));
    }
}

#[test]
fn the_literal_scanner_sees_words_marks_and_formats() {
    let found: Vec<String> = literals(
        r#"let a = "ok"; let b = format!("{n} more lines"); let c = '"'; let d = "✓"; let e = format!("{:.2}", x);"#,
    )
    .into_iter()
    .filter_map(|(_, s)| decision(&s).map(|w| format!("{w}: {s}")))
    .collect();
    assert_eq!(found, ["a word: {n} more lines", "a status mark: ✓", "a number format: {:.2}"]);
}

/// The core crates are built without the terminal and CLI crates: the
/// compiler then keeps `ratatui`, `crossterm`, `clap` and `notify` out of them.
#[test]
fn the_core_crates_do_not_depend_on_the_terminal_or_the_cli() {
    for krate in ["niceeval-core", "niceeval-json", "niceeval-text"] {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates").join(krate).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        let deps: Vec<&str> = text
            .lines()
            .skip_while(|l| l.trim() != "[dependencies]")
            .skip(1)
            .take_while(|l| !l.starts_with('['))
            .filter_map(|l| l.split(['=', '.']).next().map(str::trim))
            .filter(|name| !name.is_empty())
            .collect();
        assert!(!deps.is_empty(), "{krate}: dependencies not read: {deps:?}");
        for banned in ["ratatui", "crossterm", "clap", "notify", "syntect"] {
            assert!(!deps.contains(&banned), "{krate} depends on {banned}");
        }
    }
}

/// Derivation is the core's one place with threads and a clock, and the
/// core writes nothing to stderr: `load` takes its threads from
/// `analysis::parallel` and nothing else of `analysis`.
#[test]
fn threads_and_the_clock_live_in_the_analysis_module_only() {
    let mut found = Vec::new();
    let mut files = 0;
    for layer in ["model", "load", "view"] {
        for path in sources(layer) {
            files += 1;
            let code = code(&path);
            for banned in ["std::thread", "thread::scope", "thread::spawn", "Instant", "eprintln!", "SystemTime::now"] {
                if code.contains(banned) {
                    found.push(format!("{}: {banned}", path.display()));
                }
            }
            if layer == "load" {
                for (at, _) in code.match_indices("crate::analysis::") {
                    if !code[at..].starts_with("crate::analysis::parallel::") {
                        found.push(format!("{}: uses analysis beyond its parallel module", path.display()));
                    }
                }
            }
        }
    }
    assert!(files > 100, "only {files} core files read");
    assert!(
        found.is_empty(),
        "threads, clock or stderr outside crates/niceeval-core/src/analysis:\n{}",
        found.join("\n")
    );
}

/// The module a source file is, as a path from its crate root
/// (`crates/niceeval-core/src/view/compare/split.rs` is `view::compare::split`).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The modules a file's code names (`crate::a::b`, `super::c`, `use super::{d, e::f}`), as absolute paths
/// (`super` is the module above this one's, whether it is a file or a `mod.rs`).
fn named_modules(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let path_of = |s: &str| -> Vec<String> {
        let text: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
        text.split("::").take_while(|seg| !seg.is_empty()).map(str::to_string).collect()
    };
    let mut out = Vec::new();
    for (prefix, up) in [("crate::", None), ("super::super::", Some(2)), ("super::", Some(1))] {
        for (at, _) in code.match_indices(prefix) {
            if up == Some(1) && (code[..at].ends_with("super::") || code[at + 7..].starts_with("super::")) {
                continue;
            }
            let start = match up {
                None => Vec::new(),
                Some(n) => here[..here.len().saturating_sub(n)].to_vec(),
            };
            let rest = &code[at + prefix.len()..];
            let heads: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group[..group.find('}').unwrap_or(group.len())].split(',').map(str::trim).collect(),
                None => vec![rest],
            };
            for head in heads {
                let mut path = start.clone();
                path.extend(path_of(head));
                out.push(path);
            }
        }
    }
    out
}

/// No two files reach each other through imports, directly or round a
/// longer circle (a file may use its own parent module, which declares it).
#[test]
fn no_import_circles() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = ["src", "crates/niceeval-core/src", "crates/niceeval-json/src", "crates/niceeval-text/src"];
    let (mut cycles, mut imports_read) = (Vec::new(), 0);
    for root in roots {
        let root = manifest.join(root);
        let mut files = Vec::new();
        fn walk(d: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") && !p.to_string_lossy().ends_with("_tests.rs") {
                    out.push(p);
                }
            }
        }
        walk(&root, &mut files);
        let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(&root, f)).collect();
        let index: std::collections::HashMap<&[String], usize> =
            modules.iter().enumerate().map(|(i, m)| (m.as_slice(), i)).collect();
        let mut edges: Vec<std::collections::BTreeSet<usize>> = vec![Default::default(); files.len()];
        for (i, file) in files.iter().enumerate() {
            for named in named_modules(&code(file), &modules[i]) {
                // The longest prefix that is a file of this crate.
                let target = (1..=named.len()).rev().find_map(|n| index.get(&named[..n]).copied());
                if let Some(t) = target
                    && t != i
                    && !modules[i].starts_with(&modules[t])
                {
                    edges[i].insert(t);
                }
            }
        }
        // Strongly connected components (Tarjan, iterative enough for a few hundred files).
        let n = files.len();
        let (mut index_of, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
        let (mut stack, mut next) = (Vec::new(), 0);
        fn connect(
            v: usize,
            edges: &[std::collections::BTreeSet<usize>],
            state: (&mut Vec<usize>, &mut Vec<usize>, &mut Vec<bool>, &mut Vec<usize>, &mut usize),
            out: &mut Vec<Vec<usize>>,
        ) {
            let (index_of, low, on_stack, stack, next) = state;
            index_of[v] = *next;
            low[v] = *next;
            *next += 1;
            stack.push(v);
            on_stack[v] = true;
            for &w in &edges[v] {
                if index_of[w] == usize::MAX {
                    connect(w, edges, (index_of, low, on_stack, stack, next), out);
                    low[v] = low[v].min(low[w]);
                } else if on_stack[w] {
                    low[v] = low[v].min(index_of[w]);
                }
            }
            if low[v] == index_of[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    out.push(component);
                }
            }
        }
        let mut components = Vec::new();
        for v in 0..n {
            if index_of[v] == usize::MAX {
                connect(v, &edges, (&mut index_of, &mut low, &mut on_stack, &mut stack, &mut next), &mut components);
            }
        }
        for c in components {
            let names: Vec<String> =
                c.iter().map(|&i| files[i].strip_prefix(manifest).unwrap().display().to_string()).collect();
            cycles.push(names.join(" ↔ "));
        }
        imports_read += edges.iter().map(|e| e.len()).sum::<usize>();
    }
    assert!(imports_read > 500, "only {imports_read} imports between files read");
    assert!(cycles.is_empty(), "import circles:\n{}", cycles.join("\n"));
}

#[test]
fn the_import_reader_resolves_crate_and_super_paths() {
    let here = ["view".to_string(), "compare".to_string(), "split".to_string()];
    let named = named_modules(
        "use super::{tools::diff, Cv};\nuse crate::model::text::width;\nsuper::super::chrome::x()",
        &here,
    );
    let named: Vec<String> = named.iter().map(|p| p.join("::")).collect();
    assert_eq!(named, ["model::text::width", "view::chrome::x", "view::compare::tools::diff", "view::compare::Cv"]);
}

/// `app` is UI state and its update: its keys and rectangles are its own,
/// and the terminal libraries stay in `ui` and `runtime`.
#[test]
fn app_imports_no_terminal_library() {
    let found: Vec<String> = sources("app")
        .iter()
        .filter(|p| ["ratatui", "crossterm"].iter().any(|lib| code(p).contains(&format!("{lib}::"))))
        .map(|p| p.display().to_string())
        .collect();
    assert!(found.is_empty(), "app uses ratatui or crossterm:\n{}", found.join("\n"));
}

/// `ui` draws the screen model and nothing else: it reads no state, no
/// document and no view but the tones its theme maps.
#[test]
fn ui_imports_only_the_screen_model_the_text_types_and_the_theme() {
    const ALLOWED: [&str; 6] = ["screen::", "styled::", "ui::", "view::Tone", "view::text::Lane", "model::sgr::"];
    let mut found = Vec::new();
    for path in sources("ui") {
        let code = code(&path);
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + 7..];
            if !ALLOWED.iter().any(|a| rest.starts_with(a)) {
                let shown: String = rest.chars().take_while(|c| !c.is_whitespace() && *c != ';').collect();
                found.push(format!("{}: crate::{shown}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "ui imports more than the screen model, text types and theme:\n{}", found.join("\n"));
}

/// State changes in one place, `app::update`: the terminal loop, the CLI,
/// the sources and the screen model send actions; none of them assigns to
/// the app's state or takes from it.
#[test]
fn only_update_changes_the_apps_state() {
    let mut found = Vec::new();
    for layer in ["runtime", "cli", "screen", "ui"] {
        for path in sources(layer) {
            for (n, line) in code(&path).lines().enumerate() {
                let Some(at) = line.find("app.") else { continue };
                let rest = &line[at + 4..];
                let field_end =
                    rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
                let after = rest[field_end..].trim_start();
                let assigns = after.starts_with('=') && !after.starts_with("==");
                let takes = line.contains("&mut app.");
                if assigns || takes {
                    found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "state changed outside app::update:\n{}", found.join("\n"));
}

/// Every key a text names comes from the key table (`view::keys`): no
/// literal in the view, the app or the screen model spells a key's name,
/// but the table's own list of names.
#[test]
fn texts_take_key_names_from_the_table() {
    const NAMES: [&str; 10] = ["Enter", "Esc", "Tab", "PgDn", "PgUp", "Ctrl-", "Space", "j/k", "h/l", "d/D"];
    // A tab named by its number ("(tab 5)").
    let names_a_tab =
        |s: &str| s.match_indices("tab ").any(|(at, _)| s[at + 4..].starts_with(|c: char| c.is_ascii_digit()));
    let mut found = Vec::new();
    for layer in ["view", "app", "screen"] {
        for path in sources(layer) {
            if path.ends_with("view/keys.rs") {
                continue;
            }
            for (line, s) in literals(&code(&path)) {
                let words: Vec<&str> = s.split(|c: char| !(c.is_alphanumeric() || "-/".contains(c))).collect();
                if let Some(name) =
                    NAMES.iter().find(|n| words.iter().any(|w| w == *n || (n.ends_with('-') && w.starts_with(*n))))
                {
                    found.push(format!("{}:{line}: {name} in {s:?}", path.display()));
                } else if names_a_tab(&s) {
                    found.push(format!("{}:{line}: a tab's number in {s:?}", path.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "key names written by hand (take them from view::keys):\n{}", found.join("\n"));
}

/// Facts are typed, not read back from words: no code outside tests looks
/// for words in prose (a message, a reason, a note, a why, a misfit's
/// words) to decide something. Input data (ids, types, codes) is read as
/// NiceEval reads it; that is not prose.
#[test]
fn no_fact_is_decided_by_looking_for_words_in_a_message() {
    const PROSE: [&str; 9] = ["message", "reason", "words", "text", "why", "misfit", "detail", "note", "flash"];
    // serde_json says a nesting limit or a raw control character only in its
    // message (it has no error kind for them): load/error.rs words them better.
    const LIBRARY_MESSAGES: [&str; 3] = [
        "detail.starts_with(\"recursion limit exceeded\")",
        "detail.starts_with(\"control character\")",
        // The position serde_json appends, which the error gives as numbers too.
        "detail.split(\" at line \")",
    ];
    let mut found = Vec::new();
    for layer in ["model", "load", "view", "analysis", "app", "screen", "styled", "ui", "plain", "runtime", "cli"] {
        for path in sources(layer) {
            if path.ends_with("tests.rs") {
                continue;
            }
            for (n, line) in code(&path).lines().enumerate() {
                let markers = [
                    ".contains(\"",
                    ".starts_with(\"",
                    ".ends_with(\"",
                    ".strip_suffix(",
                    ".strip_prefix(",
                    ".trim_end_matches(\"",
                    ".trim_start_matches(\"",
                    ".split(\"",
                ];
                for m in markers {
                    for (at, _) in line.match_indices(m) {
                        let receiver: String =
                            line[..at].chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        let receiver: String = receiver.chars().rev().collect();
                        let prose = PROSE.iter().any(|p| receiver == *p || receiver.ends_with(&format!("_{p}")));
                        let allowed =
                            path.ends_with("load/error.rs") && LIBRARY_MESSAGES.iter().any(|l| line.contains(l));
                        if prose && !allowed {
                            found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "prose searched for words to decide a fact:\n{}", found.join("\n"));
}

/// The environment is read in one place (`runtime/settings.rs`), once.
#[test]
fn the_environment_is_read_in_one_place() {
    let mut found = Vec::new();
    for layer in ["model", "load", "view", "analysis", "app", "ui", "plain", "cli", "runtime"] {
        for path in sources(layer) {
            if path.ends_with("runtime/settings.rs") {
                continue;
            }
            let code = code(&path);
            if ["env::var(", "env::var_os(", "env::vars("].iter().any(|read| code.contains(read)) {
                found.push(path.display().to_string());
            }
        }
    }
    assert!(found.is_empty(), "environment read outside runtime/settings.rs:\n{}", found.join("\n"));
}
