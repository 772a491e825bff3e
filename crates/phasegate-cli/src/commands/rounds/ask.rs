//! `workflow-state rounds ask`.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::questions::Request;
use phasegate_ops::error::InvalidInput;
use phasegate_ops::questions::rounds;

use crate::commands::question::SessionArg;
use crate::commands::{FeatureArg, input, slack};
use crate::{CmdResult, Ctx, ExitStatus};

/// Hand the open question to a person (see `question ask` for the routes).
///
/// Without --file it is asked as a blocking question with the implementer's
/// words.
#[derive(Debug, Args)]
pub struct AskArgs {
    phase: Phase,
    /// A question in seed 004 §11.9's JSON (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_ask(a: AskArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let request = match &a.file {
        None => None,
        Some(f) => {
            let t = input::read(f, "question", &ctx.env.cwd)?;
            Some(Request::parse(&t.text).invalid(t.source)?)
        }
    };
    let asked = rounds::ask(&ctx.env, a.feature.get(), a.phase, request, a.session.get())?;
    ctx.out.json(&slack::delivered(ctx, &asked)?)?;
    Ok(ExitStatus::Success)
}
