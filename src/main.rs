use clap::Parser;

fn main() {
    return_freed_memory();
    // `niceeval help exp`: help for a command of NiceEval's own CLI is NiceEval's.
    if let Some(code) = niceeval::cli::passthrough::help_for_theirs(&std::env::args_os().collect::<Vec<_>>()) {
        std::process::exit(code);
    }
    let cli = niceeval::cli::Cli::parse();
    // The environment is read once, here; the core is told what it needs.
    niceeval::load::input::set_max_stream(niceeval::runtime::settings::Settings::get().max_stream);
    niceeval::runtime::term::install_signal_handlers();
    std::process::exit(niceeval::cli::run(cli));
}

/// glibc raises its trim threshold as large blocks are freed (up to 64 MB
/// kept free at the top of each heap); a fixed 4 MB hands the rest back.
/// The viewer's peak on a million events fell by about 40 MB with it, at
/// the same speed (BENCHMARKS.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_memory() {
    // SAFETY: mallopt only sets a tuning parameter; nothing is allocated yet.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 4 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_memory() {}
