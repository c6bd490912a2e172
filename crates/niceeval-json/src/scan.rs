//! Finding where JSON strings end, 64 bytes at a time. A tool output has an
//! escape every line, so stopping at every backslash (`memchr`, or a loop
//! over the hits) costs more than the search. Each block is compared at
//! once (SSE2 on x86_64) into bit masks, and which characters are escaped
//! is worked out from the backslash mask without a branch per escape (the
//! technique simdjson uses: an odd run of backslashes escapes the byte after
//! it).

/// Bits of one block of text: bit k describes byte k.
#[derive(Clone, Copy, Default)]
struct Block {
    quote: u64,
    backslash: u64,
    /// Bytes below 0x20 (with `FULL`).
    control: u64,
    /// `n`, the letter escaped most often (with `FULL`).
    n: u64,
}

/// The masks of `block`; `control` and `n` only when `FULL`.
#[inline(always)]
fn block_masks<const FULL: bool>(block: &[u8; 64]) -> Block {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of every x86_64 target; the four loads read
        // 16 bytes each from inside the 64-byte block.
        unsafe {
            let eq = |v: __m128i, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let bits = |m: __m128i, k: usize| u64::from(_mm_movemask_epi8(m) as u16) << (16 * k);
            let mut out = Block::default();
            for k in 0..4 {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                out.quote |= bits(eq(v, b'"'), k);
                out.backslash |= bits(eq(v, b'\\'), k);
                if FULL {
                    // max(v, 0x1f) == 0x1f exactly when v <= 0x1f (unsigned).
                    let v1f = _mm_set1_epi8(0x1f);
                    out.control |= bits(_mm_cmpeq_epi8(_mm_max_epu8(v, v1f), v1f), k);
                    out.n |= bits(eq(v, b'n'), k);
                }
            }
            out
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut out = Block::default();
        for (k, &x) in block.iter().enumerate() {
            let bit = 1u64 << k;
            out.quote |= if x == b'"' { bit } else { 0 };
            out.backslash |= if x == b'\\' { bit } else { 0 };
            if FULL {
                out.control |= if x < 0x20 { bit } else { 0 };
                out.n |= if x == b'n' { bit } else { 0 };
            }
        }
        out
    }
}

/// The masks of the block of `bytes` at `base` (padding past the end is
/// masked off).
#[inline(always)]
fn masks_at<const FULL: bool>(bytes: &[u8], base: usize) -> Block {
    let rest = &bytes[base..];
    match rest.first_chunk::<64>() {
        Some(block) => block_masks::<FULL>(block),
        None => {
            let mut block = [0u8; 64];
            block[..rest.len()].copy_from_slice(rest);
            let m = block_masks::<FULL>(&block);
            let live = (1u64 << rest.len()) - 1;
            Block { quote: m.quote & live, backslash: m.backslash & live, control: m.control & live, n: m.n & live }
        }
    }
}

/// Bits of `{` or `[`, and of `}` or `]`, in the block of `bytes` at `base`.
#[inline(always)]
fn brackets_at(bytes: &[u8], base: usize) -> (u64, u64) {
    let rest = &bytes[base..];
    let mut padded = [0u8; 64];
    let block = match rest.first_chunk::<64>() {
        Some(block) => block,
        None => {
            padded[..rest.len()].copy_from_slice(rest);
            &padded
        }
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of every x86_64 target; the four loads read
        // 16 bytes each from inside the 64-byte block.
        unsafe {
            let eq = |v: __m128i, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let (mut open, mut close) = (0u64, 0u64);
            for k in 0..4 {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                open |= u64::from(_mm_movemask_epi8(_mm_or_si128(eq(v, b'{'), eq(v, b'['))) as u16) << (16 * k);
                close |= u64::from(_mm_movemask_epi8(_mm_or_si128(eq(v, b'}'), eq(v, b']'))) as u16) << (16 * k);
            }
            (open, close)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut open, mut close) = (0u64, 0u64);
        for (k, &x) in block.iter().enumerate() {
            open |= u64::from(matches!(x, b'{' | b'[')) << k;
            close |= u64::from(matches!(x, b'}' | b']')) << k;
        }
        (open, close)
    }
}

/// Each bit set when an odd number of bits at or below it are set in `x`.
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Containers and strings that end within this many bytes are walked a byte
/// at a time: most are a few bytes (ids, names, statuses, small objects),
/// and the block masks cost more than such a walk.
const SHORT: usize = 48;

/// End (exclusive) of the value at `i`: its extent only, not checked (a
/// scalar runs to the next `,`, `}`, `]` or whitespace). None when it does
/// not end in `bytes` or is empty.
pub fn value_end(bytes: &[u8], i: usize) -> Option<usize> {
    match *bytes.get(i)? {
        b'{' | b'[' => container_end(bytes, i),
        b'"' => string_end(bytes, i),
        _ => {
            let mut j = i;
            while j < bytes.len() && !matches!(bytes[j], b',' | b'}' | b']') && !is_ws(bytes[j]) {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// Whitespace as JSON defines it.
#[inline]
pub fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first byte at or after `i` that is not JSON whitespace.
#[inline]
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

/// End (exclusive) of the object or array starting at `i` in `bytes` (a
/// `{` or `[`), found by its brackets outside strings. The text is not
/// checked: only where it ends is found (the caller parses it). `None` when
/// it does not end.
pub fn container_end(bytes: &[u8], i: usize) -> Option<usize> {
    let (mut j, mut depth) = (i, 0usize);
    let limit = bytes.len().min(i.saturating_add(4 * SHORT));
    while j < limit {
        match bytes[j] {
            b'"' => {
                j = string_end(bytes, j)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    container_end_blocks(bytes, i)
}

#[inline(never)]
fn container_end_blocks(bytes: &[u8], i: usize) -> Option<usize> {
    let (mut base, mut carry, mut in_string, mut depth) = (i, 0u64, 0u64, 0usize);
    while base < bytes.len() {
        let m = masks_at::<false>(bytes, base);
        let (escaped, next) = escaped(m.backslash, carry);
        // Inside a string: from an opening quote up to its closing one.
        let strings = prefix_xor(m.quote & !escaped) ^ in_string;
        in_string = 0u64.wrapping_sub(strings >> 63);
        let (open, close) = brackets_at(bytes, base);
        let live = if bytes.len() - base < 64 { (1u64 << (bytes.len() - base)) - 1 } else { u64::MAX };
        let (open, close) = (open & !strings & live, close & !strings & live);
        let mut all = open | close;
        while all != 0 {
            let bit = all & all.wrapping_neg();
            all &= all - 1;
            if open & bit != 0 {
                depth += 1;
            } else {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(base + bit.trailing_zeros() as usize + 1);
                }
            }
        }
        (base, carry) = (base + 64, next);
    }
    None
}

const ODD_BITS: u64 = 0xAAAA_AAAA_AAAA_AAAA;

/// Which bytes of a block are escaped (follow an odd run of backslashes),
/// given its backslash mask and whether its first byte is escaped by the
/// block before; returns them and whether the next block's first byte is.
#[inline]
fn escaped(backslash: u64, first_is_escaped: u64) -> (u64, u64) {
    let potential_escape = backslash & !first_is_escaped;
    let escape_and_terminal = ((potential_escape << 1) | ODD_BITS).wrapping_sub(potential_escape) ^ ODD_BITS;
    let escaped = escape_and_terminal ^ (backslash | first_is_escaped);
    let escape = escape_and_terminal & backslash;
    (escaped, escape >> 63)
}

/// The backslashes that begin an escape in a string's text (between its
/// quotes), in order, found a block at a time: a text with an escape every
/// line is walked without stopping at each backslash to search again.
pub fn escape_starts(inner: &[u8], from: usize) -> impl Iterator<Item = usize> + '_ {
    let (mut base, mut carry, mut starts) = (from, 0u64, 0u64);
    let mut block_at = from;
    std::iter::from_fn(move || {
        while starts == 0 {
            if base >= inner.len() {
                return None;
            }
            let m = masks_at::<false>(inner, base);
            let (escaped, next) = escaped(m.backslash, carry);
            (starts, block_at, base, carry) = (m.backslash & !escaped, base, base + 64, next);
        }
        let at = block_at + starts.trailing_zeros() as usize;
        starts &= starts - 1;
        Some(at)
    })
}

/// The bits below the lowest set bit of `m` (all bits when `m` is 0).
#[inline]
fn below_first(m: u64) -> u64 {
    if m == 0 { u64::MAX } else { (m & m.wrapping_neg()) - 1 }
}

/// End (exclusive) of the JSON string starting at `i` (a `"`) in `bytes`:
/// the first quote no backslash escapes. `None` when unterminated.
#[inline]
pub fn string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let limit = bytes.len().min(i.saturating_add(1 + SHORT));
    let mut j = i + 1;
    while j < limit {
        match bytes[j] {
            b'"' => return Some(j + 1),
            b'\\' => break,
            _ => j += 1,
        }
    }
    // No quote and no backslash before `j`: the blocks start there.
    string_end_blocks(bytes, j)
}

/// [`string_end`] past its first bytes, a block at a time (kept out of line
/// so that the short walk before it inlines where strings are skipped).
#[inline(never)]
fn string_end_blocks(bytes: &[u8], from: usize) -> Option<usize> {
    let (mut base, mut carry) = (from, 0);
    while base < bytes.len() {
        let m = masks_at::<false>(bytes, base);
        let (escaped, next) = escaped(m.backslash, carry);
        let ends = m.quote & !escaped;
        if ends != 0 {
            return Some(base + ends.trailing_zeros() as usize + 1);
        }
        (base, carry) = (base + 64, next);
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
    // Short strings are walked a byte at a time first (as in `string_end`);
    // a backslash sends the string to the blocks from its start.
    let limit = bytes.len().min(i.saturating_add(1 + SHORT));
    let mut from = i + 1;
    while from < limit {
        match bytes[from] {
            b'"' => return Some(from + 1),
            b'\\' => {
                from = i + 1;
                break;
            }
            c if c < 0x20 => return None,
            _ => from += 1,
        }
    }
    let (mut base, mut carry) = (from, 0);
    // Where the `u` of the low half of a surrogate pair must be.
    let mut low_u_at = usize::MAX;
    while base < bytes.len() {
        let m = masks_at::<true>(bytes, base);
        let (escaped, next) = escaped(m.backslash, carry);
        let ends = m.quote & !escaped;
        let inside = below_first(ends);
        if m.control & inside != 0 {
            return None;
        }
        // Escaped letters other than the common `n`, `"` and `\` are looked
        // at one by one: `/ b f r t` pass, `u` takes four hex digits and
        // surrogates come in pairs, anything else is not JSON.
        let mut others = escaped & !(m.n | m.quote | m.backslash) & inside;
        while others != 0 {
            let at = base + others.trailing_zeros() as usize;
            others &= others - 1;
            // (An escape cut off by the end of the text is past it.)
            match *bytes.get(at)? {
                b'/' | b'b' | b'f' | b'r' | b't' => {}
                b'u' => match hex(at + 1)? {
                    0xD800..=0xDBFF => {
                        if bytes.get(at + 5..at + 7)? != b"\\u" || !(0xDC00..=0xDFFF).contains(&hex(at + 7)?) {
                            return None;
                        }
                        low_u_at = at + 6;
                    }
                    0xDC00..=0xDFFF if at != low_u_at => return None,
                    _ => {}
                },
                _ => return None,
            }
        }
        if ends != 0 {
            return Some(base + ends.trailing_zeros() as usize + 1);
        }
        (base, carry) = (base + 64, next);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{container_end, string_end, valid_string_end};

    /// Random documents (brackets and escaped quotes inside strings, varied
    /// spacing), at every offset from a block start: the end is where
    /// serde_json's value ends.
    #[test]
    fn containers_end_where_the_parse_says() {
        let mut random = crate::random::RandomJson::new(5);
        let mut checked = 0;
        for case in 0..3000 {
            let doc = random.document();
            if !doc.starts_with(['{', '[']) {
                continue;
            }
            let text = format!("{}{doc} , [1]", " ".repeat(case % 67));
            let start = case % 67;
            let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<serde_json::Value>();
            assert!(matches!(stream.next(), Some(Ok(_))), "{doc}");
            assert_eq!(
                container_end(text.as_bytes(), start),
                Some(start + stream.byte_offset()),
                "case {case}: {text}"
            );
            checked += 1;
        }
        assert!(checked > 500, "{checked} containers");
        let long = format!("{{\"a\":\"{}\\\"}}\", \"b\": [1]}}", "x".repeat(200));
        assert_eq!(container_end(long.as_bytes(), 0), Some(long.len()));
        assert_eq!(container_end(b"{\"a\":[1,2}", 0), None, "never closes");
    }

    #[test]
    fn a_valid_string_ends_where_the_parse_says() {
        let cases: [(&str, bool); 16] = [
            (r#""plain""#, true),
            (r#""a\"b""#, true),
            (r#""a\\""#, true),
            (r#""\\\"\\""#, true),
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
            (r#""\ud83d\\ude00""#, false),
        ];
        for (text, ok) in cases {
            let parsed = serde_json::from_str::<String>(text).is_ok();
            assert_eq!(parsed, ok, "the case itself: {text}");
            for pad in [0, 1, 70] {
                let padded = format!("{text}{}", " ".repeat(pad));
                assert_eq!(valid_string_end(padded.as_bytes(), 0), ok.then_some(text.len()), "{text} + {pad}");
            }
        }
    }

    #[test]
    fn escape_starts_are_the_backslashes_after_an_even_run() {
        // Texts with runs of backslashes across block edges, at any offset.
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..3_000 {
            let len = next(300);
            let text: Vec<u8> = (0..len).map(|_| [b'\\', b'n', b'a', b'"', b'u'][next(5)]).collect();
            let from = next(len + 1);
            let mut want = Vec::new();
            let mut run = 0;
            for (i, &b) in text.iter().enumerate().skip(from) {
                if b == b'\\' {
                    if run % 2 == 0 {
                        want.push(i);
                    }
                    run += 1;
                } else {
                    run = 0;
                }
            }
            let got: Vec<usize> = super::escape_starts(&text, from).collect();
            assert_eq!(got, want, "{:?} from {from}", String::from_utf8_lossy(&text));
        }
    }

    /// Random strings with runs of backslashes and escapes that cross the
    /// 64-byte blocks: both ends agree with serde_json, at every offset.
    #[test]
    fn ends_agree_with_the_parse_on_random_strings() {
        let atoms: [&str; 16] = [
            "a",
            "é",
            "\\\\",
            "\\\"",
            "\\n",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\\\\\\\",
            " ",
            "x".repeat(40).leak(),
            "\\",
            "\\ud800",
            "\\q",
            "\t",
            "\\u12",
            "\\/",
        ];
        let mut seed = 11u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for case in 0..20_000 {
            let mut body = String::new();
            for _ in 0..next(40) {
                // Mostly valid atoms, now and then a broken one.
                let k = if next(10) == 0 { next(atoms.len()) } else { next(10) };
                body.push_str(atoms[k]);
            }
            let lead = " ".repeat(next(70));
            let text = format!("{lead}\"{body}\"  , \"next\"");
            let start = lead.len();
            // What serde_json reads as the first string from `start`.
            let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<String>();
            let parsed = match stream.next() {
                Some(Ok(_)) => Ok(start + stream.byte_offset()),
                _ => Err(()),
            };
            match &parsed {
                Ok(end) => {
                    assert_eq!(valid_string_end(text.as_bytes(), start), Some(*end), "case {case}: {text:?}");
                    assert_eq!(string_end(text.as_bytes(), start), Some(*end), "case {case}: {text:?}");
                }
                Err(_) => assert_eq!(valid_string_end(text.as_bytes(), start), None, "case {case}: {text:?}"),
            }
        }
    }
}
