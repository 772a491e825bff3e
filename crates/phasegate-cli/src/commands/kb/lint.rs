//! `workflow-state kb lint`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// Check the knowledge base's files, its index and CLAUDE.md's block.
///
/// Check the knowledge base: every file readable against its schema (and
/// within its size and nesting bounds), ids naming their files, superseding
/// items that exist and no circle of them, no two live items that say the
/// same, an index that says what the items say, CLAUDE.md's phasegate block
/// well formed. Exit 0 when
/// clean, 1 when a problem is found (each is listed with its file), 2 when
/// the folder cannot be read.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_lint(a: LintArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let l = base::lint(&ctx.env)?;
    if a.json {
        ctx.out.json(&l)?;
    } else {
        for p in &l.problems {
            ctx.out.line(format!("{}: {}", p.path, p.problem))?;
        }
        ctx.out.line(format!("{} item(s), {} problem(s)", l.items, l.problems.len()))?;
    }
    Ok(if l.problems.is_empty() { ExitStatus::Success } else { ExitStatus::Refused })
}
