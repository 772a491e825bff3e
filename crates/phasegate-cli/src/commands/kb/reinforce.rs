//! `workflow-state kb reinforce`.

use clap::Args;
use phasegate_ops::knowledge::base::{self, Reinforcement};

use crate::{CmdResult, Ctx, ExitStatus};

/// Change an item's confidence: seen again, it helped, or it did not.
///
/// Seed 004 §10.2's lifecycle for one item: seen again with new evidence
/// (0.85 once seen twice); it was in a brief and prevented the failure
/// (0.95); or it did not help (confidence lowered by 0.1; below 0.6 it
/// leaves the queries). Exit 2 for an unknown item.
#[derive(Debug, Args)]
pub struct ReinforceArgs {
    /// The item's id.
    id: String,
    /// Seen again: give the new evidence with --evidence.
    #[arg(long, requires = "evidence", conflicts_with_all = ["prevented", "not_helped"])]
    seen: bool,
    /// It was in a brief and the task went through the first time.
    #[arg(long, conflicts_with = "not_helped")]
    prevented: bool,
    /// It was in a brief and the task still failed the way it warns of.
    #[arg(long)]
    not_helped: bool,
    /// With --seen: what shows it again.
    #[arg(long, value_name = "TEXT")]
    evidence: Option<String>,
    /// With --seen: the feature of the new sighting.
    #[arg(long, value_name = "FEATURE")]
    feature: Option<String>,
    /// With --seen: the task of the new sighting.
    #[arg(long, value_name = "TASK")]
    task: Option<String>,
    /// Print the item as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_reinforce(a: ReinforceArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let how = if a.prevented {
        Reinforcement::Prevented
    } else if a.not_helped {
        Reinforcement::NotHelped
    } else if a.seen {
        Reinforcement::Seen { evidence: a.evidence.unwrap_or_default(), feature: a.feature, task: a.task }
    } else {
        return Err(phasegate_ops::OpError::from(phasegate_ops::Invalid::ReinforceHow).into());
    };
    let s = base::reinforce(&ctx.env, &a.id, how)?;
    if a.json {
        ctx.out.json(&s)?;
    } else {
        ctx.out.line(super::line(&s))?;
    }
    Ok(ExitStatus::Success)
}
