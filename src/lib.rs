//! `niceeval`: a terminal viewer and CLI for NiceEval agent Turns, sessions
//! and eval results. The core (contract, derivation, load, view) is the
//! `niceeval-core` crate, with the JSON engine (`niceeval-json`) and
//! terminal text (`niceeval-text`) below it; this crate holds what draws and
//! drives it: `plain` and `ui` render the view, `app` is the UI state, and
//! the `runtime` (the terminal loop, background loads, `--watch`/`--follow`)
//! and `cli` sit on top.

pub use niceeval_core::{analysis, load, model, view};

pub mod app;
pub mod cli;
pub mod plain;
pub mod runtime;
pub mod screen;
pub mod styled;
pub mod ui;
