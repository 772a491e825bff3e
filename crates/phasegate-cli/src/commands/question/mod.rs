//! `workflow-state question …`: questions to a person (seed 004 §11) and the
//! suspensions they cause (seed 000 Part 2).

use clap::{Args, Subcommand};
use phasegate_ops::questions::ask::Interaction;

use crate::{CmdResult, Ctx};

mod answer;
mod ask;
mod list;
mod show;

#[derive(Debug, Subcommand)]
pub enum QuestionCommand {
    Ask(ask::AskArgs),
    Answer(answer::AnswerArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
}

/// Where the asking session is: by default Claude Code's
/// CLAUDE_CODE_ENTRYPOINT says (`cli` is interactive; `claude -p`, a shell
/// and pipelines are headless).
#[derive(Debug, Clone, Args)]
pub struct SessionArg {
    /// A person is at this session: ask with AskUserQuestion.
    #[arg(long, conflicts_with = "headless")]
    interactive: bool,
    /// Nobody is: suspend (blocking) or queue (non-blocking).
    #[arg(long)]
    headless: bool,
}

impl SessionArg {
    pub fn get(&self) -> Interaction {
        if self.interactive {
            Interaction::Interactive
        } else if self.headless {
            Interaction::Headless
        } else {
            Interaction::of_this_process()
        }
    }
}

pub fn run(cmd: QuestionCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        QuestionCommand::Ask(a) => ask::cmd_ask(a, ctx),
        QuestionCommand::Answer(a) => answer::cmd_answer(a, ctx),
        QuestionCommand::List(a) => list::cmd_list(a, ctx),
        QuestionCommand::Show(a) => show::cmd_show(a, ctx),
    }
}
