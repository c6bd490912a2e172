//! How much `y` copies.

/// The most bytes `y` sends over OSC 52: terminals and multiplexers cut or
/// drop longer sequences, and a value of many megabytes stalls the terminal.
pub const COPY_AT_MOST: usize = 100_000;
