//! `workflow-state rounds …`: the implementer round loop of a phase (seed
//! 000 Part 1): the orchestrator's brief, each call's prompt with the prior
//! Q&A, the STATUS reply, answers, and the cap's `Open Questions`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use phasegate_core::Phase;
use phasegate_core::question::Request;
use phasegate_ops::OpError;
use phasegate_ops::questions::Session;
use phasegate_ops::rounds;

use crate::commands::FeatureArg;
use crate::commands::input;
use crate::{CmdResult, Ctx, ExitStatus};

#[derive(Debug, Subcommand)]
pub enum RoundsCommand {
    Start(StartArgs),
    Prompt(PhaseArgs),
    Record(RecordArgs),
    Answer(AnswerArgs),
    Ask(AskArgs),
    Check(PhaseArgs),
}

/// Start the phase's round loop with the orchestrator's brief (an open loop
/// is kept unless --fresh). Prints the loop's state as JSON.
#[derive(Debug, Args)]
pub struct StartArgs {
    phase: Phase,
    /// The brief for the implementer (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    brief_file: PathBuf,
    /// Discard an open loop and start again.
    #[arg(long)]
    fresh: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Print the next implementer call as JSON: agent, model, the file to save
/// its reply in, and the prompt (brief, protocol, `## Prior … Q&A`). An
/// answer that arrived for the open question is taken in first. Exit 1 while
/// the question waits for a person.
#[derive(Debug, Args)]
pub struct PhaseArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Record the implementer's reply and print the decision: `complete` (the
/// document is written to the phase's artifact), `answer` (a question to
/// answer) or `cap-reached`. A reply that breaks the STATUS protocol exits 2
/// with the format, and nothing is recorded.
#[derive(Debug, Args)]
pub struct RecordArgs {
    phase: Phase,
    /// The implementer's reply, unchanged (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    reply_file: PathBuf,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Answer the open question as the orchestrator.
#[derive(Debug, Args)]
pub struct AnswerArgs {
    phase: Phase,
    #[arg(long, value_name = "TEXT")]
    text: String,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Hand the open question to a person (see `question ask` for the routes).
/// Without --file it is asked as a blocking question with the implementer's
/// words.
#[derive(Debug, Args)]
pub struct AskArgs {
    phase: Phase,
    /// A question in seed 004 §11.9's JSON (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    #[command(flatten)]
    session: crate::commands::question::SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(cmd: RoundsCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        RoundsCommand::Start(a) => {
            let brief = input::read(&a.brief_file, "brief", &ctx.env.cwd)?;
            let v = rounds::start(&ctx.env, a.feature.get(), a.phase, &brief.text, a.fresh)?;
            ctx.out.json(&v)?;
        }
        RoundsCommand::Prompt(a) => {
            let p = rounds::prompt(&ctx.env, a.feature.get(), a.phase)?;
            ctx.out.json(&p)?;
        }
        RoundsCommand::Record(a) => {
            let reply = input::read(&a.reply_file, "implementer's reply", &ctx.env.cwd)?;
            let r = rounds::record(&ctx.env, a.feature.get(), a.phase, &reply.text, &reply.source)?;
            ctx.out.json(&r)?;
        }
        RoundsCommand::Answer(a) => {
            let v = rounds::answer(&ctx.env, a.feature.get(), a.phase, &a.text)?;
            ctx.out.json(&v)?;
        }
        RoundsCommand::Ask(a) => {
            let request = match &a.file {
                None => None,
                Some(f) => {
                    let t = input::read(f, "question", &ctx.env.cwd)?;
                    Some(Request::parse(&t.text).map_err(|e| OpError::Invalid(format!("{}: {e}", t.source)))?)
                }
            };
            let session: Session = a.session.get();
            let asked = rounds::ask(&ctx.env, a.feature.get(), a.phase, request, session)?;
            ctx.out.json(&crate::commands::slack::delivered(ctx, &asked)?)?;
        }
        RoundsCommand::Check(a) => {
            let open = rounds::check(&ctx.env, a.feature.get(), a.phase)?;
            ctx.out.json(&serde_json::json!({ "ok": true, "openQuestions": open }))?;
        }
    }
    Ok(ExitStatus::Success)
}
