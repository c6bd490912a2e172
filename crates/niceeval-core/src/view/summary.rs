//! What an attempt is and how it went, as every header reads it: identity,
//! verdict or status, model, counts, tokens, observed cost and the estimate.
//! The viewer's header, `show`'s header, the attempts list and `show --json`
//! all read this one summary.

use super::format::{MISSING, count, number, usd};
use super::text::{Text, Tone, clean};
use crate::model::derive::DerivedAttempt;
use crate::model::document::{Attempt, Document, NoticeLevel};
use crate::model::hitl::{HitlRequest, HitlState};
use crate::model::measure::Measured;
use crate::model::usage::{Estimate, Usage};
use crate::model::verdict::{ScopeStatus, Verdict, attempt_status, needs_review};

/// Where the attempt's usage comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageSource {
    /// The file states the usage of the whole attempt (a Record's usage
    /// observations, an InvocationSummary's `usage`): NiceEval's own figure.
    StatedByFile,
    /// The sum of the turns' own `usage`.
    Turns,
    /// Neither: no usage was reported.
    None,
}

/// The attempt's observed cost (`costUSD`), and how much of it is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observed {
    pub usd: Option<f64>,
    /// Turns whose usage reports `costUSD`, of `turns`.
    pub turns_reporting: usize,
    pub turns: usize,
    pub source: UsageSource,
}

/// A listed session whose log is not read yet: its counts and rows are missing.
pub fn not_read_yet() -> String {
    format!("not read yet: {} reads this session in full", super::keys::key_for(super::intent::Intent::Enter))
}

/// Marks on a token sum that includes a negative count (see `usage-negative`).
const NEGATIVE_SHORT: &str = "includes negative counts";
const NEGATIVE_LONG: &str = "includes negative token counts the file reports (usage-negative): not a real total";

/// Every fact of an attempt's header.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The attempt's file, when several files were opened together.
    pub source: Option<String>,
    pub eval: Option<String>,
    pub experiment: Option<String>,
    /// 1-based, counted per eval (and experiment).
    pub attempt_number: Option<u64>,
    pub locator: Option<String>,
    pub verdict: Option<Verdict>,
    pub status: Option<ScopeStatus>,
    /// The verdict, or the status when there is none, as a phrase.
    pub headline: Text,
    /// Why an errored attempt errored (None unless the verdict is errored).
    pub why: Option<super::errored::Why>,
    pub to_review: bool,
    pub model: Option<String>,
    /// False when the input says the attempt's events were not recorded
    /// (an `exp --json` line, a Record without its trace): its counts are
    /// missing, not zero.
    pub events_recorded: bool,
    /// Only listed, not read yet (see `Attempt::listed_only`).
    pub listed_only: bool,
    pub sessions: usize,
    pub turns: usize,
    pub events: usize,
    pub tool_calls: usize,
    pub orphan_finishes: usize,
    pub waiting: usize,
    pub usage: Usage,
    pub usage_source: UsageSource,
    /// NiceEval's tokens of the attempt (`attemptTokens`), when the file
    /// records a usage collection; the figure every surface shows.
    pub niceeval_tokens: Option<Measured>,
    /// NiceEval's duration (the sum of the `eval.run` intervals), when the
    /// file records a timing collection.
    pub niceeval_duration: Option<Measured>,
    /// This viewer's own duration: as the file states it, else from the
    /// first interval's start to the last one's end.
    pub own_duration: Option<f64>,
    /// Some turn's usage, or the stated usage, has a negative token count
    /// (the `usage-negative` error): the headline sum is not a real figure.
    pub negative_tokens: bool,
    pub observed: Observed,
    pub estimate: Estimate,
    /// `estimatedCostUSD` as the file states it (NiceEval's own estimate).
    pub stated_estimate: Option<f64>,
    /// Which price table the estimate used, in words (its source and date).
    pub price_table: String,
    pub score: Option<(Option<f64>, Option<f64>)>,
    pub errors: usize,
    pub warnings: usize,
}

impl Summary {
    pub fn new(
        attempt: &Attempt,
        d: &DerivedAttempt,
        requests: &[HitlRequest],
        attempt_number: Option<u64>,
        findings: (usize, usize),
        price_table: &str,
    ) -> Summary {
        let (usage, usage_source) = match (&attempt.reported_usage, d.usage.is_empty()) {
            (Some(stated), _) => (*stated, UsageSource::StatedByFile),
            (None, false) => (d.usage, UsageSource::Turns),
            (None, true) => (Usage::default(), UsageSource::None),
        };
        let records = attempt.sessions.iter().flat_map(|s| &s.turns);
        let turns_reporting = records.clone().filter(|r| r.turn.usage.is_some_and(|u| u.cost_usd.is_some())).count();
        let turns = records.clone().count();
        let negative_tokens = attempt
            .reported_usage
            .iter()
            .chain(records.clone().filter_map(|r| r.turn.usage.as_ref()))
            .any(Usage::has_negative_tokens);
        let status = attempt_status(attempt);
        Summary {
            source: attempt.source.clone(),
            eval: attempt.eval_id.clone(),
            experiment: attempt.experiment_id.clone(),
            attempt_number,
            locator: attempt.locator.clone(),
            verdict: attempt.verdict,
            status,
            headline: super::verdict::headline(attempt.verdict, status),
            why: super::errored::why(attempt),
            to_review: needs_review(attempt),
            model: d.model.clone(),
            events_recorded: attempt.events != Some(crate::model::completeness::Completeness::NotRecorded)
                && !attempt.listed_only,
            listed_only: attempt.listed_only,
            sessions: attempt.sessions.len(),
            turns,
            events: records.map(|r| r.turn.events.len()).sum(),
            tool_calls: d.occurrences.occurrences.len(),
            orphan_finishes: d.occurrences.orphan_finishes.len(),
            waiting: requests.iter().filter(|r| r.state == HitlState::Waiting).count(),
            usage,
            usage_source,
            niceeval_tokens: attempt.recorded_usage.as_ref().map(crate::model::measure::tokens),
            niceeval_duration: crate::model::measure::duration(&attempt.review.timing),
            own_duration: attempt.duration_ms,
            negative_tokens,
            observed: Observed { usd: usage.cost_usd, turns_reporting, turns, source: usage_source },
            estimate: d.estimate.clone(),
            stated_estimate: attempt.reported_estimate,
            price_table: clean(price_table),
            score: attempt.score.as_ref().map(|s| (s.earned, s.points)),
            errors: findings.0,
            warnings: findings.1,
        }
    }

    /// The attempt's tokens as NiceEval counts them (`attemptTokens`) when
    /// the file records its usage collection, else this viewer's input +
    /// output sum (cache buckets are their own input; reasoning is inside
    /// output).
    pub fn tokens(&self) -> Option<f64> {
        match &self.niceeval_tokens {
            Some(m) => m.value(),
            None => self.own_tokens(),
        }
    }

    /// This viewer's own figure: input + output of the usage it reads.
    pub fn own_tokens(&self) -> Option<f64> {
        self.usage.billable_tokens()
    }

    /// This viewer's sum, when it is a figure and not NiceEval's (a partial
    /// collection's sum, a lone bucket): shown beside NiceEval's, marked.
    pub fn partial_tokens(&self) -> Option<f64> {
        let own = self.own_tokens()?;
        (self.niceeval_tokens.is_some() && self.tokens() != Some(own)).then_some(own)
    }

    /// Why NiceEval has no tokens figure for the attempt, when it has none.
    pub fn tokens_no_value(&self) -> Option<&'static str> {
        match self.niceeval_tokens {
            Some(Measured::NoValue(why)) => Some(why),
            _ => None,
        }
    }

    /// "7,872 tokens", "— tokens · partial 60", or "-30 tokens (negative counts)".
    pub fn tokens_short(&self) -> String {
        let mut t = match self.tokens() {
            Some(t) if self.negative_tokens => format!("{} tokens ({NEGATIVE_SHORT})", number(t)),
            Some(t) => format!("{} tokens", number(t)),
            None => format!("{MISSING} tokens"),
        };
        if let Some(p) = self.partial_tokens() {
            t.push_str(&format!(" · partial {}", number(p)));
        }
        t
    }

    /// "7,872 tokens (input 6,384 + output 1,488; cache read 73,728, cache write 6,144) · stated by the file";
    /// NiceEval's "no value" with this viewer's partial sum beside it.
    /// Shown under the label "tokens", so a missing figure does not repeat the word.
    pub fn tokens_long(&self) -> Text {
        let u = &self.usage;
        let buckets = format!(
            "(input {} + output {}; cache read {}, cache write {})",
            super::format::opt_number(u.input_tokens),
            super::format::opt_number(u.output_tokens),
            super::format::opt_number(u.cache_read_tokens),
            super::format::opt_number(u.cache_creation_tokens)
        );
        let mut text = match (self.tokens(), self.tokens_no_value()) {
            (Some(0.0), None) if self.own_tokens().is_none() && self.niceeval_tokens.is_some() => {
                Text::plain("0 tokens")
                    .with(" (the usage collection is complete and records no token count)", Tone::Soft)
            }
            (Some(t), None) => Text::plain(format!("{} tokens {buckets}", number(t))),
            (_, Some(why)) => Text::toned(format!("{MISSING} (NiceEval has no value: {why})"), Tone::Soft),
            (None, None) => {
                return Text::toned(format!("{MISSING} (no input or output token counts reported)"), Tone::Soft);
            }
        };
        if let Some(p) = self.partial_tokens() {
            text.push(format!(" · partial sum {} tokens {buckets}", number(p)), Tone::Warn);
        }
        if let Some(note) = self.usage_note() {
            text.push(format!(" · {note}"), Tone::Soft);
        }
        if self.negative_tokens {
            text.push(format!(" · {NEGATIVE_LONG}"), Tone::Bad);
        }
        text
    }

    /// The attempt's duration as NiceEval counts it (the sum of its
    /// `eval.run` intervals) when the file records its timing, else this
    /// viewer's own.
    pub fn duration(&self) -> Option<f64> {
        match &self.niceeval_duration {
            Some(m) => m.value(),
            None => self.own_duration,
        }
    }

    /// This viewer's own duration, when it is not NiceEval's figure.
    pub fn other_duration(&self) -> Option<f64> {
        let own = self.own_duration?;
        (self.niceeval_duration.is_some() && self.duration() != Some(own)).then_some(own)
    }

    /// "4ms (eval.run) · ours 178ms (the whole timing span)", or "—".
    pub fn duration_text(&self) -> Text {
        let mut text = match (&self.niceeval_duration, self.duration()) {
            (Some(Measured::NoValue(why)), _) => {
                Text::toned(format!("{MISSING} (NiceEval has no value: {why})"), Tone::Soft)
            }
            (Some(_), Some(d)) => Text::plain(super::format::duration_ms(d)).with(" (eval.run)", Tone::Soft),
            (None, Some(d)) => Text::plain(super::format::duration_ms(d)),
            (_, None) => Text::toned(MISSING, Tone::Soft),
        };
        if let Some(d) = self.other_duration() {
            text.push(format!(" · ours {} (the whole timing span)", super::format::duration_ms(d)), Tone::Soft);
        }
        text
    }

    /// Where the usage figures come from, when it is not the sum of every turn.
    pub fn usage_note(&self) -> Option<String> {
        match self.usage_source {
            UsageSource::StatedByFile => Some("stated by the file for the whole attempt".into()),
            _ => None,
        }
    }

    /// "$0.0654" or "—".
    pub fn observed_short(&self) -> String {
        self.observed.usd.map(usd).unwrap_or_else(|| MISSING.into())
    }

    /// "$0.0196 (2 of 7 turns report costUSD)", "$0.0654 (every turn reports costUSD)", "— (no costUSD reported)".
    pub fn observed_long(&self) -> Text {
        let o = &self.observed;
        match (o.usd, o.source) {
            (None, _) => Text::toned(format!("{MISSING} (no costUSD reported)"), Tone::Soft),
            (Some(c), UsageSource::StatedByFile) => {
                Text::plain(usd(c)).with(" (costUSD stated by the file for the whole attempt)", Tone::Soft)
            }
            (Some(c), _) if o.turns_reporting < o.turns => Text::plain(usd(c)).with(
                format!(
                    " (sum of costUSD; only {} of {} report it)",
                    o.turns_reporting,
                    count(o.turns, "turn", "turns")
                ),
                Tone::Warn,
            ),
            (Some(c), _) => Text::plain(usd(c)).with(" (sum of costUSD)", Tone::Soft),
        }
    }

    /// "k of n turns" when the observed cost covers only some turns.
    pub fn observed_partial(&self) -> Option<String> {
        self.observed_partial_counts().map(|(k, n)| format!("{k} of {n} turns"))
    }

    /// How many turns of how many report `costUSD`, when only some do.
    pub fn observed_partial_counts(&self) -> Option<(usize, usize)> {
        let o = &self.observed;
        (o.usd.is_some() && o.source == UsageSource::Turns && o.turns_reporting < o.turns)
            .then_some((o.turns_reporting, o.turns))
    }

    /// "$0.0866" or "—".
    pub fn estimate_short(&self) -> String {
        self.estimate.total().map(usd).unwrap_or_else(|| MISSING.into())
    }

    /// "$0.0866 (claude-sonnet-4-5 × tokens, see the Usage tab)" or "— (why)".
    pub fn estimate_long(&self) -> Text {
        let mut text = match &self.estimate {
            Estimate::Priced { total, hit, .. } => {
                Text::plain(usd(*total)).with(format!(" (price key {} × tokens)", clean(&hit.key)), Tone::Soft)
            }
            other => Text::toned(format!("{MISSING} ({})", estimate_reason(other)), Tone::Soft),
        };
        if let Some(r) = self.stated_estimate {
            text.push(format!(" · the file's own estimatedCostUSD {}", usd(r)), Tone::Soft);
        }
        text
    }

    /// "3 sessions · 8 turns · 37 events · 9 tool calls" (+ orphan finishes).
    /// Whether the counts are known: events recorded, or some found anyway.
    pub fn counts_known(&self) -> bool {
        self.events_recorded || self.events > 0
    }

    /// The turn count, or `None` when the events were not recorded (missing, not zero).
    pub fn known_turns(&self) -> Option<f64> {
        self.counts_known().then_some(self.turns as f64)
    }

    /// The tool-call count, or `None` when the events were not recorded.
    pub fn known_tool_calls(&self) -> Option<f64> {
        self.counts_known().then_some(self.tool_calls as f64)
    }

    pub fn counts(&self) -> Text {
        if self.listed_only {
            return Text::toned(format!("{MISSING} ({})", not_read_yet()), Tone::Soft);
        }
        if !self.counts_known() {
            return Text::toned(format!("{MISSING} (events not recorded)"), Tone::Soft);
        }
        let mut t = Text::plain(format!(
            "{} · {} · {} · {}",
            count(self.sessions, "session", "sessions"),
            count(self.turns, "turn", "turns"),
            count(self.events, "event", "events"),
            count(self.tool_calls, "tool call", "tool calls"),
        ));
        if self.orphan_finishes > 0 {
            t.push(format!(" · {}", count(self.orphan_finishes, "orphan finish", "orphan finishes")), Tone::Warn);
        }
        t
    }

    /// "classic/tool-note · baseline · attempt 1": eval, experiment and the
    /// attempt's number among the attempts of that eval.
    pub fn title(&self) -> String {
        self.title_parts().join(" · ")
    }

    /// The parts of [`Summary::title`]: eval (or file), experiment, "attempt N".
    pub fn title_parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        // Without an eval id, the file names the attempt (several files opened together).
        let file = self.source.as_deref().map(|p| {
            clean(std::path::Path::new(p).file_name().map(|n| n.to_string_lossy()).unwrap_or_default().as_ref())
        });
        let name = self.eval.as_deref().map(clean).or(file).unwrap_or_else(|| "Attempt".into());
        parts.push(name);
        if let Some(x) = &self.experiment {
            parts.push(clean(x));
        }
        if let Some(n) = self.attempt_number {
            parts.push(format!("attempt {n}"));
        }
        parts
    }

    /// "score 1.5 of 3 pts".
    pub fn score_text(&self) -> Option<String> {
        let (earned, points) = self.score?;
        Some(format!("score {} of {} pts", super::format::opt_number(earned), super::format::opt_number(points)))
    }

    /// "⚑ 1 error · 2 warnings" when the attempt has findings.
    pub fn findings_text(&self) -> Option<Text> {
        if self.errors + self.warnings == 0 {
            return None;
        }
        let tone = if self.errors > 0 { Tone::Bad } else { Tone::Warn };
        Some(Text::toned(format!("⚑ {}", super::format::finding_counts(self.errors, self.warnings)), tone))
    }

    /// "⏸ WAITING FOR INPUT (1)": requests no later turn answers.
    pub fn waiting_text(&self) -> Option<Text> {
        (self.waiting > 0).then(|| Text::toned(format!("⏸ WAITING FOR INPUT ({})", self.waiting), Tone::Hitl))
    }
}

/// The notices that belong with an attempt: its own, then the document's
/// (about the input as a whole). Never another attempt's.
pub fn notices(doc: &Document, attempt: &Attempt) -> Vec<(NoticeLevel, String)> {
    attempt.notices.iter().chain(&doc.notices).map(|n| (n.level, clean(&super::notice::words(n)))).collect()
}

/// Every notice of a document for stderr: the document's own, then each
/// attempt's warnings and errors, prefixed with the attempt they are about.
pub fn notice_lines(doc: &Document) -> Vec<String> {
    let word = |l: NoticeLevel| match l {
        NoticeLevel::Error => "error",
        NoticeLevel::Warning => "warning",
        NoticeLevel::Info => "note",
    };
    let mut out: Vec<String> =
        doc.notices.iter().map(|n| format!("{}: {}", word(n.level), clean(&super::notice::words(n)))).collect();
    let several = doc.attempts.len() > 1;
    for a in &doc.attempts {
        for n in a.notices.iter().filter(|n| n.level >= NoticeLevel::Warning) {
            let who = if several { format!("{}: ", attempt_name(a)) } else { String::new() };
            out.push(format!("{}: {who}{}", word(n.level), clean(&super::notice::words(n))));
        }
    }
    out
}

/// A short name for an attempt in lists and prefixes: its locator, else
/// "eval #n".
pub fn attempt_name(a: &Attempt) -> String {
    match (&a.locator, &a.eval_id, a.attempt_number) {
        (Some(l), _, _) => clean(l),
        (None, Some(e), Some(n)) => format!("{} #{n}", clean(e)),
        (None, Some(e), None) => clean(e),
        (None, None, _) => "attempt".into(),
    }
}

/// Why there is no estimate, in words.
pub fn estimate_reason(e: &Estimate) -> String {
    match e {
        Estimate::Priced { .. } => String::new(),
        Estimate::NoModel => "no model named; --model names one".into(),
        Estimate::NoPrice { model } => format!("no price for model \"{}\" in the price table", clean(model)),
        Estimate::NoTokens => "no token counts reported".into(),
    }
}
