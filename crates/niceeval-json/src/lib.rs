//! The JSON engine: values read where they are in a loaded file, without
//! building a tree (`node`), the scans that find where strings and
//! containers end (`scan`), string escapes and digests (`string`, `digest`),
//! and the bytes a raw value is read from (`source`). No terminal, no
//! threads, no knowledge of the StreamEvent contract.

pub mod digest;
pub mod field;
pub mod node;
pub mod pretty;
#[doc(hidden)]
pub mod random;
pub mod scan;
pub mod source;
pub mod string;

pub use digest::{TextDigest, text_hash};
pub use field::Field;
pub use node::{JsonType, Node, Object};
pub use source::{Bytes, Source};
