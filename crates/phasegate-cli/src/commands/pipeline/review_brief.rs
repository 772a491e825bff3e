//! `workflow-state pipeline review-brief`: the next gate reviewer's brief.

use clap::Args;
use phasegate_ops::pipeline::gate;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print the brief for the next review of the current gate.
///
/// Print the brief for the next sonnet or opus review of the current gate:
/// the agent to spawn, its model, and its prompt (for the code gate with the
/// change since implementation began). The brief is noted: `pipeline
/// review` takes the reply of a reviewer spawned with this prompt, read
/// from Claude Code's transcript. Exits 1 while the worker is still fixing
/// findings or when the final gate is next.
#[derive(Debug, Args)]
pub struct ReviewBriefArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_review_brief(args: ReviewBriefArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let brief = gate::review_brief(&ctx.env, args.feature.get())?;
    ctx.out.json(&brief)?;
    Ok(ExitStatus::Success)
}
