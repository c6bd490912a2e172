//! Findings about the input file itself: lines a JSONL load skipped and text
//! the loader replaced to open the file. They come first, before any turn's.
//! Each belongs to the first attempt read from its file (the one whose
//! notices say the line was lost), so every surface counts it once.

use super::Sink;
use crate::model::diagnostics::{Finding, InputAt, Location, LossKind};
use crate::model::document::Document;

pub fn findings(doc: &Document) -> Vec<Finding> {
    let mut sink = Sink { findings: Vec::new() };
    for loss in &doc.losses {
        let code = match loss.kind {
            LossKind::LineSkipped => "input-line-skipped",
            LossKind::TextReplaced => "input-text-replaced",
        };
        let attempt = doc.attempts.iter().position(|a| a.source.as_deref() == Some(loss.path.as_str())).unwrap_or(0);
        let at = InputAt { path: loss.path.clone(), line: loss.line, column: loss.column };
        sink.findings.push(Finding::new(code, Location::new(attempt, 0, None, None), loss.describe()).with_input(at));
    }
    sink.findings
}
