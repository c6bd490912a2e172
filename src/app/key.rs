//! The keys the app knows, in its own terms (the key table's, `view::keys`):
//! the terminal loop turns what the terminal reports into a [`KeyPress`],
//! so `app` depends on no terminal library.

pub use crate::view::keys::{KeyCode, KeyPress, Mods};
