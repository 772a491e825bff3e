//! `workflow-state lease list`.

use clap::Args;

use crate::{CmdResult, Ctx, ExitStatus};

/// Every lease, its holder and whether the holder is live; the waits.
///
/// Every lease: path, holder, its feature and task, since when, and
/// whether the holder is live (a lease of a session down or gone has
/// expired: the next request takes the file). Also the waits, and the
/// leases of teammates' sessions on other machines as the last `team sync`
/// saw them.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let o = phasegate_ops::oversight::view::overview(&ctx.env)?;
    if a.json {
        ctx.out.json(&serde_json::json!({"leases": o.leases, "waits": o.waits, "teammates": o.teammate_leases}))?;
        return Ok(ExitStatus::Success);
    }
    if o.leases.is_empty() {
        ctx.out.line("No leases.")?;
    }
    for l in &o.leases {
        let live = o.sessions.iter().any(|s| s.id == l.holder.as_str() && s.health.liveness.is_live());
        let work = [l.feature.clone(), l.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
        ctx.out.line(format!(
            "{}  {}{}  {work}  since {}",
            l.path,
            l.holder,
            if live { "" } else { " (expired: holder down or gone)" },
            phasegate_core::time::stamp(l.acquired_at)
        ))?;
    }
    for w in &o.waits {
        ctx.out.line(format!("{} waits for {}: {}", w.waiter, w.holder, w.path))?;
    }
    if !o.teammate_leases.is_empty() {
        ctx.out.line("On teammates' machines (as the last `workflow-state team sync` saw them):")?;
    }
    for l in &o.teammate_leases {
        let work = [l.feature.clone(), l.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
        ctx.out.line(format!("  {}  {}  {work}  since {}", l.path, l.holder, phasegate_core::time::stamp(l.since)))?;
    }
    Ok(ExitStatus::Success)
}
