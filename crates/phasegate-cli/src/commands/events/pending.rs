//! `workflow-state events pending`.

use clap::Args;
use phasegate_ops::coordination::events;

use crate::{CmdResult, Ctx, ExitStatus};

/// Events waiting for their acknowledgement, each with the next step the
/// routing table suggests (`.phasegate/routing.config.json` overrides it)
/// and the session it was offered to. A corrupt line of the log is listed
/// and skipped.
#[derive(Debug, Args)]
pub struct PendingArgs {
    #[arg(long)]
    json: bool,
    /// Only the events this session can act on (its feature, or work given to it).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn cmd_pending(a: PendingArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let list = events::pending(&ctx.env, a.session.as_deref())?;
    if a.json {
        ctx.out.json(&list)?;
        return Ok(ExitStatus::Success);
    }
    if list.events.is_empty() {
        ctx.out.line("No pending events.")?;
    }
    for e in &list.events {
        let about = [e.feature.clone(), e.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
        let next = e.suggestion.as_ref().map(|s| s.sentence.clone()).unwrap_or_default();
        let offered = e.offered_to.as_ref().map(|s| format!(" [offered to {s}]")).unwrap_or_default();
        ctx.out.line(format!("{} {} {about}{offered}: {next}", e.id, e.event_type))?;
    }
    for c in &list.corrupt {
        ctx.out.line(format!("skipped, not an event: {c}"))?;
    }
    if let Some(r) = &list.routing {
        ctx.out.line(format!("routing: {r}"))?;
    }
    Ok(ExitStatus::Success)
}
