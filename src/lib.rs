//! `niceeval`: a terminal viewer and CLI for NiceEval agent Turns, sessions
//! and eval results. Dependencies point one way: model ← load;
//! model ← view ← {ui, plain}; view ← app ← ui; the terminal loop (term,
//! background, live) and cli sit on top.

pub mod app;
pub mod background;
pub mod cli;
pub mod live;
pub mod load;
pub mod model;
pub mod plain;
pub mod term;
pub mod timings;
pub mod ui;
pub mod view;
