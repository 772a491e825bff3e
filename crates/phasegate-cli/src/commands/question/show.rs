//! `workflow-state question show`.

use clap::Args;
use phasegate_ops::questions::ask as questions;

use crate::{CmdResult, Ctx, ExitStatus};

/// Show one question's stored file.
#[derive(Debug, Args)]
pub struct ShowArgs {
    id: String,
}

pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let project = phasegate_ops::session::project(&ctx.env)?;
    let found = questions::find(&project, &a.id)?;
    ctx.out.json_pretty(&found.question)?;
    Ok(ExitStatus::Success)
}
