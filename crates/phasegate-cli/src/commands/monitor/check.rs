//! `workflow-state monitor check`.

use clap::Args;
use phasegate_ops::oversight::monitor;

use crate::{CmdResult, Ctx, ExitStatus};

/// Run the monitor's check once, and let the PM decide.
///
/// Check once: stuck tasks (database 5 min, tests 15, anything else 10),
/// deadlocks in the wait graph, sessions down (silent 5 min); raise each
/// alert once in 30 minutes; let the PM decide (WATCH, ESCALATE over 20
/// minutes, INTERRUPT over 30; a down session's tasks to the least-loaded
/// live one); expire the leases of sessions down or gone. For cron or
/// systemd: `workflow-state monitor check` every 2 minutes.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(long)]
    json: bool,
    /// Do nothing when a check (by anyone) ran less than 2 minutes ago.
    #[arg(long)]
    if_due: bool,
}

pub fn cmd_check(a: CheckArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let checked = monitor::check(&ctx.env, a.if_due)?;
    if a.json {
        ctx.out.json(&checked)?;
        return Ok(ExitStatus::Success);
    }
    if !checked.ran {
        ctx.out.line("Not due: the monitor ran less than 2 minutes ago.")?;
        return Ok(ExitStatus::Success);
    }
    let lines = monitor::lines(&checked);
    if let Some(r) = &checked.report {
        let live = r.sessions.iter().filter(|s| s.health.liveness.is_live()).count();
        ctx.out.line(format!(
            "Checked: {} session(s), {live} live; {} stuck task(s); {} deadlock(s); {} alert(s) not repeated.",
            r.sessions.len(),
            r.stuck_tasks.len(),
            r.deadlocks.len(),
            r.suppressed.len()
        ))?;
    }
    for l in lines {
        ctx.out.line(l)?;
    }
    for l in &checked.expired_leases {
        ctx.out.line(format!("expired: the lease of {} on {}", l.holder, l.path))?;
    }
    for p in &checked.problems {
        ctx.out.line(format!("skipped: {p}"))?;
    }
    Ok(ExitStatus::Success)
}
