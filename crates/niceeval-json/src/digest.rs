//! What the text checks need of a string, without holding it.

use crate::node::Node;

/// What the text checks need of a string without holding it: the length of
/// its trimmed text, a hash of that length and its ends (see [`text_hash`]),
/// whether it is blank, and whether it has at least eight characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextDigest {
    pub hash: u64,
    pub blank: bool,
    pub at_least_8_chars: bool,
}

impl TextDigest {
    pub fn of(text: &str) -> TextDigest {
        let t = text.trim();
        TextDigest { hash: text_hash(t), blank: t.is_empty(), at_least_8_chars: t.chars().nth(7).is_some() }
    }

    /// The digest of a string node, without decoding a long raw string whole.
    pub fn of_node(node: Node<'_>) -> Option<TextDigest> {
        if let Some(inner) = node.raw_string_text()
            && memchr::memchr(b'\\', inner).is_some()
        {
            return crate::string::escaped_digest(inner).or_else(|| node.as_str().map(|t| TextDigest::of(&t)));
        }
        node.as_str().map(|t| TextDigest::of(&t))
    }
}

/// A hash of a text by at most 256 bytes of its ends (a tool output can be
/// megabytes, and the length of an escaped one is known only by reading
/// it all); equal texts hash equal. The two ends are written as a stream,
/// so a text of 256 bytes hashes the same whole or as ends.
pub fn text_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let b = text.as_bytes();
    const END: usize = 128;
    let mut h = std::hash::DefaultHasher::new();
    if b.len() <= 2 * END {
        h.write(b);
    } else {
        h.write(&b[..END]);
        h.write(&b[b.len() - END..]);
    }
    h.finish()
}
