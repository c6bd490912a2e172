use clap::Parser;

fn main() {
    let cli = niceeval::cli::Cli::parse();
    niceeval::term::install_signal_handlers();
    std::process::exit(niceeval::cli::run(cli));
}
