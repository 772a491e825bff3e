//! `workflow-state tasks next`.

use clap::Args;
use phasegate_ops::tasks;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// The next ready task: phases in order (a phase starts when every task of
/// the earlier ones is done or skipped), dependencies done, not in progress,
/// the feature not suspended; a checkpoint after every earlier task of its
/// phase. With --parallel, every ready task of a parallel phase that shares
/// no file with another (a batch to run at once). Prints `tasks` (ids),
/// `details` and, when nothing is ready, `reason`. Exit 0 either way.
#[derive(Debug, Args)]
pub struct NextArgs {
    #[arg(long)]
    json: bool,
    /// A batch of independent tasks instead of one.
    #[arg(long)]
    parallel: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_next(args: NextArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let next = tasks::next(&ctx.env, args.feature.get(), args.parallel)?;
    if args.json {
        ctx.out.json(&next)?;
    } else if let Some(why) = &next.ready.reason {
        ctx.out.line(format!("Nothing ready: {why}"))?;
    } else {
        for t in &next.details {
            ctx.out.line(format!("{} {}", t.id, t.title))?;
        }
    }
    Ok(ExitStatus::Success)
}
