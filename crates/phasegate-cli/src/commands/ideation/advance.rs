//! `workflow-state ideation advance`.

use clap::Args;
use phasegate_ops::ideation;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Move ideation one sub-phase on when the seed's rule holds.
///
/// Evaluate the sub-phase's transition rule (seed 004 §3.3) and move one
/// phase on when it holds. EXPLORING moves on with target-user, problem
/// and solution-concept; NARROWING with mvp-features, a differentiator and
/// an average confidence above 0.6; VALIDATING with 3 validation decisions
/// and a risk; REFINING with the brief artifact alone, whatever the
/// confidence (the specify phase needs the brief). COMPLETE writes
/// handoff.md and emits ideation.completed. Staying is not an error (exit
/// 0): the output says what is missing. After COMPLETE nothing moves: exit
/// 1.
#[derive(Debug, Args)]
pub struct AdvanceArgs {
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_advance(a: AdvanceArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let adv = ideation::advance(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&adv)?;
        return Ok(ExitStatus::Success);
    }
    super::print(&adv.shown, ctx)?;
    if !adv.missing_required.is_empty() {
        let names: Vec<&str> = adv.missing_required.iter().map(|i| i.title()).collect();
        ctx.out.line(format!("The handoff lacks required inputs: {}.", names.join(", ")))?;
    }
    Ok(ExitStatus::Success)
}
