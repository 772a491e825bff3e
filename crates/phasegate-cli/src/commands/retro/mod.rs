//! `workflow-state retro …`: the retrospective (seed 004 §6). Without a
//! subcommand: the facts of a feature's build and the brief for the
//! retrospective agent; `record`: apply its reply by §6.3's rules; `trend`:
//! the metrics across features.

use clap::{Args, Subcommand};

use crate::{CmdResult, Ctx};

mod facts;
mod record;
mod trend;

/// The retrospective of a feature's build: facts, brief, record, trend.
///
/// The retrospective of a feature's build (seed 004 §6): the facts (planned
/// against changed files, each task's attempts, failures, review cycles,
/// durations and given gotchas, the metrics and their trend) and the brief
/// for the phasegate:retrospective agent. Exit 0; 2 when the feature cannot
/// be read.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct RetroArgs {
    #[command(subcommand)]
    command: Option<RetroCommand>,
    #[command(flatten)]
    facts: facts::FactsArgs,
}

#[derive(Debug, Subcommand)]
pub enum RetroCommand {
    Record(record::RecordArgs),
    Trend(trend::TrendArgs),
}

pub fn run(a: RetroArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    match a.command {
        None => facts::cmd_facts(a.facts, ctx),
        Some(RetroCommand::Record(r)) => record::cmd_record(r, ctx),
        Some(RetroCommand::Trend(t)) => trend::cmd_trend(t, ctx),
    }
}
