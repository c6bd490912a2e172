//! What a search matches and how it is worded, decided once for every place
//! that searches: the timeline, the attempts and Tools lists, the inspector
//! and the highlight of a hit. Plain text ignores case; a regular expression
//! has `show --grep`'s semantics (Rust `regex` syntax, case-sensitive unless
//! the pattern says `(?i)`).

use super::format::count;
use super::text::clean;
use std::ops::Range;

/// A compiled query.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Text, lower-cased: found anywhere, ignoring case.
    Plain(String),
    Regex(regex::Regex),
}

impl Matcher {
    /// The matcher for `query`, or why the pattern is not a regular expression.
    pub fn new(query: &str, regex: bool) -> Result<Matcher, String> {
        if regex {
            regex::Regex::new(query)
                .map(Matcher::Regex)
                .map_err(|e| format!("invalid regular expression: {}", first_line(&e.to_string())))
        } else {
            Ok(Matcher::Plain(query.to_lowercase()))
        }
    }

    pub fn is_match(&self, text: &str) -> bool {
        match self {
            Matcher::Plain(needle) => folded_find(text, needle, 0).is_some(),
            Matcher::Regex(re) => re.is_match(text),
        }
    }

    /// Whether a row's raw event JSON could hold a value that matches: a
    /// quick look that never says no to one that does. Plain text only,
    /// and only where the JSON's strings are written as they read (no
    /// escape): the values are then pieces of the raw text, keys aside.
    pub fn may_match_raw(&self, raw: &[u8]) -> bool {
        match self {
            Matcher::Plain(needle) if needle.is_ascii() && !raw.contains(&b'\\') => {
                std::str::from_utf8(raw).map_or(true, |text| folded_find(text, needle, 0).is_some())
            }
            _ => true,
        }
    }

    /// Does the UTF-8 text in `hay` match? Plain matching may lower-case
    /// `hay` in place (the scan reuses one buffer row after row).
    pub fn is_match_buffer(&self, hay: &mut [u8]) -> bool {
        match self {
            Matcher::Plain(needle) if hay.is_ascii() => {
                hay.make_ascii_lowercase();
                memchr::memmem::find(hay, needle.as_bytes()).is_some()
            }
            _ => self.is_match(&String::from_utf8_lossy(hay)),
        }
    }

    /// Byte ranges of `text` that match, in order and not overlapping (empty
    /// matches of a regex are left out: there is nothing to highlight).
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        match self {
            Matcher::Plain(needle) if needle.is_empty() => Vec::new(),
            Matcher::Plain(needle) => {
                let mut out = Vec::new();
                let mut at = 0;
                while let Some(r) = folded_find(text, needle, at) {
                    at = r.end;
                    out.push(r);
                }
                out
            }
            Matcher::Regex(re) => re.find_iter(text).filter(|m| !m.is_empty()).map(|m| m.range()).collect(),
        }
    }
}

/// A query as typed and its matcher.
#[derive(Debug, Clone)]
pub struct Query {
    pub text: String,
    pub matcher: Matcher,
}

impl Query {
    pub fn new(text: &str, regex: bool) -> Result<Query, String> {
        Ok(Query { text: text.to_string(), matcher: Matcher::new(text, regex)? })
    }

    pub fn is_regex(&self) -> bool {
        matches!(self.matcher, Matcher::Regex(_))
    }

    /// "/rm -rf" or "regex /^rm", cut to `width` columns.
    pub fn label(&self, width: usize) -> String {
        let lead = if self.is_regex() { "regex /" } else { "/" };
        format!("{lead}{}", crate::model::text::truncate(&clean(&self.text), width))
    }
}

/// The first range of `text` at or after byte `from` whose lower-cased form
/// is `needle`. Text whose lower case has other lengths (a few scripts) is
/// compared char by char.
fn folded_find(text: &str, needle: &str, from: usize) -> Option<Range<usize>> {
    let rest = text.get(from..)?;
    if needle.is_ascii() && !lowers_into_ascii(rest) {
        return ascii_folded_find(rest.as_bytes(), needle.as_bytes()).map(|i| from + i..from + i + needle.len());
    }
    for (start, _) in rest.char_indices() {
        let mut lowered = String::new();
        for (i, c) in rest[start..].char_indices() {
            lowered.extend(c.to_lowercase());
            if lowered.len() >= needle.len() {
                if lowered == needle {
                    let end = start + i + c.len_utf8();
                    return Some(from + start..from + end);
                }
                break;
            }
            if !needle.starts_with(lowered.as_str()) {
                break;
            }
        }
    }
    None
}

/// Whether `text` holds a character outside ASCII whose lower case is (or
/// starts with) ASCII: the Kelvin sign (k) and the dotted capital I (i and a
/// dot). Anywhere else an ASCII needle matches ASCII bytes only.
fn lowers_into_ascii(text: &str) -> bool {
    let b = text.as_bytes();
    !b.is_ascii()
        && (memchr::memmem::find(b, "\u{212A}".as_bytes()).is_some()
            || memchr::memmem::find(b, "\u{130}".as_bytes()).is_some())
}

/// The first place `hay` holds `needle` (lower-case ASCII), ignoring ASCII
/// case: the candidates are where the needle's first byte is, in either case.
fn ascii_folded_find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some((&first, rest)) = needle.split_first() else { return Some(0) };
    let last = hay.len().checked_sub(needle.len())?;
    memchr::memchr2_iter(first.to_ascii_lowercase(), first.to_ascii_uppercase(), &hay[..=last + rest.len()])
        .take_while(|&i| i <= last)
        .find(|&i| hay[i + 1..i + needle.len()].eq_ignore_ascii_case(rest))
}

/// The values of an event's JSON as a search looks in them: every string
/// (its text, unescaped), number, boolean and null, one a line, and no key.
/// A search finds what rows and the inspector show as values: `/rm` finds
/// `rm -rf`, not a key named `normalizer`. One line each, so a plain query
/// (never a line break) cannot match across two values. A stack, not
/// recursion: an event may nest deeper than a thread's stack.
pub fn write_values(node: crate::model::event::Node<'_>, out: &mut Vec<u8>) {
    use crate::model::json_node::JsonType;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.json_type() {
            JsonType::Object => {
                let at = stack.len();
                stack.extend(n.members().map(|(_, v)| v));
                stack[at..].reverse();
            }
            JsonType::Array => {
                let at = stack.len();
                stack.extend(n.elements());
                stack[at..].reverse();
            }
            JsonType::String => {
                out.extend_from_slice(n.as_str().unwrap_or_default().as_bytes());
                out.push(b'\n');
            }
            JsonType::Number => {
                out.extend_from_slice(n.number_text().unwrap_or_default().as_bytes());
                out.push(b'\n');
            }
            JsonType::Bool => out.extend_from_slice(if n.as_bool() == Some(true) { b"true\n" } else { b"false\n" }),
            JsonType::Null => out.extend_from_slice(b"null\n"),
        }
    }
}

fn first_line(s: &str) -> String {
    // The regex crate's errors draw the pattern with a caret over several
    // lines; the prompt has one: keep the last line, which says what is wrong.
    s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(s).trim().to_string()
}

/// Where `/` searches: decided by the panel that has focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchTarget {
    /// Timeline rows and their events' payloads.
    #[default]
    Timeline,
    /// Filters the attempts list.
    Attempts,
    /// Filters the Tools list.
    Tools,
    /// Lines of the inspector.
    Inspector,
}

/// The prompt's words after the typed text: what Enter does, what is
/// searched, how it matches, and how to switch.
pub fn prompt_hint(target: SearchTarget, regex: bool) -> String {
    let what = match target {
        SearchTarget::Timeline => "rows and payloads",
        SearchTarget::Attempts => "filters attempts",
        SearchTarget::Tools => "filters tool calls",
        SearchTarget::Inspector => "in the inspector",
    };
    let how = if regex { "regex, case-sensitive" } else { "text, ignores case" };
    use super::{intent::Intent, keys::key_for};
    let [switch, keep, cancel] = [Intent::SearchToggleRegex, Intent::SearchCommit, Intent::SearchCancel].map(key_for);
    format!("   {what} · {how} ({switch}) · {keep} keep · {cancel} cancel")
}

/// The live count beside the prompt: "3 matches", "searching…", or why
/// the pattern matches nothing; nothing before a character is typed.
pub fn prompt_status(typed: &str, matches: Option<usize>, error: Option<&str>) -> String {
    match (error, matches) {
        (Some(e), _) => format!("  {}", clean(e)),
        _ if typed.trim().is_empty() => String::new(),
        (None, Some(n)) => format!("  {}", count(n, "match", "matches")),
        (None, None) => "  searching…".into(),
    }
}

/// "/rm -rf (2 matches)", "regex /^rm (2 matches)".
pub fn search_status(query: &Query, matches: usize) -> String {
    format!("{} ({})", query.label(20), count(matches, "match", "matches"))
}

/// The footer while the inspector has a search: "inspector /exit (match 2 of 5)".
pub fn inspector_status(query: &Query, found: Option<(usize, usize)>) -> String {
    match found {
        Some((_, 0)) => format!("inspector {} (no match)", query.label(20)),
        Some((at, total)) => format!("inspector {} ({})", query.label(20), match_position(at + 1, total)),
        None => format!("inspector {}", query.label(20)),
    }
}

/// "match 2 of 5".
pub fn match_position(n: usize, total: usize) -> String {
    format!("match {n} of {total}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(q: &str) -> Matcher {
        Matcher::new(q, false).unwrap()
    }

    #[test]
    fn plain_text_ignores_case_in_any_script() {
        assert!(plain("readfile").is_match(r#"{"name":"ReadFile"}"#));
        assert!(plain("Needle-42").is_match("NEEDLE-42"));
        assert!(!plain("needle-42").is_match("needle-4"));
        assert!(plain("école").is_match("Café ÉCOLE"));
        assert!(plain("CAFÉ").is_match("Café ÉCOLE"));
        assert!(!plain("cafe").is_match("Café"));
    }

    #[test]
    fn the_buffer_path_agrees_with_the_text_path() {
        for (hay, q) in [("Café ÉCOLE", "école"), ("abc NEEDLE", "needle"), ("abc", "needle"), ("İstanbul", "i̇s")]
        {
            let m = plain(q);
            let mut buf = hay.as_bytes().to_vec();
            assert_eq!(m.is_match_buffer(&mut buf), m.is_match(hay), "{hay} / {q}");
        }
    }

    #[test]
    fn ranges_are_the_highlighted_bytes() {
        let text = "Read the README, then read";
        let r = plain("read").ranges(text);
        assert_eq!(r.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>(), ["Read", "READ", "read"]);
        let text = "Café ÉCOLE école";
        let r = plain("école").ranges(text);
        assert_eq!(r.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>(), ["ÉCOLE", "école"]);
    }

    #[test]
    fn a_regex_is_case_sensitive_like_show_grep() {
        let re = Matcher::new("^rm -r[f]?", true).unwrap();
        assert!(re.is_match("rm -rf /"));
        assert!(!re.is_match("RM -rf /"));
        assert!(Matcher::new("(?i)^rm", true).unwrap().is_match("RM"));
        // Empty matches highlight nothing.
        assert!(Matcher::new("x*", true).unwrap().ranges("abc").is_empty());
    }

    #[test]
    fn values_are_searched_and_keys_are_not() {
        let v = serde_json::json!({
            "normalizer": "none",
            "operation": {"input": {"command": "rm -rf /tmp/x", "n": 3, "deep": [[{"ok": true}]]}},
            "quote": "say \"hi\"\nthen go"
        });
        let text = serde_json::to_string(&v).unwrap();
        for node in [crate::model::event::Node::Value(&v), crate::model::event::Node::Raw(text.as_bytes())] {
            let mut hay = Vec::new();
            write_values(node, &mut hay);
            let hay = String::from_utf8(hay).unwrap();
            assert!(!plain("normalizer").is_match(&hay), "a key is not a value: {hay}");
            assert!(!plain("rm").ranges(&hay).is_empty());
            assert_eq!(plain("rm").ranges(&hay).len(), 1, "only the command: {hay}");
            // Strings unescaped, as the rows show them; numbers and booleans too.
            assert!(plain("say \"hi\"").is_match(&hay) && plain("3").is_match(&hay) && plain("true").is_match(&hay));
            // Values in document order, one a line.
            assert_eq!(hay.lines().next(), Some("none"), "{hay}");
        }
    }

    #[test]
    fn a_bad_pattern_says_what_is_wrong_on_one_line() {
        let e = Matcher::new("a(b", true).unwrap_err();
        assert!(e.starts_with("invalid regular expression: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains("unclosed"), "{e}");
    }

    /// The fold every fast path must agree with: the first start of whole
    /// characters whose lower case is exactly the needle.
    fn slow_find(text: &str, needle: &str) -> Option<usize> {
        text.char_indices().map(|(i, _)| i).find(|&i| {
            let mut lowered = String::new();
            text[i..].chars().any(|c| {
                lowered.extend(c.to_lowercase());
                lowered == needle
            }) && lowered.len() == needle.len()
        })
    }

    #[test]
    fn an_ascii_needle_in_any_text_is_found_where_the_fold_finds_it() {
        let texts = [
            "✓ ⚙ tool  Bash $ pnpm exec vitest run",
            "1:4→5 tool Read (file_read) src/Export/CSV.ts · ✓ completed",
            "the KELVIN sign \u{212A} lower-cases to k",
            "İstanbul: the dotted capital I lower-cases to i and a dot",
            "ünïcödé then ASCII: Needle",
            "",
        ];
        for text in texts {
            for needle in ["k", "needle", "csv.ts", "istanbul", "i", "vitest run", "zzz", "ünï"] {
                let fast = folded_find(text, needle, 0).map(|r| r.start);
                assert_eq!(fast, slow_find(text, needle), "{needle:?} in {text:?}");
            }
        }
    }

    #[test]
    fn the_raw_look_never_says_no_to_an_event_whose_values_match() {
        let events = [
            r#"{"type":"message","role":"assistant","text":"The Loop is off by one"}"#,
            r#"{"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"bash","input":{"command":"pnpm test"}}}"#,
            r#"{"type":"message","role":"user","text":"caf\u00e9 \"quoted\" line\nbreak"}"#,
            r#"{"type":"thinking","text":"numbers 12345 and true"}"#,
        ];
        for raw in events {
            let value: serde_json::Value = serde_json::from_str(raw).unwrap();
            let mut hay = Vec::new();
            write_values(crate::model::event::Node::Value(&value), &mut hay);
            for needle in ["loop", "PNPM test", "café", "\"quoted\"", "12345", "true", "bash", "operationid", "nowhere"]
            {
                let m = plain(needle);
                let values_match = m.is_match_buffer(&mut hay.clone());
                assert!(
                    !values_match || m.may_match_raw(raw.as_bytes()),
                    "{needle:?} matches {raw} but the raw look said no"
                );
            }
        }
        // A key is no value, but the look may say yes to it: it only rules out.
        assert!(!plain("nowhere").may_match_raw(events[0].as_bytes()));
    }
}
