//! `workflow-state kb promote`.

use clap::Args;
use phasegate_ops::knowledge;

use crate::commands::FeatureArg;
use crate::commands::question::SessionArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Put a lesson into CLAUDE.md (seed 004 §6.3), only with the user's yes.
///
/// The item must have confidence at least 0.9, be seen at least 3 times in 2 or
/// more features, and not be there yet (else exit 1, saying which condition
/// fails). The first run asks the user a blocking question (`status: asked`,
/// with AskUserQuestion's input in an interactive session); once a person
/// answered, the next run writes the item into the block of CLAUDE.md that
/// phasegate owns (`promoted`) or leaves it (`declined`). While the question is
/// open: exit 1, nothing written.
#[derive(Debug, Args)]
pub struct PromoteArgs {
    /// The item's id.
    id: String,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_promote(a: PromoteArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let p = knowledge::promote(&ctx.env, a.feature.get(), &a.id, a.session.get())?;
    if a.json {
        ctx.out.json(&p)?;
    } else {
        ctx.out.line(p.message.to_string())?;
    }
    Ok(ExitStatus::Success)
}
