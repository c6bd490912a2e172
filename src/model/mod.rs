//! The pure derivation core. No file I/O, no terminal, no clock: input is
//! JSON values, output is derived facts. Everything else reads from here.

pub mod command;
pub mod compare;
pub mod completeness;
pub mod coverage;
pub mod derive;
pub mod derive_json;
pub mod diagnostics;
pub mod document;
pub mod event;
pub mod evidence;
pub mod facts;
pub mod hitl;
pub mod indices;
pub mod json_node;
pub mod json_scan;
pub mod json_text;
pub mod lint;
pub mod occurrence;
pub mod parallel;
pub mod payload;
#[cfg(test)]
pub(crate) mod random_json;
pub mod review;
pub mod sgr;
pub mod text;
pub mod timeline;
pub mod timing;
pub mod unicode_cf;
pub mod usage;
pub mod verdict;

pub use derive::{DerivedAttempt, TurnAddr, derive_attempt, derive_document};
pub use document::{Attempt, Document, Session, Turn, TurnRecord};
pub use event::{Event, EventKind, Role};
