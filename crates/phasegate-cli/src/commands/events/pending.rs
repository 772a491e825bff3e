//! `workflow-state events pending`.

use clap::Args;
use phasegate_ops::coordination::events;

use crate::{CmdResult, Ctx, ExitStatus};

/// The events waiting to settle, each with its next step.
///
/// Events waiting to settle, each with what happened (a conflict's file and
/// sessions, an alert's message), the next step the routing table suggests
/// (`.phasegate/routing.config.json` overrides it; a feature's next step is
/// `workflow-state next`'s) and the session it was offered to. Events whose
/// step was taken, whose feature ended, or past their time settle as this
/// runs. A corrupt line of the log is listed and skipped.
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
        let what = e.suggestion.as_ref().map_or_else(|| e.event_type.clone(), |s| s.sentence.clone());
        let offered = e
            .offered_to
            .as_deref()
            .map(|s| format!(" [offered to {}]", phasegate_core::session::short_str(s)))
            .unwrap_or_default();
        ctx.out.line(format!("{}: {what}{offered}", e.id))?;
    }
    for c in &list.corrupt {
        ctx.out.line(format!("skipped, not an event: {c}"))?;
    }
    if let Some(r) = &list.routing {
        ctx.out.line(format!("routing: {r}"))?;
    }
    Ok(ExitStatus::Success)
}
