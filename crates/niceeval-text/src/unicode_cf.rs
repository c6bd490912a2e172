//! Unicode format (Cf) characters: invisible characters that steer how text
//! around them is shaped, joined or ordered (bidi marks, zero-width
//! characters, the BOM, Arabic and Egyptian prepended marks, tags). The
//! sanitiser treats each as a control. Generated from Python's
//! `unicodedata` (Unicode 14.0.0); the test below regenerates the list with
//! `python3` and compares:
//! `python3 -c "import unicodedata as u; print([c for c in range(0x110000) if u.category(chr(c)) == 'Cf'])"`

/// The Unicode version `FORMAT_RANGES` was generated from.
pub const UNICODE_VERSION: &str = "14.0.0";

/// Every Cf character, as inclusive ranges in ascending order.
pub static FORMAT_RANGES: &[(char, char)] = &[
    ('\u{00ad}', '\u{00ad}'),
    ('\u{0600}', '\u{0605}'),
    ('\u{061c}', '\u{061c}'),
    ('\u{06dd}', '\u{06dd}'),
    ('\u{070f}', '\u{070f}'),
    ('\u{0890}', '\u{0891}'),
    ('\u{08e2}', '\u{08e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{13438}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0001}', '\u{e0001}'),
    ('\u{e0020}', '\u{e007f}'),
];

/// Format characters that came after `UNICODE_VERSION` or are unassigned in a
/// block of format characters, treated as Cf all the same: U+2065 (the one gap
/// in the invisible operators and bidi isolates, U+2060–U+206F) and Unicode
/// 15's Egyptian hieroglyph format controls U+13439–U+1343F.
pub static ALSO_FORMAT: &[(char, char)] = &[('\u{2065}', '\u{2065}'), ('\u{13439}', '\u{1343f}')];

/// Whether `c` is a format (Cf) character, or one of `ALSO_FORMAT`.
pub fn is_format(c: char) -> bool {
    // Every Cf character is at U+00AD or above.
    if c < '\u{ad}' {
        return false;
    }
    let within = |table: &[(char, char)]| {
        table
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    };
    within(FORMAT_RANGES) || within(ALSO_FORMAT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_ascending_and_apart() {
        for table in [FORMAT_RANGES, ALSO_FORMAT] {
            for w in table.windows(2) {
                assert!(w[0].0 <= w[0].1 && (w[0].1 as u32) + 1 < w[1].0 as u32, "{w:?}");
            }
        }
    }

    #[test]
    fn the_table_is_what_unicodedata_says() {
        let script = "import unicodedata as u, sys\n\
                      print(u.unidata_version)\n\
                      print(' '.join('%x' % c for c in range(0x110000) if u.category(chr(c)) == 'Cf'))";
        let Ok(out) = std::process::Command::new("python3").args(["-c", script]).output() else {
            println!("python3 not found: the Cf table was not compared with unicodedata");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let version = lines.next().unwrap_or_default();
        let listed: Vec<u32> =
            lines.next().unwrap_or_default().split(' ').filter_map(|h| u32::from_str_radix(h, 16).ok()).collect();
        assert!(listed.len() > 100, "python3 listed {} Cf characters: {text}", listed.len());
        let ours: Vec<u32> = FORMAT_RANGES.iter().flat_map(|&(lo, hi)| lo as u32..=hi as u32).collect();
        if version == UNICODE_VERSION {
            assert_eq!(ours, listed, "the Cf table differs from Unicode {version}");
        } else {
            // Another Unicode: every character it calls Cf is one here, or in ALSO_FORMAT.
            let missing: Vec<String> = listed
                .iter()
                .filter_map(|&c| char::from_u32(c))
                .filter(|&c| !is_format(c))
                .map(|c| format!("U+{:04X}", c as u32))
                .collect();
            assert!(missing.is_empty(), "Unicode {version} has Cf characters this table lacks: {missing:?}");
        }
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            let by_table = FORMAT_RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
                || ALSO_FORMAT.iter().any(|&(lo, hi)| (lo..=hi).contains(&c));
            assert_eq!(is_format(c), by_table, "U+{:04X}", c as u32);
        }
    }
}
