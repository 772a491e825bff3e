//! `workflow-state ideation show`.

use clap::Args;
use phasegate_ops::ideation;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Where ideation stands: sub-phase, confidence, signals, what moving on needs.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let shown = ideation::show(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&shown)?;
        return Ok(ExitStatus::Success);
    }
    super::print(&shown, ctx)
}
