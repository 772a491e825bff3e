//! What a verb changes beyond its feature's own files, as a value.
//!
//! A verb loads what it needs, decides, and commits its feature's files in
//! one change under the feature's lock (`FeatureGuard::commit`, on the
//! journal that makes several files agree). What else its step causes, the
//! events it raises or settles and the note of the session's turn to the
//! feature for its cost, it returns as [`Effects`] rather than doing on the
//! side. [`Effects::apply`] runs them after that commit in one order for
//! every verb: the events under one take of their lock, then the cost
//! note. A step that happened is never undone because an effect failed:
//! the failure is written to the problems log that `workflow-state status`
//! reports, and returned for the verb to show. None is dropped in silence.

use phasegate_core::Phase;
use phasegate_core::tasks::FailureDecision;
use phasegate_store::Project;
use serde_json::{Value, json};

use super::events::{self, NewEvent};
use crate::env::Env;
use crate::error::OpResult;

/// One effect of a verb.
#[derive(Debug, Clone, PartialEq)]
enum Effect {
    /// The session turned to `feature`: its requests from now on are the
    /// feature's, for its cost.
    TurnTo { feature: String },
    /// An event to raise. With `unless_raised`, not when the log already
    /// holds one of its type about the feature.
    Raise { event_type: String, feature: Option<String>, task: Option<String>, payload: Value, unless_raised: bool },
    /// Pending events whose next step was taken, settled as done.
    Settle(Settle),
}

/// Which pending events a step settles.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Settle {
    /// Those that move `feature` on (its next step, its build, its spec,
    /// the user's turn); with `retro`, its retrospective's too.
    MovedOn { feature: String, retro: bool },
    /// `work.assigned` of the task: the work was taken up.
    TaskStarted { feature: String, task: String },
    /// `task.failed` and `work.assigned` of a task that passed.
    TaskCompleted { feature: String, task: String },
    /// The `decision.requested` that asked for the question's answer.
    QuestionAnswered { question: String },
    /// The feature's pending events of these types (a retrospective
    /// recorded settles its build's `build.completed` and `task.failed`).
    OfTypes { feature: String, types: Vec<&'static str> },
    /// These pending events, picked by the step that read them (the
    /// monitor's alerts whose condition no longer holds).
    Ids(Vec<String>),
}

/// What [`Effects::run`] did: the events raised, the ids settled, and
/// what could not be done (each also in the problems log).
#[derive(Debug, Default)]
pub struct Applied {
    pub raised: Vec<phasegate_core::coordination::Event>,
    pub settled: Vec<String>,
    /// Why the events could not all be recorded, when they could not.
    pub events_failed: Option<String>,
    pub problems: Vec<String>,
}

/// The effects of one verb, in the order they apply.
#[derive(Debug, Clone, Default, PartialEq)]
#[must_use = "effects change nothing until applied"]
pub struct Effects {
    /// What caused them, for the problems log (`phase start`, ...).
    verb: &'static str,
    list: Vec<Effect>,
}

impl Effects {
    pub fn of(verb: &'static str) -> Self {
        Effects { verb, list: Vec::new() }
    }

    fn with(mut self, effect: Effect) -> Self {
        self.list.push(effect);
        self
    }

    /// An event to raise: its type, what it is about, its payload (the
    /// transitions below name theirs; the monitor and the PM raise their
    /// alerts, questions and reassignments with it).
    pub fn raise(self, event_type: &str, feature: Option<&str>, task: Option<&str>, payload: Value) -> Self {
        let (event_type, feature, task) = (event_type.to_owned(), feature.map(str::to_owned), task.map(str::to_owned));
        self.with(Effect::Raise { event_type, feature, task, payload, unless_raised: false })
    }

    /// The session works on `feature` from now on.
    pub fn turn_to(self, feature: &str) -> Self {
        self.with(Effect::TurnTo { feature: feature.to_owned() })
    }

    /// A phase started: the feature took a next step, so the events that
    /// suggested one (`spec.approved`, `ideation.completed`, ...) settle.
    pub fn phase_started(self, feature: &str) -> Self {
        self.with(Effect::Settle(Settle::MovedOn { feature: feature.to_owned(), retro: false }))
    }

    /// A phase completed: the event it completes with, if any (specify →
    /// `spec.approved`, which sends the spec to the build).
    pub fn phase_completed(self, feature: &str, phase: Phase) -> Self {
        match phase.facts().completes_with {
            Some(event) => self.raise(event, Some(feature), None, json!({"phase": phase.name()})),
            None => self,
        }
    }

    /// The feature was finished (its retrospective is still to come) or
    /// abandoned (nothing is): what moved it on settles. A finish raises
    /// `build.completed` unless its build already did.
    pub fn feature_ended(self, feature: &str, abandoned: bool) -> Self {
        let settled = self.with(Effect::Settle(Settle::MovedOn { feature: feature.to_owned(), retro: abandoned }));
        match abandoned {
            true => settled,
            false => settled.with(Effect::Raise {
                event_type: "build.completed".to_owned(),
                feature: Some(feature.to_owned()),
                task: None,
                payload: json!({"at": "finish"}),
                unless_raised: true,
            }),
        }
    }

    /// `tasks start`: the work given to a session is taken up.
    pub fn task_started(self, feature: &str, task: &str) -> Self {
        let (feature, task) = (feature.to_owned(), task.to_owned());
        self.with(Effect::Settle(Settle::TaskStarted { feature, task }))
    }

    /// `tasks complete`: a failed task that passed asks for no immediate
    /// retrospective; the build's `build.completed` reads its failures.
    pub fn task_completed(self, feature: &str, task: &str) -> Self {
        let (feature, task) = (feature.to_owned(), task.to_owned());
        self.with(Effect::Settle(Settle::TaskCompleted { feature, task }))
    }

    /// `tasks fail`: `task.failed` with the build's decision (the
    /// retrospective extracts a gotcha at once).
    pub fn task_failed(self, feature: &str, task: &str, decision: &FailureDecision) -> Self {
        self.raise("task.failed", Some(feature), Some(task), json!({"decision": decision}))
    }

    /// A question was answered, whoever answered and wherever.
    pub fn question_answered(self, question: &str) -> Self {
        self.with(Effect::Settle(Settle::QuestionAnswered { question: question.to_owned() }))
    }

    /// A pipeline completed: `build.completed`.
    pub fn build_completed(self, feature: &str) -> Self {
        self.raise("build.completed", Some(feature), None, json!({"workflow": "pipeline"}))
    }

    /// A retrospective was recorded: the feature's pending events of
    /// `types` settle.
    pub fn settle_types(self, feature: &str, types: &[&'static str]) -> Self {
        self.with(Effect::Settle(Settle::OfTypes { feature: feature.to_owned(), types: types.to_vec() }))
    }

    /// These pending events settle (a step that read them picked them).
    pub fn settle_ids(self, ids: Vec<String>) -> Self {
        match ids.is_empty() {
            true => self,
            false => self.with(Effect::Settle(Settle::Ids(ids))),
        }
    }

    /// Runs the effects: the events first, under one take of their lock
    /// (settling needs neither lock nor write when nothing is pending), then
    /// the cost note. Returns what could not be done, each also in the
    /// problems log; empty when all went through.
    pub fn apply(self, project: &Project, env: &Env) -> Vec<String> {
        self.run(project, env).problems
    }

    /// [`Self::apply`], with what it raised and settled for a verb that
    /// reports them (an event's id, how many events a step settled).
    pub fn run(self, project: &Project, env: &Env) -> Applied {
        let (events, turns): (Vec<Effect>, Vec<Effect>) =
            self.list.into_iter().partition(|e| !matches!(e, Effect::TurnTo { .. }));
        let mut done = Applied::default();
        // No event, or settling alone with nothing pending: nothing to do.
        let idle = events.is_empty()
            || (events.iter().all(|e| matches!(e, Effect::Settle(_))) && events::nothing_pending(project));
        if !idle
            && let Err(e) = events::with_held(project, env, |held| {
                let mut batch = Vec::new();
                for effect in events {
                    match effect {
                        // Raises in a row are appended in one write.
                        Effect::Raise { event_type, feature, task, payload, unless_raised: false } => {
                            batch.push((event_type, feature, task, payload));
                        }
                        other => {
                            raise_batch(held, &mut batch, &mut done)?;
                            apply_event(held, other, &mut done)?;
                        }
                    }
                }
                raise_batch(held, &mut batch, &mut done)
            })
        {
            done.problems.push(format!("{}: its events were not all recorded: {e}", self.verb));
            done.events_failed = Some(e.to_string());
        }
        let problems = &mut done.problems;
        for effect in turns {
            if let Effect::TurnTo { feature } = effect
                && let Err(e) = crate::session::note_turn(project, env, &feature)
            {
                problems.push(format!("{}: the turn to {feature} was not noted for its cost: {e}", self.verb));
            }
        }
        for problem in problems.iter() {
            events::note_problem(project, env, "effects", problem);
        }
        done
    }

    /// [`Self::apply`] for a verb whose outcome has no place to show what
    /// failed: it is in the problems log only.
    pub fn apply_to_log(self, project: &Project, env: &Env) {
        let _in_the_log = self.apply(project, env);
    }
}

type Raised = (String, Option<String>, Option<String>, Value);

/// Appends the raises gathered so far, in one write of the log.
fn raise_batch(held: &mut events::Held<'_>, batch: &mut Vec<Raised>, done: &mut Applied) -> OpResult<()> {
    if batch.is_empty() {
        return Ok(());
    }
    let taken = std::mem::take(batch);
    let new = taken
        .iter()
        .map(|(event_type, feature, task, payload)| NewEvent {
            event_type,
            feature: feature.as_deref(),
            task: task.as_deref(),
            payload: payload.clone(),
        })
        .collect();
    done.raised.extend(held.raise_all(new)?);
    Ok(())
}

fn apply_event(held: &mut events::Held<'_>, effect: Effect, done: &mut Applied) -> OpResult<()> {
    let settled = match effect {
        Effect::TurnTo { .. } => return Ok(()),
        Effect::Raise { event_type, feature, task, payload, unless_raised } => {
            let new = NewEvent { event_type: &event_type, feature: feature.as_deref(), task: task.as_deref(), payload };
            done.raised.extend(held.raise(new, unless_raised)?);
            return Ok(());
        }
        Effect::Settle(Settle::MovedOn { feature, retro }) => held.settle_moved_on(&feature, retro)?,
        Effect::Settle(Settle::TaskStarted { feature, task }) => held.settle(|e| {
            e.event_type.as_str() == "work.assigned"
                && e.feature.as_deref() == Some(&feature)
                && e.task.as_deref() == Some(&task)
        })?,
        Effect::Settle(Settle::TaskCompleted { feature, task }) => held.settle(|e| {
            matches!(e.event_type.as_str(), "task.failed" | "work.assigned")
                && e.feature.as_deref() == Some(&feature)
                && e.task.as_deref() == Some(&task)
        })?,
        Effect::Settle(Settle::QuestionAnswered { question }) => held.settle(|e| {
            e.event_type.as_str() == "decision.requested"
                && e.payload.get("question").and_then(Value::as_str) == Some(&question)
        })?,
        Effect::Settle(Settle::OfTypes { feature, types }) => {
            held.settle(|e| e.feature.as_deref() == Some(&feature) && types.contains(&e.event_type.as_str()))?
        }
        Effect::Settle(Settle::Ids(ids)) => held.settle(|e| ids.contains(&e.id))?,
    };
    done.settled.extend(settled);
    Ok(())
}
