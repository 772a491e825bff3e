//! `workflow-state review …`: the reviewer loop's bookkeeping.

use clap::Subcommand;

use crate::context::Ctx;
use crate::error::CliResult;

mod brief;
mod record;

#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    Record(record::RecordArgs),
    Brief(brief::BriefArgs),
}

pub fn run(cmd: ReviewCommand, ctx: &mut Ctx<'_>) -> CliResult {
    match cmd {
        ReviewCommand::Record(args) => record::run(args, ctx),
        ReviewCommand::Brief(args) => brief::run(args, ctx),
    }
}
