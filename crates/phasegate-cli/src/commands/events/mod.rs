//! `workflow-state events …`: the repository's event log (seed 004 §2):
//! what is pending with the suggested next step, acknowledging, and an
//! event by hand.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod ack;
mod emit;
mod pending;

#[derive(Debug, Subcommand)]
pub enum EventsCommand {
    Pending(pending::PendingArgs),
    Ack(ack::AckArgs),
    Emit(emit::EmitArgs),
}

pub fn run(cmd: EventsCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        EventsCommand::Pending(a) => pending::cmd_pending(a, ctx),
        EventsCommand::Ack(a) => ack::cmd_ack(a, ctx),
        EventsCommand::Emit(a) => emit::cmd_emit(a, ctx),
    }
}
