//! The view layer: every word, number, mark and tone a user reads, decided
//! once. It depends on `model` only; `plain` (text) and `ui` (ratatui) draw
//! what it gives, and `show --json` is its data serialised.

pub mod address;
pub mod assertions;
pub mod attempt;
pub mod blocks;
pub mod changes;
pub mod check;
pub mod chrome;
pub mod commands;
pub mod compare;
pub mod context;
pub mod diff;
pub mod errored;
pub mod filters;
pub mod findings;
pub mod first_failure;
pub mod fix_prompt;
pub mod format;
pub mod header;
pub mod highlight;
pub mod hints;
pub mod hitl;
pub mod inspect;
pub mod intent;
pub mod json;
pub mod keys;
pub mod nav;
pub mod niceeval_cli;
pub mod note;
pub mod notice;
pub mod panel;
pub mod payload;
pub mod preview;
pub mod report;
pub mod rules;
pub mod search;
pub mod sessions;
pub mod source;
pub mod source_rows;
pub mod summary;
pub mod text;
pub mod timeline;
pub mod timing;
pub mod tools;
pub mod translation;
pub mod usage;
pub mod verdict;
pub mod waterfall;
pub mod wrap;

pub use attempt::AttemptView;
pub use blocks::{Align, Block, Column, Overflow, Section, Table};
pub use text::{Text, Tone, clean};
