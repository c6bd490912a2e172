//! `niceeval convert`: a native agent log (Claude Code, `codex exec --json`)
//! as NiceEval's parser reads it: a Turn, or with `--json` the parse itself.

use super::report_error;
use crate::load::format::transcript::{Agent, load};

/// `--agent`: which agent wrote a native log (else told from its content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentArg {
    ClaudeCode,
    Codex,
}

impl AgentArg {
    pub fn agent(self) -> Agent {
        match self {
            AgentArg::ClaudeCode => Agent::ClaudeCode,
            AgentArg::Codex => Agent::Codex,
        }
    }
}

/// `--agent` where a command opens files.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AgentOpt {
    /// Read each file as a native log of this agent (default: recognised from its content).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Option<AgentArg>,
}

impl AgentOpt {
    pub fn agent(&self) -> Option<Agent> {
        self.agent.map(AgentArg::agent)
    }
}

#[derive(Debug, Clone, clap::Args)]
pub struct ConvertArgs {
    /// A Claude Code session log or stream-json output, or `codex exec --json` output (`-` for stdin).
    #[arg(value_name = "FILE")]
    pub path: std::path::PathBuf,
    #[command(flatten)]
    pub agent: AgentOpt,
    /// Print NiceEval's parse `{format, agent, events, usage, compactions, parseSuccess}` instead of a Turn.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ConvertArgs) -> i32 {
    let (agent, text) = match load::open(&args.path, args.agent.agent()) {
        Ok(x) => x,
        Err(e) => return report_error(&e),
    };
    let mut reading = load::read(agent, &text);
    let value = if args.json { load::converted_value(agent, &reading.parsed) } else { reading.take_turn() };
    let parsed = &reading.parsed;
    let name = crate::load::display_name(&args.path);
    for s in parsed.skipped.iter().filter(|s| s.reason.is_loss()) {
        let line = crate::model::text::sanitize(&name, crate::model::text::Lines::Single);
        eprintln!("niceeval: warning: {line}:{}: not read (NiceEval's parseSuccess is false)", s.line);
    }
    match serde_json::to_string_pretty(&value) {
        Ok(json) => super::print_stdout(&format!("{}\n", crate::model::text::json_terminal_safe(&json))),
        Err(e) => report_error(&e),
    }
}
