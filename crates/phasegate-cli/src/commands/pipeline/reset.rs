//! `workflow-state pipeline reset`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Reset the pipeline to idle.
///
/// Reset the pipeline to idle: the run's gates, pause and failure, the loop,
/// the reviews and the worker signal are cleared (the request, the approved
/// requirements and the plan stay). Guarded by .task/.orchestrator.lock; a
/// stale lock (its process gone, or older than 10 minutes) is cleaned up. An
/// unreadable state.json is refused (exit 2), never overwritten.
#[derive(Debug, Args)]
pub struct ResetArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_reset(args: ResetArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let reset = pipeline::reset(&ctx.env, args.feature.get())?;
    ctx.out.json(&reset)?;
    Ok(ExitStatus::Success)
}
