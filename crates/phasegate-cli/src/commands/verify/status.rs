//! `workflow-state verify status`.

use clap::Args;
use phasegate_ops::proof;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Read the feature's evidence ledger at the tree as it is.
///
/// Read the feature's evidence ledger at the tree as it is now: how many
/// requirements are proven, which are not and why, and whether the ledger
/// is stale (a file changed since the checks ran: a stale ledger proves
/// nothing). Runs nothing. Exit codes: 0 proven under the feature's mode,
/// 1 not (or no `verify run` yet), 2 a ledger it cannot read.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_status(a: StatusArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let p = proof::status(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&p)?;
    } else {
        ctx.out.line(format!("{}: {} (mode {} requires {})", p.feature, p.summary(), p.mode, p.rule.says()))?;
        if !p.proven() {
            for b in p.blocking() {
                ctx.out.line(format!("  not proven: {b}"))?;
            }
            ctx.out.line(format!("  run `{}`", p.command))?;
        }
        for w in p.waivers() {
            ctx.out.line(format!("  {w}"))?;
        }
        if let Some(t) = &p.tampered {
            ctx.out.line(format!("  tampered: {t}"))?;
        }
    }
    Ok(if p.proven() { ExitStatus::Success } else { ExitStatus::Refused })
}
