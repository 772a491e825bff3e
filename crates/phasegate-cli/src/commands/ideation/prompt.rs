//! `workflow-state ideation prompt`.

use clap::Args;
use phasegate_ops::ideation;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// The current sub-phase's prompt: instructions, questions, confidence.
///
/// The current sub-phase's prompt (seed 004 §3.5): its instructions, what
/// we know so far, 2–3 focused questions to ask, the current confidence;
/// and what moving on still needs.
#[derive(Debug, Args)]
pub struct PromptArgs {
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_prompt(a: PromptArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let p = ideation::prompt(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&p)?;
        return Ok(ExitStatus::Success);
    }
    ctx.out.line(format!("## Ideation: {}\n", p.shown.phase))?;
    ctx.out.line(&p.prompt)?;
    if !p.shown.next.should_transition && p.shown.phase.next().is_some() {
        ctx.out.line(format!("\nTo move on: {}.", p.shown.next.reasons.join("; ")))?;
    }
    Ok(ExitStatus::Success)
}
