//! `workflow-state pipeline status`.

use clap::Args;
use phasegate_core::pipeline::GateKind;

use super::{PipelineArg, action_json, load_loop, load_run, resolve, session_id};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Show the pipeline's state in detail: owner, pause or failure, both review
/// gates with their loop counts and limits, the loop, and the next action.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    feature: PipelineArg,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: StatusArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let run = load_run(&feature)?;
    let looping = load_loop(&feature)?;
    let config = project.pipeline_config()?;
    let me = session_id(None);
    let owned_here = me.as_deref().is_some_and(|s| run.owned_by(s));
    let gate = |kind: GateKind, limit: u32| {
        let g = run.gate(kind);
        serde_json::json!({"round": g.round, "loops": g.loops, "limit": limit, "passed": g.passed,
            "next": g.expected().map(|s| s.name()), "results": g.results})
    };
    let value = serde_json::json!({
        "feature": feature.name(),
        "state": run.state,
        "request": run.request,
        "owner": run.owner.as_ref().map(|o| &o.session_id),
        "ownedByThisSession": owned_here,
        "paused": run.paused,
        "failed": run.failed,
        "planReview": gate(GateKind::Plan, config.autonomy.plan_review_loop_limit),
        "codeReview": gate(GateKind::Code, config.autonomy.code_review_loop_limit),
        "loop": looping,
        "next": action_json(&run, &feature),
    });
    if args.json {
        ctx.json_pretty(&value)?;
        return Ok(ExitStatus::Success);
    }
    ctx.line(format!("[INFO] Current state: {} (feature {})", run.state, feature.name()))?;
    ctx.line(format!("Request: {}", run.request))?;
    ctx.line(format!(
        "Owner: {}",
        match (&run.owner, owned_here) {
            (Some(_), true) => "this session".to_owned(),
            (Some(o), false) => format!("session {}", o.session_id),
            (None, _) => "none (run `workflow-state pipeline claim` inside a Claude Code session)".to_owned(),
        }
    ))?;
    if let Some(p) = &run.paused {
        ctx.line(format!("Paused in {} ({}): {}", p.from, p.reason.name(), p.message))?;
    }
    if let Some(f) = &run.failed {
        ctx.line(format!("Failed in {}: {}", f.from, f.message))?;
    }
    for (name, kind, limit) in [
        ("Plan review", GateKind::Plan, config.autonomy.plan_review_loop_limit),
        ("Code review", GateKind::Code, config.autonomy.code_review_loop_limit),
    ] {
        let g = run.gate(kind);
        if g.round == 0 {
            continue;
        }
        let results: Vec<String> =
            g.results.iter().map(|r| format!("{} {}", r.stage.name(), r.status.name())).collect();
        ctx.line(format!(
            "{name}: round {}, {} of {limit} loops used, {}{}",
            g.round,
            g.loops,
            if g.passed { "passed".to_owned() } else { format!("next: {}", g.expected().map_or("-", |s| s.name())) },
            if results.is_empty() { String::new() } else { format!(" ({})", results.join(", ")) }
        ))?;
    }
    if let Some(l) = &looping {
        ctx.line(format!(
            "Loop: {}, iteration {} of {}{}",
            if l.active { "active" } else { "inactive" },
            l.iteration,
            l.max_iterations,
            l.ended_reason.as_deref().map(|r| format!(", ended: {r}")).unwrap_or_default()
        ))?;
    }
    let next = phasegate_core::pipeline::next::next(&run, feature.name());
    ctx.line(format!("ACTION: {}", next.action))?;
    for t in next.then {
        ctx.line(format!("THEN: {t}"))?;
    }
    Ok(ExitStatus::Success)
}
