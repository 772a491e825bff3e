//! `workflow-state question show`.

use clap::Args;
use phasegate_ops::questions::ask as questions;

use crate::{CmdResult, Ctx, ExitStatus};

/// Show one question's stored file, or its dialog's input.
///
/// Show one question's stored file; with `--dialog`, the input to ask it
/// with the AskUserQuestion tool (a question only a person may answer is
/// recorded from the person's choice in that dialog). Exit codes: 0 shown,
/// 2 no such question.
#[derive(Debug, Args)]
pub struct ShowArgs {
    id: String,
    /// Print AskUserQuestion's input for it instead.
    #[arg(long)]
    dialog: bool,
}

pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let project = phasegate_ops::session::project(&ctx.env)?;
    let found = questions::find(&project, &a.id)?;
    match a.dialog {
        true => ctx.out.json(&found.question.ask_user_question())?,
        false => ctx.out.json_pretty(&found.question)?,
    }
    Ok(ExitStatus::Success)
}
