//! `workflow-state question answer`.

use clap::Args;
use phasegate_core::questions::Source;
use phasegate_ops::questions::team;

use crate::{CmdResult, Ctx, ExitStatus};

/// Answer a question by id (or by feature: its suspension).
///
/// An option may be picked by number or label. A question posted in Slack is
/// told the answer in its thread (`slack`: told at once, or by the background
/// poller). A teammate's question (`question list` shows them) is answered
/// on the team's remote. Exit 1 when it is already answered.
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

pub fn cmd_answer(a: AnswerArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let done = team::answer(&ctx.env, &a.id, &a.text, a.by.as_deref(), Source::Cli)?;
    ctx.out.json(&crate::commands::slack::told(ctx, &done)?)?;
    Ok(ExitStatus::Success)
}
