//! `workflow-state phase complete`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::meta::Completion;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

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

pub fn run(args: CompleteArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let now = ctx.now;
    let phase = args.phase;
    let update = Completion { iterations: args.iterations, notes: args.notes, verified: args.verified };
    let record = feature.update(ctx.lock_timeout, |meta| -> CliResult<_> {
        meta.complete_phase(phase, now, update)?;
        Ok(meta.record(phase).cloned().unwrap_or_default())
    })?;
    ctx.json(&serde_json::json!({ "feature": feature.name(), "phase": phase, "record": record }))?;
    Ok(ExitStatus::Success)
}
