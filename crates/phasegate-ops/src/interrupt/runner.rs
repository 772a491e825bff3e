//! `workflow-state run`: Claude Code sessions driven without a person at
//! the keyboard. It runs `claude -p <prompt>` (the backlog, a pipeline, or
//! any prompt) under a session id of its own; when the session stops on a
//! usage limit it waits until the reset Claude Code printed (plus a grace)
//! and resumes the same session at the step; when `claude` crashes or is
//! killed it resumes it too. It stops when the session ends its work, at a
//! question only a person may answer, at an error a person must fix, at a
//! spend cap (what Claude Code reports each run cost), after a number of
//! usage-limit windows, on Ctrl-C (the session is asked to end, nothing is
//! left half written), and says why. One runner per repository.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, TimeDelta, Utc};
use phasegate_core::interrupt::{Cause, Interruption, Resume, ResumeFrom, RunnerNow, RunnerState};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;
use phasegate_store::Project;
use serde::Serialize;
use serde_json::Value;

use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpResult, Refusal};

/// What the runner is told to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The prompt of the session (`/phasegate:auto`).
    pub prompt: String,
    /// The `claude` program.
    pub claude: PathBuf,
    /// More arguments for every `claude` run (`--allowedTools …`,
    /// `--plugin-dir …`).
    pub claude_args: Vec<String>,
    /// Usage-limit windows it may wait out; None: no cap.
    pub max_windows: Option<u32>,
    /// What the whole run may spend (USD, as Claude Code reports it).
    pub max_usd: Option<f64>,
    /// What one usage-limit window may spend.
    pub max_usd_per_window: Option<f64>,
    /// Added after a reset before resuming (the reset is printed to the
    /// minute).
    pub grace: TimeDelta,
    /// The first wait after an error with no reset (server errors, a
    /// crash); doubles each time in a row. None: phasegate's back-off.
    pub back_off: Option<TimeDelta>,
    /// Crashes in a row before it gives up.
    pub max_crashes: u32,
}

/// What the runner tells its front end as it goes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// `claude` starts (the first run, or a resume).
    Started { session: String, run: u32, resumed: bool },
    /// A run ended; `said` is what Claude Code ended on.
    Ran { exit: Option<i32>, said: String },
    /// It waits; `left` seconds to go (sent about every second).
    Waiting { until: DateTime<Utc>, left: i64, why: String },
}

/// How a run of the runner ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "end")]
pub enum End {
    /// The session ended its work (its last turn ended well).
    Finished { session: String, said: String },
    /// A person must act: a question only they answer, or an error they
    /// fix (sign in, billing).
    Person { session: String, why: String },
    /// A cap was reached: spend, windows, crashes.
    Cap { session: String, why: String },
    /// Ctrl-C (or SIGTERM): the session was asked to end.
    Stopped { session: String },
}

impl End {
    /// The line that says why it ended, with how to go on.
    pub fn message(&self) -> String {
        match self {
            End::Finished { said, .. } => format!("the session ended its work: {said}"),
            End::Person { session, why } => format!(
                "stopped: {why}. Once done, `{run}` carries on with the same session",
                run = Command::new("run").flag("resume", &session)
            ),
            End::Cap { session, why } => {
                format!(
                    "stopped: {why}. `{run}` carries on with the same session",
                    run = Command::new("run").flag("resume", &session)
                )
            }
            End::Stopped { session } => format!(
                "stopped by Ctrl-C; the session was asked to end. `{run}` carries on with it",
                run = Command::new("run").flag("resume", &session)
            ),
        }
    }
}

/// The front end's part: it shows the events.
pub trait Ui {
    fn event(&mut self, event: &Event);
}

/// What `claude -p --output-format json` printed last: its result.
#[derive(Debug, Default)]
struct Result_ {
    found: bool,
    is_error: bool,
    api_error_status: Option<u64>,
    result: String,
    cost_usd: f64,
}

fn result_of(stdout: &str) -> Result_ {
    let value = stdout
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .find(|v| v.get("type").and_then(Value::as_str) == Some("result"));
    let Some(v) = value else { return Result_::default() };
    Result_ {
        found: true,
        is_error: v.get("is_error").and_then(Value::as_bool).unwrap_or(false),
        api_error_status: v.get("api_error_status").and_then(Value::as_u64),
        result: v.get("result").and_then(Value::as_str).unwrap_or_default().to_owned(),
        cost_usd: v.get("total_cost_usd").and_then(Value::as_f64).filter(|c| c.is_finite() && *c >= 0.0).unwrap_or(0.0),
    }
}

/// The prompt a resumed session is given: where the work stood, and not to
/// repeat what was finished.
fn continue_prompt(i: Option<&Interruption>) -> String {
    let what: Vec<String> = i.map(|i| i.in_flight.iter().map(|f| f.words()).collect()).unwrap_or_default();
    let stood = if what.is_empty() {
        String::new()
    } else {
        format!(" When it stopped, {} {} in progress.", what.join(", "), if what.len() == 1 { "was" } else { "were" })
    };
    format!(
        "The session was interrupted and resumes now.{stood} Continue the task you were working on at the step where it stopped; do not repeat work that is already complete (`{status}` shows where each feature stands).",
        status = Command::new("status")
    )
}

/// Runs the session until it ends its work or a stop applies.
pub fn run(env: &Env, opts: &Options, resume: Option<&str>, ui: &mut dyn Ui, stop: &AtomicBool) -> OpResult<End> {
    let project = crate::session::project(env)?;
    let Some(_lock) = project.runner_lock()? else {
        let pid = project.runner_state().ok().flatten().map(|s| s.pid);
        return Err(Refusal::RunnerRuns { pid }.into());
    };
    let (session, mut resumed) = match resume {
        Some(s) => (SessionId::parse(s).invalid(format!("--resume {s}"))?, true),
        None => {
            (SessionId::parse(&phasegate_store::interrupt::new_session_id()?).expect("a uuid is a session id"), false)
        }
    };
    let mut state = RunnerState {
        pid: std::process::id(),
        started_at: env.now,
        prompt: opts.prompt.clone(),
        session: session.as_str().to_owned(),
        now: RunnerNow::Running { since: env.now },
        runs: 0,
        windows: 0,
        spent_usd: 0.0,
        window_usd: 0.0,
    };
    let mut crashes = 0u32;
    let end = loop {
        if stop.load(Ordering::SeqCst) {
            break End::Stopped { session: state.session.clone() };
        }
        let started = phasegate_core::time::now();
        state.runs += 1;
        state.now = RunnerNow::Running { since: started };
        project.save_runner_state(&state)?;
        let earlier = project.interruptions().get(&session).ok().flatten();
        let args = claude_args(opts, &session, resumed, earlier.as_ref());
        ui.event(&Event::Started { session: session.as_str().to_owned(), run: state.runs, resumed });
        let ran = launch(env, opts, &args, stop)?;
        let result = result_of(&ran.stdout);
        state.spent_usd += result.cost_usd;
        state.window_usd += result.cost_usd;
        ui.event(&Event::Ran { exit: ran.exit, said: result.result.clone() });
        if ran.stopped {
            break End::Stopped { session: state.session.clone() };
        }
        if let Some(end) = over_spend_cap(opts, &state) {
            break end;
        }
        // What the session's StopFailure hook recorded in this run, else
        // what Claude Code's result says.
        let interruption = interruption_of(&project, env, &result, &session, started);
        let ended = match (result.found && !result.is_error, interruption) {
            (true, _) => Some(End::Finished { session: state.session.clone(), said: result.result.clone() }),
            (false, Some(i)) => {
                crashes = 0;
                after_interruption(&project, opts, &mut state, &i, ui, stop)?
            }
            (false, None) => {
                // Killed or crashed before it could say why.
                crashes += 1;
                after_crash(&project, opts, &mut state, crashes, &ran, ui, stop)?
            }
        };
        if let Some(end) = ended {
            break end;
        }
        // A session that never reached Claude Code's first request has no
        // transcript: it starts again rather than resume nothing.
        resumed =
            env.claude_dir.as_deref().and_then(|d| phasegate_store::claude::find_transcript(d, &session)).is_some();
    };
    state.now = RunnerNow::Ended { at: phasegate_core::time::now(), why: end.message() };
    project.save_runner_state(&state)?;
    Ok(end)
}

/// The arguments of one `claude` run: the prompt under a new session id,
/// or the continue prompt resuming it.
fn claude_args(opts: &Options, session: &SessionId, resumed: bool, earlier: Option<&Interruption>) -> Vec<String> {
    let mut args: Vec<String> = vec!["-p".into()];
    if resumed {
        args.extend([continue_prompt(earlier), "--resume".into(), session.as_str().to_owned()]);
    } else {
        args.extend([opts.prompt.clone(), "--session-id".into(), session.as_str().to_owned()]);
    }
    args.extend(["--output-format".into(), "json".into()]);
    args.extend(opts.claude_args.iter().cloned());
    args
}

/// Runs `claude` once, until it ends or a stop asks it to.
fn launch(env: &Env, opts: &Options, args: &[String], stop: &AtomicBool) -> OpResult<phasegate_store::process::Ran> {
    phasegate_store::process::run_until_stopped(
        &opts.claude,
        args,
        &env.cwd,
        &[],
        stop,
        std::time::Duration::from_secs(10),
    )
    .map_err(|source| Invalid::ClaudeNotStarted { claude: opts.claude.clone(), source }.into())
}

/// The end at a spend cap the run reached, if any.
fn over_spend_cap(opts: &Options, state: &RunnerState) -> Option<End> {
    if let Some(cap) = opts.max_usd.filter(|c| state.spent_usd >= *c) {
        return Some(End::Cap {
            session: state.session.clone(),
            why: format!("the run spent ${:.2}, at its cap of ${cap:.2} (--max-usd)", state.spent_usd),
        });
    }
    if let Some(cap) = opts.max_usd_per_window.filter(|c| state.window_usd >= *c) {
        return Some(End::Cap {
            session: state.session.clone(),
            why: format!(
                "this usage window spent ${:.2}, at its cap of ${cap:.2} (--max-usd-per-window)",
                state.window_usd
            ),
        });
    }
    None
}

/// After an interruption: the end when a person must act or a cap is
/// reached, else None once its wait is over.
fn after_interruption(
    project: &Project,
    opts: &Options,
    state: &mut RunnerState,
    i: &Interruption,
    ui: &mut dyn Ui,
    stop: &AtomicBool,
) -> OpResult<Option<End>> {
    if let Some(q) = i.in_flight.iter().find_map(|f| f.question.clone()) {
        return Ok(Some(End::Person {
            session: state.session.clone(),
            why: format!("the work waits on question {q}, which a person answers (`/phasegate:answer {q} <answer>`)"),
        }));
    }
    let (until, why) = match &i.resume {
        Resume::Person { why } => {
            return Ok(Some(End::Person { session: state.session.clone(), why: format!("{why}: \"{}\"", i.said) }));
        }
        Resume::At { at, from } => match from {
            ResumeFrom::Reset | ResumeFrom::Wait => (*at + opts.grace, format!("{} resets", i.cause.words())),
            ResumeFrom::BackOff => {
                let wait =
                    opts.back_off.map_or(*at - i.at, |b| (b * (1 << (i.attempt.clamp(1, 8) - 1))).min(*at - i.at));
                (i.at + wait, format!("after {}", i.cause.words()))
            }
            ResumeFrom::Now => (phasegate_core::time::now(), String::new()),
        },
    };
    if i.cause == Cause::UsageLimit {
        state.windows += 1;
        state.window_usd = 0.0;
        if let Some(max) = opts.max_windows.filter(|m| state.windows > *m) {
            return Ok(Some(End::Cap {
                session: state.session.clone(),
                why: format!("{max} usage-limit window{} waited out (--max-windows)", if max == 1 { "" } else { "s" }),
            }));
        }
    }
    if !wait_until(project, state, until, &why, ui, stop)? {
        return Ok(Some(End::Stopped { session: state.session.clone() }));
    }
    Ok(None)
}

/// After `claude` ended without a result (the `crashes`th time in a row):
/// the end past the cap, else None once its back-off is over.
fn after_crash(
    project: &Project,
    opts: &Options,
    state: &mut RunnerState,
    crashes: u32,
    ran: &phasegate_store::process::Ran,
    ui: &mut dyn Ui,
    stop: &AtomicBool,
) -> OpResult<Option<End>> {
    if crashes > opts.max_crashes {
        return Ok(Some(End::Cap {
            session: state.session.clone(),
            why: format!("`claude` ended without a result {crashes} times in a row ({})", exit_words(ran)),
        }));
    }
    let base = opts.back_off.unwrap_or(TimeDelta::seconds(5));
    let until = phasegate_core::time::now() + base * (1 << (crashes - 1).min(6));
    if !wait_until(project, state, until, &format!("`claude` {}", exit_words(ran)), ui, stop)? {
        return Ok(Some(End::Stopped { session: state.session.clone() }));
    }
    Ok(None)
}

/// An interruption read from Claude Code's result when no hook recorded
/// one (the plugin's hooks not loaded): its HTTP status says the cause.
/// How long the runner waits for the StopFailure hook's record after
/// `claude` ended on an API error: Claude Code may exit before its hook
/// finished writing (seen under load).
const HOOK_RECORD_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Why the run that started at `started` ended, if on an API error: what
/// the session's StopFailure hook recorded in it; else, when `claude`'s
/// result names an API error, the runner records it itself, with what was
/// in flight as phasegate sees it (the hook did not run or did not finish);
/// else None.
fn interruption_of(
    project: &Project,
    env: &Env,
    result: &Result_,
    session: &SessionId,
    started: DateTime<Utc>,
) -> Option<Interruption> {
    let recorded =
        || project.interruptions().get(session).ok().flatten().filter(|i| i.at >= started - TimeDelta::seconds(1));
    let error = error_word(result);
    let waited = std::time::Instant::now();
    loop {
        if let Some(i) = recorded() {
            return Some(i);
        }
        if error.is_none() || waited.elapsed() >= HOOK_RECORD_WAIT {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let error = error?;
    let mut now = env.clone();
    now.now = phasegate_core::time::now();
    let failure = super::Failure { session, error, said: &result.result };
    // Recorded for status and the next session when it can be; the run
    // goes on by it either way.
    let i = super::interruption(project, &now, &failure);
    let _ = project.interruptions().put(session, &i);
    Some(i)
}

/// Claude Code's `error` word for the API error `claude`'s result names.
fn error_word(r: &Result_) -> Option<&'static str> {
    if !r.found || !r.is_error {
        return None;
    }
    Some(match r.api_error_status? {
        429 => "rate_limit",
        // Claude Code gives up on 529s after its retries and its
        // StopFailure hook says `server_error`: the same word either way.
        529 => "server_error",
        401 | 403 => "authentication_failed",
        500..=599 => "server_error",
        _ => "unknown",
    })
}

fn exit_words(ran: &phasegate_store::process::Ran) -> String {
    match (ran.exit, ran.signal) {
        (_, Some(sig)) => format!("was killed (signal {sig})"),
        (Some(code), None) => format!("exited {code} without a result"),
        (None, None) => "ended without a result".to_owned(),
    }
}

/// Waits until `until`, telling the front end about every second; false
/// when stopped meanwhile.
fn wait_until(
    project: &Project,
    state: &mut RunnerState,
    until: DateTime<Utc>,
    why: &str,
    ui: &mut dyn Ui,
    stop: &AtomicBool,
) -> OpResult<bool> {
    state.now = RunnerNow::Waiting { until, why: why.to_owned() };
    project.save_runner_state(state)?;
    loop {
        if stop.load(Ordering::SeqCst) {
            return Ok(false);
        }
        let left = until - phasegate_core::time::now();
        if left <= TimeDelta::zero() {
            return Ok(true);
        }
        ui.event(&Event::Waiting { until, left: left.num_seconds(), why: why.to_owned() });
        let step = left.min(TimeDelta::seconds(1)).to_std().unwrap_or(std::time::Duration::from_millis(100));
        std::thread::sleep(step.max(std::time::Duration::from_millis(10)));
    }
}
