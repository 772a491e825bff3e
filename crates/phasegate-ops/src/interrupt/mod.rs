//! Interrupted, never lost. When Claude Code ends a turn on an API error (a
//! usage limit, an overloaded API, a server error), its StopFailure hook
//! records what was in flight (the feature's phase and iteration, its tasks
//! in progress, a pipeline's state, a question it waits on), why, and when
//! the work may go on; `status`, `watch`, the report and the next
//! SessionStart say it in one line; a turn of that session that ends well
//! clears it. `workflow-state run` (the runner) waits for the time
//! recorded and resumes the same session at the step.

mod hook;
pub mod runner;

pub use hook::INTERRUPT;

use chrono::{DateTime, Utc};
use phasegate_core::feature::{Meta, PhaseState, Status, Workflow, next_step};
use phasegate_core::interrupt::{Cause, InFlight, Interruption, MAX_SAID, Resume, ResumeFrom};
use phasegate_core::session::SessionId;
use phasegate_core::tasks::Mark;
use phasegate_core::words::Command;
use phasegate_store::{Feature, Project};

use crate::env::Env;
use crate::error::OpResult;

/// What a StopFailure hook reads: the session, Claude Code's `error` word
/// and what the user saw.
pub struct Failure<'a> {
    pub session: &'a SessionId,
    pub error: &'a str,
    pub said: &'a str,
}

/// Records the interruption of `failure.session` at `env.now`: its cause,
/// when the work may go on (the reset Claude Code printed, else a back-off
/// that grows with each interruption in a row), and what was in flight.
pub fn record(project: &Project, env: &Env, failure: &Failure<'_>) -> OpResult<Option<Interruption>> {
    // Outside a git repository nothing is written (a folder Claude Code
    // was started in is not a project).
    if project.repo().is_none() {
        return Ok(None);
    }
    let i = interruption(project, env, failure);
    project.interruptions().put(failure.session, &i)?;
    Ok(Some(i))
}

/// The interruption [`record`] writes: the attempt counted from the
/// session's earlier one, the resume time, what was in flight.
pub(crate) fn interruption(project: &Project, env: &Env, failure: &Failure<'_>) -> Interruption {
    let earlier = project.interruptions().get(failure.session).ok().flatten();
    let attempt = earlier.map_or(1, |e| e.attempt.saturating_add(1));
    let cause = Cause::of(failure.error);
    let said = said_of(failure.said);
    let resume =
        phasegate_core::interrupt::resume(cause, &said, env.now, attempt, &|z| phasegate_store::interrupt::zone(z));
    Interruption {
        session: failure.session.as_str().to_owned(),
        cause,
        error: failure.error.to_owned(),
        zone: phasegate_core::interrupt::reset_text(&said).and_then(|t| t.zone),
        said,
        at: env.now,
        resume,
        attempt,
        in_flight: in_flight(project, failure.session),
    }
}

/// What the user saw, one line, secrets scrubbed, at most [`MAX_SAID`] bytes.
fn said_of(text: &str) -> String {
    let scrubbed = phasegate_core::proof::scrub(text, &crate::env::secret_values());
    let line = scrubbed.split_whitespace().collect::<Vec<_>>().join(" ");
    // The mark of a cut (…) is 3 bytes.
    crate::hook::clip(&line, MAX_SAID - 3)
}

/// The features the session worked on, as phasegate saw it: the loop it
/// owns, the feature its last turn named (the cost log's), the feature and
/// task its session record holds; else every active feature with work in
/// progress (at most three).
fn in_flight(project: &Project, session: &SessionId) -> Vec<InFlight> {
    let mut names: Vec<String> = Vec::new();
    if let Ok(Some(record)) = project.coordination().session(session) {
        names.extend(record.owns_loop.clone());
        names.extend(record.feature.clone());
    }
    if let Ok(Some(log)) = project.cost().session(session) {
        names.extend(log.feature().map(str::to_owned));
    }
    names.dedup();
    let mut seen: Vec<InFlight> = Vec::new();
    for name in &names {
        if seen.iter().any(|s| &s.feature == name) {
            continue;
        }
        let feature = project.feature_named(name);
        if let Some(f) = feature.load().ok().and_then(|meta| state_of(&feature, &meta)) {
            seen.push(f);
        }
    }
    if seen.is_empty() {
        for listed in project.list_active().unwrap_or_default() {
            let Ok(meta) = &listed.meta else { continue };
            if let Some(f) = state_of(&listed.feature, meta).filter(busy) {
                seen.push(f);
            }
            if seen.len() == 3 {
                break;
            }
        }
    }
    seen
}

/// Whether work was under way (not only a feature at rest between phases).
fn busy(f: &InFlight) -> bool {
    !f.tasks.is_empty() || f.question.is_some() || f.pipeline.is_some() || f.phase.is_some()
}

/// Where `feature` stands: its phase in progress with the iterations it
/// counted, its tasks in progress, a pipeline's state, a question it waits
/// on, and the command that goes on with it. None for a feature that is
/// not active.
fn state_of(feature: &Feature, meta: &Meta) -> Option<InFlight> {
    if meta.status != Status::Active {
        return None;
    }
    let name = feature.name().to_owned();
    let question = feature.marker().ok().flatten().filter(|q| q.answer.is_none()).map(|q| q.id);
    match meta.workflow {
        Workflow::Pipeline => {
            let run = feature.read_owned_task::<phasegate_core::pipeline::PipelineRun>().ok().flatten();
            Some(InFlight {
                feature: name,
                phase: None,
                iterations: None,
                tasks: Vec::new(),
                pipeline: run.map(|r| <&str>::from(r.state).to_owned()),
                question,
                next: Some("/phasegate:pipeline".into()),
            })
        }
        Workflow::Phased => {
            let phase = meta.current_phase.filter(|p| meta.phase_state(*p) == PhaseState::Partial);
            let tasks = feature
                .task_list()
                .map(|(list, _)| list.tasks.into_iter().filter(|t| t.mark == Mark::InProgress).map(|t| t.id).collect())
                .unwrap_or_default();
            Some(InFlight {
                feature: name,
                phase: phase.map(|p| p.to_string()),
                iterations: phase.and_then(|p| meta.record(p)).map(|r| r.iterations),
                tasks,
                pipeline: None,
                question,
                next: next_step(meta).command.map(|c| c.to_string()),
            })
        }
    }
}

/// `05:31 (Europe/Berlin)`, or `Nov 30 23:01 (America/New_York)` when not
/// within the day: `t` in the zone the reset was printed in, else this
/// machine's.
pub fn clock(t: DateTime<Utc>, zone: Option<&str>, now: DateTime<Utc>) -> String {
    let z = phasegate_store::interrupt::zone(zone);
    let local = z.local(t);
    let name =
        zone.map(str::to_owned).or_else(phasegate_store::interrupt::system_zone_name).unwrap_or_else(|| "UTC".into());
    if (t - now).num_hours().abs() < 20 {
        format!("{} ({name})", local.format("%H:%M"))
    } else {
        format!("{} ({name})", local.format("%b %-d %H:%M"))
    }
}

/// One line: `paused by a usage limit until 05:31 (Europe/Berlin); T3 of
/// 002-export was in progress; go on with `/phasegate:implement``.
pub fn line(i: &Interruption, now: DateTime<Utc>) -> String {
    let when = match &i.resume {
        Resume::At { at, .. } if *at > now => {
            format!("paused by {} until {}", i.cause.words(), clock(*at, i.zone.as_deref(), now))
        }
        Resume::At { from: ResumeFrom::Reset | ResumeFrom::Wait, .. } => {
            format!(
                "interrupted by {} at {}; its reset has passed",
                i.cause.words(),
                clock(i.at, i.zone.as_deref(), now)
            )
        }
        Resume::At { .. } => format!("interrupted by {} at {}", i.cause.words(), clock(i.at, i.zone.as_deref(), now)),
        Resume::Person { why } => format!("stopped by {}: {why} (\"{}\")", i.cause.words(), i.said),
    };
    let what: Vec<String> = i.in_flight.iter().map(InFlight::words).collect();
    let what = match what.len() {
        0 => String::new(),
        1 => format!("; {} was in progress", what[0]),
        _ => format!("; {} were in progress", what.join(", ")),
    };
    let next: Vec<String> = i.in_flight.iter().filter_map(|f| f.next.clone()).collect();
    let go = match (next.first(), &i.resume) {
        (_, Resume::Person { .. }) => String::new(),
        (Some(cmd), _) => format!("; go on with `{cmd}` (finished work is not run again)"),
        (None, _) => String::new(),
    };
    format!("{when}{what}{go}")
}

/// Every interruption, newest first (what `status` and the report show).
pub fn list(project: &Project) -> Vec<Interruption> {
    project.interruptions().all()
}

/// `session 8b4bfb6c was paused by a usage limit until …`, one line per
/// interruption standing (what `status` and `watch` print).
pub fn standing(env: &Env) -> OpResult<Vec<String>> {
    Ok(standing_in(&crate::session::project(env)?, env.now))
}

/// [`standing`] of `project` (what `watch` and the report show too).
pub fn standing_in(project: &Project, now: DateTime<Utc>) -> Vec<String> {
    list(project).iter().map(|i| format!("session {} was {}", i.short_session(), line(i, now))).collect()
}

/// The runner (`workflow-state run`) of this repository, as a line for
/// `status`, `watch` and the report: what it does now, its runs, windows
/// and spend. None when no runner ever ran here, or its last one ended more
/// than a day ago. A runner whose process is gone without saying so (killed)
/// is named as such.
pub fn runner_line(project: &Project, now: DateTime<Utc>) -> Option<String> {
    use phasegate_core::interrupt::RunnerNow;
    let state = project.runner_state().ok().flatten()?;
    let session = state.session.get(..8).unwrap_or(&state.session);
    let gone = phasegate_store::process::is_gone(state.pid) == Some(true);
    let doing = match &state.now {
        RunnerNow::Ended { at, why } => {
            if now - *at > chrono::TimeDelta::days(1) {
                return None;
            }
            format!("ended at {}: {why}", clock(*at, None, now))
        }
        _ if gone => format!(
            "process {} is gone (killed?); `{run}` carries on",
            state.pid,
            run = Command::new("run").flag("resume", &state.session)
        ),
        RunnerNow::Running { since } => format!("claude runs since {}", clock(*since, None, now)),
        RunnerNow::Waiting { until, why } => format!("waiting {why} until {}", clock(*until, None, now)),
    };
    Some(format!(
        "runner (pid {}, session {session}, {}): {doing}; {} run(s), {} window(s), ${:.2} spent",
        state.pid, state.prompt, state.runs, state.windows, state.spent_usd
    ))
}

/// [`runner_line`] of the repository `env` is in (None outside one).
pub fn runner(env: &Env) -> Option<String> {
    runner_line(&crate::session::project(env).ok()?, env.now)
}

/// A turn of `session` ended well: its interruption is over, and so are
/// the others whose time to go on, and the grace after it, have passed
/// (whoever starts a session after the reset is told at its start, and
/// goes on).
pub fn settle(project: &Project, session: &SessionId, now: DateTime<Utc>) {
    let store = project.interruptions();
    if !store.any() {
        return;
    }
    let _ = store.clear(session);
    // Another session's ends once its time to go on has passed, and with
    // it the grace its paused session keeps its files for: cleared at the
    // reset itself, the pause would end before its runner could resume.
    for i in store.all() {
        if i.may_resume(now)
            && !i.pauses_at(now)
            && let Ok(s) = SessionId::parse(&i.session)
        {
            let _ = store.clear(&s);
        }
    }
}
