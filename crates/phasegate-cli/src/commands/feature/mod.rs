//! `workflow-state feature …`: create, show and abandon features.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod abandon;
mod new;
mod show;

#[derive(Debug, Subcommand)]
pub enum FeatureCommand {
    New(new::NewArgs),
    Show(show::ShowArgs),
    Abandon(abandon::AbandonArgs),
}

pub fn run(cmd: FeatureCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        FeatureCommand::New(args) => new::cmd_new(args, ctx),
        FeatureCommand::Show(args) => show::cmd_show(args, ctx),
        FeatureCommand::Abandon(args) => abandon::cmd_abandon(args, ctx),
    }
}
