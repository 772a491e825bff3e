//! `workflow-state pipeline ask`.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::commands::question::SessionArg;
use crate::commands::slack;
use crate::{CmdResult, Ctx, ExitStatus};

/// Hand a paused pipeline's decision to a person.
///
/// Hand a paused pipeline's decision to a person: a blocking question with
/// the pause's reason and message. A pipeline runs unattended, so it
/// suspends the feature (`.claude/suspended/<feature>.json`) and goes to
/// Slack when configured; answered in Slack or with `question answer`,
/// after which `pipeline next` says to resume. Prints what `question ask`
/// prints. Exit 1 when the pipeline is not paused or already waits.
#[derive(Debug, Args)]
pub struct AskArgs {
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_ask(args: AskArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let asked = pipeline::ask(&ctx.env, args.feature.get(), args.session.get())?;
    ctx.out.json(&slack::delivered(ctx, &asked)?)?;
    Ok(ExitStatus::Success)
}
