//! `workflow-state retro`.

use clap::Args;
use phasegate_ops::retro;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

#[derive(Debug, Args)]
pub struct FactsArgs {
    /// Only this task: a failure's retrospective right away (seed 004's
    /// task.failed: immediate gotcha extraction).
    #[arg(long, value_name = "TASK")]
    task: Option<String>,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the facts and the brief as JSON (`agent`, `prompt`, …).
    #[arg(long)]
    json: bool,
}

pub fn cmd_facts(a: FactsArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let f = retro::facts(&ctx.env, a.feature.get(), a.task.as_deref())?;
    if a.json {
        ctx.out.json(&f)?;
    } else {
        ctx.out
            .line(format!("Retrospective of {} ({}, {}); brief for {}:", f.feature, f.workflow, f.status, f.agent))?;
        ctx.out.line(f.prompt.trim_end())?;
    }
    Ok(ExitStatus::Success)
}
