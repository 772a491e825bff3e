//! `workflow-state` subcommands: the clap tree and the dispatch. Each
//! subcommand lives in its own file with its arguments and its function.

use clap::{Args, Parser, Subcommand};

use crate::{CmdResult, Ctx};

mod backlog;
mod feature;
mod finish;
mod input;
mod next;
mod phase;
mod pipeline;
mod question;
mod review;
mod rounds;
mod schema;
mod slack;
mod status;
mod tasks;
mod validate;
mod worktree;

/// Exact workflow state for phasegate: phase transitions, `.meta.json`,
/// review loops and worktrees. Exit codes: 0 success/allowed, 1 refused by a
/// workflow rule, 2 usage error or unreadable/invalid state, 3 Slack refused
/// or could not be reached (nothing lost; the next poll retries).
#[derive(Debug, Parser)]
#[command(name = "workflow-state", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Validate(validate::ValidateArgs),
    /// Start, complete and inspect phases (the seed's updatePhaseState, partial-phase detection).
    #[command(subcommand)]
    Phase(phase::PhaseCommand),
    /// The reviewer loop: the reviewer's brief, and recording its verdict.
    #[command(subcommand)]
    Review(review::ReviewCommand),
    /// Create, show and abandon features.
    #[command(subcommand)]
    Feature(feature::FeatureCommand),
    Status(status::StatusArgs),
    Next(next::NextArgs),
    /// Check the current directory against the feature's worktree.
    #[command(subcommand)]
    Worktree(worktree::WorktreeCommand),
    Finish(finish::FinishArgs),
    /// Pipeline mode: the autonomous requirements → plan → review → implementation loop.
    #[command(subcommand)]
    Pipeline(pipeline::PipelineCommand),
    Schema(schema::SchemaArgs),
    /// The implementer round loop of a phase: brief, prompts with the prior Q&A, STATUS replies, answers.
    #[command(subcommand)]
    Rounds(rounds::RoundsCommand),
    Backlog(backlog::BacklogArgs),
    /// Questions to a person: ask (AskUserQuestion, suspension or queue), answer, list.
    #[command(subcommand)]
    Question(question::QuestionCommand),
    /// Questions in Slack: check the setup, poll the threads for answers.
    #[command(subcommand)]
    Slack(slack::SlackCommand),
    /// The feature's task list as data: list, the next ready task(s), and its checkboxes.
    #[command(subcommand)]
    Tasks(tasks::TasksCommand),
}

/// `--feature`, shared by every subcommand that acts on one feature.
#[derive(Debug, Clone, Args)]
pub struct FeatureArg {
    /// The feature: its folder, folder name (001-auth), id (1) or slug (auth).
    /// Default: the feature folder or worktree you are in, else the only active feature.
    #[arg(long, value_name = "FEATURE")]
    pub feature: Option<String>,
}

impl FeatureArg {
    pub fn get(&self) -> Option<&str> {
        self.feature.as_deref()
    }
}

pub fn run(cli: Cli, ctx: &mut Ctx<'_>) -> CmdResult {
    match cli.command {
        Command::Validate(args) => validate::cmd_validate(args, ctx),
        Command::Phase(cmd) => phase::run(cmd, ctx),
        Command::Review(cmd) => review::run(cmd, ctx),
        Command::Feature(cmd) => feature::run(cmd, ctx),
        Command::Status(args) => status::cmd_status(args, ctx),
        Command::Next(args) => next::cmd_next(args, ctx),
        Command::Worktree(cmd) => worktree::run(cmd, ctx),
        Command::Finish(args) => finish::cmd_finish(args, ctx),
        Command::Pipeline(cmd) => pipeline::run(cmd, ctx),
        Command::Schema(args) => schema::cmd_schema(args, ctx),
        Command::Rounds(cmd) => rounds::run(cmd, ctx),
        Command::Backlog(args) => backlog::cmd_backlog(args, ctx),
        Command::Question(cmd) => question::run(cmd, ctx),
        Command::Slack(cmd) => slack::run(cmd, ctx),
        Command::Tasks(cmd) => tasks::run(cmd, ctx),
    }
}
