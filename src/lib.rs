//! `niceeval`: a terminal viewer and CLI for NiceEval agent Turns, sessions
//! and eval results. The core (contract, derivation, load, view) is the
//! `niceeval-core` crate, with the JSON engine (`niceeval-json`) and
//! terminal text (`niceeval-text`) below it; this crate holds what draws and
//! drives it: `plain` and `ui` render the view, `app` is the UI state, the
//! terminal loop (term, background, live) and `cli` sit on top.

pub use niceeval_core::{analysis, load, model, view};

pub mod app;
pub mod background;
pub mod cli;
pub mod live;
pub mod loading;
pub mod plain;
pub mod term;
pub mod timings;
pub mod ui;
