//! `workflow-state kb show`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// One item in full. Exit 2 for an unknown or unreadable item.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The item's id.
    id: String,
    /// Print the item as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let s = base::show(&ctx.env, &a.id)?;
    if a.json {
        ctx.out.json(&s)?;
    } else {
        ctx.out.line(format!("{} ({})", super::line(&s), s.path))?;
        ctx.out.line(s.item.content.trim_end())?;
    }
    Ok(ExitStatus::Success)
}
