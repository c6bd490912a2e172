//! The rules `niceeval check` enforces, as `docs/rules.md` (generated from
//! the rule table; a test keeps the file equal) and as the citation a
//! finding carries: the rule's anchor in that document and the part of
//! NiceEval's behaviour it follows.

use crate::model::lint::{RULES, RuleInfo};

/// The parts of NiceEval's behaviour (its derivation core at b5fbba66) the
/// rules cite, by section number, in a few words.
const SECTIONS: &[(&str, &str)] = &[
    ("§1.1", "JSON values and source locations"),
    ("§1.2", "the ten StreamEvent variants and their fields"),
    ("§1.3", "input requests and their answers"),
    ("§1.4", "the Turn an adapter's send returns"),
    ("§1.5", "usage: which fields exist, absent is not 0"),
    ("§1.6", "canonical tool names"),
    ("§1.7", "command projections and logical-command/v1"),
    ("§2.1", "the legacy fold (tool calls, subagent calls, parked)"),
    ("§2.2", "logical tool occurrences: pairing by operationId within a session"),
    ("§2.3", "input and output evidence (redacted, truncated)"),
    ("§2.4", "a call's lifecycle and output"),
    ("§2.6", "how turns, sessions and the attempt become scopes"),
    ("§3.1", "evidence coverage declarations"),
    ("§3.2", "evidence coverage algebra"),
    ("§3.3", "which coverage channel each assertion reads"),
    ("§3.5", "matching one tool occurrence"),
    ("§4.1", "usage sums: absent fields stay absent"),
    ("§4.2", "the cost estimate from a price table"),
    ("§5.1", "turn status: completed, failed, waiting"),
    ("§5.2", "HITL: requests and responses"),
    ("§5.4", "noFailedActions: which finishes count as failed"),
    ("§5.5", "what the framework validates and what it absorbs"),
    ("§6.25", "skill loads expressed as a tool call"),
];

/// Where a finding's rule is written: `docs/rules.md#orphan-finish`.
pub fn rule_link(code: &str) -> String {
    format!("docs/rules.md#{code}")
}

/// "§2.2 (logical tool occurrences: pairing by operationId within a session)".
fn cited(rule: &str) -> String {
    let parts: Vec<String> = rule
        .trim_start_matches("derivation")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match SECTIONS.iter().find(|(s, _)| *s == p) {
            Some((s, what)) => format!("{s} ({what})"),
            None => p.to_string(),
        })
        .collect();
    if parts.is_empty() { "NiceEval's derivation core".into() } else { parts.join("; ") }
}

/// How a finding cites its rule: the document, and NiceEval's behaviour it follows.
pub fn citation(info: &RuleInfo) -> String {
    format!("{} — NiceEval {}", rule_link(info.code), cited(info.rule))
}

/// The citation of a rule by its code (the code itself when it is not in the table).
pub fn citation_of(code: &str) -> String {
    RULES.iter().find(|r| r.code == code).map(citation).unwrap_or_else(|| code.to_string())
}

/// `docs/rules.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "# The rules `niceeval check` enforces\n\n\
         Generated from the rule table (`crates/niceeval-core/src/model/rules.rs`); a test keeps this file equal to it. \
         `niceeval check --list-rules` prints the same table.\n\n\
         Each rule follows NiceEval's own behaviour (its derivation core at commit `b5fbba66`): what NiceEval does \
         with such an event, and why that matters to an adapter. Errors break what NiceEval derives (tool calls, \
         pairing, usage, status); warnings are likely mistakes that still derive.\n\n",
    );
    out.push_str("| code | severity | what it catches |\n|---|---|---|\n");
    for r in RULES {
        out.push_str(&format!("| [`{}`](#{}) | {} | {} |\n", r.code, r.code, r.severity.as_str(), r.summary));
    }
    for r in RULES {
        out.push_str(&format!(
            "\n## {}\n\n- severity: {}\n- catches: {}\n- fix: {}\n- NiceEval: {}\n",
            r.code,
            r.severity.as_str(),
            r.summary,
            r.hint,
            cited(r.rule)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cited_section_has_words() {
        for r in RULES {
            for part in r.rule.trim_start_matches("derivation").split(',').map(str::trim).filter(|p| !p.is_empty()) {
                // A standard is cited by its own name and section.
                let standard = part.starts_with("RFC ");
                assert!(standard || SECTIONS.iter().any(|(s, _)| *s == part), "{}: {part} has no words", r.code);
            }
        }
    }
}
