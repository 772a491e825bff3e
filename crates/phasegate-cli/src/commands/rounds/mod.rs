//! `workflow-state rounds …`: the implementer round loop of a phase (seed
//! 000 Part 1): the orchestrator's brief, each call's prompt with the prior
//! Q&A, the STATUS reply, answers, and the cap's `Open Questions`.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod answer;
mod ask;
mod check;
mod prompt;
mod record;
mod start;

#[derive(Debug, Subcommand)]
pub enum RoundsCommand {
    Start(start::StartArgs),
    Prompt(prompt::PromptArgs),
    Record(record::RecordArgs),
    Answer(answer::AnswerArgs),
    Ask(ask::AskArgs),
    Check(check::CheckArgs),
}

pub fn run(cmd: RoundsCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        RoundsCommand::Start(a) => start::cmd_start(a, ctx),
        RoundsCommand::Prompt(a) => prompt::cmd_prompt(a, ctx),
        RoundsCommand::Record(a) => record::cmd_record(a, ctx),
        RoundsCommand::Answer(a) => answer::cmd_answer(a, ctx),
        RoundsCommand::Ask(a) => ask::cmd_ask(a, ctx),
        RoundsCommand::Check(a) => check::cmd_check(a, ctx),
    }
}
