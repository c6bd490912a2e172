//! Attempt locators (`@1` + 12 Crockford base32 characters), computed from
//! the AttemptId exactly as NiceEval's `attempt-locator.ts` does: the first
//! 8 bytes of SHA-256(AttemptId as UTF-8) as a big-endian u64, shifted right
//! by 4 (60 bits), emitted as 12 five-bit groups, most significant first.

use sha2::{Digest, Sha256};

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// `@1…` locator for an AttemptId. Test vector:
/// `fff46600-698f-440f-aa51-e5f027964599` → `@1EPKKSFC052VY`.
pub fn attempt_locator(attempt_id: &str) -> String {
    let digest = Sha256::digest(attempt_id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    let bits = u64::from_be_bytes(first) >> 4;
    let mut out = String::with_capacity(14);
    out.push_str("@1");
    for i in (0..12).rev() {
        let group = ((bits >> (i * 5)) & 0x1f) as usize;
        out.push(ALPHABET[group] as char);
    }
    out
}

/// Strict syntax check: `@1` then exactly 12 upper-case Crockford characters
/// (no trimming, no lower case), as the CLI parses locators.
pub fn is_locator(s: &str) -> bool {
    s.len() == 14 && s.starts_with("@1") && s.as_bytes()[2..].iter().all(|b| ALPHABET.contains(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_vector() {
        assert_eq!(attempt_locator("fff46600-698f-440f-aa51-e5f027964599"), "@1EPKKSFC052VY");
        assert!(is_locator("@1EPKKSFC052VY"));
        assert!(!is_locator("@1epkksfc052vy"));
        assert!(!is_locator(" @1EPKKSFC052VY"));
        assert!(!is_locator("@1EPKKSFC052VI"));
    }
}
