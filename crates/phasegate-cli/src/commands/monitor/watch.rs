//! `workflow-state monitor watch`: what the plugin's monitor runs.

use std::time::{Duration, Instant};

use clap::Args;
use phasegate_ops::Env;
use phasegate_ops::coordination::events;
use phasegate_ops::oversight::monitor;

use crate::{CmdResult, Ctx, ExitStatus};

/// Keep checking when due; print each new alert, decision and event.
///
/// Keep checking: every --interval seconds (default 120) run the monitor's
/// check when it is due (one check every 2 minutes however many watchers
/// run), print a line per new alert and PM decision and per event offered
/// to this session, and keep this session's heartbeat. Claude Code turns
/// each line into a notification for the model. Ends when the process
/// that started it (the Claude Code session) is gone.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Seconds between checks.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: u64,
    /// One round, then exit (for tests and cron).
    #[arg(long)]
    once: bool,
}

pub fn cmd_watch(a: WatchArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let session = Owner::now();
    // Outside a git repository there is nothing to coordinate: end quietly
    // (every line would become a notification).
    match phasegate_ops::session::project(&ctx.env) {
        Ok(p) if p.repo().is_some() => {}
        Ok(_) | Err(_) => return Ok(ExitStatus::Success),
    }
    loop {
        let env = Env::from_process().unwrap_or_else(|_| Env::lenient());
        for line in round(&env) {
            ctx.out.line(line)?;
        }
        if a.once {
            return Ok(ExitStatus::Success);
        }
        let until = Instant::now() + Duration::from_secs(a.interval);
        while Instant::now() < until {
            std::thread::sleep(Duration::from_millis(500));
            if session.gone() {
                return Ok(ExitStatus::Success);
            }
        }
    }
}

/// One round's lines; a problem becomes a line, never the end of the watch.
fn round(env: &Env) -> Vec<String> {
    let mut out = Vec::new();
    let project = match phasegate_ops::session::project(env) {
        Ok(p) => p,
        Err(e) => return vec![format!("phasegate monitor: {e}")],
    };
    let me = env.session(None).ok().flatten().and_then(|id| {
        let r = project.coordination().session(&id).ok().flatten()?;
        project.coordination().touch_session(&id, env.now);
        Some(r)
    });
    match monitor::check_project(&project, env, true) {
        Ok(c) => out.extend(monitor::lines(&c)),
        Err(e) => out.push(format!("phasegate monitor: the check failed: {e}")),
    }
    // The heartbeat of this clone's claims on the team's remote.
    match phasegate_ops::questions::team::beat(env) {
        Ok(lines) => out.extend(lines),
        Err(e) => out.push(format!("phasegate monitor: the team's claims were not renewed: {e}")),
    }
    if let Some(me) = me {
        for (id, s) in events::offer(&project, env, &me) {
            out.push(format!("phasegate: {id}: {} When handled: `workflow-state events ack {id}`.", s.sentence));
        }
    }
    out
}

/// The Claude Code session this watcher belongs to: Claude Code runs a
/// monitor through a shell and names itself in `CLAUDE_PID`. When the
/// session dies without stopping its monitors (a killed terminal), the shell
/// lives on, so the watcher looks for that process, not only its parent.
struct Owner {
    claude: Option<u32>,
    parent: u32,
}

impl Owner {
    fn now() -> Owner {
        let claude = std::env::var("CLAUDE_PID").ok().and_then(|p| p.trim().parse().ok());
        Owner { claude, parent: parent_id() }
    }

    fn gone(&self) -> bool {
        match self.claude.and_then(phasegate_ops::env::process_gone) {
            Some(gone) => gone,
            None => parent_id() != self.parent,
        }
    }
}

#[cfg(unix)]
fn parent_id() -> u32 {
    std::os::unix::process::parent_id()
}

#[cfg(not(unix))]
fn parent_id() -> u32 {
    0
}
