//! The runtime: the terminal's lifecycle and event loop (`term`), the
//! background load of a large file (`background`), `--watch`/`--follow`
//! sources (`live`), the loading line on stderr (`loading`) and the
//! `NICEEVAL_TIMING` measurements (`timings`). Everything here turns the
//! outside world (the terminal, files, the clock, signals) into messages
//! for `app`.

pub mod background;
pub mod folder;
mod keys;
pub mod live;
pub mod loading;
pub mod settings;
pub mod term;
pub mod timings;
