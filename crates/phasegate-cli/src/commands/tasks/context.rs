//! `workflow-state tasks context`.

use clap::Args;
use phasegate_ops::tasks::marks as tasks;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// The task's context package for its delegate.
///
/// The task's context package for its delegate (seed 003): CONTEXT
/// (excerpts of spec.md, design.md and plan.md, at most 6,000 bytes, and the
/// tasks it builds on), TASK (with its files and details), SUCCESS (its
/// "Done when"), the knowledge base's gotchas for its files (seed 004
/// §5.5), EXCLUDE (the other open tasks), packed under the `task-context`
/// budget. JSON: `agent` (the task's, else phasegate:task-implementer) and
/// `prompt`.
#[derive(Debug, Args)]
pub struct ContextArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_context(args: ContextArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let c = tasks::context(&ctx.env, args.feature.get(), &args.id)?;
    ctx.out.json(&c)?;
    Ok(ExitStatus::Success)
}
