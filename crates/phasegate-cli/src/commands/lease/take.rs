//! `workflow-state lease take`.

use clap::Args;
use phasegate_core::coordination::LeaseDecision;
use phasegate_ops::coordination::leases;

use crate::{CmdResult, Ctx, ExitStatus};

/// Lease a file for this session before editing it.
///
/// Lease a file for this session before editing it (an edit takes the
/// lease anyway): GRANT when free or its holder is down, PREEMPT with
/// higher priority, else DENY (exit 1, naming the holder).
#[derive(Debug, Args)]
pub struct TakeArgs {
    /// The file, relative to the current directory or absolute.
    path: String,
}

pub fn cmd_take(a: TakeArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let got = leases::take(&ctx.env, &a.path)?;
    ctx.out.json(&got.decision)?;
    Ok(match got.decision {
        LeaseDecision::Grant { .. } | LeaseDecision::Preempt { .. } => ExitStatus::Success,
        LeaseDecision::Deny { .. } => ExitStatus::Refused,
    })
}
