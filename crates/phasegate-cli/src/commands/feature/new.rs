//! `workflow-state feature new`.

use clap::Args;
use phasegate_core::Mode;
use phasegate_core::meta::Workflow;

use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Create docs/features/<NNN>-<slug>/ with its .meta.json and print the
/// folder. With --worktree also a branch feature/<NNN>-<slug> and a git
/// worktree in .worktrees/<NNN>-<slug>.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// Short name: letters, digits, '-', '_', '.'; no path separators or '..'.
    slug: String,
    /// hotfix | quick | standard | full: caps reviewer iterations at 1 | 2 | 3 | 5.
    #[arg(long, default_value = "standard")]
    mode: Mode,
    /// Also create a git branch and worktree for the feature.
    #[arg(long)]
    worktree: bool,
    /// Print the new .meta.json and folder as JSON instead of the folder.
    #[arg(long)]
    json: bool,
}

pub fn run(args: NewArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let project = ctx.project()?;
    let (feature, meta) =
        project.create_feature(&args.slug, args.mode, Workflow::Phased, args.worktree, ctx.now, ctx.lock_timeout)?;
    if args.json {
        let worktree = project.worktree_path(&meta).map(|p| p.display().to_string());
        ctx.json(&serde_json::json!({
            "name": feature.name(),
            "dir": feature.dir().display().to_string(),
            "worktreePath": worktree,
            "meta": meta,
        }))?;
    } else {
        ctx.line(feature.dir().display().to_string())?;
    }
    Ok(ExitStatus::Success)
}
