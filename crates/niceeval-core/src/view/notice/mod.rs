//! The words of every notice about an input. The loaders keep what they
//! found as facts (`model::notice`); this is the one place those facts
//! become sentences, for every surface (the header, `show`, `check`, the
//! JSON outputs). Callers that print still [`clean`](super::text::clean) them.

use crate::model::notice::Notice;

/// What `n` says, in one line (not yet sanitised for a terminal).
pub fn words(n: &Notice) -> String {
    n.message.clone()
}
