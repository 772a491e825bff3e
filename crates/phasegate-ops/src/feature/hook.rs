//! SessionStart's contribution for features: tell the model which features are active, where each one
//! stands, the next command, concerns left open, and whether this session
//! runs outside the feature's worktree. Completed and abandoned features
//! stay silent; nothing to say means no output. The cost does not grow with
//! the number of finished features: the index of active features says which
//! to read.

use std::fmt::Write;
use std::path::Path;

use phasegate_core::feature::command::PromptWords;
use phasegate_core::feature::{Meta, PhaseState, Workflow};
use phasegate_core::feature::{ProofStanding, before_finish, next_step};
use phasegate_core::pipeline::PipelineRun;
use phasegate_core::words::Command;
use phasegate_core::{Phase, Status};
use phasegate_store::{Listed, Project, WorktreeStatus};

use crate::env::Env;
use crate::hook::{Contributor, HookCtx, MAX_LISTED, clip, one_line};
use crate::proof;

/// SessionStart's lines about the active features.
pub struct ActiveFeatures;

pub static ACTIVE_FEATURES: ActiveFeatures = ActiveFeatures;

impl Contributor for ActiveFeatures {
    /// The words typed with a phase command (`/phasegate:design add
    /// search`) or `/phasegate:answer`, kept for the command: the hook runs
    /// before Claude Code runs the command's `!` injection, so the brief
    /// reads them and they never pass through a shell line; `question
    /// answer` reads them to know a person typed the answer. Any other
    /// prompt costs a prefix check.
    fn user_prompt(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Some(words) = ctx.input.prompt.as_deref().and_then(|p| PromptWords::of_prompt(p, ctx.env.now)) else {
            return Vec::new();
        };
        let (Some(session), Ok(project)) = (ctx.session(), ctx.project()) else { return Vec::new() };
        match project.coordination().save_prompt_words(&session, &words) {
            Ok(()) => Vec::new(),
            Err(e) => vec![format!(
                "phasegate: the words typed with /phasegate:{} could not be kept ({}); pass them on yourself where they are needed",
                words.command,
                one_line(&e.to_string()),
            )],
        }
    }

    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.compacted() {
            return Vec::new();
        }
        let Ok(project) = ctx.project() else { return Vec::new() };
        let dir = ctx.dir();
        let mut lines = Vec::new();
        let listed = match project.list_active() {
            Ok(l) => l,
            Err(e) => return vec![format!("phasegate: {}", one_line(&e.to_string()))],
        };
        let mut active: Vec<(&Listed, &Meta)> = Vec::new();
        for l in &listed {
            match &l.meta {
                Ok(meta) if meta.status == Status::Active => active.push((l, meta)),
                Ok(_) => {}
                // Regression: the reason was cut to its first line ("does not
                // match schemas/meta.schema.json:"), losing the reason itself.
                Err(e) => lines.push(format!(
                    "phasegate: {} is unreadable: {}; run `{status}` for details",
                    l.feature.name(),
                    clip(&one_line(&e.to_string()), 600),
                    status = Command::new("status")
                )),
            }
        }
        if active.is_empty() {
            return lines;
        }
        let here =
            active.iter().position(|(_, m)| matches!(project.worktree_status(m, &dir), WorktreeStatus::Inside { .. }));
        let mut head =
            format!("phasegate: {} active feature{}", active.len(), if active.len() == 1 { "" } else { "s" });
        if let Some(i) = here {
            let _ = write!(head, "; this session is in the worktree of {}", active[i].0.feature.name());
        }
        lines.insert(0, head);
        let session = ctx.input.session(ctx.env);
        for (i, (l, meta)) in active.iter().enumerate().take(MAX_LISTED) {
            lines.push(feature_line(ctx.env, project, l, meta, session.as_deref()));
            if (here.is_none() || here == Some(i))
                && let Some(w) = worktree_warning(project, meta, &dir)
            {
                lines.push(format!("  {w}"));
            }
        }
        if active.len() > MAX_LISTED {
            lines.push(format!(
                "- … and {} more: `{status}`",
                active.len() - MAX_LISTED,
                status = Command::new("status")
            ));
        }
        lines
    }
}

fn feature_line(env: &Env, project: &Project, l: &Listed, meta: &Meta, session: Option<&str>) -> String {
    match meta.workflow {
        Workflow::Pipeline => return pipeline_line(l, session),
        Workflow::Phased => {}
    }
    let max = meta.mode.max_iterations();
    let state = match meta.current_phase {
        None => "no phase started yet".to_owned(),
        Some(p) => phase_text(meta, p, max),
    };
    let mut next = next_step(meta);
    let concerns: usize = meta.open_concerns_before(Phase::Finish).iter().map(|c| c.concerns.len()).sum();
    let concerns = if concerns > 0 {
        format!("; {concerns} reviewer concern(s) left open at a cap (`{status}`)", status = Command::new("status"))
    } else {
        String::new()
    };
    // In verify, where its proof stands at the tree as it is (one read of
    // the tree, in this phase only): a stale ledger is named as such, and
    // finish is never the next step while it would refuse.
    let proof = match meta.current_phase {
        Some(Phase::Verify) if !l.feature.has_evidence() => "; no `verify run` yet".to_owned(),
        Some(Phase::Verify) => match proof::proof(env, project, &l.feature, meta) {
            Ok(p) => {
                let standing = p.standing();
                next = before_finish(next, l.feature.name(), standing);
                match standing {
                    ProofStanding::Stale => "; proof stale: the code changed since `verify run`".to_owned(),
                    ProofStanding::Proven | ProofStanding::NotProven => format!("; proof {}", p.summary()),
                }
            }
            Err(e) => format!("; its proof cannot be read: {}", clip(&one_line(&e.to_string()), 200)),
        },
        _ => String::new(),
    };
    let next = next.command.map_or_else(|| "none".into(), |c| c.to_string());
    format!("- {} (mode {}): {state}{concerns}{proof}. Next: {next}", l.feature.name(), meta.mode)
}

fn pipeline_line(l: &Listed, session: Option<&str>) -> String {
    let name = l.feature.name();
    let run = match l.feature.read_owned_task::<PipelineRun>() {
        Ok(Some(run)) => run,
        Ok(None) => return format!("- {name} (pipeline): no state yet. Next: /phasegate:pipeline"),
        Err(e) => {
            return format!(
                "- {name} (pipeline): state unreadable ({}). Run `{pipeline_status}`",
                clip(&one_line(&e.to_string()), 400),
                pipeline_status = Command::new("pipeline status").feature(&name)
            );
        }
    };
    let owner = match (&run.owner, session) {
        (Some(o), Some(s)) if o.session_id == s => ", run by this session",
        (Some(_), _) => ", run by another session (claim it with /phasegate:pipeline)",
        (None, _) => "",
    };
    let detail = match (&run.paused, &run.failed) {
        (Some(p), _) => format!(" (paused: {})", p.reason),
        (None, Some(f)) => format!(" (failed in {})", f.from),
        (None, None) => String::new(),
    };
    format!("- {name} (pipeline): state {}{detail}{owner}. Next: /phasegate:pipeline", run.state)
}

fn phase_text(meta: &Meta, p: Phase, max: u32) -> String {
    let iterations = meta.record(p).map_or(0, |r| r.iterations);
    match meta.phase_state(p) {
        PhaseState::Partial => {
            format!("phase {p} is PARTIAL (started, not completed; {iterations} of {max} reviewer iterations used)")
        }
        PhaseState::Completed => format!("phase {p} completed"),
        PhaseState::NotStarted => format!("phase {p} not started"),
    }
}

fn worktree_warning(project: &Project, meta: &Meta, dir: &Path) -> Option<String> {
    match project.worktree_status(meta, dir) {
        WorktreeStatus::NoWorktree | WorktreeStatus::Inside { .. } => None,
        WorktreeStatus::Outside { worktree } => Some(format!(
            "WARNING: this session runs in {} but the feature's worktree is {}; cd there before changing code.",
            dir.display(),
            worktree.display()
        )),
        WorktreeStatus::Missing { worktree } => {
            Some(format!("WARNING: the feature's worktree {} does not exist.", worktree.display()))
        }
    }
}
