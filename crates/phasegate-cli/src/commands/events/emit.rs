//! `workflow-state events emit`.

use clap::Args;
use phasegate_ops::coordination::events;

use crate::{CmdResult, Ctx, ExitStatus};

/// Append an event by hand.
///
/// Append an event by hand (the binaries emit their own at each
/// transition): `spec.approved`, `build.completed`, `task.failed`, … It is
/// routed and offered like any other.
#[derive(Debug, Args)]
pub struct EmitArgs {
    /// The event type: two or more dot-separated words (spec.approved).
    event_type: String,
    #[arg(long, value_name = "FEATURE")]
    feature: Option<String>,
    #[arg(long, value_name = "TASK")]
    task: Option<String>,
    /// A JSON value carried with the event.
    #[arg(long, value_name = "JSON")]
    payload: Option<String>,
}

pub fn cmd_emit(a: EmitArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let event =
        events::emit_by_hand(&ctx.env, &a.event_type, a.feature.as_deref(), a.task.as_deref(), a.payload.as_deref())?;
    ctx.out.json(&event)?;
    Ok(ExitStatus::Success)
}
