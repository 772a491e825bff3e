//! `workflow-state tamper …`: what the binaries cannot prevent, they show.
//! A feature's state files changed by another route than phasegate's
//! commands are marked; `list` shows the marks, `clear` asks a person to
//! clear them (only a person may).

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod clear;
mod list;

#[derive(Debug, Subcommand)]
pub enum TamperCommand {
    List(list::ListArgs),
    Clear(clear::ClearArgs),
}

pub fn run(cmd: TamperCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        TamperCommand::List(a) => list::cmd_list(a, ctx),
        TamperCommand::Clear(a) => clear::cmd_clear(a, ctx),
    }
}
