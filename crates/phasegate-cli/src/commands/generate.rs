//! `workflow-state generate`: the files phasegate generates from its own
//! tables (for contributors; hidden from `--help`).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use phasegate_core::feature::command;

use crate::{CmdResult, Ctx, ExitStatus};

/// Write the generated files (the phase commands).
///
/// Writes the generated files: `commands` writes `commands/<phase>.md` for
/// every phase from `Phase::facts()` (into --dir, the plugin's folder).
#[derive(Debug, Args)]
pub struct GenerateArgs {
    what: Generated,
    /// The plugin's folder (default: the current directory).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Generated {
    /// The seven phase commands.
    Commands,
}

pub fn cmd_generate(a: GenerateArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let dir = a.dir.map_or_else(|| ctx.env.cwd.clone(), |d| ctx.env.cwd.join(d));
    match a.what {
        Generated::Commands => {
            for phase in command::phases() {
                let path = dir.join("commands").join(format!("{}.md", phase.name()));
                phasegate_ops::generate::write(&path, &command::render(phase))?;
                ctx.out.line(format!("wrote {}", path.display()))?;
            }
        }
    }
    Ok(ExitStatus::Success)
}
