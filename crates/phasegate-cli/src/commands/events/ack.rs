//! `workflow-state events ack`.

use clap::Args;
use phasegate_ops::coordination::events;

use crate::{CmdResult, Ctx, ExitStatus};

/// Acknowledge events: handled, or dismissed.
///
/// Acknowledge events (handled, or dismissed): they are no longer pending
/// or offered. Exit 1 when none of the ids was pending.
#[derive(Debug, Args)]
pub struct AckArgs {
    /// Event ids (e12), as `events pending` and the hooks name them.
    #[arg(required = true)]
    ids: Vec<String>,
}

pub fn cmd_ack(a: AckArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let acked = events::ack(&ctx.env, &a.ids)?;
    ctx.out.json(&acked)?;
    Ok(if acked.acknowledged.is_empty() { ExitStatus::Refused } else { ExitStatus::Success })
}
