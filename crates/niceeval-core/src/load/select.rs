//! Narrowing a loaded document to some experiments (`show --experiment`),
//! as NiceEval's `--experiment` narrows by complete ExperimentId.

use crate::model::document::{Document, NoticeKind};

/// Keep only the attempts (and not-recorded slots) of these experiments,
/// and say anew which slots were not recorded. Returns the ids that match
/// nothing in the document, for the caller to report.
pub fn experiments(doc: &mut Document, ids: &[String]) -> Vec<String> {
    let known = |id: &str| {
        doc.attempts.iter().any(|a| a.experiment_id.as_deref() == Some(id))
            || doc.slots_not_recorded.iter().any(|s| s.experiment_id.as_deref() == Some(id))
    };
    let unknown: Vec<String> = ids.iter().filter(|id| !known(id)).cloned().collect();
    let keep = |e: &Option<String>| e.as_deref().is_some_and(|e| ids.iter().any(|id| id == e));
    doc.attempts.retain(|a| keep(&a.experiment_id));
    doc.slots_not_recorded.retain(|s| keep(&s.experiment_id));
    let had_slots_notice = doc.notices.iter().any(|n| matches!(n.kind, NoticeKind::SlotsNotRecorded(_)));
    doc.notices.retain(|n| !matches!(n.kind, NoticeKind::SlotsNotRecorded(_)));
    if had_slots_notice && !doc.slots_not_recorded.is_empty() {
        doc.notices.push(super::format::record::slots_notice(&doc.slots_not_recorded));
    }
    unknown
}

/// Every experiment id the document holds, sorted, once each.
pub fn experiment_ids(doc: &Document) -> Vec<String> {
    let mut ids: Vec<String> = doc
        .attempts
        .iter()
        .filter_map(|a| a.experiment_id.clone())
        .chain(doc.slots_not_recorded.iter().filter_map(|s| s.experiment_id.clone()))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::Attempt;
    use crate::model::recorded::SlotNotRecorded;

    fn attempt(experiment: &str) -> Attempt {
        Attempt { experiment_id: Some(experiment.into()), ..Default::default() }
    }

    #[test]
    fn only_the_named_experiments_stay_and_unknown_ids_are_returned() {
        let mut doc = Document {
            attempts: vec![attempt("main"), attempt("alt"), attempt("main"), Attempt::default()],
            slots_not_recorded: vec![SlotNotRecorded { experiment_id: Some("alt".into()), ..Default::default() }],
            ..Default::default()
        };
        doc.notices.push(super::super::format::record::slots_notice(&doc.slots_not_recorded));
        assert_eq!(experiment_ids(&doc), vec!["alt".to_string(), "main".to_string()]);
        let unknown = experiments(&mut doc, &["main".into(), "nope".into()]);
        assert_eq!(unknown, vec!["nope".to_string()]);
        assert_eq!(doc.attempts.len(), 2);
        assert!(doc.slots_not_recorded.is_empty());
        assert!(
            doc.notices.iter().all(|n| !matches!(n.kind, NoticeKind::SlotsNotRecorded(_))),
            "the notice named alt's slot"
        );
    }
}
