//! `workflow-state next`: the suggested next command.

use clap::Args;
use phasegate_core::guide;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Print the suggested next command (e.g. /phasegate:design) and why.
#[derive(Debug, Args)]
pub struct NextArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print {"phase", "command", "reason"} instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: NextArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let next = guide::next(&feature.load()?);
    if args.json {
        ctx.json(&next)?;
    } else {
        match &next.command {
            Some(cmd) => ctx.line(format!("{cmd}  ({})", next.reason))?,
            None => ctx.line(format!("nothing to do ({})", next.reason))?,
        }
    }
    Ok(ExitStatus::Success)
}
