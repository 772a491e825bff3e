//! The PM's decisions carried out (seed 004 §8.2): the rules are the
//! core's (`handle_stuck_task`, `handle_conflict`, `redistribute`); this
//! module applies them to the repository and logs each with its reason.
//!
//! - WATCH is logged, and logged again at most every 5 minutes.
//! - ESCALATE asks the person a blocking question with the options wait,
//!   skip and retry (`question ask` semantics: in an interactive session
//!   the model asks with AskUserQuestion, a headless one suspends the
//!   feature until it is answered), and emits `decision.requested`. It is
//!   asked once per run of the task.
//! - The person's answer is carried out at the next check: `wait` keeps
//!   the task running under WATCH only (the PM does not interrupt what a
//!   person chose to wait for); `skip` skips it; `retry` starts its clock
//!   again and tells its session to start over.
//! - INTERRUPT tells the task's session at its next hook to stop, skips the
//!   task (`tasks skip` semantics), withdraws the open escalation, and the
//!   build continues with the next task.
//! - A session that went down: its tasks in progress go back to pending
//!   and to the least-loaded live session (`work.assigned`); its record
//!   moves to ERROR, so this happens once.

use chrono::{DateTime, TimeDelta, Utc};
use phasegate_core::coordination::{
    ActiveTask, Assignment, CHECK_AGAIN_IN, EscalationOption, FollowUp, PmAction, PmDecision, SessionRecord,
    SessionState, Target, handle_stuck_task, redistribute,
};
use phasegate_core::questions::{ItemType, Request};
use phasegate_core::session::SessionId;
use phasegate_core::tasks::Mark;
use phasegate_core::words::Command;
use phasegate_store::coordination::leases::Notice;
use phasegate_store::questions::question_change;
use phasegate_store::{FileWrite, Project};

use crate::coordination::Logged;
use crate::coordination::effects::Effects;
use crate::coordination::leases;
use crate::env::Env;
use crate::error::{InvalidInput, OpResult};
use crate::questions::ask::{self, AskInput, Interaction};
use crate::tasks::marks;

fn rank(a: PmAction) -> u8 {
    match a {
        PmAction::Watch => 1,
        PmAction::Escalate => 2,
        PmAction::Interrupt => 3,
        PmAction::Grant | PmAction::Preempt | PmAction::Deny | PmAction::Reassign => 0,
    }
}

/// A task in progress as the monitor found it, with what the PM needs to
/// act on it.
#[derive(Debug, Clone)]
pub struct Running {
    pub task: ActiveTask,
    pub feature: String,
    pub title: String,
}

/// The PM's decision on one stuck task, carried out and returned for the
/// log (None: nothing new to decide).
pub fn stuck_task(project: &Project, env: &Env, r: &Running, log: &[Logged]) -> Option<Logged> {
    let subject = r.task.subject();
    let prior: Vec<&Logged> =
        log.iter().filter(|l| l.decision.subject == subject && l.task_started_at == Some(r.task.started_at)).collect();
    let base = |decision: PmDecision| Logged {
        decision,
        feature: Some(r.feature.clone()),
        task: Some(r.task.id.clone()),
        task_started_at: Some(r.task.started_at),
        question: None,
        chose: None,
        done: Vec::new(),
    };
    // The person's answer to our escalation, carried out once.
    if !prior.iter().any(|l| l.chose.is_some())
        && let Some((qid, choice)) =
            prior.iter().filter_map(|l| l.question.as_deref()).find_map(|q| answered(project, env, q))
    {
        return Some(carry_out(project, env, r, base, &qid, choice));
    }
    let waited = prior.iter().any(|l| l.chose == Some(EscalationOption::Wait));
    let mut d = handle_stuck_task(&r.task, env.now);
    if waited && d.action != PmAction::Watch {
        d = PmDecision {
            action: PmAction::Watch,
            target: Target::Session(r.task.session.clone()),
            reason: format!("the person chose to wait for {}; watching, not interrupting", r.task.id),
            message: None,
            follow_up: None,
            options: Vec::new(),
            check_again_in_minutes: Some(CHECK_AGAIN_IN.num_minutes()),
            ..d
        };
    }
    let last = prior.iter().rev().find(|l| rank(l.decision.action) > 0);
    match last {
        Some(l) if l.decision.action == d.action => {
            // WATCH again after its 5 minutes; ESCALATE and INTERRUPT once.
            if d.action != PmAction::Watch || env.now - l.decision.decided_at < CHECK_AGAIN_IN {
                return None;
            }
        }
        Some(l) if rank(d.action) < rank(l.decision.action) => return None,
        Some(_) | None => {}
    }
    let mut logged = base(d);
    match logged.decision.action {
        PmAction::Watch => {}
        PmAction::Escalate => escalate(project, env, r, &mut logged),
        PmAction::Interrupt => {
            interrupt(project, env, r, &mut logged, "it has run more than 30 minutes");
        }
        PmAction::Grant | PmAction::Preempt | PmAction::Deny | PmAction::Reassign => {}
    }
    Some(logged)
}

/// The choice on an answered escalation question, if answered.
/// A person's answer to the PM's escalation `id`, as the binary recorded
/// it (an answer written by hand decides nothing).
fn answered(project: &Project, env: &Env, id: &str) -> Option<(String, EscalationOption)> {
    let (stored, _) = project.questions().all().ok()?;
    let q = &stored.iter().find(|s| s.question.id == id)?.question;
    let key = crate::witness::key(env).ok()?;
    let crate::witness::PersonAnswer::Recorded(a) = crate::witness::person_answer(&key, q) else { return None };
    let word = a.option.clone().unwrap_or_else(|| a.text.clone()).trim().to_lowercase();
    let choice = word.split_whitespace().next()?.parse::<EscalationOption>().ok()?;
    Some((id.to_owned(), choice))
}

fn carry_out(
    project: &Project,
    env: &Env,
    r: &Running,
    base: impl Fn(PmDecision) -> Logged,
    qid: &str,
    choice: EscalationOption,
) -> Logged {
    let session = Target::Session(r.task.session.clone());
    let decision = |action, reason: String, follow_up| PmDecision {
        action,
        target: session.clone(),
        subject: r.task.subject(),
        reason,
        message: None,
        follow_up,
        suggestion: None,
        options: Vec::new(),
        check_again_in_minutes: (action == PmAction::Watch).then(|| CHECK_AGAIN_IN.num_minutes()),
        decided_at: env.now,
    };
    let mut logged = match choice {
        EscalationOption::Wait => base(decision(
            PmAction::Watch,
            format!("the person chose to wait for {} ({qid}); watching, not interrupting", r.task.id),
            None,
        )),
        EscalationOption::Skip => {
            let mut l = base(decision(
                PmAction::Interrupt,
                format!("the person chose to skip {} ({qid})", r.task.id),
                Some(FollowUp::SkipAndContinue),
            ));
            interrupt(project, env, r, &mut l, "the person chose to skip it");
            l
        }
        EscalationOption::Retry => {
            let mut l = base(decision(
                PmAction::Watch,
                format!("the person chose to retry {} ({qid}); it starts over and its clock restarts", r.task.id),
                None,
            ));
            restart(project, env, r, &mut l);
            l
        }
    };
    logged.question = Some(qid.to_owned());
    logged.chose = Some(choice);
    take_question(project, env, &r.feature, qid, &mut logged);
    Effects::of("pm").question_answered(qid).apply_to_log(project, env);
    logged
}

/// The escalation: a blocking question with wait / skip / retry.
fn escalate(project: &Project, env: &Env, r: &Running, logged: &mut Logged) {
    let message = logged.decision.message.clone().unwrap_or_default();
    let request = Request::parse(
        &serde_json::json!({
            "type": "blocking",
            "text": format!("{message} ({}: {})", r.feature, r.title),
            "context": format!("The PM escalates a task that has run more than 20 minutes; at 30 it is interrupted and skipped unless you choose wait."),
            "options": [
                {"label": "wait", "description": format!("let {} run on; the PM watches and does not interrupt it", r.task.id)},
                {"label": "skip", "description": format!("skip {} and go on with the next task", r.task.id)},
                {"label": "retry", "description": format!("start {} over", r.task.id)}
            ],
            "allowFreeText": false,
            "tags": ["pm", "stuck-task"]
        })
        .to_string(),
    );
    let asked = request.invalid_input().and_then(|request| {
        ask::ask(
            env,
            Some(&r.feature),
            AskInput {
                request,
                task: Some(r.task.id.clone()),
                item_type: ItemType::Feature,
                session: Interaction::of_this_process(),
                round: None,
            },
        )
    });
    match asked {
        Ok(a) => {
            logged.question = a.id.clone();
            logged.done.push(format!("asked {} ({})", a.id.as_deref().unwrap_or("-"), a.route));
            let payload = serde_json::json!({"question": a.id, "route": a.route, "options": ["wait", "skip", "retry"], "message": message});
            Effects::of("pm")
                .raise("decision.requested", Some(&r.feature), Some(&r.task.id), payload)
                .apply_to_log(project, env);
        }
        Err(why) => logged.done.push(format!("not asked: {why}")),
    }
}

/// INTERRUPT: the session is told; the task is skipped; the escalation
/// is withdrawn; the session's leases for the task go back.
fn interrupt(project: &Project, env: &Env, r: &Running, logged: &mut Logged, why: &str) {
    let text = format!(
        "phasegate PM: stop working on {} of {} ({why}): it is skipped. Set your change to it aside, then go on with `{tasks_next}`.",
        r.task.id,
        r.feature,
        tasks_next = Command::new("tasks next").feature(&r.feature)
    );
    notify(project, env, &r.task.session, &text);
    match settle(project, env, &r.feature, &r.task.id, Mark::Skipped) {
        Ok(true) => logged.done.push(format!("{} skipped", r.task.id)),
        Ok(false) => logged.done.push(format!("{} was no longer in progress", r.task.id)),
        Err(e) => logged.done.push(format!("{} not skipped: {e}", r.task.id)),
    }
    leases::release_task(
        project,
        &r.task.session,
        &r.task.id,
        phasegate_core::coordination::PathCase::native(),
        env.lock_timeout,
    );
}

/// Retry: the task's clock starts again and its session is told.
fn restart(project: &Project, env: &Env, r: &Running, logged: &mut Logged) {
    let feature = project.feature_named(&r.feature);
    let result = (|| -> OpResult<()> {
        let guard = feature.lock(env.lock_timeout)?;
        let mut cycles = guard.feature().read_review_cycles()?;
        let b = &mut cycles.sessions.entry(r.feature.clone()).or_default().build;
        b.task_started(&r.task.id, env.now);
        *b.attempts.entry(r.task.id.clone()).or_default() += 1;
        guard.commit("pm retry", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
        Ok(())
    })();
    match result {
        Ok(()) => logged.done.push(format!("{}'s clock restarted", r.task.id)),
        Err(e) => logged.done.push(format!("{}'s clock not restarted: {e}", r.task.id)),
    }
    let text = format!(
        "phasegate PM: the person chose to retry {} of {}: start it over from a clean state (its clock restarted).",
        r.task.id, r.feature
    );
    notify(project, env, &r.task.session, &text);
}

fn notify(project: &Project, env: &Env, session: &SessionId, text: &str) {
    let _ = project.coordination().add_notice(
        session,
        &Notice { at: env.now, from: "pm".into(), text: text.to_owned() },
        env.lock_timeout,
    );
}

/// Moves a task in progress to `mark` (skipped, or pending for another
/// session) with its end time, and withdraws the PM's open escalation of
/// it. False when the task was not in progress any more.
pub fn settle(project: &Project, env: &Env, feature: &str, task: &str, mark: Mark) -> OpResult<bool> {
    let feature = project.feature_named(feature);
    let guard = feature.lock(env.lock_timeout)?;
    let (list, file) = guard.feature().task_list()?;
    let t = marks::task(&list, &file, task)?;
    if t.mark != Mark::InProgress {
        return Ok(false);
    }
    let mut changes = vec![marks::tick(guard.feature(), &file, t, mark)?];
    let mut cycles = guard.feature().read_review_cycles()?;
    let b = &mut cycles.sessions.entry(feature.name().to_owned()).or_default().build;
    match mark {
        Mark::Pending => {
            b.started.remove(task);
        }
        Mark::InProgress | Mark::Done | Mark::Skipped | Mark::Failed => {
            b.task_ended(task, env.now);
        }
    }
    changes.push(guard.feature().review_cycles_change(&cycles, env.now));
    changes.extend(withdraw_escalations(project, feature.name(), task, env.now));
    guard.commit(&format!("pm {} {task}", mark.name()), changes)?;
    Ok(true)
}

/// The changes that withdraw the PM's open questions about `task`.
fn withdraw_escalations(project: &Project, slug: &str, task: &str, now: DateTime<Utc>) -> Vec<FileWrite> {
    let Ok((stored, _)) = project.questions().all() else { return Vec::new() };
    let mut changes = Vec::new();
    for s in stored.iter().filter(|s| {
        s.question.slug == slug
            && s.question.task_id.as_deref() == Some(task)
            && s.question.taken_at.is_none()
            && s.question.tags.iter().any(|t| t == "pm")
    }) {
        let mut q = s.question.clone();
        q.taken_at = Some(now);
        if q.answer.is_none() {
            q.withdrawn_at = Some(now);
        }
        changes.push(question_change(&project.questions().queued_path(&q.id), &q));
        if s.place == phasegate_store::questions::Place::Marker {
            changes.push(FileWrite::remove(&s.path));
        }
    }
    changes
}

/// Takes an answered escalation out of the open questions (the feature is
/// no longer suspended on it).
fn take_question(project: &Project, env: &Env, slug: &str, qid: &str, logged: &mut Logged) {
    let feature = project.feature_named(slug);
    let Ok(guard) = feature.lock(env.lock_timeout) else { return };
    let Ok((stored, _)) = project.questions().all() else { return };
    let Some(s) = stored.iter().find(|s| s.question.id == qid && s.question.taken_at.is_none()) else { return };
    let mut q = s.question.clone();
    q.taken_at = Some(env.now);
    let mut changes = vec![question_change(&project.questions().queued_path(&q.id), &q)];
    if s.place == phasegate_store::questions::Place::Marker {
        changes.push(FileWrite::remove(&s.path));
    }
    if guard.commit("pm take answer", changes).is_ok() {
        logged.done.push(format!("answer to {qid} taken in"));
    }
}

/// A down session's tasks in progress go back to pending and to the
/// least-loaded live session; its record moves to ERROR.
pub fn down_session(
    project: &Project,
    env: &Env,
    down: &SessionRecord,
    running: &[Running],
    sessions: &[SessionRecord],
) -> Vec<Logged> {
    let theirs: Vec<&Running> = running.iter().filter(|r| r.task.session == down.id).collect();
    // Load: the tasks each session has in progress now.
    let loaded: Vec<SessionRecord> = sessions
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.load = running.iter().filter(|r| r.task.session == s.id).count() as u32;
            s
        })
        .collect();
    let ids: Vec<String> = theirs.iter().map(|r| r.task.subject()).collect();
    let plan = redistribute(&down.id, &ids, &loaded, env.now);
    let mut out = Vec::new();
    for a in &plan.assignments {
        let Some(r) = theirs.iter().find(|r| r.task.subject() == a.task_id) else { continue };
        out.push(reassign(project, env, r, a));
    }
    for subject in &plan.unassigned {
        let Some(r) = theirs.iter().find(|r| r.task.subject() == *subject) else { continue };
        let mut l = Logged::of(PmDecision {
            action: PmAction::Watch,
            target: Target::Human,
            subject: subject.clone(),
            reason: format!("{} is down and no live session can take {}; it is pending again", down.id, r.task.id),
            message: None,
            follow_up: None,
            suggestion: None,
            options: Vec::new(),
            check_again_in_minutes: None,
            decided_at: env.now,
        });
        l.feature = Some(r.feature.clone());
        l.task = Some(r.task.id.clone());
        if let Ok(true) = settle(project, env, &r.feature, &r.task.id, Mark::Pending) {
            l.done.push(format!("{} pending again", r.task.id));
        }
        out.push(l);
    }
    // Once: the record leaves the states that hold work.
    if let Ok(Some(mut rec)) = project.coordination().session(&down.id)
        && rec.state.holds_work()
    {
        let at = rec.heartbeat_at;
        if rec.move_to(SessionState::Error, env.now).is_ok() {
            // The heartbeat stays the last sign of life, not this move (the
            // store gives the file the heartbeat's time).
            rec.heartbeat_at = at;
            let _ = project.coordination().save_session(&rec);
        }
    }
    out
}

fn reassign(project: &Project, env: &Env, r: &Running, a: &Assignment) -> Logged {
    let mut l = Logged::of(a.decision(env.now));
    l.decision.subject = r.task.subject();
    l.feature = Some(r.feature.clone());
    l.task = Some(r.task.id.clone());
    match settle(project, env, &r.feature, &r.task.id, Mark::Pending) {
        Ok(true) => l.done.push(format!("{} pending again for {}", r.task.id, a.to)),
        Ok(false) => l.done.push(format!("{} was no longer in progress", r.task.id)),
        Err(e) => l.done.push(format!("{} not reset: {e}", r.task.id)),
    }
    let payload = serde_json::json!({"from": a.from.as_str(), "to": a.to.as_str(), "reason": a.reason});
    Effects::of("pm").raise("work.assigned", Some(&r.feature), Some(&r.task.id), payload).apply_to_log(project, env);
    l
}

/// Whole minutes between two times, for messages.
pub fn minutes(d: TimeDelta) -> i64 {
    d.num_minutes().max(0)
}
