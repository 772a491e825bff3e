//! `workflow-state pipeline fixed`: the worker's fix is done.

use clap::Args;
use phasegate_ops::pipeline::gate;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Report that the worker finished fixing the last round's findings.
///
/// Report that the worker (planner or implementer) finished fixing the
/// findings of the last round: reviews may start again, from sonnet. Until
/// then no review is recorded. Exits 1 when no fix is in progress.
#[derive(Debug, Args)]
pub struct FixedArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_fixed(args: FixedArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let fixed = gate::fixed(&ctx.env, args.feature.get())?;
    ctx.out.json(&fixed)?;
    Ok(ExitStatus::Success)
}
