//! `workflow-state pipeline status`.

use clap::Args;
use phasegate_core::pipeline::GateKind;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Show the pipeline's state in detail.
///
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

pub fn cmd_status(args: StatusArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let s = pipeline::status(&ctx.env, args.feature.get())?;
    if args.json {
        ctx.out.json_pretty(&s)?;
        return Ok(ExitStatus::Success);
    }
    ctx.out.line(format!("[INFO] Current state: {} (feature {})", s.state, s.feature))?;
    ctx.out.line(format!("Request: {}", s.request))?;
    let owner = match (&s.owner, s.owned_by_this_session) {
        (Some(_), true) => "this session".to_owned(),
        (Some(o), false) => format!("session {o}"),
        (None, _) => "none (run `workflow-state pipeline claim` inside a Claude Code session)".to_owned(),
    };
    ctx.out.line(format!("Owner: {owner}"))?;
    if let Some(p) = &s.paused {
        ctx.out.line(format!("Paused in {} ({}): {}", p.from, p.reason, p.message))?;
    }
    if let Some(f) = &s.failed {
        ctx.out.line(format!("Failed in {}: {}", f.from, f.message))?;
    }
    for (name, kind, limit) in
        [("Plan review", GateKind::Plan, s.limits[0]), ("Code review", GateKind::Code, s.limits[1])]
    {
        let g = s.run.gate(kind);
        if g.round == 0 {
            continue;
        }
        let results: Vec<String> = g.results.iter().map(|r| format!("{} {}", r.stage, r.status)).collect();
        let state = match (&g.fixing, g.passed) {
            (Some(f), _) => format!("the {} is fixing round {}", kind.worker(), f.round),
            (None, true) => "passed".to_owned(),
            (None, false) => format!("next: {}", g.expected().map_or("-", |s| s.name())),
        };
        ctx.out.line(format!(
            "{name}: round {}, {} of {limit} loops used, {state}{}",
            g.round,
            g.loops,
            if results.is_empty() { String::new() } else { format!(" ({})", results.join(", ")) }
        ))?;
    }
    if let Some(l) = &s.loop_state {
        ctx.out.line(format!(
            "Loop: {}, iteration {} of {}{}",
            if l.active { "active" } else { "inactive" },
            l.iteration,
            l.max_iterations,
            l.ended_reason.as_deref().map(|r| format!(", ended: {r}")).unwrap_or_default()
        ))?;
    }
    ctx.out.line(format!("ACTION: {}", s.next.action))?;
    for t in &s.next.then {
        ctx.out.line(format!("THEN: {t}"))?;
    }
    Ok(ExitStatus::Success)
}
