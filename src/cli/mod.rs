//! Command-line surface: parse arguments, load, derive, then run or print.

pub mod check;
pub mod compare;
pub mod convert;
pub mod derive;
pub mod passthrough;
pub mod show;
pub mod view;

use clap::{Parser, Subcommand};
use std::ffi::OsString;

#[derive(Debug, Parser)]
#[command(name = "niceeval", version, long_version = version_text(), about = "Terminal viewer for NiceEval agent Turns, sessions and eval results", after_help = "Any other command (exp, list, session, sandbox, debug, …) is handed to the project's own NiceEval CLI: node_modules/.bin/niceeval, from the working directory upward.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

fn version_text() -> &'static str {
    concat!(
        env!("CARGO_PKG_VERSION"),
        "\nreads: niceeval-viewer.session/1, Turn/Turn lists, JSONL streams, InvocationSummary (assert-first/v2), ",
        "niceeval.record (assertions v1–v2, observability v1–v2, file-changes v1, source-navigation v1, sources v1, artifacts v1), ",
        "niceeval.show, niceeval.exp v1, niceeval.results (legacy), Claude Code and codex exec --json logs"
    )
}

/// Options shared by every command that derives.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DeriveOpts {
    /// Model name for the cost estimate (default: the file's own `model`).
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Price table: NiceEval's prices.json catalog or a `pricing` override map.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open files in the interactive viewer.
    View(view::ViewArgs),
    /// Lint event streams: is my Adapter's output right?
    Check(check::CheckArgs),
    /// Print what the viewer shows, as plain text (for pipes, CI logs and bug reports).
    Show(Box<show::ShowArgs>),
    /// Compare runs: evals × experiments of one source, or the attempts of BEFORE and AFTER paired.
    Compare(compare::CompareArgs),
    /// Read a native Claude Code or Codex log as NiceEval does: print the Turn (or, with --json, the parse).
    Convert(convert::ConvertArgs),
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout.
    Man,
    /// Print the derived facts (tool calls, occurrences, usage, estimate) as JSON.
    Derive {
        /// Input file (`-` for stdin).
        #[arg(value_name = "FILE", required = true)]
        paths: Vec<std::path::PathBuf>,
        #[command(flatten)]
        opts: DeriveOpts,
        #[command(flatten)]
        agent: convert::AgentOpt,
    },
    /// Any other command (`exp`, `list`, `sandbox`, …) goes to the project's own
    /// NiceEval CLI (`node_modules/.bin/niceeval`, from here upward).
    #[command(external_subcommand)]
    External(Vec<OsString>),
}

/// Exit codes: 0 ok, 1 findings or failures, 2 bad input or usage.
pub const EXIT_INPUT: i32 = 2;

/// Run a parsed command and return the exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Derive { paths, opts, agent } => derive::run(&paths, &opts, agent.agent()),
        Command::Convert(args) => convert::run(&args),
        Command::Check(args) => check::run(&args),
        Command::View(args) => view::run(&args),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cmd, "niceeval", &mut buf);
            print_stdout(&String::from_utf8_lossy(&buf))
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            match clap_mangen::Man::new(cmd).render(&mut buf) {
                Ok(()) => print_stdout(&String::from_utf8_lossy(&buf)),
                Err(e) => report_error(&e),
            }
        }
        Command::Show(args) => show::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::External(args) => passthrough::run(&args),
    }
}

/// Load the price table the options name, or the built-in one.
pub fn price_table(opts: &DeriveOpts) -> Result<crate::model::usage::PriceTable, crate::load::LoadError> {
    match &opts.prices {
        None => Ok(crate::model::usage::builtin_prices()),
        Some(path) => {
            let bytes = crate::load::read_input(path)?;
            let name = crate::load::display_name(path);
            let value = crate::load::parse_json(&name, &bytes)?;
            let table =
                crate::model::usage::PriceTable::from_file(&value, &name, crate::model::usage::builtin_prices())
                    .map_err(|m| crate::load::LoadError::new(&name, m))?;
            for warning in &table.warnings {
                let line = format!("{name}: {warning}");
                eprintln!(
                    "niceeval: warning: {}",
                    crate::model::text::sanitize(&line, crate::model::text::Lines::Single)
                );
            }
            Ok(table)
        }
    }
}

/// The nearest `relative` that `accept`s, from `start` upward.
pub fn find_upward(
    start: &std::path::Path,
    relative: &str,
    mut accept: impl FnMut(&std::path::Path) -> bool,
) -> Option<std::path::PathBuf> {
    start.ancestors().map(|dir| dir.join(relative)).find(|candidate| accept(candidate))
}

/// Print a load error the same way everywhere.
pub fn report_error(err: &dyn std::fmt::Display) -> i32 {
    eprintln!("niceeval: {err}");
    EXIT_INPUT
}

/// A JSON document pretty-printed for stdout, with every character a terminal
/// would act on escaped as `\uXXXX` (`text::json_terminal_safe`): the one
/// way `show --json`, `compare --json`, `check --format json` and `derive` print JSON.
pub fn terminal_safe_json(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    match crate::model::text::json_terminal_safe(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(safe) => safe,
    }
}

/// Write to stdout; a closed pipe (`| head`) is a normal exit.
pub fn print_stdout(text: &str) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => report_error(&e),
    }
}
