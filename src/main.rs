use clap::Parser;

fn main() {
    let cli = niceeval::cli::Cli::parse();
    std::process::exit(niceeval::cli::run(cli));
}
