//! `workflow-state verify waive`.

use clap::Args;
use phasegate_ops::proof::{self, WaiverState};

use crate::commands::FeatureArg;
use crate::commands::question::SessionArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Ask a person whether a requirement may be done without proof.
///
/// A person may waive a requirement, never the model: the first run asks a
/// blocking question only a person can answer (in Slack, in the question
/// dialog, by typing `/phasegate:answer <id> <answer>`, or in a terminal
/// outside Claude Code), with the reason; once they said yes, the next run (or
/// the next `verify run`) records the waiver in the ledger with the reason and
/// when. Exit codes: 0 asked, waived or declined (the message says which), 1
/// the requirement is proven already or the question waits for its answer, 2 a
/// requirement the spec lacks, no reason on the first run, or a spec it cannot
/// read.
#[derive(Debug, Args)]
pub struct WaiveArgs {
    /// The requirement (`R3`; a pipeline's acceptance criterion `AC2`).
    requirement: String,
    /// Why it may be done without proof (asked the first time).
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_waive(a: WaiveArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let w = proof::waive(&ctx.env, a.feature.get(), &a.requirement, a.reason.as_deref(), a.session.get())?;
    if a.json {
        ctx.out.json(&w)?;
    } else {
        ctx.out.line(w.message.to_string())?;
        if let (WaiverState::Asked, Some(input)) =
            (w.state, w.asked.as_ref().and_then(|x| x.ask_user_question.as_ref()))
        {
            ctx.out.line(serde_json::to_string(input).expect("JSON serialises"))?;
        }
    }
    Ok(ExitStatus::Success)
}
