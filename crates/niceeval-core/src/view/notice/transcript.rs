//! The words of native agent logs' notices, and of a folder of them.

use crate::model::notice::{NotListed, TranscriptNotice};
use crate::model::provenance::SkipReason;

pub fn transcript(n: &TranscriptNotice) -> String {
    match n {
        TranscriptNotice::Read { path, agent, events, lines, gave_nothing } => format!(
            "{path}: a {} read as NiceEval's {} reads it: {events} event(s) from {lines} line(s), {gave_nothing} line(s) gave nothing",
            agent.log_name(),
            agent.parser()
        ),
        TranscriptNotice::InvalidUtf8 { path, sequences } => {
            format!("{path}: {sequences} invalid UTF-8 sequence(s) read as U+FFFD, as Node reads the file")
        }
        TranscriptNotice::LineLost { path, line, reason } => format!("{path}:{line}: {}", skip_reason(reason)),
        TranscriptNotice::LinesIgnored { path, lines, reason } => {
            let noun = if lines.len() == 1 { "line" } else { "lines" };
            format!("{path}: {noun} {}: {}", line_list(lines), skip_reason(reason))
        }
        TranscriptNotice::NotListed { name, why } => {
            let why = match why {
                NotListed::Unreadable { io } => io.as_str(),
                NotListed::NotALog => {
                    "no line says which agent wrote it (not a Claude Code session log nor Codex output; open it alone to see what it is)"
                }
            };
            format!("{name}: {why}; not listed as a session")
        }
        TranscriptNotice::ListedFromQuickRead { name } => {
            let open = super::super::keys::key_for(super::super::intent::Intent::Enter);
            format!("{name}: listed from a quick read of the log; opening it ({open}) reads it in full")
        }
    }
}

/// Why a line of a log gave nothing (the same words as the input loss of a
/// lost line: `load::format::transcript::load`).
fn skip_reason(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotJson(e) => format!("not JSON ({e}); NiceEval's parser skips it and reports parseSuccess false"),
        SkipReason::Throws => {
            "NiceEval's parser fails on this line (a value it cannot make a string) and skips it; parseSuccess false"
                .into()
        }
        SkipReason::Metadata => "session metadata or lifecycle, which NiceEval's parser does not read".into(),
        SkipReason::Incomplete => "an intermediate item state; the completed item is what counts".into(),
        SkipReason::Delta => "streaming text fragments; the whole text comes on another line".into(),
        SkipReason::Unmapped(t) => format!("type {t:?}, which NiceEval's parser does not map"),
        SkipReason::NoText => "a message or reasoning line with no text".into(),
        SkipReason::SkillResult => "the result of a Skill tool use, already shown as skill.loaded".into(),
        SkipReason::NoShape => "no type NiceEval's parser reads".into(),
    }
}

/// `1, 4, 9` (at most twelve, then `… (N in all)`).
fn line_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(12).map(usize::to_string).collect();
    let more = if lines.len() > 12 { format!(", … ({} in all)", lines.len()) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_session_names_the_key_that_opens_it() {
        let listed = TranscriptNotice::ListedFromQuickRead { name: "a.jsonl".into() };
        assert_eq!(
            transcript(&listed),
            "a.jsonl: listed from a quick read of the log; opening it (Enter) reads it in full"
        );
    }

    /// A lost line's notice and its input loss say the same words.
    #[test]
    fn skip_reasons_read_as_the_losses_say_them() {
        use crate::load::format::transcript::load::reason_text;
        let reasons = [
            SkipReason::NotJson("expected value at line 1 column 1".into()),
            SkipReason::Throws,
            SkipReason::Metadata,
            SkipReason::Incomplete,
            SkipReason::Delta,
            SkipReason::Unmapped("todo_list".into()),
            SkipReason::NoText,
            SkipReason::SkillResult,
            SkipReason::NoShape,
        ];
        for reason in reasons {
            assert_eq!(skip_reason(&reason), reason_text(&reason));
        }
    }
}
