//! `workflow-state rounds check`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::questions::rounds;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// After the cap: check that the artifact lists every open question.
///
/// After the cap: check that the phase's artifact has an `## Open
/// Questions` section listing every question that stayed open. Exit 1 (with
/// the missing ones) if not.
#[derive(Debug, Args)]
pub struct CheckArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_check(a: CheckArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let open = rounds::check(&ctx.env, a.feature.get(), a.phase)?;
    ctx.out.json(&serde_json::json!({ "ok": true, "openQuestions": open }))?;
    Ok(ExitStatus::Success)
}
