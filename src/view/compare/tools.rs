//! Tool-call sequences diffed.
