//! `workflow-state kb index`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// Rebuild the knowledge base's index when it is stale (every command does
/// this itself; hooks use the index as it is).
#[derive(Debug, Args)]
pub struct IndexArgs {}

pub fn cmd_index(_: IndexArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let rebuilt = base::index(&ctx.env)?;
    ctx.out.line(if rebuilt { "index rebuilt" } else { "index fresh" })?;
    Ok(ExitStatus::Success)
}
