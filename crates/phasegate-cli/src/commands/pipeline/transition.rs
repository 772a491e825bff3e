//! `workflow-state pipeline transition`.

use clap::Args;
use phasegate_core::pipeline::State;
use phasegate_ops::pipeline::lifecycle;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Move the pipeline to the next state.
///
/// Illegal transitions are refused (exit 1) with the legal ones; a transition
/// whose requirement is not met (a missing or invalid file, an unpassed review
/// gate, failing tests) is refused with what is missing. `complete` also closes
/// the feature.
#[derive(Debug, Args)]
pub struct TransitionArgs {
    /// The state to move to.
    to: State,
    /// Why, for the run's history.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_transition(args: TransitionArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let moved = lifecycle::transition(&ctx.env, args.feature.get(), args.to, args.note.as_deref())?;
    ctx.out.json(&moved)?;
    Ok(ExitStatus::Success)
}
