//! How much of a part of the input was recorded: said of events, assertions,
//! file changes and timing alike.

/// How much of a part of the input was recorded.
#[derive(Debug, Clone, PartialEq)]
pub enum Completeness {
    Complete,
    Partial(Vec<String>),
    NotRecorded,
}
