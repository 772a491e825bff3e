//! `workflow-state pipeline signal`: read the worker signal.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Read the worker's signal and say what the orchestrator does.
///
/// Read .task/worker-signal.json (checked against its schema) and say what the
/// orchestrator does: ask the user the worker's questions, go on, or fail.
#[derive(Debug, Args)]
pub struct SignalArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_signal(args: SignalArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let signal = pipeline::signal(&ctx.env, args.feature.get())?;
    ctx.out.json(&signal)?;
    Ok(ExitStatus::Success)
}
