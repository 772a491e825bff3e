//! `workflow-state phase show`: partial-phase detection for one phase.

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::feature::phase;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print a phase's state: not-started, partial or completed.
///
/// Print a phase's state: not-started, partial (started, not completed) or
/// completed, with its record.
#[derive(Debug, Args)]
pub struct ShowArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_show(args: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let shown = phase::show(&ctx.env, args.feature.get(), args.phase)?;
    ctx.out.json(&shown)?;
    Ok(ExitStatus::Success)
}
