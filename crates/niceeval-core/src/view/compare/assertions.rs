//! The assertions of two attempts, paired: by where the eval source
//! declares them, else their label, else their criterion and rank; each
//! pair is fixed, broken, changed or the same, or on one side only.

use super::Cv;
use crate::model::verdict::{AssertionOutcome, assertion_outcome};
use crate::view::text::{Text, Tone};

/// How an assertion went from one side to the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AssertionChange {
    Broken,
    Fixed,
    Changed,
    OnlyBefore,
    OnlyAfter,
    Same,
}

impl AssertionChange {
    pub fn word(self) -> &'static str {
        match self {
            AssertionChange::Broken => "broken",
            AssertionChange::Fixed => "fixed",
            AssertionChange::Changed => "changed",
            AssertionChange::OnlyBefore => "only before",
            AssertionChange::OnlyAfter => "only after",
            AssertionChange::Same => "same",
        }
    }

    pub fn text(self) -> Text {
        let (mark, tone) = match self {
            AssertionChange::Broken => ("✗", Tone::Bad),
            AssertionChange::Fixed => ("✓", Tone::Good),
            AssertionChange::Changed => ("≠", Tone::Warn),
            AssertionChange::OnlyBefore => ("◀", Tone::Soft),
            AssertionChange::OnlyAfter => ("▶", Tone::Soft),
            AssertionChange::Same => ("=", Tone::Soft),
        };
        Text::toned(format!("{mark} {}", self.word()), tone)
    }
}

/// One assertion of either side, with its counterpart (indices into each
/// attempt's assertions).
#[derive(Debug, Clone, PartialEq)]
pub struct AssertionPair {
    pub sides: [Option<usize>; 2],
    pub change: AssertionChange,
}

/// What an assertion is, to find it on the other side, most telling first:
/// where the eval source declares it, its own label, its criterion and rank
/// among the assertions of that criterion.
fn identities(attempt: &crate::model::document::Attempt) -> Vec<[Option<String>; 3]> {
    let review = &attempt.review;
    let list = review.assertions.as_deref().unwrap_or(&[]);
    let mut ranks: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    list.iter()
        .map(|a| {
            let site =
                review.source_sites.iter().find(|s| s.entry_id.is_some() && s.entry_id == a.entry_id).map(|site| {
                    let file = review.sources.iter().find(|f| f.id.is_some() && f.id == site.source_id);
                    format!("{}:{}:{}", file.map_or("?", |f| f.path.as_str()), site.line, site.column.unwrap_or(0))
                });
            let label =
                (!a.label.is_empty() && a.entry_id.as_deref() != Some(a.label.as_str())).then(|| a.label.clone());
            let criterion = a.criterion.as_deref().unwrap_or("");
            let rank = ranks.entry(criterion).or_default();
            *rank += 1;
            [site, label, Some(format!("{criterion} #{rank}"))]
        })
        .collect()
}

/// Pair each assertion with the other side's: by the first identity both
/// have, tier by tier, each assertion used once.
fn match_assertions(before: &[[Option<String>; 3]], after: &[[Option<String>; 3]]) -> Vec<Option<usize>> {
    let mut out: Vec<Option<usize>> = vec![None; before.len()];
    let mut taken = vec![false; after.len()];
    for tier in 0..3 {
        for (i, b) in before.iter().enumerate() {
            if out[i].is_some() {
                continue;
            }
            let Some(key) = &b[tier] else { continue };
            if let Some(j) = (0..after.len()).find(|&j| !taken[j] && after[j][tier].as_ref() == Some(key)) {
                out[i] = Some(j);
                taken[j] = true;
            }
        }
    }
    out
}

fn assertion_change(before: AssertionOutcome, after: AssertionOutcome) -> AssertionChange {
    let failing = |o: AssertionOutcome| o.is_failing() || o == AssertionOutcome::FailedSoft;
    match (before, after) {
        (b, a) if b == a => AssertionChange::Same,
        (AssertionOutcome::Passed, a) if failing(a) => AssertionChange::Broken,
        (b, AssertionOutcome::Passed) if failing(b) => AssertionChange::Fixed,
        _ => AssertionChange::Changed,
    }
}

pub(super) fn pair_assertions(c: &Cv, before: usize, after: usize) -> Vec<AssertionPair> {
    let (ab, aa) = (&c.doc.attempts[before], &c.doc.attempts[after]);
    let matched = match_assertions(&identities(ab), &identities(aa));
    let list = |a: &crate::model::document::Attempt| a.review.assertions.clone().unwrap_or_default();
    let (lb, la) = (list(ab), list(aa));
    // Each side in the order its page lists it (failing first).
    let order = |l: &[crate::model::document::Assertion]| crate::view::assertions::ordered(l);
    let mut out: Vec<AssertionPair> = Vec::new();
    for i in order(&lb) {
        let j = matched[i];
        let change = match j {
            Some(j) => assertion_change(assertion_outcome(&lb[i]), assertion_outcome(&la[j])),
            None => AssertionChange::OnlyBefore,
        };
        out.push(AssertionPair { sides: [Some(i), j], change });
    }
    for j in order(&la).into_iter().filter(|j| !matched.contains(&Some(*j))) {
        out.push(AssertionPair { sides: [None, Some(j)], change: AssertionChange::OnlyAfter });
    }
    // Changed first; the sort is stable, so each group keeps the pages' order.
    out.sort_by_key(|p| p.change);
    out
}

/// The change of an assertion as a word padded to one width ("=" when the same).
pub(super) fn change_tag(change: AssertionChange) -> Text {
    let word = if change == AssertionChange::Same { "=" } else { change.word() };
    let tone = change.text().first_tone();
    Text::toned(format!("{word:<12}"), tone)
}

/// An assertion as every surface titles it ([`crate::view::assertions::title`]).
pub(super) fn assertion_place(
    attempt: &crate::model::document::Attempt,
    a: &crate::model::document::Assertion,
) -> String {
    crate::view::assertions::title(attempt, a)
}
