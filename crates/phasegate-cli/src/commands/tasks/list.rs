//! `workflow-state tasks list`.

use clap::Args;
use phasegate_ops::tasks::marks as tasks;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Every task of the feature's tasks.md, as data.
///
/// Every task of the feature's tasks.md: id, line, checkbox (`pending`,
/// `in-progress`, `done`, `skipped`, `failed`), title, agent, review,
/// review focus, dependencies, files, "Done when", checkpoint, and its phase
/// (sequential or parallel); `warnings` names what was not understood.
/// Exit 2 when the file is missing or malformed (with line numbers).
#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_list(args: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let listed = tasks::list(&ctx.env, args.feature.get())?;
    if args.json {
        ctx.out.json(&listed)?;
        return Ok(ExitStatus::Success);
    }
    let mut phase = usize::MAX;
    for t in &listed.list.tasks {
        if t.phase != phase {
            phase = t.phase;
            let p = &listed.list.phases[phase];
            if !p.title.is_empty() {
                let execution =
                    if p.execution == phasegate_core::tasks::Execution::Parallel { "parallel" } else { "sequential" };
                // A heading that says how its tasks run ("Docs (parallel)") is shown as written.
                if p.title.to_lowercase().contains(execution) {
                    ctx.out.line(&p.title)?;
                } else {
                    ctx.out.line(format!("{} ({execution})", p.title))?;
                }
            }
        }
        let deps =
            if t.depends_on.is_empty() { String::new() } else { format!(" (after {})", t.depends_on.join(", ")) };
        ctx.out.line(format!("[{}] {} {}{deps}", t.mark.char(), t.id, t.title))?;
    }
    if let Some(s) = &listed.suspended {
        ctx.out.line(format!(
            "suspended: {} waits for the answer to {} ({}): {}",
            listed.feature,
            s.id,
            s.task.as_deref().unwrap_or("-"),
            s.question
        ))?;
    }
    for w in &listed.list.warnings {
        ctx.out.line(format!("warning: {}:{}: {}", listed.file, w.line, w.message))?;
    }
    Ok(ExitStatus::Success)
}
