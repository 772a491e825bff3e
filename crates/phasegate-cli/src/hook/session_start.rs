//! SessionStart: tell the model which features are active, where each one
//! stands, the next command, and whether this session runs outside the
//! feature's worktree. Completed and abandoned features stay silent; nothing
//! to say means no output.

use std::fmt::Write;

use phasegate_core::guide;
use phasegate_core::meta::{Meta, PhaseState, Workflow};
use phasegate_core::pipeline::Run;
use phasegate_core::pipeline::files::{FileKind, STATE_FILE};
use phasegate_core::{Phase, Status};
use phasegate_store::{Listed, Project, WorktreeStatus};

use super::HookInput;

/// How many active features are described in full; the rest are counted.
const MAX_LISTED: usize = 5;

pub fn run(input: HookInput, note: Option<String>) -> String {
    let context = describe(&input, note);
    if context.is_empty() {
        return String::new();
    }
    serde_json::json!({
        "hookSpecificOutput": { "hookEventName": "SessionStart", "additionalContext": context }
    })
    .to_string()
}

fn describe(input: &HookInput, note: Option<String>) -> String {
    let mut lines: Vec<String> = note.into_iter().map(|n| format!("phasegate: {n}")).collect();
    let dir = input.dir();
    let project = match Project::discover(&dir) {
        Ok(p) => p,
        Err(e) => {
            lines.push(format!("phasegate: {}", first_line(&e.to_string())));
            return lines.join("\n");
        }
    };
    let listed = match project.list_active() {
        Ok(l) => l,
        Err(e) => {
            lines.push(format!("phasegate: {}", first_line(&e.to_string())));
            return lines.join("\n");
        }
    };
    let mut active: Vec<(&Listed, &Meta)> = Vec::new();
    for l in &listed {
        match &l.meta {
            Ok(meta) if meta.status == Status::Active => active.push((l, meta)),
            Ok(_) => {}
            Err(e) => lines.push(format!(
                "phasegate: {} is unreadable ({}); run `workflow-state status` for details",
                l.feature.name(),
                short_reason(&e.to_string())
            )),
        }
    }
    if active.is_empty() {
        return lines.join("\n");
    }
    let here =
        active.iter().position(|(_, m)| matches!(project.worktree_status(m, &dir), WorktreeStatus::Inside { .. }));
    let mut head = format!("phasegate: {} active feature{}", active.len(), if active.len() == 1 { "" } else { "s" });
    if let Some(i) = here {
        let _ = write!(head, "; this session is in the worktree of {}", active[i].0.feature.name());
    }
    lines.insert(0, head);
    for (i, (l, meta)) in active.iter().enumerate().take(MAX_LISTED) {
        lines.push(feature_line(l, meta, input.session_id.as_deref()));
        if (here.is_none() || here == Some(i))
            && let Some(w) = worktree_warning(&project, meta, &dir)
        {
            lines.push(format!("  {w}"));
        }
    }
    if active.len() > MAX_LISTED {
        lines.push(format!("- … and {} more: `workflow-state status`", active.len() - MAX_LISTED));
    }
    lines.join("\n")
}

fn feature_line(l: &Listed, meta: &Meta, session: Option<&str>) -> String {
    if meta.workflow == Workflow::Pipeline {
        return pipeline_line(l, session);
    }
    let max = meta.mode.max_iterations();
    let state = match meta.current_phase {
        None => "no phase started yet".to_owned(),
        Some(p) => phase_text(meta, p, max),
    };
    let next = guide::next(meta).command.unwrap_or_else(|| "none".into());
    format!("- {} (mode {}): {state}. Next: {next}", l.feature.name(), meta.mode)
}

fn pipeline_line(l: &Listed, session: Option<&str>) -> String {
    let name = l.feature.name();
    let run = match l.feature.read_task::<Run>(FileKind::State, STATE_FILE) {
        Ok(Some(run)) => run,
        Ok(None) => return format!("- {name} (pipeline): no state yet. Next: /phasegate:pipeline"),
        Err(e) => {
            return format!(
                "- {name} (pipeline): state unreadable ({}). Run `workflow-state pipeline status`",
                short_reason(&e.to_string())
            );
        }
    };
    let owner = match (&run.owner, session) {
        (Some(o), Some(s)) if o.session_id == s => ", run by this session",
        (Some(_), _) => ", run by another session (claim it with /phasegate:pipeline)",
        (None, _) => "",
    };
    let detail = match (&run.paused, &run.failed) {
        (Some(p), _) => format!(" (paused: {})", p.reason.name()),
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

fn worktree_warning(project: &Project, meta: &Meta, dir: &std::path::Path) -> Option<String> {
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

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

fn short_reason(s: &str) -> String {
    let line = first_line(s);
    let reason = line.split_once(": ").map_or(line, |(_, r)| r);
    reason.chars().take(160).collect()
}
