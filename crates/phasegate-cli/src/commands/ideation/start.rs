//! `workflow-state ideation start`.

use clap::Args;
use phasegate_ops::ideation;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Begin ideation for the feature in EXPLORING (`ideation.json` in its folder).
///
/// Run again, it says where ideation stands.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// The idea, as the user put it, in a sentence.
    idea: String,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_start(a: StartArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let shown = ideation::start(&ctx.env, a.feature.get(), &a.idea)?;
    if a.json {
        ctx.out.json(&shown)?;
        return Ok(ExitStatus::Success);
    }
    super::print(&shown, ctx)
}
