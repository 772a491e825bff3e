//! `workflow-state worktree …`.

use clap::Subcommand;

use crate::context::Ctx;
use crate::error::CliResult;

mod check;

#[derive(Debug, Subcommand)]
pub enum WorktreeCommand {
    Check(check::CheckArgs),
}

pub fn run(cmd: WorktreeCommand, ctx: &mut Ctx<'_>) -> CliResult {
    match cmd {
        WorktreeCommand::Check(args) => check::run(args, ctx),
    }
}
