//! `workflow-state feature show`.

use clap::Args;
use phasegate_ops::feature::lifecycle as feature;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print which feature a command would act on, and its state.
///
/// Print which feature a command would act on: name, folder, worktree path,
/// artifacts present and its .meta.json.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_show(args: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let shown = feature::show(&ctx.env, args.feature.get())?;
    ctx.out.json(&shown)?;
    Ok(ExitStatus::Success)
}
