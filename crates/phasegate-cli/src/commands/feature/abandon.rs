//! `workflow-state feature abandon`.

use clap::Args;
use phasegate_ops::feature::lifecycle as feature;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Mark a feature abandoned: it stops counting as active; its files stay.
#[derive(Debug, Args)]
pub struct AbandonArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_abandon(args: AbandonArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let name = feature::abandon(&ctx.env, args.feature.get())?;
    ctx.out.line(format!("{name} abandoned"))?;
    Ok(ExitStatus::Success)
}
