//! SGR ("select graphic rendition") sequences in text from a file: a test
//! runner's `ESC[32mPASS ESC[0m`. They are read as styles of the text they
//! cover, so a renderer can show the colours instead of the codes; every
//! other escape sequence is left in the text, where sanitizing makes it
//! visible and harmless.

/// A colour an SGR sequence names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnsiColor {
    /// 0–7 normal, 8–15 bright, 16–255 the 256-colour cube and greys.
    Indexed(u8),
    Rgb(u8, u8, u8),
}

/// The style SGR sequences have set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sgr {
    pub fg: Option<AnsiColor>,
    pub bg: Option<AnsiColor>,
    pub bold: bool,
    pub dim: bool,
    pub italic: bool,
    pub underline: bool,
}

impl Sgr {
    pub fn is_plain(&self) -> bool {
        *self == Sgr::default()
    }

    /// Apply the parameters of one `ESC [ … m` (empty means reset).
    fn apply(&mut self, params: &[u32]) {
        if params.is_empty() {
            *self = Sgr::default();
            return;
        }
        let mut i = 0;
        while i < params.len() {
            let p = params[i];
            match p {
                0 => *self = Sgr::default(),
                1 => self.bold = true,
                2 => self.dim = true,
                3 => self.italic = true,
                4 => self.underline = true,
                22 => (self.bold, self.dim) = (false, false),
                23 => self.italic = false,
                24 => self.underline = false,
                30..=37 => self.fg = Some(AnsiColor::Indexed((p - 30) as u8)),
                90..=97 => self.fg = Some(AnsiColor::Indexed((p - 90 + 8) as u8)),
                39 => self.fg = None,
                40..=47 => self.bg = Some(AnsiColor::Indexed((p - 40) as u8)),
                100..=107 => self.bg = Some(AnsiColor::Indexed((p - 100 + 8) as u8)),
                49 => self.bg = None,
                38 | 48 => {
                    let (color, used) = extended(&params[i + 1..]);
                    if p == 38 {
                        self.fg = color.or(self.fg);
                    } else {
                        self.bg = color.or(self.bg);
                    }
                    i += used;
                }
                // Blink, reverse, hidden, fonts…: not shown.
                _ => {}
            }
            i += 1;
        }
    }

    /// The parameters that set this style from a reset, for re-emitting it.
    pub fn codes(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        for (on, code) in [(self.bold, "1"), (self.dim, "2"), (self.italic, "3"), (self.underline, "4")] {
            if on {
                out.push(code.into());
            }
        }
        let color = |c: AnsiColor, base: u32| match c {
            AnsiColor::Indexed(n) if n < 8 => format!("{}", base + u32::from(n)),
            AnsiColor::Indexed(n) if n < 16 => format!("{}", base + 60 + u32::from(n - 8)),
            AnsiColor::Indexed(n) => format!("{};5;{n}", base + 8),
            AnsiColor::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", base + 8),
        };
        if let Some(c) = self.fg {
            out.push(color(c, 30));
        }
        if let Some(c) = self.bg {
            out.push(color(c, 40));
        }
        out.join(";")
    }
}

/// `5;n` or `2;r;g;b` after a 38/48, and how many parameters it took.
fn extended(rest: &[u32]) -> (Option<AnsiColor>, usize) {
    let byte = |i: usize| rest.get(i).and_then(|&v| u8::try_from(v).ok());
    match rest.first() {
        Some(5) => (byte(1).map(AnsiColor::Indexed), 2),
        Some(2) => match (byte(1), byte(2), byte(3)) {
            (Some(r), Some(g), Some(b)) => (Some(AnsiColor::Rgb(r, g, b)), 4),
            _ => (None, rest.len()),
        },
        _ => (None, rest.len()),
    }
}

/// The SGR sequence at the start of `s` (`ESC [ params m`): its parameters
/// and its length. Parameters are digits split by `;` (or `:`); anything
/// else is not an SGR sequence.
fn sequence(s: &str) -> Option<(Vec<u32>, usize)> {
    let body = s.strip_prefix("\u{1b}[")?;
    let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))?;
    if body.as_bytes()[end] != b'm' || end > 64 {
        return None;
    }
    let params = &body[..end];
    let values = if params.is_empty() {
        Vec::new()
    } else {
        params.split([';', ':']).map(|p| p.parse::<u32>().unwrap_or(0)).collect()
    };
    Some((values, 2 + end + 1))
}

/// `s` split into runs of text and the style in effect, starting from
/// `style`; the SGR sequences themselves are consumed. Returns the style in
/// effect at the end (a colour set on one line goes on to the next).
pub fn runs(s: &str, mut style: Sgr) -> (Vec<(&str, Sgr)>, Sgr) {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while let Some(found) = s[at..].find('\u{1b}') {
        let esc = at + found;
        match sequence(&s[esc..]) {
            Some((params, len)) => {
                if esc > start {
                    out.push((&s[start..esc], style));
                }
                style.apply(&params);
                start = esc + len;
                at = start;
            }
            None => at = esc + 1,
        }
    }
    if start < s.len() {
        out.push((&s[start..], style));
    }
    (out, style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_runs(s: &str) -> Vec<(String, Sgr)> {
        runs(s, Sgr::default()).0.into_iter().map(|(t, st)| (t.to_string(), st)).collect()
    }

    #[test]
    fn colours_become_styles_and_the_codes_go() {
        let r = plain_runs("\u{1b}[32mPASS\u{1b}[0m src/a.test.ts \u{1b}[1;31mFAIL\u{1b}[m");
        let green = Sgr { fg: Some(AnsiColor::Indexed(2)), ..Sgr::default() };
        let bold_red = Sgr { fg: Some(AnsiColor::Indexed(1)), bold: true, ..Sgr::default() };
        assert_eq!(
            r,
            vec![("PASS".into(), green), (" src/a.test.ts ".into(), Sgr::default()), ("FAIL".into(), bold_red)]
        );
    }

    #[test]
    fn extended_colours_and_partial_resets() {
        let (r, end) = runs("\u{1b}[38;5;208;48;2;1;2;3;4mx\u{1b}[24;39my", Sgr::default());
        assert_eq!(r[0].1.fg, Some(AnsiColor::Indexed(208)));
        assert_eq!(r[0].1.bg, Some(AnsiColor::Rgb(1, 2, 3)));
        assert!(r[0].1.underline);
        assert_eq!(r[1].1, Sgr { bg: Some(AnsiColor::Rgb(1, 2, 3)), ..Sgr::default() });
        assert_eq!(end, r[1].1, "the style goes on past the end of the text");
        assert_eq!(Sgr { fg: Some(AnsiColor::Indexed(9)), bold: true, ..Sgr::default() }.codes(), "1;91");
    }

    #[test]
    fn other_escape_sequences_stay_in_the_text() {
        // Clear screen, cursor moves, OSC: not styles; sanitizing shows them.
        let r = plain_runs("a\u{1b}[2Jb\u{1b}]0;title\u{7}c\u{1b}[");
        assert_eq!(r, vec![("a\u{1b}[2Jb\u{1b}]0;title\u{7}c\u{1b}[".into(), Sgr::default())]);
    }
}
