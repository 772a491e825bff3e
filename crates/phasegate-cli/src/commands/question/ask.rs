//! `workflow-state question ask`.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::questions::{ItemType, Request};
use phasegate_ops::error::InvalidInput;
use phasegate_ops::questions::ask::{self as questions, AskInput};

use super::SessionArg;
use crate::commands::{FeatureArg, input, slack};
use crate::{CmdResult, Ctx, ExitStatus};

/// Ask a question (seed 004 §11.9's JSON).
///
/// Prints where it went: `ask-user` (with the AskUserQuestion input), `suspend`
/// (blocking, headless: the feature waits in .claude/suspended/<feature>.json),
/// `queue` (non-blocking: go on with the default), `answered` (a stored
/// preference or an earlier answer), or `already-asked`. Exit 1 when the
/// feature already waits on another question.
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

pub fn cmd_ask(a: AskArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let t = input::read(&a.file, "question", &ctx.env.cwd)?;
    let request = Request::parse(&t.text).invalid(t.source)?;
    let asked = questions::ask(
        &ctx.env,
        a.feature.get(),
        AskInput { request, task: a.task, item_type: a.item_type, session: a.session.get(), round: None },
    )?;
    ctx.out.json(&slack::delivered(ctx, &asked)?)?;
    Ok(ExitStatus::Success)
}
