//! Per-task review cycles (seed 003) for an orchestrated implement: the
//! facts for choosing a reviewer (the task's change from git, the review
//! priorities it calls for, the agents installed, each one's history), the
//! seed's REVIEW REQUEST, and recording a reply (JSON verdict or the seed's
//! fuzzy detection) through the one review-cycle engine. An approval ticks
//! the task in the same journaled change; the cap escalates to a person.

use phasegate_core::change::{BRIEF_PATCH_BYTES, CodeChange};
use phasegate_core::cycle::Decision;
use phasegate_core::questions::{ItemType, Request};
use phasegate_core::tasks::{CycleRecorded as Recorded, FailureRate, TaskCycle, TaskReviewStatus as ReviewStatus};
use phasegate_core::tasks::{DefaultAction, RecordedNext, ReviewTimedOut, reply_format};
use phasegate_core::tasks::{Mark, SELF_IMPLEMENTER, SessionCycles, Task};
use phasegate_core::tasks::{RequestInput, priorities, review_request};
use phasegate_core::words::Command;
use phasegate_core::{Agent, agent::AgentRole};
use phasegate_store::agents::{AgentInfo, discover};
use phasegate_store::{Feature, Project};
use serde::Serialize;

use super::marks;
use crate::brief;
use crate::coordination::effects::Effects;
use crate::env::{self, Env};
use crate::error::{Invalid, InvalidInput, OpResult, Refusal};
use crate::feature::review;
use crate::knowledge::inject;
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;
use crate::witness;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub name: String,
    pub description: String,
    pub source: phasegate_store::agents::Source,
    pub model: Option<String>,
    pub reviews: u32,
    pub failure_rate: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Priority {
    pub priority: &'static str,
    pub evidence: Vec<&'static str>,
}

/// What `tasks reviewers` prints: the facts; the model reasons and picks.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    pub feature: String,
    pub task: Task,
    pub implementer: String,
    pub base: Option<String>,
    pub files: Vec<phasegate_core::change::FileChange>,
    pub priorities: Vec<Priority>,
    /// Every available agent but the implementer.
    pub candidates: Vec<Candidate>,
    /// Agent files that could not be read.
    pub problems: Vec<String>,
    /// The task's cycle so far.
    pub cycle: Option<TaskCycle>,
}

/// What `tasks review` prints: the reviewer's prompt.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Brief {
    pub feature: String,
    pub task: String,
    pub agent: String,
    pub cycle: u32,
    pub max_cycles: u32,
    /// The TodoWrite text of the task while under review (seed: `review_cycle 2/3`).
    pub todo: String,
    /// When the review times out (seed 003: 5 minutes, `review_timeout_minutes`):
    /// past it, record `--timed-out`.
    pub deadline: String,
    pub prompt: String,
}

/// What `tasks record` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    #[serde(flatten)]
    pub recorded: Recorded,
    /// The task was ticked done with the approval.
    pub ticked: bool,
    /// After the cap: the escalation question and where it went.
    pub escalation: Option<Asked>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: RecordedNext,
}

fn agents(project: &Project) -> (Vec<AgentInfo>, Vec<String>) {
    discover(project.root(), env::home().as_deref(), env::plugin_root().as_deref())
}

/// Who implemented the task: as `tasks start --by` recorded it, else its
/// `agent`, else the plugin's task implementer.
fn implementer(task: &Task, session: Option<&SessionCycles>) -> String {
    session.and_then(|s| s.build.implementers.get(&task.id)).cloned().unwrap_or_else(|| super::marks::delegate(task))
}

/// The implementer as a review request and a message name it.
fn implementer_name(implementer: &str) -> String {
    if implementer == SELF_IMPLEMENTER { "the orchestrating session itself".to_owned() } else { implementer.to_owned() }
}

/// What to do with review findings: fix them in this session, or send them
/// back to the agent that implemented the task.
/// Whether an agent may review: not the implementer, and not one of this
/// plugin's workers (they write documents and code; they do not judge) or
/// its retrospective (it judges finished builds, not a task's change).
fn may_review(name: &str, implementer: &str) -> bool {
    let plugin_non_reviewer = name.starts_with("phasegate:")
        && Agent::from_qualified(name).is_some_and(|a| match a.role() {
            AgentRole::Reviewer => false,
            AgentRole::Worker | AgentRole::Analyst => true,
        });
    name != implementer && !plugin_non_reviewer
}

fn task_of(feature: &Feature, id: &str) -> OpResult<(Task, String)> {
    let (list, file) = marks::read(feature)?;
    let task = marks::task(&list, &file, id)?.clone();
    Ok((task, file))
}

fn change_of(
    project: &Project,
    feature: &Feature,
    base: Option<&str>,
) -> OpResult<Option<phasegate_core::change::CodeChange>> {
    let Some(base) = base else { return Ok(None) };
    let meta = feature.load()?;
    Ok(Some(review::code_change(project, &project.code_dir(&meta), base)?))
}

/// The facts for choosing the task's reviewer.
pub fn reviewers(env: &Env, given: Option<&str>, id: &str) -> OpResult<Facts> {
    let (project, feature) = session::find(env, given)?;
    let (task, _) = task_of(&feature, id)?;
    let cycles = feature.read_review_cycles()?;
    let session = cycles.sessions.get(feature.name());
    let base = session.and_then(|s| s.bases.get(&task.id)).cloned();
    let change = change_of(&project, &feature, base.as_deref())?;
    let implementer = implementer(&task, session);
    let (found, problems) = agents(&project);
    let rates = session.map(|s| s.global_patterns.reviewer_failure_rates.clone()).unwrap_or_default();
    let candidates = found
        .into_iter()
        .filter(|a| may_review(&a.name, &implementer))
        .map(|a| {
            let r: Option<&FailureRate> = rates.get(&a.name);
            Candidate {
                reviews: r.map_or(0, |r| r.total_reviews),
                failure_rate: r.map(|r| r.failure_rate),
                name: a.name,
                description: a.description,
                source: a.source,
                model: a.model,
            }
        })
        .collect();
    let (files, priorities) = match &change {
        Some(c) => (
            c.files.clone(),
            priorities(c).into_iter().map(|(priority, evidence)| Priority { priority, evidence }).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    Effects::of("tasks reviewers").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Facts {
        feature: feature.name().to_owned(),
        cycle: session.and_then(|s| s.tasks.get(&task.id)).cloned(),
        task,
        implementer,
        base,
        files,
        priorities,
        candidates,
        problems,
    })
}

fn reply_path(feature: &Feature, task: &str) -> std::path::PathBuf {
    feature.dir().join(reply_name(task))
}

fn reply_name(task: &str) -> String {
    format!(".{task}.review.md")
}

/// Begins (or resumes at its current cycle) the task's review with
/// `reviewer` and prints the seed's REVIEW REQUEST. Refused: an agent that
/// is not installed, or the task's own implementer.
pub fn review(
    env: &Env,
    given: Option<&str>,
    id: &str,
    reviewer: Option<&str>,
    max_cycles: Option<u32>,
) -> OpResult<Brief> {
    let (project, feature) = session::find(env, given)?;
    let (task, _) = task_of(&feature, id)?;
    let (found, _) = agents(&project);
    if let Some(reviewer) = reviewer
        && !found.iter().any(|a| a.name == reviewer)
    {
        return Err(Refusal::UnknownAgent {
            agent: reviewer.to_owned(),
            available: found.iter().map(|a| a.name.clone()).collect(),
        }
        .into());
    }
    let config = project.implement_config()?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    let session = cycles.sessions.entry(feature.name().to_owned()).or_default();
    let implementer = implementer(&task, Some(session));
    let reviewer = reviewer_of(reviewer, session, &task.id, feature.name())?;
    let reviewer = reviewer.as_str();
    let title = format!("{}: {}", task.id, task.title);
    let t = session
        .begin(&task.id, &title, &implementer, reviewer, max_cycles.unwrap_or(config.max_cycles), env.now)?
        .clone();
    if let Some(o) = t.outcome {
        return Err(Refusal::CycleOver { task: task.id.clone(), outcome: o }.into());
    }
    let pending = t.reviewers.iter().rev().find(|r| r.cycle == t.current_cycle && r.status == ReviewStatus::Pending);
    let agent = pending.map_or_else(|| reviewer.to_owned(), |r| r.agent.clone());
    // The deadline counts from when this cycle's review is first asked.
    let asked_at = session.ask(&task.id, env.now)?;
    let deadline = asked_at + chrono::Duration::minutes(config.review_timeout_minutes as i64);
    let base = session.bases.get(&task.id).cloned();
    guard.commit("tasks review", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
    drop(guard);
    let change = change_of(&project, &feature, base.as_deref())?;
    let changes = changes_text(change.as_ref());
    let focus = review_focus(&task, change.as_ref());
    let previous = t.revision_feedback();
    let request = review_request(&RequestInput {
        cycle: t.current_cycle,
        max_cycles: t.max_cycles,
        task: &title,
        implementer: &implementer_name(&implementer),
        changes: &changes,
        focus: &focus,
        previous: &previous,
        reply_format: &reply_format(),
    });
    let subject = brief::Subject {
        feature: Some(&feature),
        work: vec![inject::Work { task: task.id.clone(), files: task.files.clone(), action: None }],
        root: Some(project.code_dir(&feature.load()?)),
        role: brief::Role::Reviewer,
        loading: phasegate_core::brief::Loading::Eager,
    };
    let prompt = brief::finish(&project, request, &subject).packed.text;
    // The reply is taken from a reviewer spawned with this very prompt.
    witness::note_brief(env, &project, &task_subject(feature.name(), &task.id, t.current_cycle, &agent), &prompt)?;
    Effects::of("tasks review").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Brief {
        feature: feature.name().to_owned(),
        task: task.id.clone(),
        agent,
        cycle: t.current_cycle,
        max_cycles: t.max_cycles,
        todo: format!("{} (review_cycle {}/{})", title, t.current_cycle, t.max_cycles),
        deadline: phasegate_core::time::stamp(deadline),
        prompt,
    })
}

/// The reviewer of the task's review: the one named, else the reviewer
/// of the cycle under way; the first review needs one named.
fn reviewer_of(named: Option<&str>, session: &SessionCycles, task: &str, feature: &str) -> OpResult<String> {
    // A cycle under way resumes with its reviewer; the first review needs one.
    Ok(match (named, session.tasks.get(task).and_then(|t| t.reviewers.last())) {
        (Some(r), _) => r.to_owned(),
        (None, Some(last)) => last.agent.clone(),
        (None, None) => {
            return Err(Invalid::NoReviewerNamed { task: task.to_owned(), feature: feature.to_owned() }.into());
        }
    })
}

/// The task's change as the review request shows it: its files, then as
/// much of its diff as fits.
fn changes_text(change: Option<&CodeChange>) -> String {
    match change {
        Some(c) => {
            let (excerpt, cut) = c.excerpt(BRIEF_PATCH_BYTES);
            let files: Vec<String> =
                c.files.iter().map(|f| format!("{} (+{} -{})", f.path, f.insertions, f.deletions)).collect();
            format!(
                "{}\n{}{}",
                files.join("\n"),
                excerpt,
                if cut { "\n[the rest of the diff is left out]" } else { "" }
            )
        }
        None => "(the task has no start commit: see `git diff` and `git log`)".to_owned(),
    }
}

/// What the reviewer looks at first: the task's own focus, then what its
/// change touches.
fn review_focus(task: &Task, change: Option<&CodeChange>) -> Vec<String> {
    let mut focus: Vec<String> = task.review_focus.clone();
    if let Some(c) = change {
        for (p, _) in priorities(c) {
            if !focus.iter().any(|f| f == p) {
                focus.push(p.to_owned());
            }
        }
    }
    focus
}

/// What a task's reviewer is briefed for: one cycle.
fn task_subject<'a>(feature: &'a str, task: &str, cycle: u32, agent: &str) -> witness::Subject<'a> {
    witness::Subject { feature, key: format!("{task}#{cycle}"), agent: agent.to_owned() }
}

/// Records the reviewer's reply for the task's current cycle. Inside Claude
/// Code the reply is the one of the reviewer `tasks review` named, read
/// from Claude Code's transcript (`reply`, when given, must be it);
/// outside, the reply a person gives, recorded as theirs.
pub fn record(
    env: &Env,
    given: Option<&str>,
    id: &str,
    reply: Option<witness::Given>,
    session_kind: Interaction,
) -> OpResult<Outcome> {
    let (project, feature) = session::find(env, given)?;
    let (found, _) = agents(&project);
    let available: Vec<String> = found.into_iter().map(|a| a.name).collect();
    let (task, _) = task_of(&feature, id)?;
    let (cycle, reviewer) = feature
        .read_review_cycles()?
        .sessions
        .get(feature.name())
        .ok_or_else(|| phasegate_core::tasks::CycleError::NotStarted(task.id.clone()))?
        .under_review(&task.id)?;
    let brief = Command::new("tasks review").arg(&task.id).feature(&feature.name()).to_string();
    let verdict =
        witness::verdict(env, &project, &task_subject(feature.name(), &task.id, cycle, &reviewer), reply, &brief)?;
    let guard = feature.lock(env.lock_timeout)?;
    let (task, file) = task_of(guard.feature(), id)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    let session = cycles.sessions.entry(feature.name().to_owned()).or_default();
    if session.under_review(&task.id)?.0 != cycle {
        return Err(Refusal::CycleMoved { task: task.id.clone(), cycle }.into());
    }
    let task_implementer = implementer(&task, Some(session));
    let recorded = session.record(&task.id, &verdict.text, Some(verdict.by.clone()), &available, env.now)?;
    let ticked = recorded.decision == Some(Decision::Approved) && task.mark != Mark::Done;
    if ticked {
        session.build.task_ended(&task.id, env.now);
    }
    let mut changes = vec![guard.feature().review_cycles_change(&cycles, env.now)];
    if ticked {
        changes.push(marks::tick(guard.feature(), &file, &task, Mark::Done)?);
    }
    let reply_file = reply_path(guard.feature(), &task.id);
    if guard.feature().has_file(&reply_name(&task.id)) {
        changes.push(phasegate_store::FileWrite::remove(&reply_file));
    }
    guard.commit("tasks record", changes)?;
    drop(guard);
    witness::count(env, &project, feature.name(), &verdict)?;
    let (escalation, message) = match (recorded.status, recorded.decision) {
        (ReviewStatus::Unclear, _) => (None, RecordedNext::Unclear { reviewer: recorded.next_reviewer.clone() }),
        (_, Some(Decision::Approved)) => (None, RecordedNext::Approved { task: task.id.clone() }),
        (_, Some(Decision::Revise)) => (
            None,
            RecordedNext::Revise {
                feature: feature.name().to_owned(),
                task: task.id.clone(),
                implementer: task_implementer.clone(),
                cycle: recorded.cycle,
                reviewer: recorded.next_reviewer.clone(),
                switched: recorded.switch.as_ref().map(|s| s.reason.clone()),
            },
        ),
        (_, Some(Decision::CapReached)) | (_, None) => {
            let config = project.implement_config()?;
            let asked = escalate(env, feature.name(), &task, recorded.max_cycles, &config, session_kind)?;
            let said = RecordedNext::CapReached {
                task: task.id.clone(),
                max_cycles: recorded.max_cycles,
                asked: asked.message.clone(),
            };
            (Some(asked), said)
        }
    };
    Effects::of("tasks record").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Outcome { recorded, ticked, escalation, message })
}

/// Seed 003's escalation: accept as-is, fix by hand, skip, abort; the
/// default (skip with a warning) applies when nobody answers in 5 minutes.
fn escalate(
    env: &Env,
    feature: &str,
    task: &Task,
    max: u32,
    config: &phasegate_core::tasks::ImplementConfig,
    session: Interaction,
) -> OpResult<Asked> {
    let default = config.escalation.default_action.option();
    let request = Request::parse(
        &serde_json::json!({
            "type": "confirming",
            "text": format!("Task {} ({}) is still not approved after {max} review cycles. How should it go on?", task.id, task.title),
            "options": [
                {"label": "Accept as-is", "description": "tick it done as it is (`tasks complete`)", "recommended": default == "Accept as-is"},
                {"label": "Fix by hand", "description": "you fix it; the task waits"},
                {"label": "Skip", "description": "move on with a warning (`tasks skip`)", "recommended": default == "Skip"},
                {"label": "Abort", "description": "stop the implement phase", "recommended": default == "Abort"}
            ],
            "allowFreeText": false,
            "defaultOption": default,
            "expiresAfterMinutes": config.escalation.timeout_minutes,
            "tags": ["review-escalation"]
        })
        .to_string(),
    )
    .invalid_input()?;
    ask::ask(
        env,
        Some(feature),
        AskInput { request, task: Some(task.id.clone()), item_type: ItemType::Feature, session, round: None },
    )
}

/// What `tasks record --timed-out` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimedOut {
    pub feature: String,
    pub task: String,
    pub reviewer: String,
    /// The configured default action (seed 003: skip_with_warning).
    pub action: DefaultAction,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: ReviewTimedOut,
}

/// Seed 003's review timeout: the pending review is marked TIMEOUT and the
/// configured default action applies: skip the task with a warning, accept
/// it as it is, or stop the build.
pub fn timed_out(env: &Env, given: Option<&str>, id: &str) -> OpResult<TimedOut> {
    let (project, feature) = session::find(env, given)?;
    let config = project.implement_config()?;
    let guard = feature.lock(env.lock_timeout)?;
    let (task, file) = task_of(guard.feature(), id)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    let session = cycles.sessions.entry(feature.name().to_owned()).or_default();
    let entry = session.time_out(&task.id, env.now, config.review_timeout_minutes)?;
    let action = config.escalation.default_action;
    let mut changes = Vec::new();
    match action {
        DefaultAction::SkipWithWarning => changes.push(marks::tick(guard.feature(), &file, &task, Mark::Skipped)?),
        DefaultAction::AcceptAsIs => changes.push(marks::tick(guard.feature(), &file, &task, Mark::Done)?),
        DefaultAction::AbortProcess => session.build.stop_requested = true,
    }
    let message = ReviewTimedOut { task: task.id.clone(), reviewer: entry.agent.clone(), action };
    changes.insert(0, guard.feature().review_cycles_change(&cycles, env.now));
    guard.commit("tasks record --timed-out", changes)?;
    Effects::of("tasks record --timed-out").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(TimedOut { feature: feature.name().to_owned(), task: task.id, reviewer: entry.agent, action, message })
}
