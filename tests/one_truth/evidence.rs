//! The evidence NiceEval's `show` grammar brought, read the same in the
//! viewer (its screen), `show`'s text and `show --json`, on every Record
//! sample: the sandbox commands (how many, and how each ended, in order),
//! where a failure began and its chain, assertion points, and when the
//! attempt started and how long it took.

use super::{samples, screen};
use niceeval::app::{Action, App, Focus, Intent, Panel, update::update};
use niceeval::model::usage::builtin_prices;
use niceeval::plain::{PlainOptions, SectionKind, Selection};
use niceeval::view::format::{duration_ms, number};
use serde_json::Value;

const W: u16 = 400;

/// `show`'s text of one attempt (by its locator) for `sections`.
fn show_text(
    doc: &niceeval::model::Document,
    views: &[niceeval::view::AttemptView],
    findings: &[niceeval::model::diagnostics::Finding],
    locator: &str,
    sections: &[SectionKind],
) -> String {
    let sel = Selection { locator: Some(locator.to_string()), ..Default::default() };
    let opts = PlainOptions { width: W as usize, ..Default::default() };
    niceeval::plain::render(doc, views, findings, sections, &sel, &opts).text
}

/// The list panel's rows on a screen (between the panel borders), trimmed.
fn list_rows(s: &[String]) -> Vec<String> {
    s.iter().skip(5).map(|l| super::middle(l).trim().to_string()).filter(|m| !m.is_empty()).collect()
}

/// "2026-11-30T00:53:20.000Z" as every surface prints it: "2026-11-30 00:53:20 UTC".
fn instant(iso: &str) -> String {
    format!("{} {} UTC", &iso[..10], &iso[11..19])
}

/// "1/2", "—/2": an assertion's points as `show --json` states them.
fn points_words(p: &Value) -> Option<String> {
    let points = p["points"].as_f64()?;
    let earned = p["earned"].as_f64().map(number).unwrap_or_else(|| "—".into());
    Some(format!("{earned}/{}", number(points)))
}

#[test]
fn commands_where_it_began_points_and_time_read_the_same_everywhere() {
    let prices = builtin_prices();
    let (mut attempts, mut commands, mut chains, mut points, mut timed) = (0, 0, 0, 0, 0);
    for path in samples().into_iter().filter(|p| p.join("record.json").is_file()) {
        let Ok(doc) = niceeval::load::load_path(&path) else { continue };
        let (views, findings) = niceeval::analysis::build_views(&doc, None, &prices);
        let json = niceeval::view::json::document(&doc, &views, &findings, &Default::default());
        for a in json["attempts"].as_array().unwrap().iter().take(40) {
            let Some(locator) = a["locator"].as_str() else { continue };
            let what = format!("{} {locator}", path.display());
            attempts += 1;
            // The attempt alone in the viewer, as `view RECORD @LOC` opens it.
            let mut one = doc.clone();
            one.attempts.retain(|x| x.locator.as_deref() == Some(locator));
            let mut app = App::new(one, None, prices.clone());

            // When it started and how long it took: the header's third line, show's header, the JSON.
            let s = screen(&mut app, W, 60);
            let show = show_text(&doc, &views, &findings, locator, &[SectionKind::Of(Panel::Timeline)]);
            if let Some(at) = a["startedAt"].as_str() {
                let words = instant(at);
                assert!(s[2].contains(&format!("started {words}")), "{what}: the viewer's start:\n{}", s[2]);
                assert!(show.contains(&format!("started     {words}")), "{what}: show's start {words}");
                timed += 1;
            }
            if let Some(d) = a["durationMs"].as_f64() {
                let words = duration_ms(d);
                assert!(s[2].contains(&format!("took {words}")), "{what}: the viewer's duration:\n{}", s[2]);
                assert!(show.contains(&format!("duration    {words}")), "{what}: show's duration {words}");
            }

            // Commands: as many, each ending as the JSON says, in order.
            let listed = a["commands"].as_array().unwrap();
            let show = show_text(&doc, &views, &findings, locator, &[SectionKind::Of(Panel::Commands)]);
            let cards: Vec<&str> =
                show.lines().filter(|l| l.trim_start().starts_with("command ") && l.contains(" · ")).collect();
            assert_eq!(cards.len(), listed.len(), "{what}: show's cards");
            if !listed.is_empty() {
                update(&mut app, Intent::ShowTab(Panel::Commands));
                let rows = list_rows(&screen(&mut app, W, (listed.len() + 10).max(30) as u16));
                assert_eq!(rows.len(), listed.len(), "{what}: the viewer's command rows {rows:?}");
                for ((c, row), card) in listed.iter().zip(&rows).zip(&cards) {
                    let ended = c["outcomeWords"].as_str().unwrap();
                    assert!(row.contains(ended), "{what}: the viewer's row {row:?} lacks {ended:?}");
                    assert!(card.contains(ended), "{what}: show's card {card:?} lacks {ended:?}");
                    let code = c["outcome"]["exitCode"].as_i64();
                    if let Some(code) = code {
                        assert!(ended.ends_with(&format!("exit {code}")), "{what}: {ended:?} is exit {code}");
                    }
                    commands += 1;
                }
            }

            // Where it began, and the links after it.
            let began = &a["firstFailure"];
            if !began.is_null() {
                let show = show_text(&doc, &views, &findings, locator, &[SectionKind::Failures]);
                let link = |l: &Value| {
                    let at = l["at"].as_str().map(|a| format!("{a}  ")).unwrap_or_default();
                    format!("{at}{}", l["summary"].as_str().unwrap())
                };
                let mut links = vec![link(began)];
                links.extend(began["chain"].as_array().unwrap().iter().map(link));
                update(&mut app, Intent::ShowTab(Panel::Assertions));
                update(&mut app, Action::Focus(Focus::List));
                update(&mut app, Intent::Top);
                let rows = list_rows(&screen(&mut app, W, 60));
                let shown = rows.iter().take_while(|r| r.starts_with("⚑ where it began") || r.starts_with("→ "));
                let shown: Vec<&String> = shown.collect();
                assert!(!shown.is_empty(), "{what}: the viewer's first rows {rows:?}");
                for (k, row) in shown.iter().enumerate() {
                    let said = row.trim_start_matches("⚑ where it began").trim_start_matches("→ ").trim();
                    // A row cut at the panel's width ends with `…`.
                    let said = said.trim_end_matches('…');
                    if said.starts_with("… ") {
                        continue;
                    }
                    // A wide character takes two cells: the screen's text has a blank after it.
                    let bare = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                    assert!(
                        bare(&links[k]).starts_with(&bare(said)),
                        "{what}: link {k}: the viewer {said:?}, show --json {:?}",
                        links[k]
                    );
                }
                for l in &links {
                    let first_line = l.lines().next().unwrap_or_default();
                    assert!(show.contains(first_line), "{what}: show --failures lacks {first_line:?}");
                }
                chains += 1;
            }

            // Points: each assertion's, in the viewer's list and show's assertions.
            let said: Vec<String> =
                a["assertions"].as_array().unwrap().iter().filter_map(|x| points_words(&x["points"])).collect();
            if !said.is_empty() {
                update(&mut app, Intent::ShowTab(Panel::Assertions));
                let rows = list_rows(&screen(&mut app, W, (said.len() * 2 + 20).min(2000) as u16)).join("\n");
                let show = show_text(&doc, &views, &findings, locator, &[SectionKind::Of(Panel::Assertions)]);
                for p in &said {
                    assert!(rows.contains(&format!(" {p} ")), "{what}: the viewer lacks points {p}:\n{rows}");
                    assert!(show.contains(&format!("· {p}")), "{what}: show lacks points {p}");
                    points += 1;
                }
            }
        }
    }
    super::common::report(&format!(
        "one truth: {attempts} Record attempts: {commands} commands, {chains} failure chains, {points} points, {timed} start times agree"
    ));
    if super::common::shared_dir().is_some() {
        assert!(commands >= 10 && chains >= 10 && points >= 5 && timed >= 20, "too little compared");
    }
}
