//! `workflow-state tasks …`: the feature's task list as data (seed 003's
//! PLAN.md and today's tasks.md), the next ready task(s), and the
//! checkboxes, which only the binary ticks: under the feature's lock, on a
//! fresh read, written atomically.

use phasegate_core::coordination::Claimed;
use phasegate_core::coordination::TeamSaid;
use phasegate_core::tasks as build;
use phasegate_core::tasks::{Batch, BuildState, SELF_IMPLEMENTER};
use phasegate_core::tasks::{Mark, Ready, Task, TaskList, set_mark};
use phasegate_core::{Agent, Artifact};
use phasegate_store::{Feature, FeatureGuard, FileWrite, Project};
use serde::Serialize;

use crate::brief;
use crate::brief::Role;
use crate::coordination::effects::Effects;
use crate::coordination::leases;
use crate::coordination::team;
use crate::env::Env;
use crate::error::{Invalid, OpResult, Refusal};
use crate::feature::review;
use crate::knowledge::inject::Work;
use crate::questions::ask;
use crate::session;
use phasegate_core::brief::Loading;

/// The task list of a feature.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub feature: String,
    pub file: String,
    /// The feature waits on a question: its id, the task (or phase) that
    /// asked, and the question. Nothing is handed out meanwhile.
    pub suspended: Option<Suspended>,
    #[serde(flatten)]
    pub list: TaskList,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suspended {
    pub id: String,
    pub task: Option<String>,
    pub question: String,
}

/// What `tasks next` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Next {
    pub feature: String,
    #[serde(flatten)]
    pub ready: Ready,
    /// The ready tasks in full.
    pub details: Vec<Task>,
    /// Said when more tasks of a parallel phase are ready than were asked
    /// for: how to get the batch.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub note: Option<Batch>,
}

/// A checkbox change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkAction {
    Start,
    Complete,
    Skip,
}

impl MarkAction {
    fn target(self) -> Mark {
        match self {
            MarkAction::Start => Mark::InProgress,
            MarkAction::Complete => Mark::Done,
            MarkAction::Skip => Mark::Skipped,
        }
    }

    /// The marks it may change.
    fn from(self) -> &'static [Mark] {
        match self {
            MarkAction::Start => &[Mark::Pending, Mark::Failed],
            MarkAction::Complete => &[Mark::Pending, Mark::InProgress],
            MarkAction::Skip => &[Mark::Pending, Mark::InProgress, Mark::Failed],
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Marked {
    pub feature: String,
    pub task: String,
    pub from: Mark,
    pub to: Mark,
    pub line: usize,
    /// Answers a start took in (a retry after an escalation's answer).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<ask::Taken>,
    /// A start inside a Claude Code session: the task's files it leased.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leases: Option<leases::TaskLeases>,
    /// The team's remote: said when the claim was made (or given back)
    /// here only, or taken over from a teammate whose claim expired.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the task moved all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

pub fn list(env: &Env, given: Option<&str>) -> OpResult<Listed> {
    let (project, feature) = session::find(env, given)?;
    let (list, file) = read(&feature)?;
    let suspended = ask::suspended_on(&project, feature.name())?.map(|q| Suspended {
        id: q.id,
        task: q.task_id,
        question: q.question,
    });
    Effects::of("tasks list").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Listed { feature: feature.name().to_owned(), file, suspended, list })
}

pub fn next(env: &Env, given: Option<&str>, max: usize) -> OpResult<Next> {
    let (project, feature) = session::find(env, given)?;
    let (list, _) = read(&feature)?;
    let name = feature.name().to_owned();
    if let Some(q) = ask::suspended_on(&project, &name)? {
        let ready =
            Ready { tasks: Vec::new(), reason: Some(format!("{name} is suspended on {}: {}", q.id, q.question)) };
        Effects::of("tasks next").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(Next { feature: name, ready, details: Vec::new(), note: None });
    }
    let cycles = feature.read_review_cycles()?;
    if let Some(s) = cycles.sessions.get(&name)
        && let Err(why) =
            build::should_continue(&list.tasks, elapsed(&s.build, env), limit(&project)?, s.build.stop_requested)
    {
        let ready = Ready { tasks: Vec::new(), reason: Some(format!("the build stopped: {why}")) };
        Effects::of("tasks next").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(Next { feature: name, ready, details: Vec::new(), note: None });
    }
    let ready = not_claimed_elsewhere(env, &name, &list, max)?;
    let batch = if max == 1 { list.next(PARALLEL_MAX).tasks.len() } else { 0 };
    let note = (batch > 1).then(|| Batch { feature: name.clone(), ready: batch });
    let details = ready.tasks.iter().filter_map(|id| list.get(id).cloned()).collect();
    Effects::of("tasks next").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Next { feature: name, ready, details, note })
}

/// The next `max` ready tasks but those a teammate's clone claims on the
/// team's remote, as the last sync saw it (no network): when that leaves
/// none, the reason names the holders.
fn not_claimed_elsewhere(env: &Env, feature: &str, list: &TaskList, max: usize) -> OpResult<Ready> {
    let elsewhere = team::claimed_elsewhere(env, feature)?;
    if elsewhere.is_empty() {
        return Ok(list.next(max));
    }
    let mut ready = list.next(usize::MAX);
    let held: Vec<String> = ready
        .tasks
        .iter()
        .filter_map(|t| elsewhere.iter().find(|c| &c.task == t))
        .map(|c| format!("{} is claimed by {}", c.task, c.holder))
        .collect();
    ready.tasks.retain(|t| !elsewhere.iter().any(|c| &c.task == t));
    ready.tasks.truncate(max);
    if ready.tasks.is_empty() && !held.is_empty() {
        ready.reason = Some(format!("{}; nothing else is ready", held.join("; ")));
    }
    Ok(ready)
}

/// The most tasks a parallel batch holds unless `--max` says otherwise.
pub const PARALLEL_MAX: usize = 4;

/// Changes one task's checkbox. Start is refused unless the task is ready
/// (`tasks next --parallel` would hand it out) or a retry of a failed one.
pub fn mark(env: &Env, given: Option<&str>, id: &str, action: MarkAction, by: Option<&str>) -> OpResult<Marked> {
    let (project, feature) = session::find(env, given)?;
    if let Some(by) = by {
        check_implementer(by)?;
    }
    let guard = feature.lock(env.lock_timeout)?;
    // Tasks of a completed or abandoned feature do not move (exit 1).
    guard.load()?.ensure_active()?;
    if action == MarkAction::Start
        && let Some(q) = ask::suspended_on(&project, feature.name())?
    {
        return Err(ask::suspended_refusal(&q));
    }
    let (list, file) = read(guard.feature())?;
    let task = task(&list, &file, id)?;
    let target = action.target();
    if !action.from().contains(&task.mark) {
        return Err(Refusal::MarkRefused { task: task.id.clone(), from: task.mark, to: target }.into());
    }
    if action == MarkAction::Start && task.mark == Mark::Pending {
        ensure_ready(&list, task)?;
    }
    // A reviewed task is ticked by its reviewer's approval; by hand only
    // when a person accepted it as it is (its escalation), or outside
    // Claude Code.
    if action == MarkAction::Complete
        && task.review == Some(true)
        && env.operator().is_claude_code()
        && !accepted_by_person(env, &project, feature.name(), &task.id)?
    {
        return Err(Refusal::TickedByReview { task: task.id.clone(), feature: feature.name().to_owned() }.into());
    }
    let mut changes = vec![tick(guard.feature(), &file, task, target)?];
    let mut started = Started::default();
    if action == MarkAction::Start {
        started = start(env, &project, &guard, &list, task, by, &mut changes)?;
    } else {
        // Settled: when, for the retrospective and the monitor.
        let mut cycles = guard.feature().read_review_cycles()?;
        cycles.sessions.entry(feature.name().to_owned()).or_default().build.task_ended(&task.id, env.now);
        changes.push(guard.feature().review_cycles_change(&cycles, env.now));
    }
    guard.commit(&format!("tasks {} {}", target.name(), task.id), changes).inspect_err(|_| {
        if action == MarkAction::Start {
            let _ = team::release(&project, env, feature.name(), Claimed::Task(&task.id));
        }
    })?;
    if action != MarkAction::Start {
        started.team = team::release(&project, env, feature.name(), Claimed::Task(&task.id))?;
    }
    let effects = Effects::of("tasks mark").turn_to(feature.name());
    let effects = match action {
        MarkAction::Start => effects.task_started(feature.name(), &task.id),
        MarkAction::Complete => {
            leases::task_settled(&project, env, &task.id);
            effects.task_completed(feature.name(), &task.id)
        }
        MarkAction::Skip => {
            leases::task_settled(&project, env, &task.id);
            effects
        }
    };
    let problems = effects.apply(&project, env);
    Ok(Marked {
        feature: feature.name().to_owned(),
        task: task.id.clone(),
        from: task.mark,
        to: target,
        line: task.line,
        answers: started.answers,
        leases: started.leases,
        team: started.team,
        problems,
    })
}

/// What a start did besides its checkbox.
#[derive(Default)]
struct Started {
    answers: Vec<ask::Taken>,
    leases: Option<leases::TaskLeases>,
    team: Option<TeamSaid>,
}

/// A pending task starts only when it is ready; the refusal names what it
/// waits for.
fn ensure_ready(list: &TaskList, task: &Task) -> OpResult<()> {
    let ready = list.next(usize::MAX);
    if ready.tasks.contains(&task.id) {
        return Ok(());
    }
    let why = ready.reason.unwrap_or_else(|| "its dependencies or earlier tasks are not done".into());
    let unmet: Vec<&str> =
        task.depends_on.iter().filter(|d| !list.get(d).is_some_and(|t| t.mark.settled())).map(String::as_str).collect();
    let why = if unmet.is_empty() { why } else { format!("it depends on {}, not done yet", unmet.join(", ")) };
    Err(Refusal::NotReady { task: task.id.clone(), why }.into())
}

/// A start, under the feature's lock `guard`: takes in an escalation's
/// answer, checks the build may go on, claims the task for the team,
/// leases its files and records its checkpoint and attempt (the changes
/// join `changes`). A failure after the claim gives it back.
fn start(
    env: &Env,
    project: &Project,
    guard: &FeatureGuard<'_>,
    list: &TaskList,
    task: &Task,
    by: Option<&str>,
    changes: &mut Vec<FileWrite>,
) -> OpResult<Started> {
    // A retry after an escalation: its answer is taken in with the start.
    let feature = guard.feature();
    let (answers, taken_changes) = ask::take_answers(project, guard, env, None)?;
    changes.extend(taken_changes);
    let mut cycles = feature.read_review_cycles()?;
    let s = cycles.sessions.entry(feature.name().to_owned()).or_default();
    if let Err(why) =
        build::should_continue(&list.tasks, elapsed(&s.build, env), limit(project)?, s.build.stop_requested)
    {
        return Err(Refusal::BuildStopped { why, feature: feature.name().to_owned() }.into());
    }
    // The team's claim first: held on another machine, nothing here moves.
    let team = team::claim(project, env, feature.name(), Claimed::Task(&task.id))?;
    // A checkpoint: the task's change is what differs from its start
    // commit, and a rollback returns to this snapshot of the working tree.
    let dir = project.code_dir(&guard.load()?);
    let leases = leases::task_started(project, env, feature.name(), task, &dir).inspect_err(|_| {
        let _ = team::release(project, env, feature.name(), Claimed::Task(&task.id));
    })?;
    if let Some(head) = phasegate_store::git::head_commit(&dir)? {
        s.bases.insert(task.id.clone(), head);
        let skip = review::own_files(project, &dir);
        s.build.snapshots.insert(task.id.clone(), phasegate_store::git::snapshot(&dir, &skip)?);
    }
    *s.build.attempts.entry(task.id.clone()).or_default() += 1;
    let implementer = by.map(str::to_owned).unwrap_or_else(|| delegate(task));
    s.build.implementers.insert(task.id.clone(), implementer);
    s.build.started_at.get_or_insert(env.now);
    s.build.task_started(&task.id, env.now);
    changes.push(feature.review_cycles_change(&cycles, env.now));
    Ok(Started { answers, leases, team })
}

/// Who implements a task that names no `agent`: the plugin's task
/// implementer.
pub fn delegate(task: &Task) -> String {
    task.agent.clone().unwrap_or_else(|| Agent::TaskImplementer.qualified())
}

/// `--by`: an agent name or `self`.
fn check_implementer(by: &str) -> OpResult<()> {
    let ok = !by.is_empty()
        && by.len() <= 120
        && by.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.' | '/' | '@'));
    if ok { Ok(()) } else { Err(Invalid::NoImplementer { by: by.to_owned() }.into()) }
}

/// How long the build has run.
pub(crate) fn elapsed(b: &BuildState, env: &Env) -> Option<chrono::Duration> {
    b.started_at.map(|t| env.now - t)
}

/// The build's time limit in minutes (`build.time_limit_minutes`).
pub(crate) fn limit(project: &phasegate_store::Project) -> OpResult<i64> {
    Ok(project.implement_config()?.build.time_limit_minutes)
}

/// The change that sets `task`'s checkbox to `mark` in tasks.md.
pub(crate) fn tick(feature: &Feature, file: &str, task: &Task, mark: Mark) -> OpResult<FileWrite> {
    let text = feature.read_artifact(Artifact::Tasks)?.unwrap_or_default();
    let changed = set_mark(&text, task.line, mark)
        .ok_or_else(|| Invalid::CheckboxMoved { file: file.to_owned(), line: task.line })?;
    Ok(FileWrite::put(feature.artifact_path(Artifact::Tasks), changed))
}

/// The task `id` of `list`, or an error naming the file and the
/// tasks it has.
pub(crate) fn task<'a>(list: &'a TaskList, file: &str, id: &str) -> OpResult<&'a Task> {
    list.get(id).ok_or_else(|| {
        let known = list.tasks.iter().map(|t| t.id.to_string()).collect();
        Invalid::NoTask { file: file.to_owned(), id: id.to_owned(), known }.into()
    })
}

/// The parsed tasks.md and its path relative to the project.
pub(crate) fn read(feature: &Feature) -> OpResult<(TaskList, String)> {
    Ok(feature.task_list()?)
}

/// What `tasks context` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Context {
    pub feature: String,
    pub task: String,
    /// The agent to delegate to: the task's, else the default implementer.
    pub agent: String,
    pub prompt: String,
    /// What the pack kept and cut under the `task-context` budget.
    pub pack: phasegate_core::brief::Packed,
}

/// The task's context package (seed 003's CONTEXT / TASK / SUCCESS /
/// EXCLUDE) from the feature's spec, design and plan.
pub fn context(env: &Env, given: Option<&str>, id: &str) -> OpResult<Context> {
    let (project, feature) = session::find(env, given)?;
    let (list, file) = read(&feature)?;
    let task = task(&list, &file, id)?;
    let mut docs: Vec<(String, String)> = Vec::new();
    for a in [Artifact::Spec, Artifact::Design, Artifact::Plan] {
        if let Some(text) = feature.read_artifact(a)? {
            docs.push((a.file_name().to_owned(), text));
        }
    }
    let docs: Vec<(&str, &str)> = docs.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let cycles = feature.read_review_cycles()?;
    let recorded = cycles.sessions.get(feature.name()).and_then(|s| s.build.implementers.get(&task.id));
    // A task the session does itself still gets its package; it names the
    // delegate the session would have used.
    let agent = match recorded {
        Some(a) if a != SELF_IMPLEMENTER => a.clone(),
        Some(_) | None => delegate(task),
    };
    let meta = feature.load()?;
    let code_dir = project.code_dir(&meta).display().to_string();
    let brief = phasegate_core::tasks::context_package(
        &list,
        task,
        &docs,
        feature.name(),
        &feature.dir().display().to_string(),
        &code_dir,
    );
    // Seed 004 §9.1's phased loading: the feature's documents as the prime,
    // this task's gotchas, the files it names left to be read when needed.
    let subject = brief::Subject {
        feature: Some(&feature),
        work: vec![Work { task: task.id.clone(), files: task.files.clone(), action: None }],
        root: Some(project.code_dir(&meta)),
        role: Role::Implementer,
        loading: Loading::Phased,
    };
    let finished = brief::finish(&project, brief, &subject);
    brief::remember(env, &project, Some(&feature), &finished.given);
    Effects::of("tasks context").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Context {
        feature: feature.name().to_owned(),
        task: task.id.clone(),
        agent,
        prompt: finished.packed.text.clone(),
        pack: finished.packed,
    })
}

/// Whether a person answered "Accept as-is" to `task`'s review escalation,
/// as the binary recorded it.
fn accepted_by_person(env: &Env, project: &phasegate_store::Project, feature: &str, task: &str) -> OpResult<bool> {
    ask::confirm_dialogs_settled(project, env);
    let key = crate::witness::key(env)?;
    let (stored, _) = project.questions().all()?;
    Ok(stored.iter().map(|s| &s.question).any(|q| {
        q.slug == feature
            && q.task_id.as_deref() == Some(task)
            && q.tags.iter().any(|t| t == "review-escalation")
            && matches!(crate::witness::person_answer(&key, q),
                crate::witness::PersonAnswer::Recorded(a)
                    if a.by == phasegate_core::questions::AnsweredBy::Human
                        && phasegate_core::slug::norm(a.option.as_deref().unwrap_or(&a.text)) == phasegate_core::slug::norm("Accept as-is"))
    }))
}
