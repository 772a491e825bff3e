//! `workflow-state phase brief`: everything a phase command needs to know
//! before it starts, in a few lines. Always exits 0, so it can run as a
//! `!` injection in a command file (a failing injection aborts the command).

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::meta::PhaseState;
use phasegate_core::transition::Verdict;
use phasegate_store::WorktreeStatus;

use crate::commands::FeatureArg;
use crate::commands::validate::validate_feature;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Summarise the feature before running a phase: the transition check, the
/// phase's state (partial?), the worktree check. Always exits 0.
#[derive(Debug, Args)]
pub struct BriefArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: BriefArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let lines = match brief(&args, ctx) {
        Ok(lines) => lines,
        Err(e) => vec![format!("phasegate: {}", e.message)],
    };
    for l in lines {
        ctx.line(l)?;
    }
    Ok(ExitStatus::Success)
}

fn brief(args: &BriefArgs, ctx: &Ctx<'_>) -> CliResult<Vec<String>> {
    let (project, feature) = ctx.feature(args.feature.get())?;
    let meta = feature.load()?;
    let phase = args.phase;
    let max = meta.mode.max_iterations();
    let mut out = vec![format!(
        "phasegate: feature {} (mode {}, at most {max} reviewer iteration{} per phase), folder {}",
        feature.name(),
        meta.mode,
        if max == 1 { "" } else { "s" },
        feature.dir().display()
    )];
    let v = validate_feature(&feature, phase)?;
    out.push(match v.kind {
        Verdict::Proceed => match v.message {
            Some(m) => format!("transition to {phase}: proceed ({m})"),
            None => format!("transition to {phase}: proceed"),
        },
        Verdict::Warning => format!("transition to {phase}: WARNING: {}", v.message.unwrap_or_default()),
        Verdict::Blocked => format!("transition to {phase}: BLOCKED: {}", v.message.unwrap_or_default()),
    });
    let record = meta.record(phase);
    out.push(match meta.phase_state(phase) {
        PhaseState::NotStarted => format!("{phase}: not started"),
        PhaseState::Partial => format!(
            "{phase}: PARTIAL: started {} and not completed, {} of {max} iterations recorded",
            record.and_then(|r| r.started).map(|t| t.to_rfc3339()).unwrap_or_default(),
            record.map_or(0, |r| r.iterations)
        ),
        PhaseState::Completed => format!(
            "{phase}: completed {} after {} iteration(s)",
            record.and_then(|r| r.completed).map(|t| t.to_rfc3339()).unwrap_or_default(),
            record.map_or(0, |r| r.iterations)
        ),
    });
    out.push(match project.worktree_status(&meta, &ctx.cwd) {
        WorktreeStatus::NoWorktree => "worktree: none (the feature works in the main checkout)".to_owned(),
        WorktreeStatus::Inside { worktree } => format!("worktree: ok, working in {}", worktree.display()),
        WorktreeStatus::Outside { worktree } => format!(
            "worktree: WARNING: working in {} but the feature's worktree is {}; cd there before changing code",
            ctx.cwd.display(),
            worktree.display()
        ),
        WorktreeStatus::Missing { worktree } => {
            format!("worktree: WARNING: {} is recorded but does not exist", worktree.display())
        }
    });
    Ok(out)
}
