//! `workflow-state phase complete`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::feature::Completion;
use phasegate_ops::feature::phase;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Mark a phase completed, merging the given fields into its record.
///
/// Mark a phase completed, merging the given fields into its record (the
/// seed's updatePhaseState). Prints the phase's record.
#[derive(Debug, Args)]
pub struct CompleteArgs {
    phase: Phase,
    /// Set the iteration count.
    #[arg(long, value_name = "N")]
    iterations: Option<u32>,
    /// Add a reviewer note (repeatable).
    #[arg(long = "note", value_name = "TEXT")]
    notes: Vec<String>,
    /// Mark the phase's result verified.
    #[arg(long)]
    verified: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_complete(args: CompleteArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let update = Completion { iterations: args.iterations, notes: args.notes, verified: args.verified };
    let done = phase::complete(&ctx.env, args.feature.get(), args.phase, update)?;
    ctx.out.json(&done)?;
    Ok(ExitStatus::Success)
}
