//! `workflow-state monitor …`: the monitor's check (seed 004 §7) and its
//! watcher, which runs it every 2 minutes while a session is open.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod check;
mod watch;

#[derive(Debug, Subcommand)]
pub enum MonitorCommand {
    Check(check::CheckArgs),
    Watch(watch::WatchArgs),
}

pub fn run(cmd: MonitorCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        MonitorCommand::Check(a) => check::cmd_check(a, ctx),
        MonitorCommand::Watch(a) => watch::cmd_watch(a, ctx),
    }
}
