//! `workflow-state pipeline …`: pipeline mode (seed 001). The binary owns the
//! state machine, the review gates' order, counts and approved versions, the
//! loop limits and the files' schemas; the /phasegate:pipeline command
//! follows what it prints.

use clap::{Args, Subcommand};

use crate::{CmdResult, Ctx};

mod ask;
mod brief;
mod cancel;
mod check;
mod claim;
mod commit;
mod dry_run;
mod fail;
mod final_gate;
mod fixed;
mod next;
mod pause;
mod recover;
mod reset;
mod resume;
mod review;
mod review_brief;
mod signal;
mod start;
mod status;
mod test;
mod transition;

#[derive(Debug, Subcommand)]
pub enum PipelineCommand {
    Start(start::StartArgs),
    Brief(brief::BriefArgs),
    Status(status::StatusArgs),
    Next(next::NextArgs),
    Transition(transition::TransitionArgs),
    Check(check::CheckArgs),
    Signal(signal::SignalArgs),
    ReviewBrief(review_brief::ReviewBriefArgs),
    Review(review::ReviewArgs),
    FinalGate(final_gate::FinalGateArgs),
    Fixed(fixed::FixedArgs),
    Test(test::TestArgs),
    Pause(pause::PauseArgs),
    Resume(resume::ResumeArgs),
    Ask(ask::AskArgs),
    Fail(fail::FailArgs),
    Recover(recover::RecoverArgs),
    Reset(reset::ResetArgs),
    Cancel(cancel::CancelArgs),
    Claim(claim::ClaimArgs),
    Commit(commit::CommitArgs),
    DryRun(dry_run::DryRunArgs),
}

pub fn run(cmd: PipelineCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        PipelineCommand::Start(a) => start::cmd_start(a, ctx),
        PipelineCommand::Brief(a) => brief::cmd_brief(a, ctx),
        PipelineCommand::Status(a) => status::cmd_status(a, ctx),
        PipelineCommand::Next(a) => next::cmd_next(a, ctx),
        PipelineCommand::Transition(a) => transition::cmd_transition(a, ctx),
        PipelineCommand::Check(a) => check::cmd_check(a, ctx),
        PipelineCommand::Signal(a) => signal::cmd_signal(a, ctx),
        PipelineCommand::ReviewBrief(a) => review_brief::cmd_review_brief(a, ctx),
        PipelineCommand::Review(a) => review::cmd_review(a, ctx),
        PipelineCommand::FinalGate(a) => final_gate::cmd_final_gate(a, ctx),
        PipelineCommand::Fixed(a) => fixed::cmd_fixed(a, ctx),
        PipelineCommand::Test(a) => test::cmd_test(a, ctx),
        PipelineCommand::Pause(a) => pause::cmd_pause(a, ctx),
        PipelineCommand::Resume(a) => resume::cmd_resume(a, ctx),
        PipelineCommand::Ask(a) => ask::cmd_ask(a, ctx),
        PipelineCommand::Fail(a) => fail::cmd_fail(a, ctx),
        PipelineCommand::Recover(a) => recover::cmd_recover(a, ctx),
        PipelineCommand::Reset(a) => reset::cmd_reset(a, ctx),
        PipelineCommand::Cancel(a) => cancel::cmd_cancel(a, ctx),
        PipelineCommand::Claim(a) => claim::cmd_claim(a, ctx),
        PipelineCommand::Commit(a) => commit::cmd_commit(a, ctx),
        PipelineCommand::DryRun(a) => dry_run::cmd_dry_run(a, ctx),
    }
}

/// `--feature` for pipeline commands.
#[derive(Debug, Clone, Args)]
pub struct PipelineArg {
    /// The pipeline feature (folder, name, id or slug). Default: the pipeline
    /// this Claude Code session runs, else the only active pipeline.
    #[arg(long, value_name = "FEATURE")]
    pub feature: Option<String>,
}

impl PipelineArg {
    pub fn get(&self) -> Option<&str> {
        self.feature.as_deref()
    }
}
