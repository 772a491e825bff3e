//! `workflow-state sessions …`: the Claude Code sessions working on the
//! repository (seed 004 §1.2's lifecycle, §7's heartbeat).

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod list;
mod priority;

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    List(list::ListArgs),
    Priority(priority::PriorityArgs),
}

pub fn run(cmd: SessionsCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        SessionsCommand::List(a) => list::cmd_list(a, ctx),
        SessionsCommand::Priority(a) => priority::cmd_priority(a, ctx),
    }
}
