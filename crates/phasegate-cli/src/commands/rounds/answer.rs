//! `workflow-state rounds answer`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::questions::rounds;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Answer the open question as the orchestrator.
#[derive(Debug, Args)]
pub struct AnswerArgs {
    phase: Phase,
    #[arg(long, value_name = "TEXT")]
    text: String,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_answer(a: AnswerArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let v = rounds::answer(&ctx.env, a.feature.get(), a.phase, &a.text)?;
    ctx.out.json(&v)?;
    Ok(ExitStatus::Success)
}
