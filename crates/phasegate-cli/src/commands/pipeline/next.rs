//! `workflow-state pipeline next`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print the current state and the next action (the seed's orchestrator).
#[derive(Debug, Args)]
pub struct NextArgs {
    #[command(flatten)]
    feature: PipelineArg,
    /// Print {"state", "action", "then"} instead.
    #[arg(long)]
    json: bool,
}

pub fn cmd_next(args: NextArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let (_, _, next) = pipeline::next(&ctx.env, args.feature.get())?;
    if args.json {
        ctx.out.json(&next)?;
    } else {
        ctx.out.line(next.text.trim_end())?;
    }
    Ok(ExitStatus::Success)
}
