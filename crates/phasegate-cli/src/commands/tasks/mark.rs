//! `workflow-state tasks start|complete|skip|fail`.

use clap::Args;
use phasegate_ops::tasks::marks::{self as tasks, MarkAction as Action};

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Set a task's checkbox in tasks.md: start `[~]` (refused unless the task
/// is ready, or a retry of a failed one), complete `[x]`, skip `[-]`, fail
/// `[!]`. Written atomically under the feature's lock. Exit 1 when the
/// change is refused (with why), 2 for an unknown task or unreadable file.
#[derive(Debug, Args)]
pub struct MarkArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_mark(args: MarkArgs, action: Action, ctx: &mut Ctx<'_>) -> CmdResult {
    let marked = tasks::mark(&ctx.env, args.feature.get(), &args.id, action)?;
    ctx.out.json(&marked)?;
    Ok(ExitStatus::Success)
}
