//! `niceeval view`: the interactive viewer (or plain output off a terminal).

use super::{DeriveOpts, price_table, report_error};
use crate::app::App;
use crate::ui::ThemeName;
use std::io::IsTerminal;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeArg {
    Dark,
    Light,
    /// No colour (also chosen by NO_COLOR).
    None,
}

#[derive(Debug, Clone, clap::Args)]
pub struct ViewArgs {
    /// Input files or directories (`-` for stdin). Several open together; one `@locator` opens that attempt (as `show` selects it).
    #[arg(value_name = "PATH", required_unless_present = "demo")]
    pub paths: Vec<std::path::PathBuf>,
    /// Open the bundled demo (assets/demo).
    #[arg(long)]
    pub demo: bool,
    #[arg(long, value_enum)]
    pub theme: Option<ThemeArg>,
    /// Reload when the file changes, keeping the selection.
    #[arg(long, conflicts_with = "follow")]
    pub watch: bool,
    /// Tail a JSONL stream that an adapter is still writing.
    #[arg(long)]
    pub follow: bool,
    /// Open the comparison first: evals × experiments of one source, or BEFORE AFTER (as `niceeval compare`).
    #[arg(long, conflicts_with_all = ["watch", "follow", "demo"])]
    pub compare: bool,
    #[command(flatten)]
    pub sources: super::compare::SourceArgs,
    #[command(flatten)]
    pub opts: DeriveOpts,
    /// Read each file as a native log of this agent (default: recognised from its content).
    #[arg(long, value_enum, value_name = "AGENT", conflicts_with_all = ["watch", "follow", "compare", "demo"])]
    pub agent: Option<super::convert::AgentArg>,
}

/// The demo files, embedded so `--demo` works from any directory.
pub const DEMO_SESSION: &str = include_str!("../../assets/demo/session.json");

pub fn run(args: &ViewArgs) -> i32 {
    // `view PATH @LOCATOR` opens that attempt, as `show PATH @LOCATOR` shows it.
    let (locators, paths): (Vec<_>, Vec<_>) =
        args.paths.iter().cloned().partition(|p| p.as_os_str().as_encoded_bytes().starts_with(b"@"));
    if !locators.is_empty() {
        let [locator] = locators.as_slice() else { return report_error(&"give at most one @locator") };
        if paths.is_empty() {
            return report_error(&"no input file given (an @locator selects an attempt inside the files you name)");
        }
        let locator = crate::load::display_name(locator);
        return run_attempt(&ViewArgs { paths, ..args.clone() }, &locator);
    }
    run_paths(args)
}

/// `view PATH… @LOCATOR`: the document with only that attempt (the one
/// `show` selects with the same locator), in the viewer or, off a terminal,
/// as `show --all` prints it.
fn run_attempt(args: &ViewArgs, locator: &str) -> i32 {
    if args.watch || args.follow || args.compare || args.demo {
        return report_error(
            &"an @locator opens one attempt of the files named; not with --watch, --follow, --compare or --demo",
        );
    }
    let mut doc = match crate::load::load_paths_as(&args.paths, args.agent.map(super::convert::AgentArg::agent)) {
        Ok(d) => d,
        Err(e) => return report_error(&e),
    };
    let sel = crate::view::context::Selection { locator: Some(locator.to_string()), ..Default::default() };
    if !doc.attempts.iter().any(|a| sel.locator_matches(a.locator.as_deref())) {
        return report_error(&format!("no attempt with the locator {}", crate::plain::layout::clean(locator)));
    }
    let prices = match price_table(&args.opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    let interactive = std::io::stdout().is_terminal() && !crate::runtime::settings::Settings::get().dumb_terminal;
    if !interactive {
        // Exactly what `show PATH… @LOCATOR --all` prints: the file's notices
        // on stderr, the attempt selected from the whole document.
        for line in crate::view::summary::notice_lines(&doc) {
            eprintln!("niceeval: {line}");
        }
        let (views, findings) = crate::analysis::build_views(&doc, args.opts.model.as_deref(), &prices);
        let all = crate::view::report::SectionKind::ALL;
        let text = crate::plain::render(&doc, &views, &findings, &all, &sel, &crate::plain::PlainOptions::default());
        return super::print_stdout(&text.text);
    }
    doc.attempts.retain(|a| sel.locator_matches(a.locator.as_deref()));
    let app = analysed_app(doc, args.opts.model.clone(), prices).with_options(options(args, false));
    run_terminal(app, std::time::Instant::now(), None)
}

fn run_paths(args: &ViewArgs) -> i32 {
    let started = std::time::Instant::now();
    // A dumb terminal cannot draw the viewer: it gets what a pipe gets.
    let interactive = std::io::stdout().is_terminal() && !crate::runtime::settings::Settings::get().dumb_terminal;
    if args.compare {
        return run_compare(args, started, interactive);
    }
    if args.sources.one_source || !args.sources.experiments.is_empty() {
        return report_error(&"--one-source and --experiment choose what --compare compares");
    }
    // A folder of native logs lists its newest sessions at once, the rest as they are read.
    if let [path] = args.paths.as_slice()
        && interactive
        && !args.demo
        && !args.watch
        && !args.follow
        && args.agent.is_none()
        && path.is_dir()
        && crate::load::format::transcript::folder::is_native_folder(path)
    {
        return run_folder(args, path, started);
    }
    // A large file opens on a preview of its start while the rest loads.
    let preview = match args.paths.as_slice() {
        [path]
            if interactive
                && !args.demo
                && !args.watch
                && !args.follow
                && args.agent.is_none()
                && path.as_os_str() != "-" =>
        {
            use crate::load::preview::{PREVIEW_AT_LEAST, PREVIEW_BYTES, load_preview};
            load_preview(path, PREVIEW_AT_LEAST, PREVIEW_BYTES)
        }
        _ => None,
    };
    if let Some(preview) = preview {
        return run_preview(args, preview, started);
    }
    let total = args.paths.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum::<u64>();
    let names: Vec<String> = args.paths.iter().map(|p| crate::load::display_name(p)).collect();
    let progress = crate::runtime::loading::Reporter::start(&names.join(", "), Some(total).filter(|t| *t > 0));
    let doc = if args.demo {
        match crate::load::load_bytes("assets/demo/session.json", DEMO_SESSION.as_bytes()) {
            Ok(d) => d,
            Err(e) => return report_error(&e),
        }
    } else if interactive && args.follow && args.paths.len() == 1 && crate::runtime::live::is_stream(&args.paths[0]) {
        // Read by the follower as it comes, not here to its end.
        crate::runtime::live::waiting_document(&names[0], crate::model::notice::Waiting::StreamStart)
    } else if interactive
        && args.follow
        && args.paths.len() == 1
        && let Some(why) = crate::runtime::live::not_ready(&args.paths[0])
    {
        crate::runtime::live::waiting_document(&names[0], why)
    } else {
        match crate::load::load_paths_as(&args.paths, args.agent.map(super::convert::AgentArg::agent)) {
            Ok(d) => d,
            Err(e) => {
                drop(progress);
                return report_error(&e);
            }
        }
    };
    let prices = price_table(&args.opts);
    // The loading line ends before anything else is printed.
    drop(progress);
    let prices = match prices {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    if !interactive {
        let (views, findings) = crate::analysis::build_views(&doc, args.opts.model.as_deref(), &prices);
        let text = crate::plain::render_all(&doc, &views, &findings, &crate::plain::PlainOptions::default());
        return super::print_stdout(&text);
    }
    let progress = crate::runtime::loading::Reporter::start(&names.join(", "), None);
    crate::load::progress::deriving();
    let app = analysed_app(doc, args.opts.model.clone(), prices);
    drop(progress);
    let source: Option<Box<dyn crate::runtime::term::Source>> = if args.watch || args.follow {
        match crate::runtime::live::source_for(&args.paths, args.follow) {
            Ok(s) => Some(s),
            Err(e) => return report_error(&e),
        }
    } else {
        None
    };
    let mut app = app.with_options(options(args, source.is_some()));
    if args.follow {
        crate::app::update(&mut app, crate::app::Intent::FollowBottom);
    }
    run_terminal(app, started, source)
}

/// `view --compare`: the matrix first; off a terminal, what `compare` prints.
fn run_compare(args: &ViewArgs, started: std::time::Instant, interactive: bool) -> i32 {
    let compared = match super::compare::load(&args.paths, &args.sources, &args.opts) {
        Ok(c) => c,
        Err(e) => return report_error(&e),
    };
    if !interactive {
        let text = super::compare::text(&compared, &crate::plain::PlainOptions::default());
        return super::print_stdout(&text);
    }
    let prices = match price_table(&args.opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    let app = App::for_compare(compared, args.opts.model.clone(), prices).with_options(options(args, false));
    run_terminal(app, started, None)
}

/// What the viewer starts with: the theme, the debug key, a live input.
fn options(args: &ViewArgs, live: bool) -> crate::app::Options {
    let debug_keys = crate::runtime::settings::Settings::get().debug_panic_key;
    crate::app::Options { theme: theme(args), debug_keys, live }
}

fn theme(args: &ViewArgs) -> ThemeName {
    let no_color = crate::runtime::settings::Settings::get().no_color;
    match (args.theme, no_color) {
        (Some(ThemeArg::Light), false) => ThemeName::Light,
        (Some(ThemeArg::None), _) | (_, true) => ThemeName::Mono,
        _ => ThemeName::Dark,
    }
}

/// Show the preview at once and load the whole file on another thread.
fn run_preview(args: &ViewArgs, preview: crate::load::preview::Preview, started: std::time::Instant) -> i32 {
    let prices = match price_table(&args.opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    let crate::load::preview::Preview { doc, bytes, total } = preview;
    let mut app = analysed_app(doc, args.opts.model.clone(), prices.clone()).with_options(options(args, false));
    let path = args.paths[0].clone();
    let source =
        crate::runtime::background::start(&mut app, (bytes, total), path, args.opts.model.clone(), prices, started);
    run_terminal(app, started, Some(Box::new(source)))
}

/// A folder of native logs: its newest sessions listed now, the rest on another thread.
fn run_folder(args: &ViewArgs, dir: &std::path::Path, started: std::time::Instant) -> i32 {
    use crate::load::format::transcript::folder;
    let prices = match price_table(&args.opts) {
        Ok(p) => p,
        Err(e) => return report_error(&e),
    };
    let entries = match folder::entries(dir) {
        Ok(e) => e,
        Err(e) => return report_error(&crate::load::io_message(&e)),
    };
    let first = entries.len().min(crate::runtime::folder::FIRST_SCREEN);
    let (mut rows, mut notices) = (Vec::new(), Vec::new());
    for r in folder::scan_entries(&entries[..first]) {
        match r {
            Ok(row) => rows.push(row),
            Err(n) => notices.push(n),
        }
    }
    let listed = crate::app::folder::Listed { rows, notices, scanned: first, bytes: 0 };
    let name = crate::load::display_name(dir);
    let mut app = App::for_folder(&name, listed, entries.len(), args.opts.model.clone(), prices)
        .with_options(options(args, false));
    let source = crate::runtime::folder::start(&mut app, entries, first, started);
    run_terminal(app, started, Some(Box::new(source)))
}

fn run_terminal(app: App, started: std::time::Instant, source: Option<Box<dyn crate::runtime::term::Source>>) -> i32 {
    use crate::runtime::settings::{Settings, Timing};
    let timing_asked = Settings::get().timing;
    let timing = timing_asked.is_some().then_some(started);
    let exit_after_first_frame = timing_asked == Some(Timing::ExitAfterFirstFrame);
    let exit_when_loaded = timing_asked == Some(Timing::ExitWhenLoaded);
    crate::runtime::term::install_panic_hook();
    let options = crate::runtime::term::RunOptions { started: timing, exit_after_first_frame, exit_when_loaded };
    let result = crate::runtime::term::run(app, options, source);
    if timing.is_some()
        && let Some(t) = crate::runtime::timings::LOADED_AFTER.get()
    {
        eprintln!("niceeval: whole file loaded and shown after {:.1} ms", t.as_secs_f64() * 1000.0);
        if let Some(i) = crate::runtime::timings::INSTALL_TOOK.get() {
            eprintln!("niceeval: installing the whole file held the UI for {:.1} ms", i.as_secs_f64() * 1000.0);
        }
    }
    match result {
        Ok(()) => 0,
        Err(e) => report_error(&e),
    }
}

/// The viewer's App over `doc`; with `NICEEVAL_TIMING` the analysis's phase
/// times go to stderr before the terminal is taken (never from a background
/// load, which runs while the viewer draws).
fn analysed_app(doc: crate::model::Document, model: Option<String>, prices: crate::model::usage::PriceTable) -> App {
    let analysis = crate::analysis::analyse(&doc, model.as_deref(), &prices);
    if crate::runtime::settings::Settings::get().timing.is_some() {
        crate::runtime::timings::print_phases(&analysis.phases);
    }
    let prepared = crate::app::Prepared::from_views(doc, analysis.views, analysis.findings);
    App::from_prepared(prepared, model, prices)
}
