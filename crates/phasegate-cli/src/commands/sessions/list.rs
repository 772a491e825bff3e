//! `workflow-state sessions list`.

use clap::Args;

use crate::{CmdResult, Ctx, ExitStatus};

/// Every session: its state, liveness, feature, task, priority, leases.
///
/// Every session: its lifecycle state (IDLE, LOADING, ACTIVE, COMPLETE,
/// ERROR), whether it is live (a heartbeat within 5 minutes), its feature,
/// task, priority and leases; then what teammates' clones claim on the
/// team's remote, by machine, as the last `team sync` saw it.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let o = phasegate_ops::oversight::view::overview(&ctx.env)?;
    if a.json {
        ctx.out.json(&o.sessions)?;
        return Ok(ExitStatus::Success);
    }
    if o.sessions.is_empty() {
        ctx.out.line("No sessions.")?;
    }
    for s in &o.sessions {
        ctx.out.line(crate::commands::watch::session_line(s))?;
    }
    if !o.teammates.is_empty() {
        ctx.out.line("On teammates' machines (as the last `workflow-state team sync` saw them):")?;
    }
    for c in &o.teammates {
        ctx.out.line(format!("  {}", crate::commands::status::claim_line(c)))?;
    }
    Ok(ExitStatus::Success)
}
