//! `workflow-state worktree …`.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod check;

#[derive(Debug, Subcommand)]
pub enum WorktreeCommand {
    Check(check::CheckArgs),
}

pub fn run(cmd: WorktreeCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        WorktreeCommand::Check(args) => check::cmd_check(args, ctx),
    }
}
