//! One truth: every surface states the same facts. For every sample under
//! ../shared/samples and the bundled demo, the viewer (drawn into a
//! TestBackend), `show`'s text and `show --json` must agree on the verdict
//! or status, counts, tokens, observed and estimated cost, model and turn
//! addresses; `check`, `show` and the viewer must print the same `N:i` for
//! the same finding; and on a real Record NiceEval wrote, our facts must
//! equal NiceEval's own `show --json` page for every attempt.

mod common;
#[path = "one_truth/evidence.rs"]
mod evidence;
#[path = "one_truth/findings.rs"]
mod findings;
#[path = "one_truth/words.rs"]
mod words;

use niceeval::app::{App, Focus, Scope};
use niceeval::model::usage::builtin_prices;
use niceeval::ui::{Theme, ThemeName};
use niceeval::view::format::{count, number, usd};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("record.json").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "json" || x == "jsonl" || x == "ndjson") {
            out.push(p);
        }
    }
}

/// Every sample, and the bundled demo (a session and a Record).
fn samples() -> Vec<PathBuf> {
    let mut items = vec![
        PathBuf::from("assets/demo/session.json"),
        PathBuf::from("assets/demo/record"),
        PathBuf::from("tests/fixtures/record-counting"),
    ];
    if let Some(shared) = common::shared_dir() {
        walk(&shared.join("samples"), &mut items);
    }
    items
}

fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    niceeval::app::update(app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(ThemeName::Mono);
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h).map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string()).collect()
}

/// The middle panel of a screen line (the timeline or a list).
fn middle(line: &str) -> &str {
    line.split('│').nth(3).unwrap_or("")
}

/// What the JSON says a header must read, as the view formats it.
fn header_facts(a: &Value) -> Vec<String> {
    let num = |k: &str| a[k].as_f64();
    let headline = a["headline"].as_str().unwrap_or("").to_string();
    // A waiting status with waiting requests is said once on the header line: by the requests.
    let waiting = a["waiting"].as_u64().unwrap_or(0);
    let said = if headline == "⏸ waiting (status)" && waiting > 0 {
        format!("⏸ WAITING FOR INPUT ({waiting})")
    } else {
        headline
    };
    let mut facts = vec![said];
    facts.push(match (num("tokens"), num("partialTokens")) {
        (Some(t), _) => format!("{} tokens", number(t)),
        (None, Some(p)) => format!("— tokens · partial {}", number(p)),
        (None, None) => "— tokens".into(),
    });
    facts.push(format!("cost {}", num("observedCostUSD").map(usd).unwrap_or_else(|| "—".into())));
    facts.push(format!("est {}", num("estimatedCostUSD").map(usd).unwrap_or_else(|| "—".into())));
    let c = &a["counts"];
    let n = |k: &str| c[k].as_u64().unwrap_or(0) as usize;
    facts.push(if c.is_null() {
        "— (events not recorded)".into()
    } else {
        format!(
            "{} · {} · {} · {}",
            count(n("sessions"), "session", "sessions"),
            count(n("turns"), "turn", "turns"),
            count(n("events"), "event", "events"),
            count(n("toolCalls"), "tool call", "tool calls")
        )
    });
    // The header counts the notices the inspector and `--json` list.
    let notices = a["notices"].as_array().map_or(0, Vec::len);
    if notices > 0 {
        facts.push(format!("! {}", count(notices, "notice", "notices")));
    }
    facts
}

#[test]
fn the_viewer_show_and_show_json_state_the_same_facts() {
    let prices = builtin_prices();
    let (mut files, mut attempts, mut rows_compared, mut whole_text_only) = (0, 0, 0, 0);
    for path in samples() {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        if doc.attempts.is_empty() {
            continue;
        }
        files += 1;
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let plain = niceeval::plain::render_all(
            &doc,
            &views,
            &findings,
            &niceeval::plain::PlainOptions { width: 400, ..Default::default() },
        );
        let several = doc.attempts.len() > 1;
        let mut app = App::new(doc.clone(), None, prices.clone());
        for (i, a) in json["attempts"].as_array().unwrap().iter().enumerate().take(40) {
            attempts += 1;
            let what = format!("{} attempt {i}", path.display());
            // `show`'s text of this attempt alone (by its locator), so a fact
            // cannot be found in another attempt's text.
            let plain = match (several, a["locator"].as_str()) {
                (true, Some(l)) => {
                    let sel = niceeval::plain::Selection { locator: Some(l.to_string()), ..Default::default() };
                    let opts = niceeval::plain::PlainOptions { width: 400, ..Default::default() };
                    niceeval::plain::render(&doc, &views, &findings, &niceeval::plain::SectionKind::ALL, &sel, &opts)
                        .text
                }
                (true, None) => {
                    whole_text_only += 1;
                    plain.clone()
                }
                (false, _) => plain.clone(),
            };
            niceeval::app::update(
                &mut app,
                niceeval::app::Action::Scope(Scope { attempt: i, session: None, turn: None }),
            );
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            niceeval::app::update(&mut app, niceeval::app::Intent::ShowTab(niceeval::app::Panel::Timeline));
            let rows: usize =
                a["turns"].as_array().unwrap().iter().map(|t| t["rows"].as_array().unwrap().len() + 1).sum();
            let height = (rows + 8).clamp(24, 4000) as u16;
            let s = screen(&mut app, 400, height);
            for fact in header_facts(a) {
                assert!(s[1].contains(&fact), "{what}: the viewer's header lacks {fact:?}:\n{}", s[1]);
                if fact.starts_with("! ") && fact.contains(" notice") {
                    // `show` lists the notices themselves.
                    for n in a["notices"].as_array().into_iter().flatten() {
                        let n = n.as_str().unwrap_or("");
                        assert!(plain.contains(n), "{what}: show lacks the notice {n:?}");
                    }
                    continue;
                }
                // `show` says a missing token figure under its "tokens" label, with why.
                let partial = a["partialTokens"].as_f64().map(|p| format!("partial sum {} tokens", number(p)));
                let in_show = match (fact.as_str(), &partial, a["tokensNoValue"].as_str()) {
                    ("— tokens", None, None) => "— (no input or output token counts reported)",
                    (f, Some(p), _) if f.starts_with("— tokens") => p,
                    (f, None, Some(_)) if f.starts_with("— tokens") => "— (NiceEval has no value:",
                    (f, _, _) => f.trim_start_matches("cost ").trim_start_matches("est "),
                };
                assert!(plain.contains(in_show), "{what}: show lacks {in_show:?}");
            }
            // `show`'s turns row counts the turns `show --json` lists, status by status.
            let json_turns = a["turns"].as_array().unwrap();
            let mut by_status: Vec<(String, usize)> = Vec::new();
            for t in json_turns {
                let words = match (t["statusMark"].as_str(), t["status"].as_str()) {
                    (Some(mark), Some(st)) => format!("{mark} {st}"),
                    (None, Some(st)) => format!("? {}", niceeval::view::clean(st)),
                    _ => "— no status".into(),
                };
                match by_status.iter_mut().find(|(w, _)| *w == words) {
                    Some((_, n)) => *n += 1,
                    None => by_status.push((words, 1)),
                }
            }
            let lead = format!("{}: ", count(json_turns.len(), "turn", "turns"));
            let row_agrees = |row: &str| {
                row.trim_start().strip_prefix("turns ").is_some_and(|r| r.trim_start().starts_with(&lead))
                    && by_status
                        .iter()
                        .map(|(w, n)| format!("{} {w}", number(*n as f64)))
                        .all(|said| row.contains(&format!(": {said}")) || row.contains(&format!("· {said}")))
            };
            assert!(
                json_turns.is_empty() || plain.lines().any(row_agrees),
                "{what}: show's turns row does not count {by_status:?} of {}",
                json_turns.len()
            );
            // Turn addresses: every row `show --json` lists, in the viewer's order.
            let json_rows: Vec<String> = a["turns"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|t| {
                    let head = format!("turn {}", t["turn"]);
                    std::iter::once(head)
                        .chain(t["rows"].as_array().unwrap().iter().map(|r| r["at"].as_str().unwrap().to_string()))
                })
                .collect();
            // Below the header (3 lines), the tabs and the panels' top border.
            let screen_rows: Vec<String> = s[5..]
                .iter()
                .map(|l| middle(l).trim())
                .filter(|m| !m.is_empty() && !m.starts_with("Timeline"))
                .map(|m| {
                    let m = m.trim_start_matches("▌ ");
                    if m.starts_with("turn ") {
                        m.split("  ").next().unwrap_or("").split(" · ").next().unwrap_or("").to_string()
                    } else {
                        m.split_whitespace().next().unwrap_or("").to_string()
                    }
                })
                .collect();
            let screen_rows: Vec<String> = screen_rows.into_iter().take(json_rows.len()).collect();
            assert_eq!(screen_rows.len(), json_rows.len(), "{what}: rows on screen\n{screen_rows:?}\n{json_rows:?}");
            for (on_screen, in_json) in screen_rows.iter().zip(&json_rows) {
                // A long position is cut with `…` in its column.
                let same = match on_screen.strip_suffix('…') {
                    Some(head) => in_json.starts_with(head),
                    None => on_screen == in_json,
                };
                assert!(same, "{what}: the viewer says {on_screen}, show --json {in_json}");
            }
            rows_compared += json_rows.len();
            // The model, as the viewer's attempt summary states it.
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::Nav));
            let s = screen(&mut app, 400, 60);
            let model = a["model"].as_str().map(niceeval::view::clean).unwrap_or_else(|| "—".into());
            assert!(s.iter().any(|l| l.contains("model") && l.contains(&model)), "{what}: model {model}");
            // The duration, NiceEval's (the eval.run intervals) where the file records its timing.
            let duration = a["durationMs"].as_f64().map(niceeval::view::format::duration_ms).unwrap_or("—".into());
            assert!(
                s.iter().any(|l| l.contains(&format!("duration    {duration}"))),
                "{what}: the inspector's duration is not {duration}:\n{}",
                s.join("\n")
            );
            assert!(plain.contains(&format!("model      {model}")), "{what}: show's model {model}");
        }
    }
    common::report(&format!(
        "one truth: {files} files, {attempts} attempts ({whole_text_only} without a locator checked against the whole text), {rows_compared} timeline rows agree"
    ));
    assert!(files >= 3);
}

/// NiceEval's usage observations summed the way its page states them.
fn page_usage(page: &Value) -> serde_json::Map<String, Value> {
    let obs = &page["data"]["observability"]["entries"][0]["detail"]["usage"]["observations"];
    let mut sums: std::collections::BTreeMap<&str, f64> = std::collections::BTreeMap::new();
    for o in obs.as_array().into_iter().flatten() {
        let key = match (o["kind"].as_str(), o["bucket"].as_str()) {
            (Some("token-bucket"), Some("input")) => "inputTokens",
            (Some("token-bucket"), Some("output")) => "outputTokens",
            (Some("token-bucket"), Some("cache-read")) => "cacheReadTokens",
            (Some("token-bucket"), Some("cache-write")) => "cacheCreationTokens",
            (Some("token-bucket"), Some("reasoning")) => "reasoningTokens",
            (Some("request"), _) => "requests",
            (Some("provider-cost"), _) => "costUSD",
            _ => continue,
        };
        let x = match key {
            "requests" => 1.0,
            "costUSD" => o["amount"].as_str().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN),
            _ => o["tokens"].as_f64().unwrap_or(f64::NAN),
        };
        *sums.entry(key).or_default() += x;
    }
    sums.into_iter().map(|(k, v)| (k.to_string(), niceeval::model::usage::number(v))).collect()
}

/// Tool calls and their outcomes as NiceEval's page lists them: `(tool, status)` in order.
fn page_tools(page: &Value) -> Vec<(String, String)> {
    let items = &page["data"]["observability"]["entries"][0]["detail"]["conversation"]["items"];
    let items: Vec<&Value> = items.as_array().into_iter().flatten().collect();
    items
        .iter()
        .filter(|i| i["kind"] == "tool-call")
        .map(|call| {
            let result = items.iter().find(|r| r["kind"] == "tool-result" && r["callId"] == call["callId"]);
            // No result: NiceEval's page shows the call with no outcome (a Record
            // drops a finish without output), which show --json words so.
            let status = result.and_then(|r| r["outcome"].as_str()).unwrap_or("finish-not-recorded");
            (call["tool"].as_str().unwrap_or("").to_string(), status.to_string())
        })
        .collect()
}

#[test]
fn a_real_record_reads_as_niceevals_own_pages() {
    let Some(shared) = common::shared_dir() else {
        common::report("one truth vs NiceEval: skipped (../shared not found)");
        return;
    };
    let dir = shared.join("samples/niceeval/realrun-sdk");
    let record = dir.join("record");
    let out = std::process::Command::new(common::bin())
        .args(["show", &record.display().to_string(), "--json"])
        .output()
        .expect("run show --json");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let ours: Value = serde_json::from_slice(&out.stdout).expect("show --json is JSON");
    assert_eq!(ours["format"], "niceeval-viewer.show/1");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir.join("niceeval-show-json")).unwrap().flatten() {
        let page: Value = serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        let att = &page["data"]["evidence"]["entries"][0];
        let locator = att["attempt"]["locator"].as_str().unwrap();
        let mine = ours["attempts"].as_array().unwrap().iter().find(|a| a["locator"] == locator);
        let mine = mine.unwrap_or_else(|| panic!("{locator} is not in show --json"));
        let detail = &att["detail"];
        assert_eq!(mine["verdict"], detail["verdict"], "{locator}: verdict");
        assert_eq!(mine["outcome"], detail["outcome"], "{locator}: outcome");
        // The model is the attempt's own run's.
        let run = att["attempt"]["originRunId"].as_str().unwrap();
        let run: Value =
            serde_json::from_slice(&std::fs::read(record.join("runs").join(run).join("run.json")).unwrap()).unwrap();
        assert_eq!(mine["model"], run["context"]["execution"]["model"], "{locator}: model");
        // Usage buckets and the observed cost.
        let mut diffs = Vec::new();
        common::json_diff(&Value::Object(page_usage(&page)), &mine["usage"], locator, &mut diffs);
        assert!(diffs.is_empty(), "{locator}: usage {diffs:?}");
        assert_eq!(mine["observedCostUSD"], page_usage(&page).get("costUSD").cloned().unwrap_or(Value::Null));
        // Assertion results, by entry id.
        for e in detail["entries"].as_array().unwrap() {
            let a = mine["assertions"].as_array().unwrap().iter().find(|a| a["id"] == e["entryId"]);
            let a = a.unwrap_or_else(|| panic!("{locator}: assertion {} missing", e["entryId"]));
            assert_eq!(a["decision"], e["decision"]["result"], "{locator} {}: decision", e["entryId"]);
            assert_eq!(a["gate"], e["decision"]["gate"], "{locator} {}: gate", e["entryId"]);
        }
        // Tool calls and their statuses, in order.
        let tools: Vec<(String, String)> = mine["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["name"].as_str().unwrap().to_string(), t["status"].as_str().unwrap().to_string()))
            .collect();
        assert_eq!(tools, page_tools(&page), "{locator}: tool calls");
        pages += 1;
    }
    common::report(&format!("one truth vs NiceEval: {pages} attempts equal NiceEval's own show --json pages"));
    assert!(pages >= 10);
}

/// "9.0s · 34 nodes · ✗ 4 failed" as `show --json`'s `timing` list counts it.
fn timing_facts(a: &Value) -> String {
    let list = a["timing"].as_array().unwrap();
    let failed = list.iter().filter(|t| t["failed"] == true).count();
    let nodes = count(list.len(), "node", "nodes");
    if failed > 0 { format!("{nodes} · ✗ {failed} failed") } else { nodes }
}

#[test]
fn timing_and_the_fix_prompt_read_the_same_everywhere() {
    use niceeval::app::{Effect, Intent, Panel, update::update};
    let prices = builtin_prices();
    let (mut timed, mut prompts) = (0, 0);
    for path in samples() {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        if doc.attempts.is_empty() {
            continue;
        }
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let sections = [niceeval::plain::SectionKind::Of(Panel::Timing)];
        let opts = niceeval::plain::PlainOptions { width: 400, ..Default::default() };
        let mut app = App::new(doc.clone(), None, prices.clone());
        for (i, a) in json["attempts"].as_array().unwrap().iter().enumerate().take(40) {
            let what = format!("{} attempt {i}", path.display());
            let facts = timing_facts(a);
            // show --timing's section title and the viewer's Timing tab title.
            let sel =
                niceeval::plain::Selection { locator: a["locator"].as_str().map(str::to_string), ..Default::default() };
            let text = niceeval::plain::render(&doc, &views, &findings, &sections, &sel, &opts).text;
            if a["locator"].is_string() {
                assert!(
                    text.lines().any(|l| l.contains("Execution timeline") && l.contains(&facts)),
                    "{what}: show says\n{text}"
                );
            }
            niceeval::app::update(
                &mut app,
                niceeval::app::Action::Scope(Scope { attempt: i, session: None, turn: None }),
            );
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            update(&mut app, Intent::ShowTab(Panel::Timing));
            let s = screen(&mut app, 200, 30);
            assert!(
                s.iter().any(|l| l.contains("Timing · ") && l.contains(&facts)),
                "{what}: the viewer lacks {facts}"
            );
            timed += usize::from(!a["timing"].as_array().unwrap().is_empty());
            // The fix prompt: what show --json states is what y copies from the Assertions list.
            update(&mut app, Intent::ShowTab(Panel::Assertions));
            // Below where the failure began, when the list shows it.
            let prompt_row = app.began_rows().len();
            niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(prompt_row));
            let effects = update(&mut app, Intent::Copy);
            let copied = match effects.last() {
                Some(Effect::Copy(t)) => Some(t.clone()),
                _ => None,
            };
            match a["fixPrompt"].as_str() {
                Some(p) => {
                    assert_eq!(copied.as_deref(), Some(p), "{what}: y copies the fix prompt");
                    prompts += 1;
                }
                None => assert!(app.assertion_offset() == prompt_row, "{what}: no fix prompt row without a prompt"),
            }
        }
    }
    common::report(&format!("one truth: timing of {timed} attempts and {prompts} fix prompts agree"));
    assert!(timed >= 10 && prompts >= 3, "{timed} timed, {prompts} prompts");
}

#[test]
fn check_show_and_the_viewer_print_the_same_address() {
    let prices = builtin_prices();
    let mut compared = 0;
    for path in samples() {
        let p = path.display().to_string();
        let Ok(doc) = niceeval::load::load_path(&p) else { continue };
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        if findings.is_empty() {
            continue;
        }
        let out = std::process::Command::new(common::bin()).args(["check", &p, "--format", "json"]).output().unwrap();
        let check: Value = serde_json::from_slice(&out.stdout).expect("check --format json");
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let mut app = App::new(doc.clone(), None, prices.clone());
        for (i, a) in json["attempts"].as_array().unwrap().iter().enumerate() {
            niceeval::app::update(
                &mut app,
                niceeval::app::Action::Scope(Scope { attempt: i, session: None, turn: None }),
            );
            niceeval::app::update(&mut app, niceeval::app::Intent::ShowTab(niceeval::app::Panel::Diagnostics));
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            let screen = screen(&mut app, 300, 200).join("\n");
            // Findings about the input file itself are the file's, not an attempt's, in check.
            let show_at: Vec<&str> = a["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| !f["line"].is_u64())
                .map(|f| f["at"].as_str().unwrap())
                .collect();
            let check_at: Vec<String> = check["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["attempt"] == i + 1)
                .map(|f| f["position"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(show_at.len(), check_at.len(), "{p} attempt {i}: findings");
            for (s, c) in show_at.iter().zip(&check_at) {
                // `show` writes the label beside the address: `6:3 session2/turn1`.
                assert!(s.starts_with(c.as_str()), "{p} attempt {i}: show says {s}, check {c}");
                assert!(screen.contains(s), "{p} attempt {i}: the viewer does not say {s}");
                compared += 1;
            }
        }
    }
    common::report(&format!("addresses: {compared} findings at the same N:i in check, show and the viewer"));
    assert!(compared > 0);
}

/// A file change and an assertion's expected/received read as the same diff
/// in the viewer and in `show`: the diff is the view's, drawn by both.
#[test]
fn the_viewer_and_show_draw_the_same_diffs() {
    use niceeval::app::{Panel, update::update};
    let prices = builtin_prices();
    let doc = niceeval::load::load_path("assets/demo/record").unwrap();
    let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
    let opts = niceeval::plain::PlainOptions { width: 120, ..Default::default() };
    let sel = niceeval::plain::Selection::default();
    let sections =
        [niceeval::plain::SectionKind::Of(Panel::Changes), niceeval::plain::SectionKind::Of(Panel::Assertions)];
    let text = niceeval::plain::render(&doc, &views, &findings, &sections, &sel, &opts).text;
    let mut app = App::new(doc.clone(), None, prices.clone());
    niceeval::app::update(&mut app, niceeval::app::Action::Scope(Scope { attempt: 0, session: None, turn: None }));
    // Every line of the viewer's diffs (inspector, the right-hand panel) is a line `show` prints.
    let inspector = |s: &[String]| -> Vec<String> {
        s.iter().filter_map(|l| l.split('│').nth(5).map(|x| x.trim().to_string())).filter(|x| !x.is_empty()).collect()
    };
    let shown: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    let mut compared = 0;
    for (tab, rows) in [(Panel::Changes, 2), (Panel::Assertions, 3)] {
        update(&mut app, niceeval::app::Intent::ShowTab(tab));
        for i in 0..rows {
            niceeval::app::update(&mut app, niceeval::app::Action::Focus(Focus::List));
            niceeval::app::update(&mut app, niceeval::app::Action::SelectRow(i));
            let s = screen(&mut app, 200, 80);
            let lines = inspector(&s);
            let diff: Vec<&String> = match lines.iter().position(|l| l.starts_with("@@") || l.starts_with("- expected"))
            {
                Some(at) => lines[at..].iter().take_while(|l| !l.starts_with("Check")).collect(),
                None => continue,
            };
            for l in diff {
                assert!(shown.contains(l), "{tab:?} row {i}: the viewer draws {l:?}, show does not:\n{text}");
                compared += 1;
            }
        }
    }
    common::report(&format!("diffs: {compared} lines the same in the viewer and show"));
    assert!(compared >= 10, "{compared}");
}

/// `compare` states each attempt as its own page does: for every sample,
/// every attempt of every cell has the verdict, status, locator, score,
/// tokens, observed and estimated cost `show --json` gives it, and the
/// matrix's mark is the mark of that page's headline.
#[test]
fn compare_cells_state_what_show_json_says_of_their_attempts() {
    use niceeval::view::compare::{Compared, json, matrix_rows};
    let prices = builtin_prices();
    let (mut files, mut cells, mut attempts) = (0, 0, 0);
    for path in samples() {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        if doc.attempts.is_empty() {
            continue;
        }
        files += 1;
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let show = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        let pages = show["attempts"].as_array().unwrap();
        let compared = Compared::one(niceeval::analysis::build_source(doc, None, &prices), &[]).unwrap();
        let c = compared.view();
        let doc_json = json::document(&c);
        let rows_json = doc_json["rows"].as_array().unwrap();
        let marks = matrix_rows(&c);
        for (ri, row) in c.comparison.rows.iter().enumerate() {
            for (ci, cell) in row.cells.iter().enumerate() {
                let Some(cell) = cell else { continue };
                cells += 1;
                let id = niceeval::view::compare::column_id(&c.comparison.columns[ci]);
                let cj = &rows_json[ri]["cells"][&id];
                let what = format!("{} row {ri} column {id}", path.display());
                let page = &pages[cell.representative];
                for (ours, theirs) in [
                    ("verdict", "verdict"),
                    ("locator", "locator"),
                    ("score", "score"),
                    ("tokens", "tokens"),
                    ("costUSD", "observedCostUSD"),
                    ("estimatedCostUSD", "estimatedCostUSD"),
                ] {
                    assert_eq!(cj[ours], page[theirs], "{what}: {ours}");
                }
                let mark = page["headline"].as_str().unwrap().chars().next().unwrap();
                let shown = marks[ri].cells[ci].as_plain();
                match (page["verdict"].as_str(), page["status"].as_str()) {
                    (Some(_), _) => {
                        assert!(shown.starts_with(mark), "{what}: matrix {shown:?}, page {}", page["headline"])
                    }
                    // A capture: its status, in parentheses; nothing when it has none either.
                    (None, Some(_)) => assert!(shown.starts_with(&format!("({mark}")), "{what}: {shown:?}"),
                    (None, None) => assert!(shown.starts_with('—'), "{what}: {shown:?}"),
                }
                let list = cj["attemptList"].as_array().unwrap();
                assert_eq!(list.len(), cell.attempts.len(), "{what}");
                for (entry, &i) in list.iter().zip(&cell.attempts) {
                    attempts += 1;
                    let page = &pages[i];
                    for (ours, theirs) in [
                        ("verdict", "verdict"),
                        ("status", "status"),
                        ("locator", "locator"),
                        ("attempt", "attempt"),
                        ("score", "score"),
                        ("tokens", "tokens"),
                        ("costUSD", "observedCostUSD"),
                        ("estimatedCostUSD", "estimatedCostUSD"),
                    ] {
                        assert_eq!(entry[ours], page[theirs], "{what}: attempt {i} {ours}");
                    }
                }
            }
        }
    }
    common::report(&format!(
        "one truth (compare): {files} files, {cells} cells, {attempts} attempts agree with show --json"
    ));
    assert!(files >= 2 && cells >= 2);
}
