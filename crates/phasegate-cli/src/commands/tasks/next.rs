//! `workflow-state tasks next`.

use clap::Args;
use phasegate_ops::tasks::marks as tasks;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// How many delegates a batch starts at once by default: enough to use the
/// parallelism, few enough to review and merge.
const DEFAULT_BATCH: u32 = 4;

/// The next ready task, or a batch of them with --parallel.
///
/// The next ready task: phases in order (a phase starts when every task of
/// the earlier ones is done or skipped), dependencies done, seed 004's layer
/// order, a checkpoint after the tasks before it, the feature not suspended,
/// the build not stopped. With --parallel, a batch of ready tasks of a
/// parallel phase that share no file (at most 4, or --max). Prints `tasks`
/// (ids), `details` and, when nothing is ready, `reason`. Exit 0 either way.
#[derive(Debug, Args)]
pub struct NextArgs {
    #[arg(long)]
    json: bool,
    /// A batch of independent tasks instead of one.
    #[arg(long)]
    parallel: bool,
    /// The most tasks in a batch (default 4).
    #[arg(long, value_name = "N", requires = "parallel", value_parser = clap::value_parser!(u32).range(1..=64))]
    max: Option<u32>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_next(args: NextArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let max = if args.parallel { args.max.unwrap_or(DEFAULT_BATCH) as usize } else { 1 };
    let next = tasks::next(&ctx.env, args.feature.get(), max)?;
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
