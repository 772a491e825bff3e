//! `workflow-state pipeline brief`: the pipeline's state in a few lines for
//! a `!` injection. Always exits 0 (a failing injection aborts the command).

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Summarise this session's pipeline (or say there is none). Always exits 0.
#[derive(Debug, Args)]
pub struct BriefArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_brief(args: BriefArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    for line in pipeline::brief(&ctx.env, args.feature.get()) {
        ctx.out.line(line)?;
    }
    Ok(ExitStatus::Success)
}
