//! `workflow-state phase show`: partial-phase detection for one phase.

use clap::Args;
use phasegate_core::Phase;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Print a phase's state: not-started, partial (started, not completed) or
/// completed, with its record.
#[derive(Debug, Args)]
pub struct ShowArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: ShowArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let meta = feature.load()?;
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "phase": args.phase,
        "state": meta.phase_state(args.phase),
        "record": meta.record(args.phase),
        "maxIterations": meta.mode.max_iterations(),
    }))?;
    Ok(ExitStatus::Success)
}
