//! Make a prefix of a JSON document well-formed, for the first screen of a
//! large file (see `load::preview`).
//!
//! The prefix is cut after the last object or array that closed, preferring
//! the shallowest such cut in the second half of the prefix (a whole turn
//! rather than half of one), and the containers still open there are
//! closed. The result is a well-formed document holding a prefix of the
//! file's content.

/// Make a prefix of a JSON document well-formed: cut it after an object or
/// array that closed and close the containers open at that point. Returns the
/// new text and how many bytes of `head` it kept; `None` when nothing closed.
pub fn close_prefix(head: &[u8]) -> Option<(Vec<u8>, usize)> {
    // Open containers (`{` or `[`) at the current position.
    let mut stack: Vec<u8> = Vec::new();
    // The last cut point at each depth: (end offset, containers open there).
    let mut cuts: Vec<Option<(usize, Vec<u8>)>> = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in head.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                // Deeper than serde_json parses (128): no preview, and each
                // cut's copy of the stack stays small.
                if stack.len() >= 128 {
                    return None;
                }
                stack.push(b)
            }
            b'}' | b']' => {
                stack.pop()?;
                let depth = stack.len();
                if depth == 0 {
                    // The whole document closed: nothing to complete.
                    return Some((head[..=i].to_vec(), i + 1));
                }
                if cuts.len() <= depth {
                    cuts.resize(depth + 1, None);
                }
                cuts[depth] = Some((i + 1, stack.clone()));
            }
            _ => {}
        }
    }
    // The shallowest cut in the second half of the prefix keeps whole units
    // (a turn rather than part of its events); else the deepest one.
    let half = head.len() / 2;
    let chosen = cuts
        .iter()
        .flatten()
        .find(|(end, _)| *end >= half)
        .or_else(|| cuts.iter().flatten().max_by_key(|(end, _)| *end))?;
    let (end, open) = chosen;
    // Made at its size: the preview keeps this text while it is shown.
    let mut text = Vec::with_capacity(end + open.len());
    text.extend_from_slice(&head[..*end]);
    for opener in open.iter().rev() {
        text.push(if *opener == b'{' { b'}' } else { b']' });
    }
    Some((text, *end))
}

#[cfg(test)]
mod tests {
    use super::close_prefix;
    use serde_json::{Value, json};

    fn closed(text: &str) -> Value {
        let (bytes, _) = close_prefix(text.as_bytes()).expect("a cut");
        serde_json::from_slice(&bytes).expect("well-formed")
    }

    #[test]
    fn a_cut_document_is_closed_after_its_last_whole_unit() {
        let text = r#"{"format":"x","sessions":[{"turns":[{"events":[{"type":"a"}],"status":"completed"},{"events":[{"type":"b"},{"ty"#;
        // The first turn ends in the second half of the prefix: cut after it, not inside the second.
        assert_eq!(
            closed(text),
            json!({"format":"x","sessions":[{"turns":[{"events":[{"type":"a"}],"status":"completed"}]}]})
        );
        // When no whole unit ends in the second half, the last closed value is the cut.
        let long = format!(
            r#"{{"sessions":[{{"turns":[{{"events":[{{"type":"a"}},{}{{"type":"b"}},{{"ty"#,
            r#"{"x":1},"#.repeat(20)
        );
        let value = closed(&long);
        let events = value["sessions"][0]["turns"][0]["events"].as_array().unwrap();
        assert_eq!(events.len(), 22);
        assert_eq!(events[21], json!({"type":"b"}));
    }

    #[test]
    fn brackets_and_quotes_inside_strings_do_not_count() {
        let text = r#"{"a":[{"t":"}]\"{["},{"t":"x"#;
        assert_eq!(closed(text), json!({"a":[{"t":"}]\"{["}]}));
    }

    #[test]
    fn a_whole_document_is_kept_as_it_is() {
        let text = r#"{"a":[1,2]}"#;
        assert_eq!(close_prefix(text.as_bytes()), Some((text.as_bytes().to_vec(), text.len())));
    }

    #[test]
    fn deep_nesting_gives_no_preview_quickly() {
        let deep = format!("{}{}", "[".repeat(2_000_000), "]".repeat(1000));
        assert_eq!(close_prefix(deep.as_bytes()), None);
    }

    #[test]
    fn nothing_closed_gives_no_preview() {
        assert_eq!(close_prefix(br#"{"a":"long str"#), None);
        assert_eq!(close_prefix(b"]"), None);
    }

    #[test]
    fn every_prefix_of_a_document_closes_to_json_or_nothing() {
        let doc = json!({"format":"f","sessions":[{"id":"s","turns":[
            {"events":[{"type":"message","text":"a \"q\" ]}"},{"type":"x","n":[1,2,{"k":null}]}],"status":"completed"},
            {"events":[],"status":"waiting"}]}]})
        .to_string();
        for cut in 0..doc.len() {
            if let Some((bytes, used)) = close_prefix(&doc.as_bytes()[..cut]) {
                assert!(used <= cut);
                assert!(
                    serde_json::from_slice::<Value>(&bytes).is_ok(),
                    "prefix {cut}: {}",
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }
}
