//! `niceeval show`: the plain-text twin of the viewer.

#[derive(Debug, Clone, clap::Args)]
pub struct ShowArgs {
    /// Input files or directories (`-` for stdin).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub opts: super::DeriveOpts,
}

pub fn run(args: &ShowArgs) -> i32 {
    let _ = args;
    eprintln!("niceeval show: not implemented yet");
    super::EXIT_INPUT
}
