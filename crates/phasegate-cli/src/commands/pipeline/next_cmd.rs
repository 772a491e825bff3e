//! `workflow-state pipeline next`.

use clap::Args;

use super::{PipelineArg, load_run, resolve};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Print the current state and the next action (the seed's orchestrator).
#[derive(Debug, Args)]
pub struct NextArgs {
    #[command(flatten)]
    feature: PipelineArg,
    /// Print {"state", "action", "then"} instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: NextArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = resolve(ctx, &args.feature)?;
    let run = load_run(&feature)?;
    let next = phasegate_core::pipeline::next::next(&run, feature.name());
    if args.json {
        ctx.json(&next)?;
    } else {
        ctx.line(format!("[INFO] Current state: {} (feature {})", run.state, feature.name()))?;
        ctx.line(format!("ACTION: {}", next.action))?;
        for t in next.then {
            ctx.line(format!("THEN: {t}"))?;
        }
    }
    Ok(ExitStatus::Success)
}
