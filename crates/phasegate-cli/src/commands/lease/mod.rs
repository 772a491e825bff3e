//! `workflow-state lease …`: file leases between sessions (seed 004 §8):
//! who holds what, taking one ahead of an edit, giving one back.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod list;
mod release;
mod take;

#[derive(Debug, Subcommand)]
pub enum LeaseCommand {
    List(list::ListArgs),
    Take(take::TakeArgs),
    Release(release::ReleaseArgs),
}

pub fn run(cmd: LeaseCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        LeaseCommand::List(a) => list::cmd_list(a, ctx),
        LeaseCommand::Take(a) => take::cmd_take(a, ctx),
        LeaseCommand::Release(a) => release::cmd_release(a, ctx),
    }
}
