//! `workflow-state slack …`: questions in Slack (seed 000 §5). The token
//! comes from the environment only, and is never written or printed.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod deliver;
mod doctor;
mod poll;
mod transport;

pub use deliver::{delivered, told};

#[derive(Debug, Subcommand)]
pub enum SlackCommand {
    Doctor(doctor::DoctorArgs),
    Poll(poll::PollArgs),
}

pub fn run(cmd: SlackCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        SlackCommand::Doctor(a) => doctor::cmd_doctor(a, ctx),
        SlackCommand::Poll(a) => poll::cmd_poll(a, ctx),
    }
}
