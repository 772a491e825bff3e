//! `workflow-state pipeline fail`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Record an unrecoverable error (state error); `recover` retries the phase.
#[derive(Debug, Args)]
pub struct FailArgs {
    /// What failed.
    #[arg(long, value_name = "TEXT")]
    message: String,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_fail(args: FailArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let changed = pipeline::fail(&ctx.env, args.feature.get(), &args.message)?;
    ctx.out.json(&changed)?;
    Ok(ExitStatus::Success)
}
