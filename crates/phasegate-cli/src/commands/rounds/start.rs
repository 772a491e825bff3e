//! `workflow-state rounds start`.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::questions::rounds;

use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Start the phase's round loop with the orchestrator's brief.
///
/// Start the phase's round loop with the orchestrator's brief (an open loop
/// is kept unless --fresh). Prints the loop's state as JSON.
#[derive(Debug, Args)]
pub struct StartArgs {
    phase: Phase,
    /// The brief for the implementer (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    brief_file: PathBuf,
    /// Discard an open loop and start again.
    #[arg(long)]
    fresh: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_start(a: StartArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let brief = input::read(&a.brief_file, "brief", &ctx.env.cwd)?;
    let v = rounds::start(&ctx.env, a.feature.get(), a.phase, &brief.text, a.fresh)?;
    ctx.out.json(&v)?;
    Ok(ExitStatus::Success)
}
