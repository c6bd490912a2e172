use super::*;
use Verdict::{Errored, Failed, Passed, Skipped};

fn e(side: Option<Side>, experiment: &str, eval: &str, n: u64, verdict: Option<Verdict>) -> Entry {
    Entry {
        side,
        experiment: Some(experiment.into()),
        eval: Some(eval.into()),
        attempt_number: Some(n),
        verdict,
        ..Default::default()
    }
}

fn one(experiment: &str, eval: &str, verdict: Verdict) -> Entry {
    e(None, experiment, eval, 1, Some(verdict))
}

fn row<'a>(c: &'a Comparison, eval: &str) -> &'a Row {
    c.rows.iter().find(|r| r.eval.as_deref() == Some(eval)).expect("row")
}

#[test]
fn a_row_is_fixed_broken_flaky_changed_or_unchanged_along_its_columns() {
    let entries = vec![
        one("base", "fix", Failed),
        one("mem", "fix", Passed),
        one("base", "break", Passed),
        one("mem", "break", Errored),
        one("base", "same", Failed),
        one("mem", "same", Failed),
        one("base", "words", Failed),
        one("mem", "words", Errored),
        one("base", "skip", Skipped),
        one("mem", "skip", Passed),
        one("base", "solo", Failed),
    ];
    let c = compare(&entries, &[]).unwrap();
    assert_eq!(row(&c, "fix").change, Change::Fixed);
    assert_eq!(row(&c, "break").change, Change::Broken);
    assert_eq!(row(&c, "same").change, Change::Unchanged);
    assert_eq!(row(&c, "words").change, Change::Changed, "failed → errored is still failing, but changed");
    assert_eq!(row(&c, "skip").change, Change::Changed, "skipped is neither passing nor failing");
    assert_eq!(row(&c, "solo").change, Change::Unchanged);
    assert!(row(&c, "solo").cells[1].is_none(), "not run in mem");
    // Broken first, then fixed, then changed, then the rest; by eval inside each.
    let order: Vec<_> = c.rows.iter().map(|r| r.eval.clone().unwrap()).collect();
    assert_eq!(order, ["break", "fix", "skip", "words", "same", "solo"]);
    assert!(c.pairs.is_none(), "one source has no pairs");
}

#[test]
fn both_ways_along_a_row_or_a_mixed_cell_is_flaky() {
    let entries = vec![
        one("a", "zigzag", Passed),
        one("b", "zigzag", Failed),
        one("c", "zigzag", Passed),
        e(None, "a", "mixed", 1, Some(Failed)),
        e(None, "a", "mixed", 2, Some(Passed)),
        one("b", "mixed", Passed),
    ];
    let c = compare(&entries, &[]).unwrap();
    assert_eq!(row(&c, "zigzag").change, Change::Flaky);
    let mixed = row(&c, "mixed");
    assert_eq!(mixed.change, Change::Flaky);
    let cell = mixed.cells[0].as_ref().unwrap();
    assert_eq!((cell.passed, cell.total), (1, 2));
    assert!(cell.mixed());
}

#[test]
fn the_representative_is_the_last_attempt_by_number_as_niceeval_picks_it() {
    // File order is not attempt order: attempt 2 comes first in the file.
    let entries = vec![e(None, "x", "ev", 2, Some(Failed)), e(None, "x", "ev", 1, Some(Passed))];
    let c = compare(&entries, &[]).unwrap();
    let cell = c.rows[0].cells[0].as_ref().unwrap();
    assert_eq!(cell.representative, 0);
    assert_eq!(cell.attempts, vec![1, 0], "by attempt number");
    assert_eq!(cell.verdict(&entries), Some(Failed));
    // Unnumbered attempts: the last in the file.
    let unnumbered = vec![
        Entry { eval: Some("ev".into()), verdict: Some(Passed), ..Default::default() },
        Entry { eval: Some("ev".into()), verdict: Some(Failed), ..Default::default() },
    ];
    let c = compare(&unnumbered, &[]).unwrap();
    assert_eq!(c.rows[0].cells[0].as_ref().unwrap().representative, 1);
}

#[test]
fn a_stated_tally_counts_the_attempts_the_file_does_not_list() {
    let mut only = one("x", "ev", Failed);
    only.tally = Some((1, 3));
    let c = compare(&[only], &[]).unwrap();
    let cell = c.rows[0].cells[0].as_ref().unwrap();
    assert_eq!((cell.passed, cell.total), (1, 3));
    assert_eq!(c.rows[0].change, Change::Flaky);
}

#[test]
fn chosen_experiments_are_the_columns_in_their_order_and_unknown_ones_are_refused() {
    let entries = vec![one("a", "ev", Failed), one("b", "ev", Passed), one("c", "ev", Failed)];
    let c = compare(&entries, &["c".into(), "a".into()]).unwrap();
    let cols: Vec<_> = c.columns.iter().map(|k| k.experiment.clone().unwrap()).collect();
    assert_eq!(cols, ["c", "a"]);
    assert_eq!(c.rows[0].change, Change::Unchanged, "b is left out");
    let err = compare(&entries, &["nope".into()]).unwrap_err();
    assert_eq!(err.wanted, "nope");
    assert_eq!(err.known, ["a", "b", "c"]);
}

fn before(x: &str, eval: &str, v: Verdict) -> Entry {
    e(Some(Side::Before), x, eval, 1, Some(v))
}

fn after(x: &str, eval: &str, v: Verdict) -> Entry {
    e(Some(Side::After), x, eval, 1, Some(v))
}

fn class_of(c: &Comparison, eval: &str) -> Vec<PairClass> {
    let (_, pairs) = c.pairs.as_ref().unwrap();
    pairs
        .iter()
        .filter(|p| p.before.or(p.after).is_some_and(|(r, _)| c.rows[r].eval.as_deref() == Some(eval)))
        .map(|p| p.class)
        .collect()
}

#[test]
fn two_sources_with_the_same_experiments_pair_by_experiment_and_eval() {
    let entries = vec![
        before("main", "fix", Failed),
        before("main", "break", Passed),
        before("main", "still-fail", Failed),
        before("main", "still-pass", Passed),
        before("main", "gone", Passed),
        before("main", "skip", Skipped),
        before("side", "fix", Passed),
        after("main", "fix", Passed),
        after("main", "break", Failed),
        after("main", "still-fail", Errored),
        after("main", "still-pass", Passed),
        after("main", "new", Failed),
        after("main", "skip", Skipped),
    ];
    let c = compare(&entries, &[]).unwrap();
    let (by, pairs) = c.pairs.as_ref().unwrap();
    assert_eq!(*by, PairedBy::ExperimentAndEval);
    // main's before and after sit side by side; side has no after column.
    let cols: Vec<_> = c.columns.iter().map(|k| (k.side, k.experiment.clone().unwrap())).collect();
    assert_eq!(
        cols,
        [(Side::Before, "main".to_string()), (Side::After, "main".to_string()), (Side::Before, "side".to_string())]
    );
    assert_eq!(class_of(&c, "fix"), [PairClass::Fixed, PairClass::OnlyBefore], "side/fix has no after");
    assert_eq!(class_of(&c, "break"), [PairClass::Broken]);
    // Failed → errored fails on both sides, but is not the same: the pair says changed, as its row does.
    assert_eq!(class_of(&c, "still-fail"), [PairClass::Changed]);
    assert_eq!(class_of(&c, "still-pass"), [PairClass::StillPassing]);
    assert_eq!(class_of(&c, "gone"), [PairClass::OnlyBefore]);
    assert_eq!(class_of(&c, "new"), [PairClass::OnlyAfter]);
    assert_eq!(class_of(&c, "skip"), [PairClass::Unchanged]);
    assert!(pairs.iter().all(|p| p.experiment.is_some()));
    // The row's change comes from its pairs, not from the columns.
    assert_eq!(row(&c, "fix").change, Change::Fixed);
    assert_eq!(row(&c, "still-fail").change, Change::Changed);
    assert_eq!(row(&c, "gone").change, Change::Unchanged);
    // Pairs are listed broken first, then fixed, …, still passing last.
    let classes: Vec<_> = pairs.iter().map(|p| p.class).collect();
    let mut sorted = classes.clone();
    sorted.sort();
    assert_eq!(classes, sorted);
    assert_eq!(classes.first(), Some(&PairClass::Broken));
}

#[test]
fn two_sources_with_different_experiments_pair_by_eval() {
    let entries = vec![
        before("baseline", "recall", Failed),
        before("baseline", "tool", Failed),
        after("memory", "recall", Passed),
        after("memory", "tool", Failed),
        after("memory", "extra", Passed),
    ];
    let c = compare(&entries, &[]).unwrap();
    let (by, pairs) = c.pairs.as_ref().unwrap();
    assert_eq!(*by, PairedBy::Eval);
    assert_eq!(class_of(&c, "recall"), [PairClass::Fixed]);
    assert_eq!(class_of(&c, "tool"), [PairClass::StillFailing]);
    assert_eq!(class_of(&c, "extra"), [PairClass::OnlyAfter]);
    assert!(pairs.iter().all(|p| p.experiment.is_none()));
    assert_eq!(c.columns[0].side, Side::Before);
    assert_eq!(c.columns[1].side, Side::After);
}

#[test]
fn two_single_attempts_pair_whatever_their_names() {
    let entries = vec![
        Entry { side: Some(Side::Before), verdict: Some(Passed), ..Default::default() },
        Entry { side: Some(Side::After), eval: Some("named".into()), verdict: Some(Failed), ..Default::default() },
    ];
    let c = compare(&entries, &[]).unwrap();
    let (by, pairs) = c.pairs.as_ref().unwrap();
    assert_eq!(*by, PairedBy::OnlyAttempts);
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].class, PairClass::Broken);
    assert_ne!(pairs[0].before.unwrap().0, pairs[0].after.unwrap().0, "two rows, one pair");
}

#[test]
fn the_only_pair_of_two_single_attempts_marks_both_its_rows() {
    // A Record attempt against a session file of another eval: two rows, one pair; both rows read as
    // the pair changed (and come first), as the pairs list says.
    let entries = vec![
        e(Some(Side::Before), "kitchen", "release", 1, Some(Passed)),
        Entry {
            side: Some(Side::After),
            eval: Some("coding/fix-add".into()),
            verdict: Some(Failed),
            ..Default::default()
        },
        e(Some(Side::Before), "kitchen", "release", 2, Some(Passed)),
    ];
    let c = compare(&entries[..2], &[]).unwrap();
    assert_eq!(c.pairs.as_ref().unwrap().1[0].class, PairClass::Broken);
    assert_eq!(row(&c, "release").change, Change::Broken);
    assert_eq!(row(&c, "coding/fix-add").change, Change::Broken);
    // With more than one attempt on a side, evals pair by name again: no pair, no change.
    let c = compare(&entries, &[]).unwrap();
    assert_eq!(c.pairs.as_ref().unwrap().0, PairedBy::Eval);
    assert!(c.rows.iter().all(|r| r.change == Change::Unchanged));
}

#[test]
fn captures_without_a_verdict_change_when_their_status_does() {
    use crate::model::verdict::ScopeStatus;
    // Two session captures (no verdict): one failed, the other completed. That is a change, not
    // "unchanged"; the same status on both sides is unchanged.
    let capture = |side, eval: &str, status| Entry {
        side: Some(side),
        eval: Some(eval.into()),
        status: Some(status),
        ..Default::default()
    };
    let entries = vec![
        capture(Side::Before, "fix-add", ScopeStatus::Failed),
        capture(Side::After, "fix-add", ScopeStatus::Completed),
        capture(Side::Before, "same", ScopeStatus::Failed),
        capture(Side::After, "same", ScopeStatus::Failed),
    ];
    let c = compare(&entries, &[]).unwrap();
    assert_eq!(class_of(&c, "fix-add"), [PairClass::Changed]);
    assert_eq!(row(&c, "fix-add").change, Change::Changed);
    assert_eq!(class_of(&c, "same"), [PairClass::Unchanged]);
    assert_eq!(row(&c, "same").change, Change::Unchanged);
    // One source, from column to column.
    let one = |x: &str, status| Entry { side: None, experiment: Some(x.into()), ..capture(Side::One, "ev", status) };
    let c = compare(&[one("a", ScopeStatus::Failed), one("b", ScopeStatus::Completed)], &[]).unwrap();
    assert_eq!(c.rows[0].change, Change::Changed);
}

#[test]
fn a_mixed_side_makes_the_pair_flaky() {
    let entries = vec![
        e(Some(Side::Before), "x", "ev", 1, Some(Failed)),
        e(Some(Side::Before), "x", "ev", 2, Some(Passed)),
        after("x", "ev", Passed),
    ];
    let c = compare(&entries, &[]).unwrap();
    assert_eq!(class_of(&c, "ev"), [PairClass::Flaky]);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn entry() -> impl Strategy<Value = Entry> {
        let verdict =
            prop_oneof![Just(None), Just(Some(Passed)), Just(Some(Failed)), Just(Some(Errored)), Just(Some(Skipped)),];
        let side = prop_oneof![Just(Side::Before), Just(Side::After)];
        (side, 0..3usize, 0..4usize, proptest::option::of(1..4u64), verdict).prop_map(|(side, x, ev, n, verdict)| {
            Entry {
                side: Some(side),
                experiment: Some(["a", "b", "c"][x].into()),
                eval: Some(["w", "x", "y", "z"][ev].into()),
                attempt_number: n,
                verdict,
                ..Default::default()
            }
        })
    }

    proptest! {
        #[test]
        fn every_attempt_is_in_one_cell_and_every_cell_is_paired(entries in proptest::collection::vec(entry(), 0..24)) {
            let c = compare(&entries, &[]).unwrap();
            let mut seen = vec![0usize; entries.len()];
            for row in &c.rows {
                for cell in row.cells.iter().flatten() {
                    for &i in &cell.attempts {
                        seen[i] += 1;
                    }
                    let key = |i: usize| (entries[i].attempt_number.unwrap_or(0), i);
                    prop_assert_eq!(cell.attempts.iter().copied().max_by_key(|&i| key(i)), Some(cell.representative));
                    prop_assert!(cell.passed <= cell.total && cell.total == cell.attempts.len() as u64);
                }
            }
            prop_assert!(seen.iter().all(|&n| n == 1), "{:?}", seen);
            // Rows: changes first.
            prop_assert!(c.rows.windows(2).all(|w| (w[0].change, &w[0].eval) <= (w[1].change, &w[1].eval)));
            if let Some((_, pairs)) = &c.pairs {
                for (ri, row) in c.rows.iter().enumerate() {
                    for (ci, cell) in row.cells.iter().enumerate() {
                        if cell.is_some() {
                            let at = Some((ri, ci));
                            prop_assert!(pairs.iter().any(|p| p.before == at || p.after == at), "cell {:?} unpaired", at);
                        }
                    }
                }
                for p in pairs {
                    prop_assert!(p.before.is_some() || p.after.is_some());
                    let class = classify(&entries, p.before.and_then(|at| c.cell(at)), p.after.and_then(|at| c.cell(at)));
                    prop_assert_eq!(class, p.class);
                }
            }
        }
    }
}
