//! `workflow-state watch`: a live view of the repository's sessions for
//! people, refreshed in the terminal.

use std::time::Duration;

use clap::Args;
use phasegate_core::coordination::Lease;
use phasegate_ops::Env;
use phasegate_ops::coordination::events::PendingEvent;
use phasegate_ops::oversight::view::{self, FeatureView, Overview, SessionView};

use crate::{CmdResult, Ctx, ExitStatus};

/// Watch the sessions working on this repository.
///
/// Watch the sessions working on this repository, refreshed every
/// --interval seconds until Ctrl-C: each session's lifecycle state (IDLE,
/// LOADING, ACTIVE, COMPLETE, ERROR) and heartbeat, file leases, who waits
/// for whom, recent alerts and PM decisions, suspended items, pending
/// events, and each active feature's phase and tasks in progress.
/// `--json` prints the same as data (one object per refresh).
#[derive(Debug, Args)]
pub struct WatchArgs {
    #[arg(long)]
    json: bool,
    /// Print once and exit.
    #[arg(long)]
    once: bool,
    /// Seconds between refreshes.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: u64,
}

pub fn cmd_watch(a: WatchArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let mut env = ctx.env.clone();
    loop {
        let o = view::overview(&env)?;
        if a.json {
            ctx.out.json(&o)?;
        } else {
            if !a.once {
                // Home and clear: the view replaces itself.
                ctx.out.line("\x1b[H\x1b[2J\x1b[1A")?;
            }
            for line in render(&o, &env, a.interval, a.once) {
                ctx.out.line(line)?;
            }
        }
        if a.once {
            return Ok(ExitStatus::Success);
        }
        std::thread::sleep(Duration::from_secs(a.interval));
        env = Env::from_process().unwrap_or_else(|_| Env::lenient());
    }
}

/// `HH:MM:SS` of a UTC time (its Display is `2026-11-22 10:00:00 UTC`).
fn hm(t: impl std::fmt::Display) -> String {
    let s = t.to_string();
    s.get(11..19).unwrap_or(&s).to_owned()
}

/// How a session is: live and when it was seen, idle, gone, down, ended or
/// failed, in a few words.
pub fn presence_text(s: &SessionView) -> String {
    use phasegate_core::coordination::{Liveness, Presence};
    let silent = s.health.age_seconds / 60;
    match (s.presence, s.health.liveness) {
        (_, Liveness::ClockAhead) => format!("clock {}s ahead", s.health.clock_ahead_seconds.unwrap_or_default()),
        (_, Liveness::Paused) => match s.health.paused_until {
            Some(until) => format!("paused until {} UTC", until.format("%H:%M")),
            None => "paused".to_owned(),
        },
        (Presence::Live, Liveness::Live | Liveness::Down | Liveness::Ended) => {
            format!("live, seen {}s ago", s.health.age_seconds)
        }
        (Presence::Idle, _) => format!("idle, seen {silent} min ago"),
        (Presence::Gone, _) => format!("gone (silent {silent} min, held nothing)"),
        (Presence::Down, _) => format!("down (silent {silent} min)"),
        (Presence::Ended, _) => format!("ended {silent} min ago"),
        (Presence::Failed, _) => format!("failed (silent {silent} min; its work went to others)"),
    }
}

/// One session in a line.
pub fn session_line(s: &SessionView) -> String {
    let live = presence_text(s);
    let work = [s.feature.clone(), s.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    format!(
        "  {}  {:<8}  {live}  {}  priority {}  {} lease(s)",
        s.id,
        s.state.name(),
        if work.is_empty() { "-".to_owned() } else { work },
        s.priority,
        s.leases
    )
}

fn lease_line(l: &Lease) -> String {
    let work = [l.feature.clone(), l.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    format!("  {}  held by {}  {work}  since {}", l.path, l.holder, hm(l.acquired_at))
}

fn event_line(e: &PendingEvent) -> String {
    let next = e.suggestion.as_ref().and_then(|s| s.command.as_deref()).unwrap_or("wait for the user");
    let offered = e.offered_to.as_ref().map(|s| format!(" (offered to {s})")).unwrap_or_default();
    format!("  {} {} {} → {next}{offered}", e.id, e.event_type, e.feature.clone().unwrap_or_default())
}

fn feature_line(f: &FeatureView) -> String {
    let tasks =
        if f.in_progress.is_empty() { String::new() } else { format!("  in progress: {}", f.in_progress.join(", ")) };
    let suspended = f.suspended.as_ref().map(|q| format!("  suspended on {q}")).unwrap_or_default();
    format!("  {}  {}{tasks}{suspended}", f.feature, f.phase.clone().unwrap_or_else(|| "-".into()))
}

fn render(o: &Overview, env: &Env, interval: u64, once: bool) -> Vec<String> {
    let mut out = vec![format!(
        "phasegate watch — {} — {} UTC{}",
        env.cwd.display(),
        hm(o.now),
        if once { String::new() } else { format!(" (every {interval} s; Ctrl-C to quit)") }
    )];
    let mut section = |title: String, lines: Vec<String>, empty: &str| {
        out.push(String::new());
        out.push(title);
        if lines.is_empty() {
            out.push(format!("  {empty}"));
        }
        out.extend(lines);
    };
    section(format!("SESSIONS ({})", o.sessions.len()), o.sessions.iter().map(session_line).collect(), "none");
    section(format!("LEASES ({})", o.leases.len()), o.leases.iter().map(lease_line).collect(), "none");
    section(
        format!("WAITS ({})", o.waits.len()),
        o.waits
            .iter()
            .map(|w| format!("  {} waits for {}: {} (since {})", w.waiter, w.holder, w.path, hm(w.since)))
            .collect(),
        "none",
    );
    section(
        "ALERTS (recent)".to_owned(),
        o.alerts
            .iter()
            .map(|a| format!("  {}  {} {}: {}", hm(a.created_at), a.severity, a.alert_type(), a.message))
            .collect(),
        "none",
    );
    section(
        "DECISIONS (recent)".to_owned(),
        o.decisions.iter().map(|d| format!("  {}  {}", hm(d.decision.decided_at), d.line())).collect(),
        "none",
    );
    section(
        format!("SUSPENDED ({})", o.suspended.len()),
        o.suspended.iter().map(|q| format!("  {} [{}]: {}", q.id, q.state, q.question)).collect(),
        "none",
    );
    section(format!("EVENTS PENDING ({})", o.events.len()), o.events.iter().map(event_line).collect(), "none");
    section(format!("FEATURES ({})", o.features.len()), o.features.iter().map(feature_line).collect(), "none active");
    if !o.teammates.is_empty() {
        section(
            format!("TEAMMATES ({} claim(s), as the last `team sync` saw them)", o.teammates.len()),
            o.teammates.iter().map(|c| format!("  {}", crate::commands::status::claim_line(c))).collect(),
            "none",
        );
    }
    if !o.interrupted.is_empty() || o.runner.is_some() {
        let lines = o.interrupted.iter().chain(&o.runner).map(|l| format!("  {l}")).collect();
        section(format!("INTERRUPTED ({})", o.interrupted.len()), lines, "none");
    }
    out.push(String::new());
    out.push(match o.last_check {
        Some(t) => format!("Monitor last checked at {} UTC.", hm(t)),
        None => "The monitor has not run here yet (`workflow-state monitor check`).".to_owned(),
    });
    for p in &o.problems {
        out.push(format!("unreadable: {p}"));
    }
    out
}
