//! What a list of sessions shows of each (a folder of native agent logs):
//! the facts a cheap read of a log gives, before the log is read in full.

/// How many characters of the first user message are kept.
const FIRST_MESSAGE_CHARS: usize = 400;

/// What the list row of one session shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionFacts {
    /// The first and last `timestamp` the log's lines carry, as written.
    pub started: Option<String>,
    pub ended: Option<String>,
    /// Its first characters, unsanitised.
    pub first_user: Option<String>,
    /// The model of the last assistant message that names one.
    pub model: Option<String>,
    /// User messages (prompts, not tool results): the session's turns.
    pub user_messages: usize,
    /// Tool calls started, and how many of their results failed.
    pub tool_calls: usize,
    pub failures: usize,
    /// The usage NiceEval's parser adds up (absent: no usage line).
    pub usage: crate::model::usage::Usage,
    pub compactions: u64,
    /// Lines NiceEval's parser could not read (`parseSuccess` false).
    pub lost_lines: usize,
}

impl SessionFacts {
    pub fn user_message(&mut self, text: &str) {
        self.user_messages += 1;
        if self.first_user.is_none() {
            self.first_user = Some(text.chars().take(FIRST_MESSAGE_CHARS).collect());
        }
    }

    pub fn time(&mut self, t: &str) {
        if self.started.is_none() {
            self.started = Some(t.to_string());
        }
        self.ended = Some(t.to_string());
    }
}
