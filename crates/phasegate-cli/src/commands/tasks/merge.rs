//! `workflow-state tasks merge`.

use clap::Args;
use phasegate_ops::tasks;

use crate::commands::FeatureArg;
use crate::commands::question::SessionArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Bring a task's branch back into the feature's code folder.
///
/// Bring a task's branch back into the feature's code folder (a fast
/// forward, else a merge commit; a file with local changes is never
/// overwritten) and remove its worktree. A conflict changes nothing and
/// fails the task as a CONFLICT (rebase its branch and retry): `result`
/// is `conflict` with the paths and the failure. Exit 1 when the branch has
/// no commit.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_merge(args: MergeArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let m = tasks::merge(&ctx.env, args.feature.get(), &args.id, args.session.get())?;
    ctx.out.json(&m)?;
    Ok(ExitStatus::Success)
}
