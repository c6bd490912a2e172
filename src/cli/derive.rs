//! `niceeval derive`: the derived facts as JSON (the conformance contract).

use super::{DeriveOpts, price_table, report_error};
use crate::model::derive_attempt;
use crate::model::derive_json::DerivedJson;
use std::io::Write;

/// File-provided text for stderr, made safe for the terminal.
fn one_line(s: &str) -> String {
    crate::model::text::sanitize(s, crate::model::text::Lines::Single).into_owned()
}

pub fn run(
    paths: &[std::path::PathBuf],
    opts: &DeriveOpts,
    agent: Option<crate::load::format::transcript::Agent>,
) -> i32 {
    let doc = match crate::load::load_paths_as(paths, agent) {
        Ok(d) => d,
        Err(e) => return report_error(&e),
    };
    let prices = match price_table(opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    say_losses(&doc);
    let mut derived = Vec::new();
    for attempt in &doc.attempts {
        if !attempt.events_exact {
            eprintln!(
                "niceeval: {}: {} has no raw event stream ({}); nothing to derive",
                one_line(&doc.sources.join(", ")),
                one_line(attempt.eval_id.as_deref().unwrap_or("attempt")),
                one_line(&doc.format)
            );
            continue;
        }
        let d = derive_attempt(attempt, opts.model.as_deref(), &prices);
        if let Some(what) = d.not_finite() {
            // An error, not a null: null means "not reported" or "no model or
            // price" to whoever reads this JSON, and JSON has no infinity.
            eprintln!(
                "niceeval: {}: {}: {what} is not a finite number; no JSON is printed, as null would read as \"not reported\" or \"no model or price\" (niceeval check reports it as usage-sum-overflow)",
                one_line(&doc.sources.join(", ")),
                one_line(attempt.eval_id.as_deref().unwrap_or("attempt"))
            );
            return super::EXIT_INPUT;
        }
        derived.push((attempt, d));
    }
    if derived.is_empty() {
        eprintln!("niceeval: {}: no attempt with raw events to derive", one_line(&doc.sources.join(", ")));
        return super::EXIT_INPUT;
    }
    // Written as it is made (a `Value` of everything would hold every
    // occurrence's payloads three times over), through a filter that keeps
    // C1, DEL, bidi and zero-width characters from the terminal.
    let out = std::io::BufWriter::with_capacity(1 << 16, TerminalSafe::new(std::io::stdout().lock()));
    let written = if derived.len() == 1 && doc.attempts.len() == 1 {
        let (attempt, d) = &derived[0];
        write_pretty(out, &DerivedJson::new(d, attempt))
    } else {
        write_pretty(out, &Attempts(&derived))
    };
    match written {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => report_error(&e),
    }
}

fn write_pretty(mut out: impl Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    // `io::Error::from` gives back the writer's own error (a closed pipe stays `BrokenPipe`).
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()
}

/// `{"format": "niceeval-viewer.derived/1", "attempts": [{evalId, attempt, locator, derived}]}`.
struct Attempts<'a>(&'a [(&'a crate::model::Attempt, crate::model::DerivedAttempt)]);

impl serde::Serialize for Attempts<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct One<'a>(&'a crate::model::Attempt, &'a crate::model::DerivedAttempt);
        impl serde::Serialize for One<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let One(a, d) = *self;
                let mut m = s.serialize_map(Some(4))?;
                m.serialize_entry("evalId", &a.eval_id)?;
                m.serialize_entry("attempt", &a.attempt_number)?;
                m.serialize_entry("locator", &a.locator)?;
                m.serialize_entry("derived", &DerivedJson::new(d, a))?;
                m.end()
            }
        }
        struct List<'a>(&'a [(&'a crate::model::Attempt, crate::model::DerivedAttempt)]);
        impl serde::Serialize for List<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for (a, d) in self.0 {
                    seq.serialize_element(&One(a, d))?;
                }
                seq.end()
            }
        }
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("format", "niceeval-viewer.derived/1")?;
        m.serialize_entry("attempts", &List(self.0))?;
        m.end()
    }
}

/// A writer that passes JSON on with the characters a terminal would act on
/// escaped (see `text::json_terminal_safe`), whole characters at a time.
struct TerminalSafe<W: Write> {
    out: W,
    /// The start of a character cut by the end of the last write.
    partial: Vec<u8>,
}

impl<W: Write> TerminalSafe<W> {
    fn new(out: W) -> TerminalSafe<W> {
        TerminalSafe { out, partial: Vec::new() }
    }
}

impl<W: Write> Write for TerminalSafe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        let whole = match std::str::from_utf8(&self.partial) {
            Ok(_) => self.partial.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(e) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
        };
        let text = std::str::from_utf8(&self.partial[..whole]).unwrap_or_default();
        self.out.write_all(crate::model::text::json_terminal_safe(text).as_bytes())?;
        self.partial.drain(..whole);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The derived facts are only as whole as the input: say on stderr what the
/// load dropped or replaced (`check` reports each as a finding).
fn say_losses(doc: &crate::model::document::Document) {
    const SHOWN: usize = 20;
    for loss in doc.losses.iter().take(SHOWN) {
        let level = match loss.kind {
            crate::model::diagnostics::LossKind::LineSkipped => "error",
            crate::model::diagnostics::LossKind::TextReplaced => "warning",
        };
        eprintln!("niceeval: {level}: {}", one_line(&loss.describe()));
    }
    if doc.losses.len() > SHOWN {
        eprintln!("niceeval: … and {} more (niceeval check lists them all)", doc.losses.len() - SHOWN);
    }
}
