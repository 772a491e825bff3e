//! Pipeline mode (seed 001) operations. The binary owns the state machine,
//! the review gates' order and counts, the versions each gate approves, the
//! loop limits and the files' schemas; the /phasegate:pipeline command
//! follows what these print. The Stop hook runs the same functions.

use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::Status;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, PlanRefined, STATE_FILE};
use phasegate_core::pipeline::next::{self, NextAction as Action, Place};
use phasegate_core::pipeline::test_outcome::{self, CommandRun};
use phasegate_core::pipeline::{Config, GateKind, LoopState, PipelineRun, State, TestOutcome};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;
use phasegate_store::{Feature, FeatureGuard, FileWrite, Project, git, process};

use crate::commit;
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error;
use crate::error::{Invalid, InvalidInput, OpResult};
use crate::feature::review;
use crate::proof;

mod dry_run;
mod files;
pub mod gate;
pub mod lifecycle;
pub mod ownership;
mod pauses;
mod report;
mod reset;
mod stop_loop;

pub use dry_run::dry_run;
pub use files::{check, signal};
pub use pauses::{ask, cancel, fail, pause, recover, resume};
pub use report::{brief, next, status};
pub use reset::reset;
pub(crate) use stop_loop::LOOP;

/// The loop's file in `.task/`.
pub fn loop_file() -> &'static str {
    FileKind::LoopState.task_file().expect("loop-state has a task file")
}

/// The pipeline feature a command is about (`session::find_pipeline`).
pub(crate) use crate::session::find_pipeline as find;

/// Reads the run; a pipeline feature without state.json is an error that says so.
pub fn load_run(feature: &Feature) -> OpResult<PipelineRun> {
    Ok(feature.pipeline_run()?)
}

pub fn load_loop(feature: &Feature) -> OpResult<Option<LoopState>> {
    Ok(feature.read_owned_task::<LoopState>()?)
}

/// Locks the feature, reads the run, lets `change` modify it, writes it back
/// (nothing is written when `change` fails).
pub fn with_run<T>(
    env: &Env,
    feature: &Feature,
    change: impl FnOnce(&mut PipelineRun, &FeatureGuard<'_>) -> OpResult<T>,
) -> OpResult<T> {
    let guard = feature.lock(env.lock_timeout)?;
    let mut run = load_run(feature)?;
    let out = change(&mut run, &guard)?;
    guard.write_task(STATE_FILE, &run)?;
    Ok(out)
}

/// Where the pipeline's files are, for the texts that name them.
/// A paused run's action depends on its question to a person (asked,
/// answered); an unreadable marker reads as none here (`status` names it).
/// `project` is the one the caller found (`session::find_pipeline`, or a
/// hook's `HookCtx::project`).
pub fn action(project: &Project, run: &PipelineRun, feature: &Feature) -> Action {
    let task_dir = feature.task_dir().display().to_string();
    let marker = match run.state {
        State::NeedsUserInput => feature.marker().ok().flatten(),
        _ => None,
    };
    let commits = match run.state {
        State::Complete if !completion_commits(project, feature).is_empty() => {
            vec![Command::new("pipeline commit").feature(&feature.name()).to_string()]
        }
        _ => Vec::new(),
    };
    let question = marker.as_ref().map(|m| next::PauseQuestion {
        id: &m.id,
        text: &m.question,
        answer: m.answer.as_ref().map(|a| a.text.as_str()),
    });
    next::next(run, Place { feature: feature.name(), task_dir: &task_dir, question, commits: &commits })
}

/// One commit a completed run still needs: where, what, which paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingCommit {
    pub dir: std::path::PathBuf,
    /// The commit's subject line.
    pub subject: String,
    pub paths: Vec<String>,
}

/// What a completed run still has to commit: its code (what changed since
/// the run began and is not committed in the code's working tree,
/// phasegate's own files left out), then the feature's folder. Empty when
/// both are committed.
pub fn completion_commits(project: &Project, feature: &Feature) -> Vec<PendingCommit> {
    let Ok(meta) = feature.load() else { return Vec::new() };
    let uncommitted = |dir: &std::path::Path, skip: &[String]| -> Option<Vec<String>> {
        let head = git::head_commit(dir).ok()??;
        let change = git::change_since(dir, &head, skip).ok()?;
        Some(change.files.into_iter().map(|f| f.path).collect())
    };
    let subject = |what: &str| format!("{}: {what}", feature.name());
    let mut out = Vec::new();
    let code_dir = project.code_dir(&meta);
    // phasegate's own files (features, questions, `.phasegate/`) are not
    // the run's code; of the rest, what changed since the run began.
    let mut skip = review::own_files(project, &code_dir);
    skip.push(".phasegate/".to_owned());
    let run = load_run(feature).ok();
    let started = run.as_ref().and_then(|r| r.code_base.as_deref()).and_then(|base| {
        let change = git::change_since(&code_dir, base, &skip).ok()?;
        Some(change.files.into_iter().map(|f| f.path).collect::<Vec<_>>())
    });
    let code: Vec<String> = uncommitted(&code_dir, &skip)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| started.as_ref().is_none_or(|s| s.contains(p)))
        .collect();
    if !code.is_empty() {
        out.push(PendingCommit { dir: code_dir.clone(), subject: subject("pipeline code"), paths: code });
    }
    let folder = phasegate_store::files::relative(feature.dir(), project.root()).display().to_string();
    let folder_dirty =
        uncommitted(project.root(), &[]).is_none_or(|files| files.iter().any(|f| f.starts_with(&format!("{folder}/"))));
    if folder_dirty {
        out.push(PendingCommit { dir: project.root().to_owned(), subject: subject("pipeline"), paths: vec![folder] });
    }
    out
}

/// `pipeline commit`: makes a completed run's commits (its code, then its
/// folder), with the user's git. Refused before the run is complete.
pub fn commit(env: &Env, given: Option<&str>) -> OpResult<Vec<commit::CommitOutcome>> {
    let (project, feature) = find(env, given)?;
    let run = load_run(&feature)?;
    if run.state != State::Complete {
        return Err(error::Refusal::PipelineNotComplete { feature: feature.name().to_owned(), state: run.state }.into());
    }
    let mut out = Vec::new();
    for c in completion_commits(&project, &feature) {
        let env = Env { cwd: c.dir.clone(), ..env.clone() };
        out.push(commit::commit(&env, None, &c.subject, &c.paths)?);
    }
    Effects::of("pipeline commit").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(out)
}

pub fn plan(feature: &Feature) -> OpResult<PlanRefined> {
    let file = FileKind::PlanRefined.task_file().expect("plan has a task file");
    feature
        .read_task::<PlanRefined>(FileKind::PlanRefined, file)?
        .ok_or_else(|| Invalid::NoPlan { path: feature.task_path(file) }.into())
}

/// Runs the plan's test commands in the code directory, each bounded by the
/// configured timeout (the Stop hook and `pipeline test` alike); when they
/// pass, the acceptance criteria must be proven too: the plan's checks run
/// into the evidence ledger (`verify run`), unless the ledger proves them
/// at this tree already.
pub fn run_tests(
    project: &Project,
    feature: &Feature,
    config: &Config,
    env: &Env,
) -> OpResult<(TestOutcome, Vec<CommandRun>)> {
    let plan = plan(feature)?;
    let meta = feature.load()?;
    let dir = project.code_dir(&meta);
    let timeout = Duration::from_secs(config.stop_hook.test_timeout_seconds);
    let mut runs = Vec::new();
    for command in &plan.test_plan.commands {
        let f = process::run_shell(command, &dir, timeout)
            .invalid(format!("cannot run `{command}` in {}", dir.display()))?;
        let failed = f.timed_out || f.exit != Some(0);
        runs.push(CommandRun {
            command: command.clone(),
            exit: f.exit,
            timed_out: f.timed_out,
            output: format!("{}{}", f.stdout, f.stderr),
        });
        if failed {
            break;
        }
    }
    let outcome = test_outcome::judge(&plan.test_plan, &runs);
    if outcome != TestOutcome::Passed {
        return Ok((outcome, runs));
    }
    Ok((proven(project, feature, &meta, env, timeout), runs))
}

/// Whether the pipeline's acceptance criteria are proven at this tree,
/// running its checks when the ledger does not prove them yet.
fn proven(
    project: &Project,
    feature: &Feature,
    meta: &phasegate_core::Meta,
    env: &Env,
    timeout: Duration,
) -> TestOutcome {
    let fresh = proof::proof(env, project, feature, meta);
    if fresh.as_ref().is_ok_and(|p| p.proven()) {
        return TestOutcome::Passed;
    }
    match proof::run_feature(project, feature, env, Some(timeout)) {
        Ok(ran) if ran.proven => TestOutcome::Passed,
        Ok(ran) => TestOutcome::NotProven {
            summary: format!(
                "{}: {}. Each criterion needs a check in the plan's `test_plan.checks` that passes (`{verify_list}` shows them)",
                ran.summary,
                ran.judgement.blocking().join("; "),
                verify_list = Command::new("verify list").feature(&feature.name())
            ),
        },
        Err(e) => TestOutcome::NotProven { summary: format!("they could not be checked: {e}") },
    }
}

/// The version of the work a gate reviews: the plan file's content for the
/// plan gate, the code change since implementation began for the code gate.
pub fn version(project: &Project, feature: &Feature, run: &PipelineRun, kind: GateKind) -> OpResult<String> {
    match kind {
        GateKind::Plan => {
            let file = FileKind::PlanRefined.task_file().expect("plan has a task file");
            let text = feature.read_task_text(file)?.unwrap_or_default();
            Ok(git::content_fingerprint(&text))
        }
        GateKind::Code => match &run.code_base {
            Some(base) => {
                let dir = project.code_dir(&feature.load()?);
                let change = review::code_change(project, &dir, base)?;
                Ok(git::fingerprint(&change))
            }
            // No commit to compare with (no git, or no commit yet): every
            // review sees "the" version.
            None => Ok("unversioned".into()),
        },
    }
}

/// The changes that end a run in `complete`: the loop ends, the final gate's
/// session marker goes, and the feature is closed, in one commit with the
/// run itself (the caller adds the run's own change).
pub fn completion_changes(
    guard: &FeatureGuard<'_>,
    loop_state: Option<&mut LoopState>,
    now: DateTime<Utc>,
) -> OpResult<Vec<FileWrite>> {
    let feature = guard.feature();
    let mut changes = Vec::new();
    if let Some(l) = loop_state {
        if l.active || l.ended_reason.is_none() {
            l.end("complete", now);
        }
        changes.push(guard.task_change(loop_file(), &*l));
    }
    changes.push(FileWrite::remove(feature.task_path(FINAL_GATE_SESSION_MARKER)));
    let mut meta = guard.load()?;
    if meta.status == Status::Active {
        meta.close(now);
    }
    changes.push(guard.meta_change(&meta));
    Ok(changes)
}

/// Commits a completed run with its completion changes, all or nothing, and
/// drops the owner's session record. Returns the completion's effects
/// (`build.completed`), for the caller to apply once the lock is given back.
pub fn commit_completion(
    project: &Project,
    guard: &FeatureGuard<'_>,
    run: &PipelineRun,
    loop_state: Option<&mut LoopState>,
    now: DateTime<Utc>,
) -> OpResult<Effects> {
    let mut changes = vec![guard.task_change(STATE_FILE, run)];
    changes.extend(completion_changes(guard, loop_state, now)?);
    guard.commit("pipeline complete", changes)?;
    phasegate_store::feature::index::note(&project.runtime_dir(), guard.feature().name(), false)?;
    if let Some(owner) = &run.owner
        && let Ok(id) = SessionId::parse(&owner.session_id)
    {
        project.coordination().unregister_session(&id)?;
    }
    Ok(Effects::of("pipeline completion").build_completed(guard.feature().name()))
}

/// Whether the run is in a state the loop and tests belong to.
pub fn in_loop(run: &PipelineRun) -> bool {
    run.state == State::ImplementingLoop
}
