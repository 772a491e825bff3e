//! `workflow-state tasks review`.

use clap::Args;
use phasegate_ops::tasks::review as task_review;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Begin or resume the task's review with the chosen reviewer.
///
/// Begin the task's review with the chosen reviewer, or resume it at its
/// current cycle (a new session picks up where a killed one stopped), and
/// print the seed's REVIEW REQUEST [Cycle: n/max] prompt, the agent to
/// spawn (a switched reviewer when the cycle switched it), the reply file,
/// and the TodoWrite text. Exit 1 for an agent that is not installed or is
/// the task's implementer.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The task id (T1).
    id: String,
    /// The reviewer agent (a name from `tasks reviewers`); needed for the
    /// first review, optional after (the cycle resumes with its reviewer).
    #[arg(long, value_name = "AGENT")]
    reviewer: Option<String>,
    /// The cycle cap for this task (default 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    max_cycles: Option<u32>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_review(args: ReviewArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let brief = task_review::review(&ctx.env, args.feature.get(), &args.id, args.reviewer.as_deref(), args.max_cycles)?;
    ctx.out.json(&brief)?;
    Ok(ExitStatus::Success)
}
