//! `workflow-state worktree check`.

use clap::Args;
use phasegate_store::WorktreeStatus;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Check the current directory against the feature's worktree. Exits 0 when
/// inside it (or the feature has none), 1 when outside or when it is missing.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: CheckArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = ctx.feature(args.feature.get())?;
    let meta = feature.load()?;
    let cwd = ctx.cwd.display().to_string();
    let (ok, worktree, message) = match project.worktree_status(&meta, &ctx.cwd) {
        WorktreeStatus::NoWorktree => (true, None, "the feature has no worktree; work in the main checkout".to_owned()),
        WorktreeStatus::Inside { worktree } => (true, Some(worktree), "in the feature's worktree".to_owned()),
        WorktreeStatus::Outside { worktree } => {
            let m = format!("{cwd} is not the feature's worktree; cd {} before changing code", worktree.display());
            (false, Some(worktree), m)
        }
        WorktreeStatus::Missing { worktree } => {
            let m = format!(
                "the worktree {} recorded in .meta.json does not exist; recreate it (git worktree add) or clear \"worktree\"",
                worktree.display()
            );
            (false, Some(worktree), m)
        }
    };
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "cwd": cwd,
        "worktree": worktree.map(|w| w.display().to_string()),
        "inWorktree": ok,
        "message": message,
    }))?;
    Ok(if ok { ExitStatus::Success } else { ExitStatus::Refused })
}
