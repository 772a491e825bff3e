//! `workflow-state kb list`.

use clap::Args;
use phasegate_core::knowledge::KnowledgeType;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// List the knowledge base's items, by type then confidence.
///
/// The items, by type then confidence (superseded ones with --all); files
/// that cannot be read are named.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only this type: gotcha, pattern or decision.
    #[arg(long = "type", value_name = "TYPE")]
    item_type: Option<KnowledgeType>,
    /// Include superseded items.
    #[arg(long)]
    all: bool,
    /// Print the items as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let l = base::list(&ctx.env, a.item_type, a.all)?;
    if a.json {
        ctx.out.json(&l)?;
        return Ok(ExitStatus::Success);
    }
    if l.items.is_empty() {
        ctx.out.line("The knowledge base is empty.")?;
    }
    for s in &l.items {
        ctx.out.line(super::line(s))?;
    }
    for u in &l.unreadable {
        ctx.out.line(format!("unreadable: {u}"))?;
    }
    Ok(ExitStatus::Success)
}
