//! `workflow-state pipeline recover`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Recover from error: back to the state that failed.
///
/// Phase-aware recovery: from error back to the state that failed; its
/// review round restarts from the first reviewer.
#[derive(Debug, Args)]
pub struct RecoverArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_recover(args: RecoverArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let changed = pipeline::recover(&ctx.env, args.feature.get())?;
    ctx.out.json(&changed)?;
    Ok(ExitStatus::Success)
}
