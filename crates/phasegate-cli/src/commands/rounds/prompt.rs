//! `workflow-state rounds prompt`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::questions::rounds;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print the next implementer call as JSON.
///
/// Print the next implementer call as JSON: agent, model, the file to save
/// its reply in, and the prompt (brief, protocol, `## Prior … Q&A`). An
/// answer that arrived for the open question is taken in first. Exit 1 while
/// the question waits for a person.
#[derive(Debug, Args)]
pub struct PromptArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_prompt(a: PromptArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let p = rounds::prompt(&ctx.env, a.feature.get(), a.phase)?;
    ctx.out.json(&p)?;
    Ok(ExitStatus::Success)
}
