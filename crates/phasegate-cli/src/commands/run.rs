//! `workflow-state run`: the unattended runner.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;
use phasegate_ops::interrupt::runner::{self, End, Event, Options, Ui};

use crate::{CmdResult, Ctx, ExitStatus};

/// Run Claude Code unattended, through usage limits and crashes.
///
/// Starts `claude -p <prompt>` (the backlog, `/phasegate:auto`, unless
/// --pipeline or --prompt says otherwise) under a session id of its own. When
/// the session stops on a usage limit, it waits until the reset Claude Code
/// printed, plus --grace, with a countdown, then resumes the same session
/// (`claude -p --resume`) at the step where the work stood; on an overloaded
/// API or a server error it waits phasegate's back-off (or --back-off,
/// doubling); when `claude` crashes or is killed, it resumes it. It stops
/// when the session ends its work, at a question only a person answers or an
/// error a person fixes (sign-in, billing), at --max-usd (what Claude Code
/// reports each run cost), --max-usd-per-window, --max-windows usage-limit
/// windows or --max-crashes crashes in a row, and on Ctrl-C (the session is
/// asked to end, and `--resume <session>` carries on with it). One runner per
/// repository; `status`, `watch` and the report show what it does.
/// Arguments after `--` go to every `claude` run (`-- --allowedTools
/// Bash,Read,Write,Edit`).
/// Exit codes: 0 the session ended its work, 1 it stopped for a person, a cap,
/// or another runner runs here, 2 bad arguments or `claude` cannot be
/// started, 130 stopped by Ctrl-C.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The prompt of the session (default: `/phasegate:auto`, the backlog).
    #[arg(long, value_name = "TEXT", conflicts_with = "pipeline")]
    prompt: Option<String>,
    /// Run the pipeline (`/phasegate:pipeline`).
    #[arg(long)]
    pipeline: bool,
    /// Carry on with this session (what a stop printed) instead of a new one.
    #[arg(long, value_name = "SESSION")]
    resume: Option<String>,
    /// The `claude` program (default: `claude` on PATH).
    #[arg(long, value_name = "PATH")]
    claude: Option<PathBuf>,
    /// Usage-limit windows it may wait out before it stops.
    #[arg(long, value_name = "N")]
    max_windows: Option<u32>,
    /// What the whole run may spend, in USD, as Claude Code reports it.
    #[arg(long, value_name = "USD")]
    max_usd: Option<f64>,
    /// What one usage-limit window may spend, in USD.
    #[arg(long, value_name = "USD")]
    max_usd_per_window: Option<f64>,
    /// Seconds added after a reset before the session resumes.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    grace: u32,
    /// Seconds of the first wait after an error with no reset (it doubles
    /// each time in a row). Default: phasegate's back-off (30 s for server
    /// errors, 1 min for a rate limit with no reset, 5 s after a crash).
    #[arg(long, value_name = "SECONDS")]
    back_off: Option<u32>,
    /// Crashes in a row before it stops.
    #[arg(long, value_name = "N", default_value_t = 3)]
    max_crashes: u32,
    /// Print each event as a line of JSON.
    #[arg(long)]
    json: bool,
    /// Arguments for every `claude` run.
    #[arg(last = true, value_name = "CLAUDE ARGS")]
    claude_args: Vec<String>,
}

/// The countdown and the events, on stderr; a terminal's countdown
/// rewrites its line every second, anything else gets a line a minute.
struct Shown {
    json: bool,
    tty: bool,
    last_minute: Option<i64>,
}

impl Ui for Shown {
    fn event(&mut self, e: &Event) {
        let mut err = std::io::stderr().lock();
        if self.json {
            let _ = writeln!(err, "{}", serde_json::to_string(e).expect("events serialise"));
            return;
        }
        let _ = match e {
            Event::Started { session, run, resumed } => {
                self.last_minute = None;
                let how = if *resumed { "resuming" } else { "starting" };
                let clear = if self.tty { "\r\x1b[K" } else { "" };
                writeln!(err, "{clear}phasegate run: {how} session {session} (run {run})")
            }
            Event::Ran { exit, said } => {
                let said = if said.is_empty() { String::new() } else { format!(": {said}") };
                writeln!(
                    err,
                    "phasegate run: claude ended (exit {}){said}",
                    exit.map_or("by a signal".into(), |c| c.to_string())
                )
            }
            Event::Waiting { until, left, why } => {
                let (h, m, s) = (left / 3600, (left % 3600) / 60, left % 60);
                let line = format!(
                    "phasegate run: {why}; waiting until {} UTC: {h}:{m:02}:{s:02} left (Ctrl-C stops)",
                    until.format("%H:%M:%S")
                );
                if self.tty {
                    write!(err, "\r\x1b[K{line}")
                } else if self.last_minute != Some(left / 60) {
                    self.last_minute = Some(left / 60);
                    writeln!(err, "{line}")
                } else {
                    Ok(())
                }
            }
        };
    }
}

pub fn cmd_run(a: RunArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let prompt = match (a.prompt, a.pipeline) {
        (Some(p), _) => p,
        (None, true) => "/phasegate:pipeline".to_owned(),
        (None, false) => "/phasegate:auto".to_owned(),
    };
    let claude = a.claude.unwrap_or_else(|| PathBuf::from("claude"));
    let opts = Options {
        prompt,
        claude,
        claude_args: a.claude_args,
        max_windows: a.max_windows,
        max_usd: a.max_usd,
        max_usd_per_window: a.max_usd_per_window,
        grace: chrono::TimeDelta::seconds(i64::from(a.grace)),
        back_off: a.back_off.map(|s| chrono::TimeDelta::seconds(i64::from(s))),
        max_crashes: a.max_crashes,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // A second handler cannot be set in one process: only tests run two.
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::SeqCst));
    let mut ui = Shown { json: a.json, tty: std::io::stderr().is_terminal(), last_minute: None };
    let end = runner::run(&ctx.env, &opts, a.resume.as_deref(), &mut ui, &stop)?;
    if a.json {
        ctx.out.json(&end)?;
    } else {
        ctx.out.line(format!("phasegate run: {}", end.message()))?;
    }
    Ok(match end {
        End::Finished { .. } => ExitStatus::Success,
        End::Person { .. } | End::Cap { .. } => ExitStatus::Refused,
        End::Stopped { .. } => ExitStatus::Interrupted,
    })
}
