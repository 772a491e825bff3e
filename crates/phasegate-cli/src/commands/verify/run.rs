//! `workflow-state verify run`.

use clap::Args;
use phasegate_ops::proof;

use super::requirement_line;
use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Run every check of the feature into its evidence ledger.
///
/// Run every check of the feature and record the evidence ledger
/// (docs/features/<feature>/evidence.json): each check in the feature's
/// working tree (its worktree when it has one), bounded in time
/// (`.phasegate/verify.config.json`, default 10 minutes) and output, with
/// the identity of the tree it ran on. Checks are tasks.md's `## Checks`
/// (a pipeline: its plan's `test_plan.checks`). Exit codes: 0 every
/// requirement is proven (or waived by a person), 1 not, or another run of
/// the feature is running, 2 a spec or tasks.md it cannot read (naming the
/// file and line).
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON: `{"requirements": [{"id", "status",
    /// "checks": [...]}], "proven", "summary", ...}`.
    #[arg(long)]
    json: bool,
}

pub fn cmd_run(a: RunArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let ran = proof::run(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&ran)?;
    } else {
        for r in &ran.requirements {
            ctx.out.line(requirement_line(r))?;
        }
        ctx.out.line(ran.message.to_string())?;
    }
    Ok(if ran.proven { ExitStatus::Success } else { ExitStatus::Refused })
}
