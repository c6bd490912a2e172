//! Lint rules for event streams (`niceeval check`, the Diagnostics tab).

use super::derive::DerivedAttempt;
use super::diagnostics::Finding;
use super::document::Document;

/// Every finding for every attempt of a document. `derived[i]` belongs to `doc.attempts[i]`.
pub fn lint_document(doc: &Document, derived: &[DerivedAttempt]) -> Vec<Finding> {
    let _ = (doc, derived);
    Vec::new()
}
