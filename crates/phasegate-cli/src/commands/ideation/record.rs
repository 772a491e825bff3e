//! `workflow-state ideation artifact|decision|risk|confidence`.

use clap::Args;
use phasegate_core::coordination::ArtifactType;
use phasegate_ops::ideation::{self, Signal};

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Record an artifact the conversation established.
///
/// Record an artifact the conversation established: target-user, problem,
/// solution-concept, mvp-features, differentiator or brief.
#[derive(Debug, Args)]
pub struct ArtifactArgs {
    #[arg(value_name = "TYPE")]
    kind: ArtifactType,
    /// What was established, in a sentence or two.
    summary: String,
    /// How sure, from 0 to 1 (0.7 for 70%).
    #[arg(long)]
    confidence: f64,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Record a decision the user made.
///
/// Record a decision the user made; `--type validation` for an assumption
/// checked with evidence (VALIDATING needs three).
#[derive(Debug, Args)]
pub struct DecisionArgs {
    summary: String,
    #[arg(long = "type", value_name = "TYPE", default_value = "decision")]
    kind: String,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Record a risk: what could make the idea fail.
#[derive(Debug, Args)]
pub struct RiskArgs {
    summary: String,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

/// Set the overall confidence in the idea, from 0 to 1.
#[derive(Debug, Args)]
pub struct ConfidenceArgs {
    confidence: f64,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

fn done(shown: ideation::Shown, json: bool, ctx: &mut Ctx<'_>) -> CmdResult {
    if json {
        ctx.out.json(&shown)?;
        return Ok(ExitStatus::Success);
    }
    super::print(&shown, ctx)
}

pub fn cmd_artifact(a: ArtifactArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let signal = Signal::Artifact { kind: a.kind, summary: &a.summary, confidence: a.confidence };
    done(ideation::record(&ctx.env, a.feature.get(), signal)?, a.json, ctx)
}

pub fn cmd_decision(a: DecisionArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let signal = Signal::Decision { kind: &a.kind, summary: &a.summary };
    done(ideation::record(&ctx.env, a.feature.get(), signal)?, a.json, ctx)
}

pub fn cmd_risk(a: RiskArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    done(ideation::record(&ctx.env, a.feature.get(), Signal::Risk { summary: &a.summary })?, a.json, ctx)
}

pub fn cmd_confidence(a: ConfidenceArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    done(ideation::record(&ctx.env, a.feature.get(), Signal::Confidence(a.confidence))?, a.json, ctx)
}
