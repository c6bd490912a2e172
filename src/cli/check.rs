//! `niceeval check`: lint every turn of every session.

#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Input files or directories (`-` for stdin).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
}

pub fn run(args: &CheckArgs) -> i32 {
    let _ = args;
    eprintln!("niceeval check: not implemented yet");
    super::EXIT_INPUT
}
