//! Finding bytes in JSON text where they are dense: a tool output has an
//! escape every line, so calling `memchr` once per escape costs more than
//! the search. [`find_each`] compares 64 bytes at a time (SSE2 on x86_64)
//! and walks the hits in a bit mask, in the caller's own loop.

/// Bit k set when `block[k]` is `a` or `b` (or below 0x20, with `controls`).
#[inline]
fn block_mask(block: &[u8; 64], a: u8, b: u8, controls: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of every x86_64 target; the four loads read
        // 16 bytes each from inside the 64-byte block.
        unsafe {
            let (va, vb, v1f) = (_mm_set1_epi8(a as i8), _mm_set1_epi8(b as i8), _mm_set1_epi8(0x1f));
            let mut m = 0u64;
            for k in 0..4 {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                let mut hits = _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb));
                if controls {
                    // max(v, 0x1f) == 0x1f exactly when v <= 0x1f (unsigned).
                    hits = _mm_or_si128(hits, _mm_cmpeq_epi8(_mm_max_epu8(v, v1f), v1f));
                }
                m |= u64::from(_mm_movemask_epi8(hits) as u16) << (16 * k);
            }
            m
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut m = 0u64;
        for (k, &x) in block.iter().enumerate() {
            m |= u64::from((x == a) | (x == b) | (controls & (x < 0x20))) << k;
        }
        m
    }
}

/// Calls `hit(position)` for every position of `a` or `b` (and of a byte
/// below 0x20 with `controls`) from `from` on, in order, until it returns
/// `Some`. The loop over each block's bits is inlined into the caller, so a
/// dense text costs a few instructions per hit.
#[inline(always)]
pub fn find_each<R>(
    bytes: &[u8],
    from: usize,
    a: u8,
    b: u8,
    controls: bool,
    mut hit: impl FnMut(usize) -> Option<R>,
) -> Option<R> {
    let mut base = from;
    while base < bytes.len() {
        let rest = &bytes[base..];
        let mut mask = match rest.first_chunk::<64>() {
            Some(block) => block_mask(block, a, b, controls),
            None => {
                let mut block = [0u8; 64];
                block[..rest.len()].copy_from_slice(rest);
                block_mask(&block, a, b, controls) & ((1u64 << rest.len()) - 1)
            }
        };
        while mask != 0 {
            let at = base + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            if let Some(r) = hit(at) {
                return Some(r);
            }
        }
        base += 64;
    }
    None
}

/// End (exclusive) of the JSON string starting at `i` (a `"`) in `bytes`,
/// when its text is one the parse accepts: no control characters, and only
/// the escapes JSON allows, surrogate escapes in pairs. `None` otherwise
/// (or unterminated). UTF-8 is not checked here.
pub fn valid_string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        digits.iter().try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
    };
    let mut escaped_to = i + 1;
    // `Some(Some(end))`: the end; `Some(None)`: the text is not accepted.
    find_each(bytes, i + 1, b'"', b'\\', true, |at| {
        if at < escaped_to {
            return None;
        }
        match bytes[at] {
            b'"' => return Some(Some(at + 1)),
            b'\\' => {}
            _ => return Some(None),
        }
        let next = match bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Some(at + 2),
            Some(b'u') => match hex(at + 2) {
                Some(0xD800..=0xDBFF)
                    if bytes.get(at + 6..at + 8) == Some(b"\\u")
                        && hex(at + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
                {
                    Some(at + 12)
                }
                Some(0xD800..=0xDFFF) | None => None,
                Some(_) => Some(at + 6),
            },
            _ => None,
        };
        match next {
            Some(n) => {
                escaped_to = n;
                None
            }
            None => Some(None),
        }
    })
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::{find_each, valid_string_end};

    #[test]
    fn a_valid_string_ends_where_the_parse_says() {
        let cases: [(&str, bool); 14] = [
            (r#""plain""#, true),
            (r#""a\"b""#, true),
            (r#""a\\""#, true),
            (r#""\/\b\f\n\r\t""#, true),
            (r#""\u00e9\uD83D\uDE00""#, true),
            (r#""\ud800""#, false),
            (r#""\udc00\ud800""#, false),
            (r#""\x""#, false),
            (r#""\u12g4""#, false),
            ("\"tab\there\"", false),
            ("\"nl\n\"", false),
            (r#""unterminated"#, false),
            (r#""cut\"#, false),
            (r#""\ud83d\u0041""#, false),
        ];
        for (text, ok) in cases {
            let parsed = serde_json::from_str::<String>(text).is_ok();
            assert_eq!(parsed, ok, "the case itself: {text}");
            let padded = format!("{text}{}", " ".repeat(70));
            assert_eq!(valid_string_end(padded.as_bytes(), 0), ok.then_some(text.len()), "{text}");
        }
    }

    #[test]
    fn finds_every_position_in_order() {
        let mut seed = 3u64;
        for len in [0, 1, 5, 63, 64, 65, 127, 128, 129, 1000] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    b"ab\"\\x\n"[(seed >> 40) as usize % 6]
                })
                .collect();
            for from in [0, 1, len / 2, len] {
                for controls in [false, true] {
                    let want: Vec<usize> = (from..len)
                        .filter(|&i| bytes[i] == b'"' || bytes[i] == b'\\' || (controls && bytes[i] < 0x20))
                        .collect();
                    let mut got = Vec::new();
                    find_each(&bytes, from, b'"', b'\\', controls, |at| {
                        got.push(at);
                        None::<()>
                    });
                    assert_eq!(got, want, "len {len} from {from}");
                }
            }
        }
    }
}
