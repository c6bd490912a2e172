//! `niceeval check`: lint every turn of every session. The words, counts
//! and layouts are `view::check`'s; this parses arguments and writes.
//!
//! Exit status: 0 clean, 1 findings of the selected rules at the failing
//! severity (errors, or warnings too with `--deny-warnings`), 2 input or
//! usage errors, or nothing to check.

use crate::analysis::derive_and_lint_to;
use crate::view::check::{Layout, Report, RuleChoice, rules_json, rules_text};
use std::io::Write as _;

pub use crate::view::check::JSON_FORMAT;

#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Input files or directories (`-` for stdin).
    #[arg(value_name = "PATH", required_unless_present = "list_rules")]
    pub paths: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Fail (exit 1) on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Print every finding (by default each rule prints its first few and how many more).
    #[arg(long, conflicts_with = "statistics")]
    pub all: bool,
    /// Print only the count per rule (code, severity, count, first position).
    #[arg(long)]
    pub statistics: bool,
    /// Check only these rules (codes, comma-separated).
    #[arg(long, value_name = "CODE,…", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Leave these rules out (codes, comma-separated).
    #[arg(long, value_name = "CODE,…", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print every rule (code, severity, spec rule, what it catches) and exit.
    #[arg(long)]
    pub list_rules: bool,
    #[command(flatten)]
    pub agent: super::convert::AgentOpt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
}

pub fn run(args: &CheckArgs) -> i32 {
    if args.list_rules {
        let text = match args.format {
            CheckFormat::Text => rules_text(),
            CheckFormat::Json => super::terminal_safe_json(&rules_json()),
        };
        return emit(&text, 0);
    }
    let choice = match RuleChoice::parse(&args.select, &args.ignore) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("niceeval check: {e}");
            return super::EXIT_INPUT;
        }
    };
    let doc = match crate::load::load_paths_as(&args.paths, args.agent.agent()) {
        Ok(d) => d,
        Err(e) => return super::report_error(&e),
    };
    // The derivation the lint reads: check shows no observability summary.
    let depth = crate::model::derive::Depth::NoSummaries;
    let (derived, findings) = derive_and_lint_to(&doc, None, &crate::model::usage::builtin_prices(), depth);
    let report = Report::chosen(&doc, &derived, findings, args.deny_warnings, choice);
    let text = match args.format {
        CheckFormat::Text if args.statistics => report.text_as(Layout::Statistics),
        CheckFormat::Text if args.all => report.text_as(Layout::All),
        CheckFormat::Text => report.text(),
        CheckFormat::Json => return write_json(&report, args.statistics),
    };
    if let Some(refusal) = report.refusal() {
        eprintln!("{refusal}");
    }
    emit(&text, report.exit_code())
}

/// `--format json`, written as it is made (one finding at a time, see
/// `Report::write_json`), terminal-safe as every JSON this binary prints.
fn write_json(report: &Report, statistics_only: bool) -> i32 {
    let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut w = crate::view::json::PrettyWriter::new(stdout, crate::model::text::json_terminal_safe);
    let written = report.write_json(statistics_only, &mut w).and_then(|()| {
        let mut out = w.into_inner();
        out.write_all(b"\n")?;
        out.flush()
    });
    match written {
        Ok(()) => report.exit_code(),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => report.exit_code(),
        Err(e) => super::report_error(&e),
    }
}

/// Write to stdout; a closed pipe is a normal exit.
fn emit(text: &str, code: i32) -> i32 {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => super::report_error(&e),
    }
}
