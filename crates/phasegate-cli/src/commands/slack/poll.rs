//! `workflow-state slack poll`: one pass over the open questions, or a
//! background poller with `--watch`.

use std::time::Duration;

use clap::Args;
use phasegate_ops::questions::poll::{self, Messenger, PollReport};
use phasegate_ops::{Env, Invalid, OpError};

use super::transport::{self, Patience, SlackMessenger};
use crate::output::Printer;
use crate::{CmdResult, Ctx, ExitStatus};

/// How long a pass waits for another pass (a poll, a `question ask`
/// posting) to finish: a pass may itself wait on Slack's rate limits.
const PASS_WAIT: Duration = Duration::from_secs(120);

/// Poll the open questions' Slack threads once.
///
/// Poll the open questions once: post new ones to their Slack channel, read
/// their threads, take the first reply from a person as the answer (once,
/// however many pollers run), acknowledge it in the thread, remind once when
/// a blocking question is overdue, and apply a non-blocking question's
/// default when it expires. Without Slack configured only the defaults
/// apply. With --watch, poll every slack.pollIntervalSeconds until stopped,
/// printing a line per answer (one watcher per project; another exits at
/// once). Exit 0 when the pass ran, 2 when the configuration, the token or a
/// question file is not usable, 3 when a Slack call failed (the question
/// stays as it was and the next pass retries).
#[derive(Debug, Args)]
pub struct PollArgs {
    /// Print the pass's report as JSON.
    #[arg(long, conflicts_with = "watch")]
    json: bool,
    /// Keep polling until stopped.
    #[arg(long)]
    watch: bool,
    /// Seconds between passes with --watch (default: slack.pollIntervalSeconds).
    #[arg(long, value_name = "SECONDS", requires = "watch", value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: Option<u64>,
    /// With --watch: stop once no question waits on Slack (the background
    /// poller that `question ask` and SessionStart start).
    #[arg(long, requires = "watch")]
    until_idle: bool,
    /// Exit 0 without a word when no Slack channel is configured.
    #[arg(long)]
    if_configured: bool,
    /// Leave the caller's session first, say so on stdout, and write to the
    /// background poller's log from then on (how it is started).
    #[arg(long, hide = true, requires = "watch")]
    detached: bool,
}

pub fn cmd_poll(args: PollArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    if !args.detached {
        return run(&args, &ctx.env, &mut ctx.out);
    }
    detach();
    ctx.out.line("detached")?;
    let mut log = poll::open_watch_log(&ctx.env)?;
    run(&args, &ctx.env, &mut Printer::new(&mut log))
}

/// A session of its own, so the end of the Claude Code Bash command that
/// started it does not end it (Claude Code ends the command's session).
fn detach() {
    #[cfg(unix)]
    let _ = nix::unistd::setsid();
}

fn run(args: &PollArgs, env: &Env, out: &mut Printer<'_>) -> CmdResult {
    let config = poll::config(env)?;
    if args.if_configured && !config.slack.configured() {
        return Ok(ExitStatus::Success);
    }
    let messenger = messenger(&config)?;
    if !args.watch {
        let report = poll::poll(env, messenger.as_ref().map(|m| m as &dyn Messenger), None, PASS_WAIT)?;
        if args.json {
            out.json(&report)?;
        } else {
            for line in lines(&report) {
                out.line(line)?;
            }
            out.line(format!("{} waiting for an answer in Slack, {} elsewhere.", report.waiting, report.local))?;
        }
        return Ok(exit(&report));
    }
    let Some(_watcher) = poll::watcher(env)? else {
        return Ok(ExitStatus::Success);
    };
    let mut last_failures: Vec<String> = Vec::new();
    loop {
        let env = Env { now: phasegate_core::time::now(), ..env.clone() };
        match poll::poll(&env, messenger.as_ref().map(|m| m as &dyn Messenger), None, PASS_WAIT) {
            Ok(report) => {
                for line in lines(&report).into_iter().filter(|l| !l.starts_with("failed")) {
                    out.line(format!("phasegate: {line}"))?;
                }
                // A failure is told once, not on every pass.
                let failures: Vec<String> = report.failed.iter().chain(&report.unreadable).cloned().collect();
                for f in failures.iter().filter(|f| !last_failures.contains(f)) {
                    out.line(format!("phasegate: Slack poll failed (retrying): {f}"))?;
                }
                let idle = report.waiting == 0 && failures.is_empty();
                last_failures = failures;
                if args.until_idle && idle {
                    return Ok(ExitStatus::Success);
                }
            }
            // The project is gone (a deleted checkout): nothing left to poll for.
            Err(_) if !env.cwd_exists() => return Ok(ExitStatus::Success),
            Err(e) => {
                let f = e.to_string();
                if !last_failures.contains(&f) {
                    out.line(format!("phasegate: Slack poll failed (retrying): {f}"))?;
                }
                last_failures = vec![f];
            }
        }
        let seconds = args.interval.unwrap_or_else(|| {
            poll::config(&env).map(|c| c.slack.poll_interval_seconds).unwrap_or(config.slack.poll_interval_seconds)
        });
        std::thread::sleep(Duration::from_secs(seconds));
    }
}

/// The poll's transport: Slack when a channel is configured (then the token
/// must be set), else none.
fn messenger(config: &phasegate_core::questions::QuestionsConfig) -> Result<Option<SlackMessenger>, OpError> {
    if !config.slack.configured() {
        return Ok(None);
    }
    let Some(tokens) = transport::tokens()? else {
        return Err(Invalid::NoSlackToken { missing: transport::no_token() }.into());
    };
    SlackMessenger::new(&tokens, Patience::Poll).map(Some)
}

/// What a pass did, a line per event.
pub fn lines(report: &PollReport) -> Vec<String> {
    let mut out = Vec::new();
    for id in &report.posted {
        out.push(format!("posted {id} to Slack"));
    }
    for a in &report.answered {
        out.push(format!(
            "the answer to {} arrived: \"{}\"; {} can go on: {} (or /phasegate:auto)",
            a.id, a.answer, a.feature, a.resume
        ));
    }
    for id in &report.defaulted {
        out.push(format!("{id} expired unanswered: its default applies"));
    }
    for id in &report.reminded {
        out.push(format!("reminded the thread of {id}: still waiting"));
    }
    for f in &report.failed {
        out.push(format!("failed: {f}"));
    }
    for f in &report.unreadable {
        out.push(format!("unreadable: {f}"));
    }
    out
}

fn exit(report: &PollReport) -> ExitStatus {
    if !report.unreadable.is_empty() {
        ExitStatus::Error
    } else if !report.failed.is_empty() {
        ExitStatus::Unavailable
    } else {
        ExitStatus::Success
    }
}
