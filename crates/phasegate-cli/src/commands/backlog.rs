//! `workflow-state backlog`: the backlog runner's order.

use clap::Args;
use phasegate_ops::feature::backlog;

use crate::{CmdResult, Ctx, ExitStatus};

/// The active features in the order /phasegate:auto takes them.
///
/// The active features in the order the backlog runner (/phasegate:auto)
/// takes them: each with its next command, features whose answer arrived
/// first, suspended ones and those whose next phase a teammate's clone
/// claims on the team's remote listed apart and skipped.
#[derive(Debug, Args)]
pub struct BacklogArgs {
    #[arg(long)]
    json: bool,
}

pub fn cmd_backlog(args: BacklogArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let b = backlog::backlog(&ctx.env)?;
    if args.json {
        ctx.out.json(&b)?;
        return Ok(ExitStatus::Success);
    }
    if b.ready.is_empty() {
        ctx.out.line("Nothing ready to work on.")?;
    }
    for r in &b.ready {
        let arrived = if r.answer_arrived { " (answer arrived)" } else { "" };
        ctx.out.line(format!(
            "{}{arrived}: {}",
            r.feature,
            r.command.as_ref().map_or_else(|| r.reason.clone(), |c| c.to_string())
        ))?;
    }
    for s in &b.suspended {
        ctx.out.line(format!("{}: suspended on {} ({}): {}", s.feature, s.question_id, s.state, s.question))?;
    }
    for e in &b.elsewhere {
        ctx.out.line(format!("{}: its {} phase is a teammate's ({}), skipped", e.feature, e.phase, e.holder))?;
    }
    Ok(ExitStatus::Success)
}
