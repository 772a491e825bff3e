//! `workflow-state pipeline dry-run`: validate the setup.

use clap::Args;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Check the pipeline setup: plugin files, state, configuration, tools.
///
/// Check the pipeline setup: plugin files, state and configuration files,
/// .task ignored by git, tools on PATH. Exits 0 when every check passes, 1
/// otherwise; each failure says how to fix it.
#[derive(Debug, Args)]
pub struct DryRunArgs {
    #[command(flatten)]
    feature: PipelineArg,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_dry_run(args: DryRunArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let checks = pipeline::dry_run(&ctx.env, args.feature.get())?;
    let failed = checks.iter().filter(|c| !c.ok).count();
    if args.json {
        ctx.out.json_pretty(&serde_json::json!({"ok": failed == 0, "checks": checks}))?;
    } else {
        for c in &checks {
            ctx.out.line(format!("{}  {}: {}", if c.ok { "PASS" } else { "FAIL" }, c.check, c.detail))?;
        }
        ctx.out.line(if failed == 0 {
            "dry-run: all checks passed".to_owned()
        } else {
            format!("dry-run: {failed} check(s) failed")
        })?;
    }
    Ok(if failed == 0 { ExitStatus::Success } else { ExitStatus::Refused })
}
