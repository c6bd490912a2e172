//! The cached lists of [`ListIndex`] against a fresh computation (the
//! straightforward passes they replace), after every kind of change: scope
//! (navigator moves and Enter, Back), tool filter, tool sort, merge mode and
//! a reloaded document; and the jump keys against a walk over `visible`.

use super::*;
use crate::model::hitl::HitlState;
use crate::model::occurrence::Lifecycle;
use crate::model::timeline::{RowKind, RowStatus};

fn fresh_visible(app: &App) -> Vec<usize> {
    let Some(view) = app.view() else { return Vec::new() };
    let rows = view.timeline.rows.iter().enumerate();
    rows.filter(|(_, r)| app.scope.contains(r.addr()) && !(app.merge && r.merged_away())).map(|(i, _)| i).collect()
}

fn fresh_tools(app: &App) -> Vec<Result<usize, usize>> {
    let Some(view) = app.view() else { return Vec::new() };
    let d = &view.derived;
    let in_scope = |t: usize| d.turns.get(t).is_some_and(|t| app.scope.contains(t.addr));
    let mut occ: Vec<usize> = (0..d.occurrences.occurrences.len())
        .filter(|&i| {
            let o = &d.occurrences.occurrences[i];
            // In the scope it started or finished in.
            (in_scope(o.start_ref.scope_turn()) || o.finish_ref.is_some_and(|f| in_scope(f.scope_turn())))
                && match app.tool_filter {
                    ToolFilter::All => true,
                    ToolFilter::Failed => {
                        matches!(&o.lifecycle, Lifecycle::Finished { status, .. } if &**status == "failed" || &**status == "rejected")
                    }
                    ToolFilter::Pending => o.lifecycle == Lifecycle::Pending,
                    ToolFilter::Problems => o.ambiguous,
                }
        })
        .collect();
    if app.tool_sort_by_name {
        let o = &d.occurrences.occurrences;
        occ.sort_by(|a, b| o[*a].display_name().cmp(o[*b].display_name()));
    }
    let orphans = (0..d.occurrences.orphan_finishes.len())
        .filter(|&i| in_scope(d.occurrences.orphan_finishes[i].event_ref.scope_turn()))
        .filter(|_| matches!(app.tool_filter, ToolFilter::All | ToolFilter::Problems))
        .map(Err);
    occ.into_iter().map(Ok).chain(orphans).collect()
}

fn fresh_hitl(app: &App) -> Vec<usize> {
    let Some(view) = app.view() else { return Vec::new() };
    (0..view.requests.len()).filter(|&i| app.scope.contains(view.requests[i].addr)).collect()
}

fn fresh_assertions(app: &App) -> Vec<usize> {
    let Some(list) = app.attempt().and_then(|a| a.review.assertions.as_ref()) else { return Vec::new() };
    crate::view::assertions::ordered(list)
}

fn fresh_findings(app: &App) -> Vec<usize> {
    let s = app.scope;
    (0..app.findings.len())
        .filter(|&i| {
            let l = app.findings[i].location;
            l.attempt() == s.attempt
                && s.session.is_none_or(|x| x == l.session())
                && s.turn.is_none_or(|t| Some(t) == l.turn())
        })
        .collect()
}

fn fresh_usage_rows(app: &App) -> usize {
    let (Some(view), Some(attempt)) = (app.view(), app.attempt()) else { return 0 };
    let turns: Vec<usize> =
        (0..view.derived.turns.len()).filter(|&i| app.scope.contains(view.derived.turns[i].addr)).collect();
    let sessions = if attempt.sessions.len() > 1 {
        (0..attempt.sessions.len()).filter(|&s| turns.iter().any(|&i| view.derived.turns[i].addr.session == s)).count()
    } else {
        0
    };
    // Header, turns, session totals, the total, and the file's own usage.
    1 + turns.len() + sessions + 1 + usize::from(attempt.reported_usage.is_some())
}

fn assert_fresh(app: &App, when: &str) {
    assert_eq!(
        app.visible().iter().map(|&r| r as usize).collect::<Vec<_>>(),
        fresh_visible(app),
        "visible after {when}"
    );
    let tools = fresh_tools(app);
    assert_eq!(app.tool_rows().iter().map(|r| r.get()).collect::<Vec<_>>(), tools, "tool rows after {when}");
    assert_eq!(app.tool_orphans(), tools.iter().filter(|r| r.is_err()).count(), "orphans after {when}");
    let carried = app.view().map_or(0, |v| {
        let started_here = |i: usize| {
            let t = v.derived.occurrences.occurrences[i].start_ref.scope_turn();
            v.derived.turns.get(t).is_some_and(|t| app.scope.contains(t.addr))
        };
        tools.iter().filter(|r| r.is_ok_and(|i| !started_here(i))).count()
    });
    assert_eq!(app.tool_carried(), carried, "calls finished here from earlier after {when}");
    let hitl = fresh_hitl(app);
    assert_eq!(app.hitl_rows(), hitl.as_slice(), "hitl rows after {when}");
    let waiting = app.view().map(|v| hitl.iter().filter(|&&i| v.requests[i].state == HitlState::Waiting).count());
    assert_eq!(app.hitl_waiting(), waiting.unwrap_or(0), "hitl waiting after {when}");
    assert_eq!(app.assertion_rows(), fresh_assertions(app).as_slice(), "assertion rows after {when}");
    let gates = app
        .attempt()
        .and_then(|a| a.review.assertions.as_ref())
        .map(|l| l.iter().filter(|a| crate::model::verdict::assertion_outcome(a).is_failing()).count());
    assert_eq!(app.failing_gates(), gates.unwrap_or(0), "failing gates after {when}");
    assert_eq!(app.scoped_findings().collect::<Vec<_>>(), fresh_findings(app), "findings after {when}");
    let grouped: usize = app.finding_rows().iter().map(|(_, n)| n).sum();
    assert_eq!(grouped, app.scoped_finding_count(), "every finding in one row after {when}");
    let mut codes: Vec<&str> = app.finding_rows().iter().map(|(i, _)| app.findings[*i].code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), app.finding_rows().len(), "one row per code after {when}");
    let errors = app.findings.iter().filter(|f| f.severity == crate::model::diagnostics::Severity::Error).count();
    assert_eq!(app.finding_counts(), (errors, app.findings.len() - errors), "finding counts after {when}");
    assert_eq!(app.usage_row_count(), fresh_usage_rows(app), "usage rows after {when}");
}

/// The jump keys' answer as a walk over `visible` from the selection,
/// wrapping around (the code they replace).
fn walk(app: &App, forward: bool, pred: impl Fn(usize) -> bool) -> Option<usize> {
    let current = app.lists.timeline.selected;
    let len = app.visible().len();
    let order: Vec<usize> = if forward {
        (current + 1..len).chain(0..=current.min(len)).collect()
    } else {
        (0..current).rev().chain((current..len).rev()).collect()
    };
    order.into_iter().filter(|&i| i < len).find(|&i| pred(app.visible()[i] as usize))
}

/// Every jump key from a few selections lands where the walk does.
fn check_jumps(app: &mut App, when: &str) {
    let saved = (app.lists, app.focus, app.tab, app.scope);
    app.tab = Panel::Timeline;
    app.focus = Focus::List;
    let len = app.visible().len();
    for at in [0, 1, len / 2, len.saturating_sub(2), len.saturating_sub(1)] {
        if at >= len {
            continue;
        }
        let view = app.view().expect("a view");
        let rows = view.timeline.rows.clone();
        let attempt = app.scope.attempt;
        let finding_rows: Vec<usize> = app
            .findings
            .iter()
            .filter(|f| f.location.attempt() == attempt)
            .filter_map(|f| {
                let addr = TurnAddr { session: f.location.session(), turn: f.location.turn()? };
                match f.location.event() {
                    Some(e) => view.timeline.row_of_event(addr, e),
                    None => view.timeline.by_turn.get(&addr).copied(),
                }
            })
            .collect();
        type Pred<'a> = Box<dyn Fn(usize) -> bool + 'a>;
        let cases: Vec<(Intent, bool, Pred)> = vec![
            (Intent::NextFailure, true, Box::new(|r| rows[r].is_failure())),
            (Intent::PrevFailure, false, Box::new(|r| rows[r].is_failure())),
            (Intent::NextWaiting, true, Box::new(|r| rows[r].status == Some(RowStatus::Waiting))),
            (Intent::NextFinding, true, Box::new(|r| finding_rows.contains(&r))),
            (Intent::PrevFinding, false, Box::new(|r| finding_rows.contains(&r))),
        ];
        for (action, forward, pred) in cases {
            app.lists.timeline = ListState { selected: at, offset: at };
            app.before_turn_jump = None;
            let want = walk(app, forward, pred).unwrap_or(at);
            update(app, action);
            assert_eq!(app.lists.timeline.selected, want, "{action:?} from {at} after {when}");
            assert_eq!(app.scope, saved.3, "{action:?} keeps the scope after {when}");
        }
        for (action, forward) in [(Intent::NextTurn, true), (Intent::PrevTurn, false)] {
            app.lists.timeline = ListState { selected: at, offset: at };
            let header = |i: &usize| rows[app.visible()[*i] as usize].kind == RowKind::TurnHeader;
            let want = if forward { (at + 1..len).find(header) } else { (0..at).rev().find(header) };
            update(app, action);
            app.before_turn_jump = None;
            assert_eq!(app.lists.timeline.selected, want.unwrap_or(at), "{action:?} from {at} after {when}");
        }
    }
    (app.lists, app.focus, app.tab) = (saved.0, saved.1, saved.2);
}

/// Navigator moves, Enter on every node, filter and sort cycles, merge
/// toggles, Back and a reload, checking the caches after each.
fn exercise(path: &str, doc: Document, other: Document) {
    let reload = doc.clone();
    let mut app = App::new(doc, None, PriceTable::default());
    assert_fresh(&app, "App::new");
    check_jumps(&mut app, "App::new");
    let nodes = app.nav.len().min(40);
    app.focus = Focus::Nav;
    update(&mut app, Intent::Top);
    for i in 0..nodes {
        let when = format!("{path}: nav move to node {i}");
        assert_fresh(&app, &when);
        if i % 3 == 0 {
            check_jumps(&mut app, &when);
        }
        update(&mut app, Intent::Down);
    }
    for i in 0..nodes {
        app.focus = Focus::Nav;
        update(&mut app, Intent::Top);
        for _ in 0..i {
            update(&mut app, Intent::Down);
        }
        update(&mut app, Intent::Enter);
        assert_fresh(&app, &format!("{path}: Enter on node {i}"));
    }
    // The list cycles in the whole first attempt, then in the deepest scope.
    for scope in ["first attempt", "last node"] {
        app.focus = Focus::Nav;
        update(&mut app, if scope == "last node" { Intent::Bottom } else { Intent::Top });
        app.focus = Focus::List;
        update(&mut app, Intent::ShowTab(Panel::Tools));
        for sort in 0..2 {
            for f in 0..4 {
                update(&mut app, Intent::CycleFilter);
                assert_fresh(&app, &format!("{path}: {scope}, filter cycle {f}, sort {sort}"));
            }
            update(&mut app, Intent::CycleSort);
            assert_fresh(&app, &format!("{path}: {scope}, sort toggle {sort}"));
        }
    }
    for m in 0..2 {
        update(&mut app, Intent::ToggleMerge);
        assert_fresh(&app, &format!("{path}: merge toggle {m}"));
        check_jumps(&mut app, &format!("{path}: merge toggle {m}"));
    }
    update(&mut app, Intent::CycleSort);
    app.replace_document(reload.clone());
    assert_fresh(&app, &format!("{path}: replace_document in a narrow scope"));
    app.replace_document(other);
    assert_fresh(&app, &format!("{path}: replace_document with another document"));
    check_jumps(&mut app, &format!("{path}: replace_document with another document"));
    app.replace_document(reload.clone());
    assert_fresh(&app, &format!("{path}: replace_document back"));
    for b in 0..3 {
        app.focus = Focus::List;
        update(&mut app, Intent::Back);
        assert_fresh(&app, &format!("{path}: Back {b}"));
    }
    app.replace_document(reload);
    assert_fresh(&app, &format!("{path}: replace_document"));
    check_jumps(&mut app, &format!("{path}: replace_document"));
}

fn fixtures(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            fixtures(&p, out);
        } else if p.extension().is_some_and(|x| x == "json" || x == "jsonl" || x == "ndjson") {
            out.push(p);
        }
    }
}

#[test]
fn cached_lists_equal_a_fresh_computation_on_every_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    fixtures(&root.join("tests/fixtures"), &mut paths);
    fixtures(&root.join("assets/demo"), &mut paths);
    paths.sort();
    let docs: Vec<(String, Document)> = paths
        .iter()
        .filter_map(|p| {
            let path = p.to_string_lossy().into_owned();
            crate::load::load_path(&path).ok().map(|d| (path, d))
        })
        .collect();
    let mut exercised = 0;
    for (i, (path, doc)) in docs.iter().enumerate() {
        // Reloads swap in the next fixture: other sizes, attempts and findings.
        let other = docs[(i + 1) % docs.len()].1.clone();
        exercise(path, doc.clone(), other);
        exercised += 1;
    }
    assert!(exercised > 40, "only {exercised} fixtures loaded");
}

#[test]
fn sorting_by_name_is_a_stable_sort() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = crate::load::load_path(root.join("tests/fixtures/check/clean-complex.json")).unwrap();
    let app = App::new(doc, None, PriceTable::default());
    let occ = &app.view().unwrap().derived.occurrences.occurrences;
    let mut want: Vec<usize> = (0..occ.len()).collect();
    want.sort_by(|a, b| occ[*a].display_name().cmp(occ[*b].display_name()));
    assert_ne!(want, (0..occ.len()).collect::<Vec<_>>(), "the fixture's names are not in order already");
    let got: Vec<usize> = super::index::order_by_name(occ).into_iter().map(|i| i as usize).collect();
    assert_eq!(got, want);
}

#[test]
fn the_tallest_turn_is_read_from_the_file() {
    // assets/demo/session.json: the first turn is the largest, 3,120 input
    // and 842 output tokens (cache buckets do not count); a file with no
    // usage at all has no bar to scale.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let demo = crate::load::load_path(root.join("assets/demo/session.json")).unwrap();
    assert_eq!(App::new(demo, None, PriceTable::default()).max_turn_tokens(), 3962.0);
    let bare = crate::load::load_bytes(
        "t.json",
        br#"{"events":[{"type":"message","role":"assistant","text":"hi"}],"status":"completed"}"#,
    )
    .unwrap();
    assert_eq!(App::new(bare, None, PriceTable::default()).max_turn_tokens(), 0.0);
}
