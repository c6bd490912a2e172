//! The parse machinery: bytes to JSON values and raw events, with no format
//! known. A whole document ([`parse_json`], [`compact`], [`repair`]), a large
//! one piece by piece ([`split`]) with its StreamEvents kept as text
//! ([`lazy`]), a JSONL stream line by line ([`lines`]), and the prefix of a
//! document closed for a preview ([`prefix`]). Which formats exist, and
//! where they hold events, is `load::format`'s to say.

pub mod compact;
pub mod lazy;
pub mod lines;
pub mod prefix;
pub mod raw_check;
pub mod repair;
pub mod split;

use super::error::LoadError;
use super::input::strip_bom;
use serde_json::Value;

/// Parse a whole buffer as one JSON document, with a positioned error.
pub fn parse_json(path: &str, bytes: &[u8]) -> Result<Value, LoadError> {
    let (repaired, _) = repair::repair(bytes);
    parse_repaired(path, &repaired)
}

/// [`parse_json`] for a buffer that [`repair::repair`] already went over.
fn parse_repaired(path: &str, bytes: &[u8]) -> Result<Value, LoadError> {
    let bytes = strip_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(LoadError::new(path, "the file is empty (expected JSON)"));
    }
    compact::from_slice(bytes).map_err(|e| LoadError::json(path, &e, 0))
}
