//! `workflow-state kb supersede`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// Retire an item: superseded by another, or obsolete.
///
/// Retire an item (seed 004 §10.2's deprecation): superseded by another, or
/// obsolete for a reason; it no longer appears in queries. Exit 1 when the
/// successor's own successors lead back to the item (a circle would retire
/// the lesson everywhere), 2 for an unknown item.
#[derive(Debug, Args)]
pub struct SupersedeArgs {
    /// The item's id.
    id: String,
    /// The item that replaces it.
    #[arg(long, value_name = "ID")]
    by: Option<String>,
    /// Why it is obsolete (when nothing replaces it).
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
    /// Print the item as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_supersede(a: SupersedeArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let s = base::supersede(&ctx.env, &a.id, a.by.as_deref(), a.reason.as_deref())?;
    if a.json {
        ctx.out.json(&s)?;
    } else {
        ctx.out.line(super::line(&s))?;
    }
    Ok(ExitStatus::Success)
}
