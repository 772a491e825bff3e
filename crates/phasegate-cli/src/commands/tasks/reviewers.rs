//! `workflow-state tasks reviewers`.

use clap::Args;
use phasegate_ops::tasks::review as task_review;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// The facts for choosing a task's reviewer.
///
/// The facts for choosing a task's reviewer (seed 003): the task, its
/// implementer, its change since `tasks start` (files from git), the review
/// priorities the change calls for (security, data integrity, architecture,
/// performance, integration), every installed agent but the implementer
/// (this plugin's, the project's .claude/agents/, the user's
/// ~/.claude/agents/, from their frontmatter) with its review history, and
/// the task's cycle so far. JSON. The model picks; `tasks review` checks.
#[derive(Debug, Args)]
pub struct ReviewersArgs {
    /// The task id (T1).
    id: String,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_reviewers(args: ReviewersArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let facts = task_review::reviewers(&ctx.env, args.feature.get(), &args.id)?;
    ctx.out.json(&facts)?;
    Ok(ExitStatus::Success)
}
