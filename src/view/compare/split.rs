//! The split view of two attempts (see below).
