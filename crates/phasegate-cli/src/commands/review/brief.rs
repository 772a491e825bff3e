//! `workflow-state review brief`: the prompt for the reviewer agent.

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::feature::review;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Print the reviewer's brief for a phase: the agent and its prompt.
///
/// Print the reviewer's brief for a phase: which agent to spawn and its
/// prompt (the previous and current artifact, what the next phase needs,
/// the last iteration's open issues, concerns earlier phases left open; for
/// implement and verify the code change since the phase started, with the
/// whole diff in a file the reviewer can read). The brief is noted: `review
/// record` takes the verdict of a reviewer spawned with this prompt.
#[derive(Debug, Args)]
pub struct BriefArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print JSON {"agent", "diffFile", "prompt"} instead.
    #[arg(long)]
    json: bool,
}

pub fn cmd_brief(args: BriefArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let brief = review::brief(&ctx.env, args.feature.get(), args.phase)?;
    if args.json {
        ctx.out.json(&brief)?;
    } else {
        ctx.out.line(format!("Reviewer agent: {}", brief.agent))?;
        ctx.out.line("Prompt:")?;
        ctx.out.line(&brief.prompt)?;
    }
    Ok(ExitStatus::Success)
}
