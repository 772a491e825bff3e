//! `workflow-state next`: the suggested next command.

use clap::Args;
use phasegate_ops::feature::status;

use super::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print the suggested next command (e.g. /phasegate:design) and why.
#[derive(Debug, Args)]
pub struct NextArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print {"phase", "command", "reason"} instead.
    #[arg(long)]
    json: bool,
}

pub fn cmd_next(args: NextArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let next = status::next(&ctx.env, args.feature.get())?;
    if args.json {
        ctx.out.json(&next)?;
    } else {
        match &next.command {
            Some(cmd) => ctx.out.line(format!("{cmd}  ({})", next.reason))?,
            None => ctx.out.line(format!("nothing to do ({})", next.reason))?,
        }
    }
    Ok(ExitStatus::Success)
}
