//! `workflow-state tasks start|complete|skip|fail`.

use clap::Args;
use phasegate_ops::tasks::marks::{self as tasks, MarkAction as Action};

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

// Set a task's checkbox in tasks.md: complete `[x]` or skip `[-]` (the
// help is `TasksCommand`'s variants': one struct, two commands).
#[derive(Debug, Args)]
pub struct MarkArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Mark a ready task (or a failed one, to retry) in progress: `[~]`.
///
/// It records a checkpoint (the start commit and a snapshot of the working
/// tree) and who implements the task. Exit 1 when the task is not ready, the
/// feature is suspended or no longer active, or the build stopped.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// The task id (T1).
    id: String,
    /// Who implements it: the agent you delegate to (default: the task's
    /// `agent`, else phasegate:task-implementer), or `self` when this
    /// session does the task itself. Reviews and revise messages name it.
    #[arg(long, value_name = "AGENT|self")]
    by: Option<String>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_start(args: StartArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let marked = tasks::mark(&ctx.env, args.feature.get(), &args.id, Action::Start, args.by.as_deref())?;
    ctx.out.json(&marked)?;
    Ok(ExitStatus::Success)
}

pub fn cmd_mark(args: MarkArgs, action: Action, ctx: &mut Ctx<'_>) -> CmdResult {
    let marked = tasks::mark(&ctx.env, args.feature.get(), &args.id, action, None)?;
    ctx.out.json(&marked)?;
    Ok(ExitStatus::Success)
}
