//! `workflow-state phase …`: the seed's updatePhaseState and partial-phase
//! detection.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod brief;
mod complete;
mod show;
mod start;

#[derive(Debug, Subcommand)]
pub enum PhaseCommand {
    Start(start::StartArgs),
    Complete(complete::CompleteArgs),
    Show(show::ShowArgs),
    Brief(brief::BriefArgs),
}

pub fn run(cmd: PhaseCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        PhaseCommand::Start(args) => start::cmd_start(args, ctx),
        PhaseCommand::Complete(args) => complete::cmd_complete(args, ctx),
        PhaseCommand::Show(args) => show::cmd_show(args, ctx),
        PhaseCommand::Brief(args) => brief::cmd_brief(args, ctx),
    }
}
