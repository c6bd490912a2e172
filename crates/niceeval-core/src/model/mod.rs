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
pub mod lint;
pub mod listed;
pub mod measure;
pub mod notice;
pub mod occurrence;
pub mod payload;
pub mod provenance;
pub mod recorded;
pub mod review;
pub mod rules;
pub mod sandbox;
pub mod spread;
pub mod timeline;
pub mod timing;
pub mod usage;
pub mod verdict;

// The JSON engine and terminal text are crates of their own; their old
// places here stay as names so the core reads them as before.
#[cfg(test)]
pub(crate) use niceeval_json::random as random_json;
pub use niceeval_json::{node as json_node, scan as json_scan, string as json_text};
pub use niceeval_text as text;
pub use niceeval_text::sgr;

pub use derive::{DerivedAttempt, TurnAddr, derive_attempt, derive_document};
pub use document::{Attempt, Document, Session, Turn, TurnRecord};
pub use event::{Event, EventKind, Role};
