//! The orchestrated build in the hooks: after `/compact` (SessionStart with
//! source `compact`), the tasks in progress come back with their review
//! cycle and the command that gives their context package again, so a
//! compacted session resumes the task it was on. Other starts stay silent:
//! the features' lines already say where each stands.

use phasegate_core::Status;
use phasegate_core::tasks::Mark;
use phasegate_core::words::Command;

use crate::hook::{Contributor, HookCtx};

/// The tasks capability as a hook contributor.
pub struct Tasks;

pub static TASKS: Tasks = Tasks;

/// The most tasks in progress named after a compaction.
const MAX_NAMED: usize = 4;

impl Contributor for Tasks {
    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.input.source.as_deref() != Some("compact") {
            return Vec::new();
        }
        let Ok(project) = ctx.project() else { return Vec::new() };
        let Ok(listed) = project.list_active() else { return Vec::new() };
        let mut lines = Vec::new();
        for l in &listed {
            let Ok(meta) = &l.meta else { continue };
            if meta.status != Status::Active {
                continue;
            }
            let Ok((list, _)) = super::marks::read(&l.feature) else { continue };
            let cycles = l.feature.read_review_cycles().unwrap_or_default();
            let session = cycles.sessions.get(l.feature.name());
            for t in list.tasks.iter().filter(|t| t.mark == Mark::InProgress) {
                let cycle = session
                    .and_then(|s| s.tasks.get(&t.id))
                    .map_or(String::new(), |c| format!(", review cycle {} of {}", c.current_cycle, c.max_cycles));
                lines.push(format!(
                    "phasegate: task {} of {} is in progress ({}{cycle}); its brief again: `{tasks_context}`",
                    t.id,
                    l.feature.name(),
                    t.title,
                    tasks_context = Command::new("tasks context").arg(&t.id).feature(&l.feature.name())
                ));
                if lines.len() == MAX_NAMED {
                    return lines;
                }
            }
        }
        lines
    }
}
