//! `workflow-state pipeline cancel`: the seed's /cancel-loop.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Cancel the implementation loop; a working pipeline pauses.
///
/// Cancel the implementation loop: the Stop hook stops holding the session at
/// once, and a working pipeline pauses (needs_user_input, cancelled) so it
/// can be resumed or reset later. A completed or paused run is left as it is.
#[derive(Debug, Args)]
pub struct CancelArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_cancel(args: CancelArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let cancelled = pipeline::cancel(&ctx.env, args.feature.get())?;
    ctx.out.json(&cancelled)?;
    Ok(ExitStatus::Success)
}
