//! `workflow-state finish`: end a feature.

use clap::Args;
use phasegate_ops::feature::lifecycle as feature;

use super::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Finish a feature: mark it completed and keep its review summary.
///
/// Finish a feature: status completed, .review-history.md and the scratch
/// verdict deleted, the review summary (iterations, outcomes, notes per
/// phase) kept in .meta.json. Prints the summary and the files to commit.
/// Exits 1 when the feature is not active.
#[derive(Debug, Args)]
pub struct FinishArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_finish(args: FinishArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let finished = feature::finish(&ctx.env, args.feature.get())?;
    ctx.out.json(&finished)?;
    Ok(ExitStatus::Success)
}
