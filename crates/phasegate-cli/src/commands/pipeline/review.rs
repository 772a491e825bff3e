//! `workflow-state pipeline review`: record one reviewer's output.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::pipeline::Stage;
use phasegate_ops::pipeline::gate;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Record the review of one stage of the current gate.
///
/// Record the review of one stage of the current gate (plan review in
/// plan_reviewing, code review in implementing_loop), in the order sonnet →
/// opus → final, for the version of the work as it is now. Inside Claude
/// Code the sonnet and opus reviews are the replies of the reviewers
/// `pipeline review-brief` named, spawned with its prompt and model, read
/// from Claude Code's transcript and written to .task/ by the binary (exit
/// 1, nothing counted, when none answered); the final review is the
/// binary's own (`pipeline final-gate`). Outside Claude Code a person gives
/// the review file, and the record says who. Prints the decision: next
/// stage, passed, fix (report the fix with `pipeline fixed`, then the round
/// restarts from sonnet), or a pause. A review out of order, during a fix,
/// or of work that changed mid-round exits 1; a review that breaks
/// schemas/review.schema.json exits 2 and names each field.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// sonnet, opus or final.
    stage: Stage,
    /// The review file, given by a person outside Claude Code (default:
    /// .task/review-<stage>.json; review-codex.json for final); inside it,
    /// a file named here must hold the reviewer's own reply.
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_review(args: ReviewArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let recorded = gate::review(&ctx.env, args.feature.get(), args.stage, args.file.as_deref())?;
    ctx.out.json(&recorded)?;
    Ok(ExitStatus::Success)
}
