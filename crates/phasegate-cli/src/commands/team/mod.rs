//! `workflow-state team …`: a team across machines through the git remote
//! (claims and feature numbers as refs under `refs/phasegate/`).

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod sync;

#[derive(Debug, Subcommand)]
pub enum TeamCommand {
    Sync(sync::SyncArgs),
}

pub fn run(cmd: TeamCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        TeamCommand::Sync(a) => sync::cmd_sync(a, ctx),
    }
}
