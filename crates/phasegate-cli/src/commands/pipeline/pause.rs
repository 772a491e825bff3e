//! `workflow-state pipeline pause`.

use clap::Args;
use phasegate_core::pipeline::PauseReason;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Pause the pipeline for the user (state needs_user_input).
///
/// Exits 1 when it is not in a working state.
#[derive(Debug, Args)]
pub struct PauseArgs {
    /// needs_clarification, review_loop_exceeded, unrecoverable_error, loop_limit, final_gate_unavailable, cancelled or stale.
    reason: PauseReason,
    /// What the user must decide or answer.
    #[arg(long, value_name = "TEXT")]
    message: String,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_pause(args: PauseArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let changed = pipeline::pause(&ctx.env, args.feature.get(), args.reason, &args.message)?;
    ctx.out.json(&changed)?;
    Ok(ExitStatus::Success)
}
