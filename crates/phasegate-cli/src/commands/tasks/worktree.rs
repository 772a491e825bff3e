//! `workflow-state tasks worktree`.

use clap::Args;
use phasegate_ops::tasks;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Give a started task of a parallel batch its own worktree.
///
/// Give a started task of a parallel batch its own git worktree
/// (`.worktrees/<feature>--<task>`) and branch (`task/<feature>/<task>`)
/// from the HEAD of the feature's code folder. Its delegate works and
/// commits there; `tasks merge` brings the branch back. Exit 1 when the task
/// is not in progress.
#[derive(Debug, Args)]
pub struct WorktreeArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_worktree(args: WorktreeArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let w = tasks::worktree(&ctx.env, args.feature.get(), &args.id)?;
    ctx.out.json(&w)?;
    Ok(ExitStatus::Success)
}
