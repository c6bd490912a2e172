//! The view layer: every word, number, mark and tone a user reads, decided
//! once. It depends on `model` only; `plain` (text) and `ui` (ratatui) draw
//! what it gives, and `show --json` is its data serialised.

pub mod blocks;
pub mod format;
pub mod text;
pub mod verdict;

pub use blocks::{Align, Block, Column, Overflow, Section, Table};
pub use text::{Text, Tone, clean};
