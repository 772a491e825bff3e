//! `workflow-state pipeline commit`.

use clap::Args;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Commit a completed pipeline's work with your git.
///
/// Commit a completed pipeline's work with your git (its hooks run): the
/// code that changed since the run began and is not committed (phasegate's
/// own files left out), then the feature's folder. Nothing to commit is no
/// error. Exit 1 before the pipeline is complete, 2 when git refuses.
#[derive(Debug, Args)]
pub struct CommitArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_commit(args: CommitArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let done = phasegate_ops::pipeline::commit(&ctx.env, args.feature.get())?;
    ctx.out.json(&serde_json::json!({"commits": done}))?;
    Ok(ExitStatus::Success)
}
