//! `workflow-state pipeline final-gate`: the last reviewer of each gate
//! (the seed's /review-codex), an external command.

use clap::Args;
use phasegate_ops::pipeline::gate;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Run the final gate: the configured external reviewer.
///
/// Run the final gate: the configured external reviewer (the Codex CLI by
/// default) reviews the plan or the code, its JSON answer is checked and
/// recorded as .task/review-codex.json. When the reviewer is not installed,
/// finalGate.whenUnavailable decides: skip (recorded with the reason) or
/// block (the pipeline pauses for the user).
#[derive(Debug, Args)]
pub struct FinalGateArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_final_gate(args: FinalGateArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let done = gate::final_gate(&ctx.env, args.feature.get())?;
    ctx.out.json(&done)?;
    Ok(ExitStatus::Success)
}
