//! `workflow-state pipeline resume`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// After the user answered: return to the state that paused.
///
/// After a review loop limit the gate's count starts again; after the
/// implementation loop's limit, its iterations do. Refused (exit 1) while the
/// pause's question (`pipeline ask`) waits for its answer; an arrived answer is
/// taken in and printed under `answers`.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_resume(args: ResumeArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let changed = pipeline::resume(&ctx.env, args.feature.get())?;
    ctx.out.json(&changed)?;
    Ok(ExitStatus::Success)
}
