//! `workflow-state pipeline start`.

use clap::Args;
use phasegate_core::Mode;
use phasegate_ops::pipeline::lifecycle;

use crate::{CmdResult, Ctx, ExitStatus};

/// Start a pipeline: a new feature, owned by this session.
///
/// Start a pipeline: create the feature (docs/features/<NNN>-<slug>/ with a
/// .task/ folder), owned by this Claude Code session, in requirements_gathering.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// Short name of the feature (a slug, or a description it is made from).
    slug: String,
    /// What the user asked for.
    #[arg(long, value_name = "TEXT")]
    request: String,
    /// hotfix | quick | standard | full (recorded on the feature).
    #[arg(long, default_value = "standard")]
    mode: Mode,
    /// Also create a git branch and worktree for the feature.
    #[arg(long)]
    worktree: bool,
    /// The owning session (default: CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn cmd_start(args: StartArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let started =
        lifecycle::start(&ctx.env, &args.slug, &args.request, args.mode, args.worktree, args.session.as_deref())?;
    ctx.out.json(&started)?;
    Ok(ExitStatus::Success)
}
