//! `workflow-state ideation …`: the brainstorm phase's sub-phases (seed
//! 004 §3): EXPLORING → NARROWING → VALIDATING → REFINING → COMPLETE. The
//! model records what the conversation established; the binary decides
//! when the phase moves on, builds the phase prompt, and writes the
//! handoff brief at COMPLETE.

use clap::Subcommand;
use phasegate_ops::ideation::Shown;

use crate::{CmdResult, Ctx, ExitStatus};

mod advance;
mod prompt;
mod record;
mod show;
mod start;

#[derive(Debug, Subcommand)]
pub enum IdeationCommand {
    Start(start::StartArgs),
    Artifact(record::ArtifactArgs),
    Decision(record::DecisionArgs),
    Risk(record::RiskArgs),
    Confidence(record::ConfidenceArgs),
    Prompt(prompt::PromptArgs),
    Advance(advance::AdvanceArgs),
    Show(show::ShowArgs),
}

pub fn run(cmd: IdeationCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        IdeationCommand::Start(a) => start::cmd_start(a, ctx),
        IdeationCommand::Artifact(a) => record::cmd_artifact(a, ctx),
        IdeationCommand::Decision(a) => record::cmd_decision(a, ctx),
        IdeationCommand::Risk(a) => record::cmd_risk(a, ctx),
        IdeationCommand::Confidence(a) => record::cmd_confidence(a, ctx),
        IdeationCommand::Prompt(a) => prompt::cmd_prompt(a, ctx),
        IdeationCommand::Advance(a) => advance::cmd_advance(a, ctx),
        IdeationCommand::Show(a) => show::cmd_show(a, ctx),
    }
}

/// Where ideation stands, in a few lines.
fn print(shown: &Shown, ctx: &mut Ctx<'_>) -> CmdResult {
    ctx.out.line(shown.message.to_string())?;
    ctx.out.line(format!(
        "Phase {}; confidence {}%; {} artifact(s), {} validation(s), {} risk(s).",
        shown.phase,
        (shown.confidence * 100.0).round(),
        shown.artifacts,
        shown.validations,
        shown.risks
    ))?;
    if !shown.next.should_transition && shown.phase.next().is_some() {
        ctx.out.line(format!("To move on: {}.", shown.next.reasons.join("; ")))?;
    }
    Ok(ExitStatus::Success)
}
