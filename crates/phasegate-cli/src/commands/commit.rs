//! `workflow-state commit`: commit the paths a step names.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::commit;

use crate::{CmdResult, Ctx, ExitStatus};

/// Commit the named paths with your own git, its hooks running.
///
/// Commit the named paths with your own git (its hooks run): `git add -A`
/// and `git commit` of those paths only. A path that neither exists nor is
/// tracked is skipped, and nothing to commit is no error, so a step that
/// changed nothing in one of its places still commits the others. Exit 0
/// (committed, or nothing to commit), 2 when git refused (a hook, no
/// identity): git's message is printed.
#[derive(Debug, Args)]
pub struct CommitArgs {
    /// The commit message (`<feature>: <phase>`).
    #[arg(short = 'm', long)]
    message: String,
    /// The working tree to commit in (default: the current directory); the
    /// paths are relative to it.
    #[arg(short = 'C', value_name = "DIR")]
    dir: Option<PathBuf>,
    #[arg(long)]
    json: bool,
    /// The paths to commit (files or folders).
    #[arg(last = true, required = true)]
    paths: Vec<String>,
}

pub fn cmd_commit(a: CommitArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let done = commit::commit(&ctx.env, a.dir.as_deref(), &a.message, &a.paths)?;
    if a.json {
        ctx.out.json(&done)?;
    } else {
        ctx.out.line(done.message.to_string())?;
        if !done.skipped.is_empty() {
            ctx.out.line(format!("Skipped (not there): {}", done.skipped.join(", ")))?;
        }
    }
    Ok(ExitStatus::Success)
}
