//! `workflow-state review …`: the reviewer loop's bookkeeping.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod brief;
mod record;

#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    Record(record::RecordArgs),
    Brief(brief::BriefArgs),
}

pub fn run(cmd: ReviewCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        ReviewCommand::Record(args) => record::cmd_record(args, ctx),
        ReviewCommand::Brief(args) => brief::cmd_brief(args, ctx),
    }
}
