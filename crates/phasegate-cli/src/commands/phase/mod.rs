//! `workflow-state phase …`: the seed's updatePhaseState and partial-phase
//! detection.

use clap::Subcommand;

use crate::context::Ctx;
use crate::error::CliResult;

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

pub fn run(cmd: PhaseCommand, ctx: &mut Ctx<'_>) -> CliResult {
    match cmd {
        PhaseCommand::Start(args) => start::run(args, ctx),
        PhaseCommand::Complete(args) => complete::run(args, ctx),
        PhaseCommand::Show(args) => show::run(args, ctx),
        PhaseCommand::Brief(args) => brief::run(args, ctx),
    }
}
