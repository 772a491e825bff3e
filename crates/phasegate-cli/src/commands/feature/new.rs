//! `workflow-state feature new`.

use clap::Args;
use phasegate_core::Mode;
use phasegate_core::feature::Workflow;
use phasegate_ops::feature::lifecycle as feature;

use crate::{CmdResult, Ctx, ExitStatus};

/// Create docs/features/<NNN>-<slug>/ with its .meta.json and print the folder.
///
/// The name is a slug (`user-auth`) or a description the slug is made from
/// (`"add search"` → add-search). With --worktree also a branch
/// feature/<NNN>-<slug> and a git worktree in .worktrees/<NNN>-<slug>. All or
/// nothing: a creation that fails takes back what it made, and one that was
/// killed is taken back by the next `feature new` (printed after the folder),
/// except a branch or worktree that holds your work since, which is kept and
/// named, its number never given to another feature.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// A slug (letters, digits, '-', '_', '.') or a short description.
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

pub fn cmd_new(args: NewArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let created = feature::create(&ctx.env, &args.slug, args.mode, Workflow::Phased, args.worktree)?;
    if args.json {
        ctx.out.json(&created)?;
    } else {
        ctx.out.line(&created.dir)?;
        for note in created.notes() {
            ctx.out.line(format!("note: {note}"))?;
        }
    }
    Ok(ExitStatus::Success)
}
