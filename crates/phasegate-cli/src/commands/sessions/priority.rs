//! `workflow-state sessions priority`.

use clap::Args;
use phasegate_core::coordination::Priority;

use crate::{CmdResult, Ctx, ExitStatus};

/// Set this session's priority for conflicts over a file.
///
/// Set this session's priority (low, normal, high, critical): when two
/// sessions want one file, higher-priority work preempts the owner. A task
/// with `priority: …` in tasks.md sets it at `tasks start`.
#[derive(Debug, Args)]
pub struct PriorityArgs {
    priority: Priority,
    /// Whose (default: this session, CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn cmd_priority(a: PriorityArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let r = phasegate_ops::coordination::registry::set_priority(&ctx.env, a.session.as_deref(), a.priority)?;
    ctx.out.json(&serde_json::json!({"session": r.id.as_str(), "priority": r.priority}))?;
    Ok(ExitStatus::Success)
}
