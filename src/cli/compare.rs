//! `niceeval compare`: evals × experiments, and before/after pairs.

use super::show::LayoutArgs;
use crate::view::compare::{Built, Compared};
use std::io::Write;
use std::path::PathBuf;

/// What chooses the sources and columns (shared with `view --compare`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SourceArgs {
    /// Open every path together as one source (e.g. several `exp --json` files); without it two paths are BEFORE and AFTER.
    #[arg(long)]
    pub one_source: bool,
    /// Experiments to show, in this order (repeat the flag; default: every experiment, as first seen).
    #[arg(long = "experiment", value_name = "ID")]
    pub experiments: Vec<String>,
}

#[derive(Debug, Clone, clap::Args)]
pub struct CompareArgs {
    /// One source (a Record, an InvocationSummary, `exp --json` output, …) with several experiments, or BEFORE AFTER.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub sources: SourceArgs,
    /// Print the comparison as one JSON object (`niceeval-viewer.compare/1`) instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub layout: LayoutArgs,
    #[command(flatten)]
    pub opts: super::DeriveOpts,
}

/// Load the sources the paths name and compare them. Errors are one line
/// for stderr (a load error names its file and position).
pub fn load(paths: &[PathBuf], args: &SourceArgs, opts: &super::DeriveOpts) -> Result<Compared, String> {
    let prices = super::price_table(opts).map_err(|e| e.to_string())?;
    let build = |paths: &[PathBuf]| -> Result<Built, String> {
        let doc = crate::load::load_paths(paths).map_err(|e| e.to_string())?;
        Ok(crate::analysis::build_source(doc, opts.model.as_deref(), &prices))
    };
    let compared = match (paths, args.one_source) {
        ([], _) => return Err("no input given".into()),
        ([one], _) => Compared::one(build(std::slice::from_ref(one))?, &args.experiments),
        (all, true) => Compared::one(build(all)?, &args.experiments),
        ([before, after], false) => {
            Compared::two(build(std::slice::from_ref(before))?, build(std::slice::from_ref(after))?, &args.experiments)
        }
        (_, false) => {
            return Err("give one source, or two (BEFORE AFTER); --one-source opens several paths as one source".into());
        }
    };
    compared.map_err(|e| {
        let known = if e.known.is_empty() { "none".to_string() } else { e.known.join(", ") };
        format!(
            "--experiment {}: no attempt of that experiment (known: {})",
            crate::view::clean(&e.wanted),
            crate::view::clean(&known)
        )
    })
}

pub fn run(args: &CompareArgs) -> i32 {
    let compared = match load(&args.paths, &args.sources, &args.opts) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "niceeval compare: {e}");
            return super::EXIT_INPUT;
        }
    };
    for line in crate::view::summary::notice_lines(&compared.doc) {
        let _ = writeln!(std::io::stderr(), "niceeval: {line}");
    }
    if args.json {
        return super::print_stdout(&super::terminal_safe_json(&crate::view::compare::json::document(
            &compared.view(),
        )));
    }
    let opts = args.layout.options();
    super::print_stdout(&text(&compared, &opts))
}

/// The comparison as text at `opts`' width.
pub fn text(c: &Compared, opts: &crate::plain::PlainOptions) -> String {
    // The columns inside a section: a box's (at most 100 wide) or the plain indent's.
    let width = opts.width.max(20);
    let body = if opts.boxed && width >= 60 { width.min(100) - 4 } else { width - 2 };
    let blocks = crate::view::compare::report::blocks(&c.view(), opts.width, body);
    crate::plain::layout::render(&blocks, opts.width, opts.boxed, opts.color, &crate::plain::layout::no_turn_rows)
}
