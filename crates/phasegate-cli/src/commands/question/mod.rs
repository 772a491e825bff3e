//! `workflow-state question …`: questions to a person (seed 004 §11) and the
//! suspensions they cause (seed 000 Part 2).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use phasegate_core::question::{ItemType, Request, Source};
use phasegate_ops::OpError;
use phasegate_ops::questions::{self, AskInput, Session};

use crate::commands::FeatureArg;
use crate::commands::{input, slack};
use crate::{CmdResult, Ctx, ExitStatus};

#[derive(Debug, Subcommand)]
pub enum QuestionCommand {
    Ask(AskArgs),
    Answer(AnswerArgs),
    List(ListArgs),
    Show(ShowArgs),
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
    pub fn get(&self) -> Session {
        if self.interactive {
            Session::Interactive
        } else if self.headless {
            Session::Headless
        } else {
            Session::from_entrypoint(std::env::var(phasegate_ops::env::ENTRYPOINT).ok().as_deref())
        }
    }
}

/// Ask a question (seed 004 §11.9's JSON). Prints where it went: `ask-user`
/// (with the AskUserQuestion input), `suspend` (blocking, headless: the
/// feature waits in .claude/suspended/<feature>.json), `queue` (non-blocking:
/// go on with the default), `answered` (a stored preference or an earlier
/// answer), or `already-asked`. Exit 1 when the feature already waits on
/// another question.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// The question (`-` for stdin); `workflow-state schema question` shows the stored form.
    #[arg(long, value_name = "FILE")]
    file: PathBuf,
    /// The phase or task asking.
    #[arg(long, value_name = "PHASE_OR_TASK")]
    task: Option<String>,
    /// The item type (the Slack channel it goes to).
    #[arg(long, value_name = "TYPE", default_value = "feature")]
    item_type: ItemType,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Answer a question by id (or by feature: its suspension). An option may be
/// picked by number or label. Exit 1 when it is already answered.
#[derive(Debug, Args)]
pub struct AnswerArgs {
    /// The question id (`001-auth.2`) or the feature of a suspension.
    id: String,
    /// The answer.
    text: String,
    /// Who answers (for the record).
    #[arg(long, value_name = "NAME")]
    by: Option<String>,
}

/// List questions: open ones (and suspensions) by default.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
    /// Include answered questions that were taken back into their work.
    #[arg(long)]
    all: bool,
}

/// Show one question's stored file.
#[derive(Debug, Args)]
pub struct ShowArgs {
    id: String,
}

pub fn run(cmd: QuestionCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        QuestionCommand::Ask(a) => {
            let t = input::read(&a.file, "question", &ctx.env.cwd)?;
            let request = Request::parse(&t.text).map_err(|e| OpError::Invalid(format!("{}: {e}", t.source)))?;
            let asked = questions::ask(
                &ctx.env,
                a.feature.get(),
                AskInput { request, task: a.task, item_type: a.item_type, session: a.session.get(), round: None },
            )?;
            ctx.out.json(&slack::delivered(ctx, &asked)?)?;
        }
        QuestionCommand::Answer(a) => {
            let done = questions::answer(&ctx.env, &a.id, &a.text, a.by.as_deref(), Source::Cli)?;
            ctx.out.json(&done)?;
        }
        QuestionCommand::List(a) => {
            let (views, bad) = questions::list(&ctx.env, !a.all)?;
            if a.json {
                ctx.out.json(&serde_json::json!({ "questions": views, "unreadable": bad }))?;
            } else {
                if views.is_empty() {
                    ctx.out.line("No open questions.")?;
                }
                for v in &views {
                    let mark = if v.suspends { " (suspends the feature)" } else { "" };
                    ctx.out.line(format!("{} [{}, {}]{mark}: {}", v.id, v.kind, v.state, v.question))?;
                    if let Some(a) = &v.answer {
                        ctx.out.line(format!("  answer: {a}"))?;
                    }
                }
                for b in &bad {
                    ctx.out.line(format!("unreadable: {b}"))?;
                }
            }
            if !bad.is_empty() {
                return Ok(ExitStatus::Error);
            }
        }
        QuestionCommand::Show(a) => {
            let project = phasegate_ops::feature::project(&ctx.env)?;
            let found = questions::find(&project, &a.id)?;
            ctx.out.json_pretty(&found.question)?;
        }
    }
    Ok(ExitStatus::Success)
}
