//! `workflow-state worktree check`.

use clap::Args;
use phasegate_ops::feature::worktree;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Check the current directory against the feature's worktree.
///
/// Exits 0 when inside it (or the feature has none), 1 when outside or when it
/// is missing.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_check(args: CheckArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let checked = worktree::check(&ctx.env, args.feature.get())?;
    ctx.out.json(&checked)?;
    Ok(if checked.in_worktree { ExitStatus::Success } else { ExitStatus::Refused })
}
