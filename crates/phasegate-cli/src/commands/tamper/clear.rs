//! `workflow-state tamper clear`.

use clap::Args;
use phasegate_ops::proof::tamper::{self, ClearState};

use crate::commands::FeatureArg;
use crate::commands::question::SessionArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Clear the feature's marks of tampering, with a person's yes.
///
/// Clear the feature's marks of tampering, with a person's yes: the first
/// run asks a blocking question only a person can answer (in the question
/// dialog, in Slack, by typing `/phasegate:answer <id> yes`, or in a
/// terminal outside Claude Code), listing the changes; once they said yes,
/// the next run clears the marks (kept as cleared, with who, for the pull
/// request) and the state files as they are then count as phasegate's.
/// Exit codes: 0 nothing to clear, asked, cleared or declined (the message
/// says which), 1 the question waits for its answer, 2 a feature it cannot
/// read.
#[derive(Debug, Args)]
pub struct ClearArgs {
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_clear(a: ClearArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let c = tamper::clear(&ctx.env, a.feature.get(), a.session.get())?;
    if a.json {
        ctx.out.json(&c)?;
    } else {
        ctx.out.line(c.message.to_string())?;
        if let (ClearState::Asked, Some(input)) = (c.state, c.asked.as_ref().and_then(|x| x.ask_user_question.as_ref()))
        {
            ctx.out.line(serde_json::to_string(input).expect("JSON serialises"))?;
        }
    }
    Ok(ExitStatus::Success)
}
