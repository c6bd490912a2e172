//! `niceeval show`: golden output for every section (80/120 columns, plain
//! and boxed), safety of hostile input, selection, exit codes and pipes.

mod common;

use niceeval::model::document::{Assertion, Diagnostic, Document, Fact};
use niceeval::plain::{self, PlainOptions, Report, SectionKind, Selection, TurnSelector};
use niceeval::view::AttemptView;
use niceeval::view::panel::Panel;
use serde_json::json;
use std::process::Command;

const MULTI: &str = "tests/fixtures/show/multiturn.json";
const HOSTILE: &str = "tests/fixtures/show/hostile.json";

fn load(path: &str) -> (Document, Vec<AttemptView>) {
    let doc = niceeval::load::load_paths(&[path.to_string()]).expect("fixture loads");
    let derived = derive(&doc);
    (doc, derived)
}

fn derive(doc: &Document) -> Vec<AttemptView> {
    niceeval::analysis::build_views(doc, None, &niceeval::model::usage::builtin_prices()).0
}

fn opts(width: usize, boxed: bool) -> PlainOptions {
    PlainOptions { width, boxed, color: false }
}

fn show(
    doc: &Document,
    derived: &[AttemptView],
    sections: &[SectionKind],
    sel: &Selection,
    o: &PlainOptions,
) -> Report {
    plain::render(doc, derived, &findings_of(doc, derived), sections, sel, o)
}

fn findings_of(doc: &Document, views: &[AttemptView]) -> Vec<niceeval::model::diagnostics::Finding> {
    let derived: Vec<_> = views.iter().map(|v| v.derived.clone()).collect();
    niceeval::model::lint::lint_document(doc, &derived)
}

/// Golden text. Lint findings are left out on purpose: `lint_document` is
/// written in parallel, and findings are tested with constructed ones
/// (`diagnostics_show_findings_with_where_and_fix`), so these snapshots stay
/// stable when the lint rules land.
fn text(
    doc: &Document,
    derived: &[AttemptView],
    sections: &[SectionKind],
    sel: &Selection,
    o: &PlainOptions,
) -> String {
    plain::render(doc, derived, &[], sections, sel, o).text
}

/// The multi-turn fixture as a reviewed, failing attempt plus a passing twin.
fn reviewed() -> (Document, Vec<AttemptView>) {
    let (mut doc, _) = load(MULTI);
    let mut failing = doc.attempts[0].clone();
    failing.locator = Some("@1K1P0VJAPVJ12".into());
    failing.verdict = Some(niceeval::model::verdict::Verdict::Failed);
    failing.attempt_number = Some(1);
    let tool_ref = json!(["niceeval.logical-tool-occurrence/1", "session-1", "turn-1", 1, 5]);
    failing.review.assertions = Some(vec![
        Assertion {
            label: "build succeeds".into(),
            group_path: vec!["release".into()],
            criterion: Some("scope-status".into()),
            result: Some("matched".into()),
            gate: Some("satisfied".into()),
            requirement: Some("required".into()),
            source_order: Some(1),
            ..Default::default()
        },
        Assertion {
            label: "no failed actions".into(),
            group_path: vec!["release".into(), "tools".into()],
            criterion: Some("occurrence".into()),
            result: Some("mismatched".into()),
            reason: Some("a tool call failed".into()),
            gate: Some("failed".into()),
            requirement: Some("required".into()),
            check: Some(Fact::Text("noFailedActions()".into())),
            expected: Some(Fact::Text("no tool call with status failed".into())),
            observed: Some(Fact::Fields(vec![
                ("tool".into(), Fact::Value(tool_ref.clone())),
                ("status".into(), Fact::Text("failed".into())),
            ])),
            explanation: Some(Fact::Text("pnpm exec vitest run exited 1".into())),
            source_order: Some(2),
            raw: json!({"evidence": [tool_ref.to_string(), "[\"niceeval.assertion-event/1\",\"session-1\",\"turn-9\",9,1]"]}),
            ..Default::default()
        },
        Assertion {
            label: "judge: summary is accurate".into(),
            criterion: Some("judge-measurement".into()),
            result: Some("unavailable".into()),
            reason: Some("not-recorded".into()),
            gate: Some("unavailable".into()),
            requirement: Some("required".into()),
            observed: Some(Fact::Unavailable("source-unavailable".into())),
            source_order: Some(3),
            ..Default::default()
        },
        Assertion {
            label: "sandbox cleanup".into(),
            criterion: Some("sandbox-result".into()),
            result: Some("not-applicable".into()),
            gate: Some("not-applicable".into()),
            requirement: Some("optional".into()),
            source_order: Some(4),
            ..Default::default()
        },
        Assertion {
            label: "style score".into(),
            criterion: Some("direct-score".into()),
            result: Some("mismatched".into()),
            gate: Some("not-gate".into()),
            requirement: Some("optional".into()),
            expected: Some(Fact::Value(json!({"min": 0.8}))),
            observed: Some(Fact::List(vec![Fact::Value(json!(0.5)), Fact::Text("below threshold".into())])),
            source_order: Some(5),
            ..Default::default()
        },
    ]);
    failing.review.diagnostics = vec![Diagnostic {
        kind: "runtime".into(),
        code: "sandbox-timeout".into(),
        phase: Some("eval.run".into()),
        message: "the sandbox did not answer within 30s".into(),
        causes: vec!["connection reset".into()],
    }];
    let mut passing = doc.attempts[0].clone();
    passing.locator = Some("@2ABCDEFGHJKMN".into());
    passing.verdict = Some(niceeval::model::verdict::Verdict::Passed);
    passing.attempt_number = Some(2);
    passing.review.assertions = Some(vec![Assertion {
        label: "build succeeds".into(),
        criterion: Some("scope-status".into()),
        result: Some("matched".into()),
        gate: Some("satisfied".into()),
        requirement: Some("required".into()),
        ..Default::default()
    }]);
    doc.attempts = vec![failing, passing];
    let derived = derive(&doc);
    (doc, derived)
}

fn mode(boxed: bool) -> &'static str {
    if boxed { "boxed" } else { "plain" }
}

#[test]
fn golden_sections_on_the_multiturn_fixture() {
    let (doc, derived) = load(MULTI);
    let sel = Selection::default();
    for (name, kind) in [
        ("timeline", SectionKind::Of(Panel::Timeline)),
        ("tools", SectionKind::Of(Panel::Tools)),
        ("hitl", SectionKind::Of(Panel::Hitl)),
        ("usage", SectionKind::Of(Panel::Usage)),
        ("diagnostics", SectionKind::Of(Panel::Diagnostics)),
    ] {
        for width in [80, 120] {
            for boxed in [false, true] {
                let out = text(&doc, &derived, &[kind], &sel, &opts(width, boxed));
                insta::assert_snapshot!(format!("multiturn_{name}_{width}_{}", mode(boxed)), out);
            }
        }
    }
}

#[test]
fn golden_assertions_and_failures_on_a_constructed_review() {
    let (doc, derived) = reviewed();
    let sel = Selection::default();
    for (name, kind) in [
        ("assertions", SectionKind::Of(Panel::Assertions)),
        ("failures", SectionKind::Failures),
        ("diagnostics", SectionKind::Of(Panel::Diagnostics)),
    ] {
        for width in [80, 120] {
            for boxed in [false, true] {
                let out = text(&doc, &derived, &[kind], &sel, &opts(width, boxed));
                insta::assert_snapshot!(format!("reviewed_{name}_{width}_{}", mode(boxed)), out);
            }
        }
    }
}

#[test]
fn golden_hostile_input() {
    let (doc, derived) = load(HOSTILE);
    for width in [80, 120] {
        for boxed in [false, true] {
            let out = text(&doc, &derived, &SectionKind::ALL, &Selection::default(), &opts(width, boxed));
            insta::assert_snapshot!(format!("hostile_all_{width}_{}", mode(boxed)), out);
        }
    }
}

#[test]
fn render_all_is_show_all() {
    let (doc, derived) = load(MULTI);
    let o = opts(80, false);
    let all = plain::render_all(&doc, &derived, &findings_of(&doc, &derived), &o);
    assert_eq!(all, show(&doc, &derived, &SectionKind::ALL, &Selection::default(), &o).text);
    for heading in ["Timeline", "Tools", "Human input (HITL)", "Usage", "Assertions", "Diagnostics"] {
        assert!(all.contains(heading), "render_all lacks {heading}");
    }
}

#[test]
fn timeline_facts() {
    let (doc, derived) = load(MULTI);
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &Selection::default(), &opts(120, false));
    let line = |pos: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("{pos} ")))
            .unwrap_or_else(|| panic!("no row {pos}:\n{out}"))
    };
    // Ordinal 0 is the runner's user message with the TurnRecord input text.
    assert!(line("1:0").contains("Fix the failing test and rebuild."));
    // A start and its finish in the same turn merge into one row.
    assert!(line("1:5→6").contains("✗ failed"));
    assert!(!out.lines().any(|l| l.trim_start().starts_with("1:6 ")));
    // Across turns the phases stay separate rows; the start row carries the
    // lifecycle's outcome, as in the viewer.
    assert!(line("2:2").contains("✓ completed") && line("2:2").contains("finished at 3:1"));
    assert!(line("3:1").contains("✓ completed"));
    assert!(line("4:1").contains("⊘ rejected"));
    // HITL rows, orphans, ambiguity, pending, unrecognized.
    assert!(line("2:3").contains("answered"));
    assert!(line("5:6").contains("? orphan"));
    assert!(line("5:7").contains("? ambiguous") && line("5:8").contains("? ambiguous"));
    assert!(line("5:10").contains("… pending"));
    assert!(line("5:11").contains("unknown") && line("5:11").contains("tool.progress"));
}

#[test]
fn usage_absent_is_not_zero() {
    let (doc, derived) = load(MULTI);
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Usage)], &Selection::default(), &opts(120, false));
    let row = |label: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("{label} ")))
            .unwrap_or_else(|| panic!("no row {label}"))
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(row("turn 4")[2..7], ["—", "—", "—", "—", "—"], "no usage at all is all —");
    assert_eq!(row("turn 2")[2..7], ["950", "0", "0", "—", "—"], "reported zero stays 0");
    assert!(out.contains("no usage reported for turn 4"));
    assert!(out.contains("price key claude-sonnet-4-5"));
    assert!(out.contains("= $0.0217"), "ledger total:\n{out}");
}

#[test]
fn no_escape_bytes_without_colour_even_for_hostile_input() {
    let (doc, derived) = load(HOSTILE);
    for boxed in [false, true] {
        for full in [false, true] {
            let o = PlainOptions { width: 100, boxed, color: false };
            let mut sections = SectionKind::ALL.to_vec();
            sections.push(SectionKind::Failures);
            let out = text(&doc, &derived, &sections, &Selection { full, ..Default::default() }, &o);
            assert!(!out.contains('\u{1b}'), "ESC in output (boxed={boxed}, full={full})");
            assert!(!out.contains('\u{7}') && !out.contains('\u{9b}') && !out.contains('\u{202e}'));
            assert!(out.contains("␛[31m"), "escapes are shown visibly");
        }
    }
    // Through the binary, too.
    let output =
        Command::new(common::bin()).args(["show", HOSTILE, "--all", "--full", "--color", "never"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(!output.stdout.contains(&0x1b));
    assert!(!output.stderr.contains(&0x1b));
}

#[test]
fn colour_is_only_sgr_around_the_same_text() {
    let (doc, derived) = load(MULTI);
    let mono = text(&doc, &derived, &SectionKind::ALL, &Selection::default(), &opts(100, true));
    let colored = text(
        &doc,
        &derived,
        &SectionKind::ALL,
        &Selection::default(),
        &PlainOptions { width: 100, boxed: true, color: true },
    );
    assert!(colored.contains("\u{1b}[31m"), "failed rows are red");
    let stripped = regex::Regex::new("\u{1b}\\[[0-9;]*m").unwrap().replace_all(&colored, "");
    assert_eq!(stripped, mono);
}

#[test]
fn lines_fit_the_width() {
    for path in [MULTI, HOSTILE] {
        let (doc, derived) = load(path);
        for width in [60, 61, 79, 80, 99, 100, 120, 130] {
            for boxed in [false, true] {
                for full in [false, true] {
                    let o = PlainOptions { width, boxed, color: false };
                    let out = text(&doc, &derived, &SectionKind::ALL, &Selection { full, ..Default::default() }, &o);
                    for line in out.lines() {
                        let w = niceeval::model::text::width(line);
                        assert!(w <= width, "{path} width {width} boxed {boxed}: {w} > {width}: {line}");
                        if boxed && !line.is_empty() {
                            assert_eq!(w, width.min(100), "box lines are exactly the box width: {line}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn narrow_widths_never_panic_and_degrade_to_plain() {
    let (doc, derived) = load(MULTI);
    for width in [0, 1, 10, 20, 40, 59] {
        let out = text(&doc, &derived, &SectionKind::ALL, &Selection::default(), &opts(width, true));
        assert!(!out.contains('╭'), "below 60 columns there are no boxes");
        assert!(!out.is_empty());
    }
}

#[test]
fn full_prints_complete_payloads() {
    let (doc, derived) = load(MULTI);
    let cut = text(&doc, &derived, &[SectionKind::Of(Panel::Tools)], &Selection::default(), &opts(100, false));
    assert!(cut.contains("(666 more characters)"), "{cut}");
    let full = text(
        &doc,
        &derived,
        &[SectionKind::Of(Panel::Tools)],
        &Selection { full: true, ..Default::default() },
        &PlainOptions { width: 100, boxed: false, color: false },
    );
    assert!(!full.contains("more characters"));
    // A command result reads like a terminal: its exit code, then stdout line by line.
    assert!(full.lines().any(|l| l.contains("exit code") && l.trim_end().ends_with(" 1")), "{full}");
    assert_eq!(full.lines().filter(|l| l.contains("PASS src/a.test.ts")).count(), 40, "the whole stdout is there");
}

#[test]
fn selection_by_turn_session_and_label() {
    let (doc, derived) = load(MULTI);
    let o = opts(120, false);
    let t = |sel: Selection| text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &sel, &o);
    let turn2 = t(Selection { turn: TurnSelector::parse("2"), ..Default::default() });
    assert!(turn2.contains("2:3") && !turn2.contains(" 1:0 ") && !turn2.contains("5:0"));
    let by_label = t(Selection { turn: TurnSelector::parse("turn2"), ..Default::default() });
    assert_eq!(by_label, turn2);
    let side = t(Selection { turn: TurnSelector::parse("session2/turn1"), ..Default::default() });
    assert!(side.contains("5:0") && !side.contains("1:0"));
    let session2 = t(Selection { session: Some(2), ..Default::default() });
    assert_eq!(session2, side);
    assert_eq!(TurnSelector::parse("session2/turn1"), Some(TurnSelector::Label { session: Some(2), turn: 1 }));
    // A bare number is the attempt-wide turn number every surface prints (5 in `5:0`).
    let five = t(Selection { turn: TurnSelector::parse("5"), ..Default::default() });
    assert_eq!(five, side, "--turn 5 is session2/turn1, the fifth turn of the attempt");
    let nothing = show(
        &doc,
        &derived,
        &[SectionKind::Of(Panel::Timeline)],
        &Selection { turn: TurnSelector::parse("9"), ..Default::default() },
        &o,
    );
    assert!(nothing.text.contains("No turn matches the selection."));
    assert_eq!(nothing.notes, ["no turn matches --session/--turn"]);
    assert_eq!(TurnSelector::parse("turn0"), None);
    assert_eq!(TurnSelector::parse("bogus"), None);
    // Tools follow the selection: only occurrences touching turn 3.
    let tools = text(
        &doc,
        &derived,
        &[SectionKind::Of(Panel::Tools)],
        &Selection { turn: TurnSelector::parse("3"), ..Default::default() },
        &o,
    );
    assert!(tools.contains("call_rm_1") && tools.contains("call_push_1") && !tools.contains("call_read_1"));
}

#[test]
fn grep_filters_rows() {
    let (doc, derived) = load(MULTI);
    let sel = Selection { grep: Some(regex::Regex::new("rm -rf").unwrap()), ..Default::default() };
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &sel, &opts(120, false));
    let rows: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows.iter().all(|r| r.contains("rm -rf")));
    let timeline = &out[out.find("Timeline").unwrap()..];
    assert!(timeline.contains("turn 2") && !timeline.contains("session2/turn1") && !timeline.contains("turn 1 "));
    let none = Selection { grep: Some(regex::Regex::new("no such thing").unwrap()), ..Default::default() };
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &none, &opts(120, false));
    assert!(out.contains("No row matches --grep."));
}

#[test]
fn locator_selects_an_attempt() {
    let (doc, derived) = reviewed();
    let sel = Selection { locator: Some("@2ABCDEFGHJKMN".into()), ..Default::default() };
    let r = show(&doc, &derived, &[SectionKind::Of(Panel::Assertions)], &sel, &opts(100, false));
    assert_eq!(r.shown, 1);
    assert!(r.text.contains("@2ABCDEFGHJKMN") && !r.text.contains("@1K1P0VJAPVJ12"));
    let missing = Selection { locator: Some("@ZZZZ".into()), ..Default::default() };
    let r = show(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &missing, &opts(100, false));
    assert_eq!(r.shown, 0);
    assert!(r.notes[0].contains("no attempt with locator @ZZZZ"));
}

#[test]
fn failures_resolve_evidence_and_set_the_exit_code() {
    let (doc, derived) = reviewed();
    let r = show(&doc, &derived, &[SectionKind::Failures], &Selection::default(), &opts(120, false));
    assert_eq!(r.failing, 1);
    assert_eq!(niceeval::cli::show::exit_code(&[SectionKind::Failures], &r), 1);
    assert!(r.text.contains("@1K1P0VJAPVJ12") && !r.text.contains("@2ABCDEFGHJKMN"), "only failing attempts");
    // The occurrence id resolves to the merged timeline row of the failed Bash call.
    let evidence_row = r.text.lines().find(|l| l.trim_start().starts_with("1:5→6")).expect("evidence row");
    assert!(evidence_row.contains("✗ failed") && evidence_row.contains("vitest"));
    assert!(r.text.contains("not in this transcript"), "an unresolvable ref is named");
    // Failing gates first, unavailable distinct from failed and skipped.
    let failed_at = r.text.find("no failed actions").unwrap();
    let unavailable_at = r.text.find("judge: summary is accurate").unwrap();
    assert!(failed_at < unavailable_at);
    assert!(r.text.contains("? unavailable") && r.text.contains("source-unavailable"));
    let all =
        show(&doc, &derived, &[SectionKind::Of(Panel::Assertions)], &Selection::default(), &opts(120, false)).text;
    assert!(all.contains("– not applicable") && all.contains("✗ failed (not a gate)") && all.contains("✓ passed"));
    assert!(all.find("no failed actions").unwrap() < all.find("build succeeds").unwrap(), "failing gates first");
    // Only the passing attempt: exit 0.
    let sel = Selection { locator: Some("@2ABCDEFGHJKMN".into()), ..Default::default() };
    let r = show(&doc, &derived, &[SectionKind::Failures], &sel, &opts(120, false));
    assert_eq!(r.failing, 0);
    assert_eq!(niceeval::cli::show::exit_code(&[SectionKind::Failures], &r), 0);
    assert!(r.text.contains("No failures"));
    // A failing attempt without --failures is exit 0.
    let r = show(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &Selection::default(), &opts(120, false));
    assert_eq!(niceeval::cli::show::exit_code(&[SectionKind::Of(Panel::Timeline)], &r), 0);
}

#[test]
fn binary_exit_codes_and_errors() {
    let run = |args: &[&str]| Command::new(common::bin()).args(args).output().unwrap();
    // A capture has no verdict; its status (a failed last turn) makes it a failure to review.
    let failed = run(&["show", MULTI, "--failures"]);
    assert_eq!(failed.status.code(), Some(1), "the capture's status is failed");
    assert!(String::from_utf8_lossy(&failed.stdout).contains("✗ failed (status)"));
    // The demo waits for input in its last session, but turn 5 of its first failed:
    // that turn is a failure to review all the same.
    let demo = run(&["show", "assets/demo/session.json", "--failures"]);
    let text = String::from_utf8_lossy(&demo.stdout);
    assert_eq!(demo.status.code(), Some(1), "{text}");
    assert!(text.contains("failed turn 5") && text.contains("5:3") && text.contains("API error 529"), "{text}");
    let missing = run(&["show", "tests/fixtures/show/does-not-exist.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).starts_with("niceeval: "));
    assert!(missing.stdout.is_empty());
    let bad_re = run(&["show", MULTI, "--grep", "("]);
    assert_eq!(bad_re.status.code(), Some(2));
    let bad_turn = run(&["show", MULTI, "--turn", "nope"]);
    assert_eq!(bad_turn.status.code(), Some(2));
    let no_loc = run(&["show", MULTI, "@1K1P0VJAPVJ12"]);
    assert_eq!(no_loc.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_loc.stderr).contains("no attempt with locator"));
    // Off a terminal: 80 columns, no boxes, no colour.
    let out = run(&["show", MULTI, "--all"]);
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(!s.contains('╭') && !s.contains('\u{1b}'));
    assert!(s.lines().all(|l| niceeval::model::text::width(l) <= 80));
    let boxed = run(&["show", MULTI, "--boxed", "--width", "90", "--color", "always"]);
    let s = String::from_utf8(boxed.stdout).unwrap();
    assert!(s.starts_with('╭') && s.contains('\u{1b}'));
}

#[test]
fn closed_pipe_is_a_normal_exit() {
    // Many copies of the fixture make the output far larger than a pipe buffer.
    let dir = std::env::temp_dir().join(format!("niceeval-show-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rc = dir.join("rc");
    let paths = vec![MULTI; 60].join(" ");
    let script = format!("(\"$0\" show {paths} --all --full; echo $? > '{}') | head -1", rc.display());
    let out = Command::new("sh").arg("-c").arg(&script).arg(common::bin()).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&rc).unwrap().trim(), "0");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shared_hitl_sample_reads_as_approved_and_denied() {
    let Some(shared) = common::shared_dir() else {
        println!("skipping: ../shared is absent");
        return;
    };
    let path = shared.join("samples/handmade/sessions/session-01-hitl-approve-and-deny.json");
    if !path.exists() {
        println!("skipping: {} is absent", path.display());
        return;
    }
    let (doc, derived) = load(path.to_str().unwrap());
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Hitl)], &Selection::default(), &opts(120, false));
    assert!(out.contains("approval-call_rm_1"), "{out}");
    assert!(out.contains("approved → completed") || out.contains("denied → rejected"), "{out}");
    let all = plain::render_all(&doc, &derived, &findings_of(&doc, &derived), &opts(80, false));
    assert!(!all.contains('\u{1b}'));
}

#[test]
fn hitl_waiting_and_never_answered() {
    let (mut doc, _) = load(MULTI);
    // Stop the main session after the waiting turn2: its request is still waiting.
    doc.attempts[0].sessions[0].turns.truncate(2);
    let derived = derive(&doc);
    let out = text(
        &doc,
        &derived,
        &[SectionKind::Of(Panel::Hitl), SectionKind::Of(Panel::Timeline)],
        &Selection::default(),
        &opts(120, false),
    );
    assert!(out.contains("⏸ waiting — the turn is waiting and no later turn answers it"), "{out}");
    assert!(out.contains("… pending"), "the gated call is still pending:\n{out}");
    // A later turn that carries no response: never answered.
    let (mut doc, _) = load(MULTI);
    doc.attempts[0].sessions[0].turns[2].input = Some(json!({"text": "hello?"}));
    let derived = derive(&doc);
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Hitl)], &Selection::default(), &opts(120, false));
    assert!(out.contains("! never answered — turn 3 carries no response for this id"), "{out}");
}

#[test]
fn hitl_gated_call_is_the_cores_primary_gated() {
    use niceeval::model::hitl::hitl_requests;
    // A request id that names no operation: the call whose input equals the request's is chosen.
    let src =
        std::fs::read_to_string(MULTI).expect("fixture").replace(r#""id": "approval-call_rm_1""#, r#""id": "ask-1""#);
    let path = std::env::temp_dir().join(format!("niceeval-show-gated-{}.json", std::process::id()));
    std::fs::write(&path, src).expect("temp fixture");
    let (doc, derived) = load(path.to_str().expect("utf-8 temp path"));
    let _ = std::fs::remove_file(&path);
    let requests = hitl_requests(&doc.attempts[0], &derived[0].derived);
    let r = requests.iter().find(|r| r.id.as_deref() == Some("ask-1")).expect("the request");
    let primary = r.primary_gated(&doc.attempts[0], &derived[0].derived).expect("a primary gated call");
    assert!(r.gated.contains(&primary), "the primary call is one the viewer lists");
    assert_eq!(derived[0].derived.occurrences.occurrences[primary].operation_id.as_str(), "call_rm_1");
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Hitl)], &Selection::default(), &opts(120, false));
    assert!(out.contains("gated     shell call_rm_1 started at 2:2"), "{out}");
    assert!(out.contains("! never answered — turn 3 carries no response for this id"), "{out}");
}

#[test]
fn diagnostics_show_findings_with_where_and_fix() {
    use niceeval::model::diagnostics::{Finding, Location, Severity};
    let (doc, derived) = reviewed();
    let findings = vec![
        Finding::new(
            "orphan-finish",
            Location::new(0, 1, Some(0), Some(5)),
            "operation.finished for call_ghost has no open start",
        )
        .with_hint("emit operation.started before its finish"),
        Finding::new("waiting-without-request", Location::new(1, 0, Some(1), None), "only in the second attempt")
            .with_severity(Severity::Warning)
            .with_hint(""),
    ];
    let sel = Selection { locator: Some("@1K1P0VJAPVJ12".into()), ..Default::default() };
    let out =
        plain::render(&doc, &derived, &findings, &[SectionKind::Of(Panel::Diagnostics)], &sel, &opts(200, false)).text;
    let row = out.lines().find(|l| l.contains("orphan-finish") || l.contains("✗ error")).expect("finding row");
    assert!(row.contains("✗ error") && row.contains("5:6 session2/turn1"), "{out}");
    assert!(out.contains("fix: emit operation.started before its finish"));
    assert!(!out.contains("only in the second attempt"), "findings stay with their attempt");
    assert!(out.contains("sandbox-timeout") && out.contains("caused by: connection reset"));
    insta::assert_snapshot!("reviewed_diagnostics_with_findings_100_boxed", {
        plain::render(&doc, &derived, &findings, &[SectionKind::Of(Panel::Diagnostics)], &sel, &opts(100, true)).text
    });
}

fn check_render(doc: &Document, derived: &[AttemptView], what: &str) {
    let findings = findings_of(doc, derived);
    let mut sections = SectionKind::ALL.to_vec();
    sections.push(SectionKind::Failures);
    for (width, boxed, full) in [(80, false, false), (100, true, true), (61, true, false)] {
        let o = PlainOptions { width, boxed, color: false };
        let sel = Selection { full, ..Default::default() };
        let out = plain::render(doc, derived, &findings, &sections, &sel, &o).text;
        assert!(!out.contains('\u{1b}'), "{what}: ESC in output");
        for line in out.lines() {
            assert!(niceeval::model::text::width(line) <= width, "{what} at {width}: {line}");
        }
    }
}

#[test]
fn every_shared_sample_and_conformance_case_renders() {
    let Some(shared) = common::shared_dir() else {
        println!("skipping: ../shared is absent");
        return;
    };
    let mut n = 0;
    for dir in ["samples/handmade/turns", "samples/handmade/sessions", "conformance/samples"] {
        let Ok(entries) = std::fs::read_dir(shared.join(dir)) else { continue };
        for e in entries.flatten() {
            let path = e.path().to_string_lossy().to_string();
            let Ok(doc) = niceeval::load::load_paths(std::slice::from_ref(&path)) else { continue };
            check_render(&doc, &derive(&doc), &path);
            n += 1;
        }
    }
    if let Ok(entries) = std::fs::read_dir(shared.join("conformance/random")) {
        for e in entries.flatten() {
            let bytes = std::fs::read(e.path()).unwrap();
            let case: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            let input = serde_json::to_vec(&case["input"]).unwrap();
            let Ok(doc) = niceeval::load::load_bytes("case.json", &input) else { continue };
            check_render(&doc, &derive(&doc), &e.path().to_string_lossy());
            n += 1;
        }
    }
    println!("rendered {n} shared inputs");
    assert!(n > 0);
}

mod random_streams {
    use super::*;
    use proptest::prelude::*;

    fn event() -> impl Strategy<Value = serde_json::Value> {
        let id = prop::sample::select(vec!["a", "b", "c", "\u{1b}[31m"]);
        let text = prop::sample::select(vec![
            "",
            "hi",
            "日本語のテキスト",
            "x\u{1b}]52;c;Zm9v\u{7}y",
            "long long long long long long long long long long long long long long long",
        ]);
        let status = prop::sample::select(vec!["completed", "failed", "rejected", "weird"]);
        prop_oneof![
            text.clone().prop_map(|t| json!({"type": "message", "role": "assistant", "text": t})),
            (id.clone(), text.clone()).prop_map(|(i, t)| json!({"type": "operation.started", "operationId": i, "operation": {"kind": "tool", "name": t, "input": {"command": t}}})),
            (id.clone(), status.clone()).prop_map(|(i, s)| json!({"type": "operation.finished", "operationId": i, "kind": "tool", "status": s, "output": i})),
            (id.clone(), status).prop_map(|(i, s)| json!({"type": "operation.finished", "operationId": i, "kind": "subagent", "status": s})),
            id.clone().prop_map(|i| json!({"type": "operation.started", "operationId": i, "operation": {"kind": "subagent", "name": i}})),
            (id, text.clone()).prop_map(|(i, t)| json!({"type": "input.requested", "request": {"id": i, "prompt": t, "options": [{"id": "approve"}]}})),
            text.clone().prop_map(|t| json!({"type": t, "x": 1})),
            Just(json!(42)),
            Just(json!({"type": "operation.started"})),
        ]
    }

    fn turn() -> impl Strategy<Value = serde_json::Value> {
        (
            prop::collection::vec(event(), 0..8),
            prop::sample::select(vec!["completed", "failed", "waiting", "??"]),
            prop::option::of((0u32..5000, 0u32..100)),
        )
            .prop_map(|(events, status, usage)| {
                let mut t = json!({"events": events, "status": status});
                if let Some((i, o)) = usage {
                    t["usage"] = json!({"inputTokens": i, "outputTokens": o});
                }
                json!({"input": {"text": "go", "responses": [{"requestId": "a", "optionId": "approve"}]}, "turn": t})
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        #[test]
        fn any_stream_renders_safely(s1 in prop::collection::vec(turn(), 1..4), s2 in prop::collection::vec(turn(), 0..3)) {
            let mut sessions = vec![json!({"sessionIndex": 1, "turns": s1})];
            if !s2.is_empty() {
                sessions.push(json!({"sessionIndex": 2, "turns": s2}));
            }
            let input = serde_json::to_vec(&json!({"model": "claude-sonnet-4-5", "sessions": sessions})).unwrap();
            let doc = niceeval::load::load_bytes("random.json", &input).unwrap();
            check_render(&doc, &derive(&doc), "random stream");
        }
    }
}

#[test]
fn the_expected_policy_reads_as_words_not_as_a_value() {
    let (doc, derived) = load("assets/demo/record");
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Assertions)], &Selection::default(), &opts(100, false));
    assert!(out.contains("the check holds (is true)"), "{out}");
    assert!(!out.contains("expected: true"), "the policy is not an expected value:\n{out}");
}

/// Captures opened together are not attempts of one eval: none of them is
/// "attempt 2"; each is named by its file.
#[test]
fn files_opened_together_are_not_numbered_as_one_evals_attempts() {
    let dir = std::env::temp_dir().join(format!("niceeval-show-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    for name in ["a.json", "b.json", "c.json"] {
        let p = dir.join(name);
        std::fs::write(&p, br#"{"status":"completed","events":[{"type":"message","role":"assistant","text":"hi"}]}"#)
            .unwrap();
        paths.push(p.display().to_string());
    }
    let mut args = vec!["show", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let out = Command::new(common::bin()).args(&args).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let attempts = v["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 3);
    for (a, name) in attempts.iter().zip(["a.json", "b.json", "c.json"]) {
        assert_eq!(a["attempt"], serde_json::Value::Null, "{a:#}");
        assert_eq!(a["title"], name, "{}", a["title"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A turn of more rows than the timeline draws at once is drawn in parts
/// that read as one table: one header, every row once and in order, the
/// columns as wide in every part (the widest summary is in the last part).
#[test]
fn a_long_turn_reads_as_one_table() {
    let n = 10_000;
    let events: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let text = if i == n - 1 { format!("last {}", "w".repeat(40)) } else { format!("step {i}") };
            json!({"type": "thinking", "text": text})
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("niceeval-long-turn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("turn.json");
    std::fs::write(&path, json!({"events": events, "status": "completed"}).to_string()).unwrap();
    let (doc, derived) = load(path.to_str().unwrap());
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &Selection::default(), &opts(200, false));
    std::fs::remove_dir_all(&dir).ok();
    let headers = out.lines().filter(|l| l.trim_start().starts_with("pos ")).count();
    assert_eq!(headers, 1, "one header");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(" thinking ")).collect();
    assert_eq!(rows.len(), n, "every row once");
    for (i, l) in rows.iter().enumerate() {
        assert!(l.trim_start().starts_with(&format!("1:{} ", i + 1)), "row {i} in order: {l}");
    }
    // The kind column starts at the same place on every row: every part has the same widths.
    let kind_at: std::collections::HashSet<usize> = rows.iter().map(|l| l.find("thinking").unwrap()).collect();
    assert_eq!(kind_at.len(), 1, "kind column aligned across parts");
    assert!(rows[n - 1].contains(&"w".repeat(40)), "the widest summary, in the last part, is whole");
    // The input row and every event's.
    assert!(out.contains("10,001 rows"), "the count is of every part");
}

/// An `exp --json` line holds no conversation: its counts are missing, not
/// zero, in the text and in `show --json` alike.
#[test]
fn counts_of_an_attempt_without_recorded_events_are_missing() {
    let path = "tests/fixtures/exp/run.ndjson";
    let (doc, derived) = load(path);
    let out = text(&doc, &derived, &[SectionKind::Of(Panel::Timeline)], &Selection::default(), &opts(100, false));
    let counts: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("counts ")).collect();
    assert!(!counts.is_empty());
    assert!(counts.iter().all(|l| l.ends_with("— (events not recorded)")), "{counts:?}");
    let json = niceeval::view::json::document(&doc, &derived, &[], &Selection::default());
    let attempts = json["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), counts.len());
    assert!(attempts.iter().all(|a| a["counts"].is_null()), "counts are null, not zeros");
}

/// `--turn` takes the number every surface prints, `0` included (a turn
/// NiceEval numbered 0), and an event's address `N:i` (its turn).
#[test]
fn turn_zero_and_an_address_select_the_turn_printed_so() {
    let dir = std::env::temp_dir().join(format!("niceeval-turn0-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t0.json");
    let turn = |o: u64, text: &str| {
        format!(
            r#"{{"ordinal":{o},"turn":{{"events":[{{"type":"message","role":"assistant","text":"{text}"}}],"status":"completed"}}}}"#
        )
    };
    std::fs::write(&file, format!(r#"{{"sessions":[{{"turns":[{},{}]}}]}}"#, turn(0, "zeroth"), turn(1, "first")))
        .unwrap();
    for selector in ["0", "0:1"] {
        let out = std::process::Command::new(common::bin())
            .arg("show")
            .arg(&file)
            .args(["--turn", selector])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "--turn {selector}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(
            text.contains("turn 0") && text.contains("zeroth") && !text.contains("first"),
            "--turn {selector}:\n{text}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
