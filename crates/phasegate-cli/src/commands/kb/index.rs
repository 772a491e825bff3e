//! `workflow-state kb index`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// Rebuild the knowledge base's index from the items.
///
/// Rebuild the knowledge base's index from the items, fresh or not (it is
/// a cache: every command rebuilds it when stale or when a file of it fails
/// its check; hooks use it as it is). Exit 2 when it cannot be written.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_index(a: IndexArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let r = base::index(&ctx.env)?;
    if a.json {
        ctx.out.json(&r)?;
    } else {
        ctx.out.line(format!("index rebuilt from {} item(s)", r.items))?;
        for u in &r.unreadable {
            ctx.out.line(format!("unreadable: {u}"))?;
        }
    }
    Ok(ExitStatus::Success)
}
