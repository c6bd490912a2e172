//! `niceeval show`: the plain-text twin of the viewer.

use crate::plain::{PlainOptions, SectionKind, Selection, TurnSelector};
use crate::view::panel::Panel;
use std::io::{IsTerminal, Write};

/// `--timing[=summary|full]`, as NiceEval names the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TimingMode {
    Summary,
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, clap::Args)]
pub struct ShowArgs {
    /// Input files or directories (`-` for stdin), and optionally one `@locator` to pick an attempt. No path: the nearest `.niceeval/record` from the working directory upward, as NiceEval finds it.
    #[arg(value_name = "PATH")]
    pub paths: Vec<std::path::PathBuf>,
    /// The Record root to read, as NiceEval's `--record` names it (the root itself; nothing is appended). Instead of a PATH.
    #[arg(long, value_name = "DIR")]
    pub record: Option<std::path::PathBuf>,
    /// One row per event (the default section).
    #[arg(long)]
    pub timeline: bool,
    /// Logical tool occurrences, orphan finishes and ambiguous ids.
    #[arg(long)]
    pub tools: bool,
    /// Every input request, its answer and the tool call it gated.
    #[arg(long)]
    pub hitl: bool,
    /// Usage per turn, session and attempt, and the cost estimate ledger.
    #[arg(long)]
    pub usage: bool,
    /// Assertion results, failing gates first.
    #[arg(long)]
    pub assertions: bool,
    /// Only attempts to review (failed or errored), with why: the evidence rows their failing assertions point to, an error's phase and message (exit 1 if any).
    #[arg(long)]
    pub failures: bool,
    /// Lint findings and recorded diagnostics.
    #[arg(long)]
    pub diagnostics: bool,
    /// File changes with a patch each.
    #[arg(long)]
    pub changes: bool,
    /// The attempt's timing intervals (and OTel spans) as a waterfall; `--timing=full` adds each interval's id, start and parent (NiceEval's `--timing[=summary|full]`).
    #[arg(long, value_enum, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "summary")]
    pub timing: Option<TimingMode>,
    /// NiceEval's execution evidence: the timeline, tools, usage, commands and diagnostics (with `--grep`, only what matches).
    #[arg(long)]
    pub execution: bool,
    /// The sandbox's lifecycle commands (setup, test, teardown): phase, command line, exit code, duration, stdout and stderr.
    #[arg(long)]
    pub commands: bool,
    /// The recorded eval source files whole (`--source=FILE`: that one), with a gutter marking assertions (✓ ✗ ? and points) and sends (→ turn N).
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    pub source: Option<String>,
    /// The file changes with a patch each, as NiceEval's `--diff` (`--diff=PATH`: that path only).
    #[arg(long, value_name = "PATH", num_args = 0..=1, require_equals = true, default_missing_value = "")]
    pub diff: Option<String>,
    /// Each native line (an agent log's line, a capture's converter call) beside the events it became.
    #[arg(long)]
    pub translation: bool,
    /// Print the prompt NiceEval composes to fix a failed attempt, as is (exit 1 if no attempt has one).
    #[arg(long, conflicts_with = "json")]
    pub fix_prompt: bool,
    /// Print the view as one JSON object (`niceeval-viewer.show/1`) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Every section.
    #[arg(long)]
    pub all: bool,
    /// Only this session (sessionIndex, 1 = primary).
    #[arg(long, value_name = "N")]
    pub session: Option<u64>,
    /// Only this turn: its number as every surface prints it (`6` in `6:3`, or the address `6:3` itself), `turnN` or `sessionK/turnN`.
    #[arg(long, value_name = "N|LABEL")]
    pub turn: Option<String>,
    /// Only rows matching this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub grep: Option<String>,
    /// Print complete payloads (pretty JSON) instead of cut previews.
    #[arg(long)]
    pub full: bool,
    /// Only this published Run of the Record (repeatable), as NiceEval's `--run` selects it.
    #[arg(long, value_name = "ID")]
    pub run: Vec<String>,
    /// Only the attempts of this experiment (repeatable; its complete id), as NiceEval's `--experiment` narrows.
    #[arg(long, value_name = "ID")]
    pub experiment: Vec<String>,
    /// NiceEval's Report page route: its browser's, not drawn here (a usage error naming NiceEval's CLI).
    #[arg(long, value_name = "ROUTE", hide = true)]
    pub page: Option<String>,
    /// NiceEval's Report module: its browser's, not drawn here (a usage error naming NiceEval's CLI).
    #[arg(long, value_name = "MODULE", hide = true)]
    pub report: Option<String>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    #[command(flatten)]
    pub opts: super::DeriveOpts,
    #[command(flatten)]
    pub agent: super::convert::AgentOpt,
}

/// How text output is laid out: the options `show` and `compare` share.
#[derive(clap::Args, Debug, Clone)]
pub struct LayoutArgs {
    /// Output width in columns, 1 to 1000 (default: the terminal's, or 80 off a terminal).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_WIDTH as u64))]
    pub width: Option<usize>,
    /// Draw rounded boxes (needs at least 60 columns).
    #[arg(long, conflicts_with = "plain")]
    pub boxed: bool,
    /// Never draw boxes.
    #[arg(long)]
    pub plain: bool,
    /// Colour: auto (terminal and NO_COLOR unset), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: ColorChoice,
}

impl LayoutArgs {
    pub fn options(&self) -> PlainOptions {
        plain_options(self.width, self.boxed, self.plain, self.color)
    }
}

impl ShowArgs {
    pub fn sections(&self) -> Vec<SectionKind> {
        if self.all {
            let mut all = SectionKind::ALL.to_vec();
            if self.failures {
                all.push(SectionKind::Failures);
            }
            return all;
        }
        let mut out: Vec<SectionKind> = Vec::new();
        if self.execution {
            out.extend(SectionKind::EXECUTION);
        }
        for (on, kind) in [
            (self.timeline, SectionKind::Of(Panel::Timeline)),
            (self.tools, SectionKind::Of(Panel::Tools)),
            (self.hitl, SectionKind::Of(Panel::Hitl)),
            (self.usage, SectionKind::Of(Panel::Usage)),
            (self.assertions, SectionKind::Of(Panel::Assertions)),
            (self.failures, SectionKind::Failures),
            (self.diagnostics, SectionKind::Of(Panel::Diagnostics)),
            (self.changes || self.diff.is_some(), SectionKind::Of(Panel::Changes)),
            (self.commands, SectionKind::Of(Panel::Commands)),
            (self.timing.is_some(), SectionKind::Of(Panel::Timing)),
            (self.source.is_some(), SectionKind::Of(Panel::Source)),
            (self.translation, SectionKind::Of(Panel::Translation)),
        ] {
            if on && !out.contains(&kind) {
                out.push(kind);
            }
        }
        if out.is_empty() {
            out.push(SectionKind::Of(Panel::Timeline));
        }
        out
    }
}

/// The widest output `--width` asks for (and a terminal's width is cut to).
pub const MAX_WIDTH: usize = 1000;

fn usage_error(msg: &str) -> i32 {
    let _ = writeln!(std::io::stderr(), "niceeval show: {msg}");
    super::EXIT_INPUT
}

pub fn run(args: &ShowArgs) -> i32 {
    for (flag, given) in [("--page", args.page.is_some()), ("--report", args.report.is_some())] {
        if given {
            return usage_error(&crate::view::niceeval_cli::browser_only(flag));
        }
    }
    let (locators, paths): (Vec<_>, Vec<_>) =
        args.paths.iter().cloned().partition(|p| p.as_os_str().as_encoded_bytes().starts_with(b"@"));
    let locators: Vec<String> = locators.iter().map(|l| crate::load::display_name(l)).collect();
    if locators.len() > 1 {
        return usage_error("give at most one @locator");
    }
    if !args.run.is_empty() && !args.experiment.is_empty() {
        return usage_error("--experiment cannot combine with explicit --run.");
    }
    if (!args.run.is_empty() || !args.experiment.is_empty()) && !locators.is_empty() {
        return usage_error("An Attempt locator cannot combine with --run or --experiment.");
    }
    if let Some(conflict) = evidence_conflict(args) {
        return usage_error(conflict);
    }
    let paths = match input_paths(args, paths).and_then(|paths| run_paths(&args.run, paths)) {
        Ok(paths) => paths,
        Err(code) => return code,
    };
    let turn = match args.turn.as_deref().map(|t| (t, TurnSelector::parse(t))) {
        None => None,
        Some((_, Some(t))) => Some(t),
        Some((raw, None)) => {
            return usage_error(&format!(
                "--turn {}: expected a turn number (as printed, e.g. 6), an event's address (6:3), `turnN` or `sessionK/turnN`",
                crate::plain::layout::clean(raw)
            ));
        }
    };
    if let (Some(s), Some(k)) = (args.session, turn.as_ref().and_then(TurnSelector::session))
        && s != k
    {
        return usage_error(&format!("--session {s} contradicts --turn session{k}/…"));
    }
    let grep = match args.grep.as_deref().map(regex::Regex::new) {
        None => None,
        Some(Ok(re)) => Some(re),
        Some(Err(e)) => return usage_error(&format!("--grep: invalid regular expression: {e}")),
    };
    let mut doc = match crate::load::load_paths_as(&paths, args.agent.agent()) {
        Ok(d) => d,
        Err(e) => return super::report_error(&e),
    };
    if !args.experiment.is_empty() {
        let known = crate::load::select::experiment_ids(&doc);
        let unknown = crate::load::select::experiments(&mut doc, &args.experiment);
        if !unknown.is_empty() {
            return super::report_error(&crate::view::niceeval_cli::no_experiment(&doc.sources, &unknown, &known));
        }
    }
    let prices = match super::price_table(&args.opts) {
        Ok(p) => p,
        Err(e) => return super::report_error(&e),
    };
    for line in crate::view::summary::notice_lines(&doc) {
        let _ = writeln!(std::io::stderr(), "niceeval: {line}");
    }
    let (views, findings) = crate::analysis::build_views(&doc, args.opts.model.as_deref(), &prices);
    let opts = args.layout.options();
    let sel = Selection {
        session: args.session,
        turn,
        locator: locators.into_iter().next(),
        grep,
        full: args.full,
        widest: None,
        spread: crate::analysis::parallel::SPREAD,
        source_file: args.source.clone().filter(|f| !f.is_empty()),
        diff_path: args.diff.clone().filter(|p| !p.is_empty()),
        timing_full: args.timing == Some(TimingMode::Full),
        highlight: opts.color.then_some(crate::styled::syntax::lines as crate::view::highlight::Highlighter),
    };
    if args.json {
        if let Some(what) = crate::view::json::not_finite(&doc, &views, &findings, &sel) {
            let _ = writeln!(
                std::io::stderr(),
                "niceeval: {}: {what} is not a finite number; no JSON is printed, as null would read as \"not reported\" or \"no model or price\" (niceeval check reports it)",
                crate::plain::layout::clean(&doc.sources.join(", "))
            );
            return super::EXIT_INPUT;
        }
        let shown = crate::view::context::Ctx::selected(&doc, &views, &findings, &sel).count();
        if shown == 0 && sel.locator.is_some() {
            let _ = writeln!(std::io::stderr(), "niceeval show: no attempt with that locator");
            return super::EXIT_INPUT;
        }
        return write_json(&doc, &views, &findings, &sel);
    }
    if args.fix_prompt {
        return print_fix_prompts(&doc, &views, &sel);
    }
    let sections = args.sections();
    // Lines go out as they are made (see `plain::render_to`).
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = crate::plain::render_to(&doc, &views, &findings, &sections, &sel, &opts, &mut stdout)
        .and_then(|report| stdout.flush().map(|()| report));
    let report = match written {
        Ok(report) => report,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return 0,
        Err(e) => return super::report_error(&e),
    };
    for note in &report.notes {
        let _ = writeln!(std::io::stderr(), "niceeval show: {note}");
    }
    if report.shown == 0 && sel.locator.is_some() {
        return super::EXIT_INPUT;
    }
    exit_code(&sections, &report)
}

/// NiceEval's exclusion rules for its evidence flags (`--source`,
/// `--execution`, `--timing`, `--diff`), in its words: one at a time,
/// `--grep` with `--execution` only, and not over `--run`/`--experiment`.
/// Without an evidence flag `--grep` is this viewer's row filter.
fn evidence_conflict(args: &ShowArgs) -> Option<&'static str> {
    use crate::view::niceeval_cli;
    let given = [args.source.is_some(), args.execution, args.timing.is_some(), args.diff.is_some()];
    let evidence = given.iter().filter(|on| **on).count();
    if evidence > 1 {
        return Some(niceeval_cli::ONE_EVIDENCE);
    }
    if evidence == 1 && args.grep.is_some() && !args.execution {
        return Some(niceeval_cli::GREP_ONLY_EXECUTION);
    }
    if evidence == 1 && (!args.run.is_empty() || !args.experiment.is_empty()) {
        return Some(niceeval_cli::EVIDENCE_NEEDS_ONE_ATTEMPT);
    }
    None
}

/// The paths named, else `--record DIR`, else the nearest `.niceeval/record`
/// from the working directory upward (NiceEval's default Record root).
fn input_paths(args: &ShowArgs, paths: Vec<std::path::PathBuf>) -> Result<Vec<std::path::PathBuf>, i32> {
    use crate::view::niceeval_cli;
    if let Some(root) = &args.record {
        if !paths.is_empty() {
            return Err(usage_error("--record names the Record root: give it or PATHs, not both"));
        }
        return Ok(vec![root.clone()]);
    }
    if !paths.is_empty() {
        return Ok(paths);
    }
    let start = std::env::current_dir()
        .map_err(|e| super::report_error(&format!("the working directory cannot be read: {e}")))?;
    match super::find_upward(&start, niceeval_cli::DEFAULT_RECORD, |p| p.is_dir()) {
        Some(root) => Ok(vec![root]),
        None => Err(super::report_error(&niceeval_cli::no_record(&start))),
    }
}

/// `--run ID…`: each a run directory of the one Record root given (read as
/// the Record's run scope, each attempt once); none: the paths as given.
fn run_paths(runs: &[String], paths: Vec<std::path::PathBuf>) -> Result<Vec<std::path::PathBuf>, i32> {
    use crate::view::niceeval_cli;
    if runs.is_empty() {
        return Ok(paths);
    }
    let [root] = paths.as_slice() else {
        return Err(usage_error(
            "--run selects runs of one Record root: give one Record (a PATH or --record), or none",
        ));
    };
    if !root.join("record.json").is_file() {
        return Err(super::report_error(&niceeval_cli::not_a_record_root(root)));
    }
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    for id in runs {
        if !niceeval_cli::portable_segment(id) {
            return Err(usage_error(&format!(
                "Invalid --run value \"{}\": expected one exact portable RunId.",
                crate::plain::layout::clean(id)
            )));
        }
        let dir = root.join("runs").join(id);
        if !dir.join("run.json").is_file() {
            return Err(super::report_error(&niceeval_cli::no_run(id, root)));
        }
        if !out.contains(&dir) {
            out.push(dir);
        }
    }
    Ok(out)
}

/// `--json`, written as it is made (see `view::json::write_document`),
/// terminal-safe as every JSON this binary prints.
fn write_json(
    doc: &crate::model::document::Document,
    views: &[crate::view::AttemptView],
    findings: &[crate::model::diagnostics::Finding],
    sel: &Selection,
) -> i32 {
    let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut w = crate::view::json::PrettyWriter::new(stdout, crate::model::text::json_terminal_safe);
    let written = crate::view::json::write_document(doc, views, findings, sel, &mut w)
        .and_then(|()| {
            let mut out = w.into_inner();
            out.write_all(b"\n")?;
            Ok(out)
        })
        .and_then(|mut out| out.flush());
    match written {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => super::report_error(&e),
    }
}

/// `--fix-prompt`: the prompts on stdout as they are, why an attempt has
/// none on stderr; exit 1 when none was printed.
fn print_fix_prompts(
    doc: &crate::model::document::Document,
    views: &[crate::view::AttemptView],
    sel: &Selection,
) -> i32 {
    use crate::view::fix_prompt;
    let prompts = fix_prompt::prompts(doc, views, sel);
    if prompts.is_empty() && sel.locator.is_some() {
        let _ = writeln!(std::io::stderr(), "niceeval show: no attempt with that locator");
        return super::EXIT_INPUT;
    }
    for (title, p) in &prompts {
        if let Err(why) = p {
            let _ = writeln!(std::io::stderr(), "niceeval show: {}", fix_prompt::none_note(title, why));
        }
    }
    let text = fix_prompt::text(&prompts);
    if text.is_empty() {
        return 1;
    }
    super::print_stdout(&text)
}

/// How text goes out: the width asked for, else the terminal's (80 off a
/// terminal); boxes on a terminal unless `--plain`; colour as `--color` and
/// `NO_COLOR` say (none on a `TERM=dumb` terminal unless `--color always`).
pub fn plain_options(width: Option<usize>, boxed: bool, plain: bool, color: ColorChoice) -> PlainOptions {
    let tty = std::io::stdout().is_terminal();
    let width = width.unwrap_or_else(|| {
        if tty { crossterm::terminal::size().map(|(w, _)| w as usize).unwrap_or(80).min(MAX_WIDTH) } else { 80 }
    });
    let no_color_env = crate::runtime::settings::Settings::get().no_color;
    let color = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => tty && !no_color_env && !crate::runtime::settings::Settings::get().dumb_terminal,
    };
    let boxed = if plain { false } else { boxed || tty };
    PlainOptions { width, boxed: boxed && width >= 60, color }
}

/// 1 when `--failures` was asked for and an attempt shown failed; else 0.
pub fn exit_code(sections: &[SectionKind], report: &crate::plain::Report) -> i32 {
    if sections.contains(&SectionKind::Failures) && report.failing > 0 { 1 } else { 0 }
}
