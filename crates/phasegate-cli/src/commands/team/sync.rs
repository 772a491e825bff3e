//! `workflow-state team sync`.

use clap::Args;
use phasegate_ops::questions::team;

use crate::{CmdResult, Ctx, ExitStatus};

/// Sync with the team's remote: fetch its claims, push what waited.
///
/// Fetch the team's refs from the remote (`origin`, or the remote `git
/// config phasegate.remote` names) and carry over what waited while it
/// could not be reached: feature numbers reserved, claims made and given
/// back; this clone's claims of tasks in progress get a fresh heartbeat.
/// Then list every claim, marked by machine. Exit 0, also when the remote
/// cannot be reached (a line says so and everything waits); 2 for state
/// that cannot be read.
#[derive(Debug, Args)]
pub struct SyncArgs {
    #[arg(long)]
    json: bool,
}

pub fn cmd_sync(a: SyncArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let Some(s) = team::sync(&ctx.env)? else {
        ctx.out
            .line("No team remote: this repository has no `origin` (or `git config phasegate.remote` names none).")?;
        return Ok(ExitStatus::Success);
    };
    if a.json {
        ctx.out.json(&s)?;
        return Ok(ExitStatus::Success);
    }
    match &s.note {
        Some(note) => ctx.out.line(note.to_string())?,
        None => ctx.out.line(format!("Synced with {}.", s.remote))?,
    }
    for (what, list) in [
        ("reserved", &s.reserved),
        ("claimed", &s.claimed),
        ("given back", &s.released),
        ("answered by a teammate", &s.answered),
    ] {
        if !list.is_empty() {
            ctx.out.line(format!("{what}: {}", list.join(", ")))?;
        }
    }
    for clash in &s.clashes {
        ctx.out.line(format!("clash: {clash}"))?;
    }
    for c in &s.claims {
        ctx.out.line(crate::commands::status::claim_line(c))?;
    }
    if s.leases_published {
        ctx.out.line("This clone's file leases are published.")?;
    }
    Ok(ExitStatus::Success)
}
