//! `workflow-state feature …`: create, show and abandon features.

use clap::Subcommand;

use crate::context::Ctx;
use crate::error::CliResult;

mod abandon;
mod new;
mod show;

#[derive(Debug, Subcommand)]
pub enum FeatureCommand {
    New(new::NewArgs),
    Show(show::ShowArgs),
    Abandon(abandon::AbandonArgs),
}

pub fn run(cmd: FeatureCommand, ctx: &mut Ctx<'_>) -> CliResult {
    match cmd {
        FeatureCommand::New(args) => new::run(args, ctx),
        FeatureCommand::Show(args) => show::run(args, ctx),
        FeatureCommand::Abandon(args) => abandon::run(args, ctx),
    }
}
