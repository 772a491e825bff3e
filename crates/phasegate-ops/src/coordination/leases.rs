//! File leases between sessions (seed 004 §5.3's ownership check, §8.2's
//! conflict rule): a session leases the files of its task at `tasks start`
//! and a file on its first edit; a second session asking for it is GRANTed
//! it when the owner is down or gone, PREEMPTs it with higher-priority work
//! (the owner is told at its next hook to pause and yield), and is otherwise
//! DENIED and recorded as waiting for the owner.
//!
//! The decision is the core's ([`decide_request`]); this module reads the
//! lease and the owner's record, writes what the decision says under the
//! leases' lock, logs conflicts as PM decisions and `conflict.detected`
//! events, and records waits. At SessionEnd ([`ended`]) the session's
//! record is made COMPLETE and everything it held here is released.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{
    Lease, LeaseDecision, LeasePath, LeasePathError, LeaseReason, LeaseRequest, Owner, PathCase, SessionRecord, Wait,
    decide_request, handle_conflict,
};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;
use phasegate_store::Project;
use phasegate_store::coordination::leases::{LeaseRead, Notice};
use serde::Serialize;

use super::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::session;

/// A request decided and carried out.
#[derive(Debug, Clone)]
pub struct Acquired {
    pub decision: LeaseDecision,
    /// The owner's record, for a DENY's message.
    pub owner: Option<SessionRecord>,
}

/// Asks for `path` on behalf of `me` and does what §8.2 decides.
pub fn acquire(
    project: &Project,
    me: &SessionRecord,
    path: &LeasePath,
    reason: LeaseReason,
    case: PathCase,
    env: &Env,
) -> OpResult<Acquired> {
    let request = LeaseRequest {
        path: path.clone(),
        requester: me.id.clone(),
        feature: me.feature.clone(),
        task: me.task.clone(),
        priority: me.priority,
        reason,
    };
    // The common case, no lock: the file is already ours.
    if let LeaseRead::Held(l) = project.coordination().read_lease(path, case)
        && l.holder == me.id
    {
        let decision =
            LeaseDecision::Grant { lease: l.clone(), reason: format!("{} already holds {path}", me.id), expired: None };
        return Ok(Acquired { decision, owner: None });
    }
    let lock = match project.coordination().leases_lock(env.lock_timeout) {
        Ok(lock) => lock,
        // The lock is busy past the wait: a lease file is replaced whole, so
        // it reads true without the lock. Another live session's lease still
        // refuses the edit; only a grant, which must write, waits for the lock.
        Err(e) => return denied_without_lock(project, &request, case, env).ok_or(e.into()),
    };
    let held = match project.coordination().read_lease(path, case) {
        LeaseRead::Held(l) => Some(l),
        LeaseRead::Free | LeaseRead::Unreadable(_) => None,
    };
    let owner_record = held.as_ref().and_then(|l| project.coordination().session(&l.holder).ok().flatten());
    let owner = held.as_ref().map(|lease| Owner { lease, session: owner_record.as_ref() });
    let decision = decide_request(&request, owner, case, env.now).invalid_input()?;
    match &decision {
        LeaseDecision::Grant { lease, expired, .. } => {
            if held.as_ref() != Some(lease) {
                project.coordination().write_lease(lease, case)?;
            }
            drop(lock);
            project.coordination().remove_wait(&me.id, path, case);
            if expired.is_some() {
                log_decision(project, env, &decision);
            }
        }
        LeaseDecision::Preempt { lease, preempted, message } => {
            project.coordination().write_lease(lease, case)?;
            drop(lock);
            project.coordination().remove_wait(&me.id, path, case);
            let text = format!(
                "phasegate: pause and yield {path}: {message}. Session {} holds it now; stop editing it, commit or set aside your change to it, and take other work or wait.",
                lease.holder
            );
            let _ = project.coordination().add_notice(
                &preempted.holder,
                &Notice { at: env.now, from: me.id.to_string(), text },
                env.lock_timeout,
            );
            log_decision(project, env, &decision);
            conflict_event(project, env, &decision, me);
        }
        LeaseDecision::Deny { owner, path, .. } => {
            drop(lock);
            let wait = Wait { waiter: me.id.clone(), holder: owner.clone(), path: path.clone(), since: env.now };
            // Logged once per wait, not at every retry.
            if project.coordination().record_wait(&wait, case).unwrap_or(false) {
                log_decision(project, env, &decision);
                conflict_event(project, env, &decision, me);
            }
        }
    }
    Ok(Acquired { decision, owner: owner_record })
}

/// The decision read without the leases' lock, when it is a DENY (which
/// writes no lease); None when the request would take the file.
fn denied_without_lock(project: &Project, request: &LeaseRequest, case: PathCase, env: &Env) -> Option<Acquired> {
    let LeaseRead::Held(lease) = project.coordination().read_lease(&request.path, case) else { return None };
    let record = project.coordination().session(&lease.holder).ok().flatten();
    let decision =
        decide_request(request, Some(Owner { lease: &lease, session: record.as_ref() }), case, env.now).ok()?;
    matches!(decision, LeaseDecision::Deny { .. }).then_some(Acquired { decision, owner: record })
}

fn log_decision(project: &Project, env: &Env, decision: &LeaseDecision) {
    let logged = super::decisions::Logged::of(handle_conflict(decision, env.now));
    let _ = project.coordination().decision_log().append(&[logged], env.lock_timeout);
}

fn conflict_event(project: &Project, env: &Env, decision: &LeaseDecision, me: &SessionRecord) {
    let (path, owner) = match decision {
        LeaseDecision::Preempt { lease, preempted, .. } => (lease.path.to_string(), preempted.holder.to_string()),
        LeaseDecision::Deny { path, owner, .. } => (path.to_string(), owner.to_string()),
        LeaseDecision::Grant { .. } => return,
    };
    let action = serde_json::to_value(decision).ok().and_then(|v| v["action"].as_str().map(str::to_owned));
    Effects::of("lease take")
        .raise(
            "conflict.detected",
            me.feature.as_deref(),
            me.task.as_deref(),
            serde_json::json!({"path": path, "owner": owner, "requester": me.id.as_str(), "action": action}),
        )
        .apply_to_log(project, env);
}

/// The sentence a DENY gives the model: who holds the file, what they do,
/// and what to do instead.
pub fn deny_message(path: &LeasePath, owner: &SessionId, record: Option<&SessionRecord>, now: DateTime<Utc>) -> String {
    let doing = match record {
        Some(r) => {
            let work = match (&r.feature, &r.task) {
                (Some(f), Some(t)) => format!("working on {f}, task {t}"),
                (Some(f), None) => format!("working on {f}"),
                (None, Some(t)) => format!("working on task {t}"),
                (None, None) => "editing it".to_owned(),
            };
            let h = r.health(now);
            match h.paused_until {
                Some(until) => format!(
                    "{work}; paused by a usage limit or an API error until {} UTC",
                    until.format("%Y-%m-%d %H:%M")
                ),
                None => format!("{work}; {}, last seen {} min ago", r.state, h.age_seconds / 60),
            }
        }
        None => "no record".to_owned(),
    };
    let o = owner.short();
    let p = phasegate_core::paths::shell_word(path.as_str());
    let ends = match record.and_then(|r| r.health(now).paused_until) {
        Some(_) => format!(
            "it keeps the file until then plus {} min, for the work to go on at that step",
            phasegate_core::coordination::PAUSE_GRACE.num_minutes()
        ),
        None => format!("the lease ends when {o} ends, or 5 min after it goes silent"),
    };
    format!(
        "phasegate: {path} is leased by session {o} ({doing}), so this edit is refused: two sessions editing one file overwrite each other. Wait ({ends}), take other work, or ask the user whether to release it: `{lease_release}`.",
        lease_release = Command::new("lease release").arg(&p).flag("session", &o)
    )
}

/// SessionEnd: the record is COMPLETE, its leases are released, its waits
/// (as waiter, and other sessions' waits for it) and notices dropped.
/// Nothing of it holds another session back any more. A record that cannot
/// be read or written is returned as the problem, after the leases and
/// waits are gone anyway.
///
/// A session an interruption paused (its StopFailure hook recorded a resume
/// time still to come: a usage limit's reset, a back-off) is not ended: the
/// process goes, the work does not. Its record and leases stay, live until
/// the resume time plus the grace (see `SessionRecord::health`), for the
/// runner or the person who carries on with it.
pub fn ended(project: &Project, session: &SessionId, now: DateTime<Utc>, timeout: Duration) -> OpResult<()> {
    if let Ok(Some(i)) = project.interruptions().get(session)
        && i.pauses_at(now)
    {
        return Ok(());
    }
    let mut problem = None;
    match project.coordination().session(session) {
        Ok(Some(mut r)) => match r.end(now) {
            Ok(()) => {
                if let Err(e) = project.coordination().save_session(&r) {
                    problem = Some(e.into());
                }
            }
            Err(e) => problem = Some(OpError::Core(Box::new(e))),
        },
        Ok(None) => {}
        Err(e) => problem = Some(e.into()),
    }
    release_all(project, session, PathCase::native(), timeout);
    project.coordination().remove_waits_of(session);
    project.coordination().remove_waits_where(|w| w.holder == *session);
    project.coordination().drop_notices(session);
    problem.map_or(Ok(()), Err)
}

/// Releases every lease `session` holds (it ended), found through its
/// list (no scan of every lease).
pub fn release_all(project: &Project, session: &SessionId, case: PathCase, timeout: Duration) -> Vec<LeasePath> {
    release_where(project, session, case, timeout, |_| true)
}

/// Releases the leases `session` took for `task` (it is settled).
pub fn release_task(
    project: &Project,
    session: &SessionId,
    task: &str,
    case: PathCase,
    timeout: Duration,
) -> Vec<LeasePath> {
    release_where(project, session, case, timeout, |l| l.task.as_deref() == Some(task))
}

fn release_where(
    project: &Project,
    holder: &SessionId,
    case: PathCase,
    timeout: Duration,
    which: impl Fn(&Lease) -> bool,
) -> Vec<LeasePath> {
    let listed = project.coordination().listed_leases(holder);
    if listed.is_empty() {
        return Vec::new();
    }
    let Ok(_lock) = project.coordination().leases_lock(timeout) else { return Vec::new() };
    let mut released = Vec::new();
    let mut kept = Vec::new();
    for path in listed {
        match project.coordination().read_lease(&path, case) {
            LeaseRead::Held(l) if l.holder == *holder => {
                if which(&l) && project.coordination().remove_lease(&path, Some(holder), case) {
                    released.push(path);
                } else {
                    kept.push(path);
                }
            }
            // Released before, or another's now: off the list.
            LeaseRead::Held(_) | LeaseRead::Free | LeaseRead::Unreadable(_) => {}
        }
    }
    project.coordination().rewrite_lease_list(holder, &kept);
    if !released.is_empty() {
        project
            .coordination()
            .remove_waits_where(|w| w.holder == *holder && released.iter().any(|p| p.same_file(&w.path, case)));
    }
    released
}

/// What `tasks start` leased.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskLeases {
    pub session: String,
    pub leased: Vec<String>,
    /// Files named in the task that cannot be leased (not a path inside the
    /// repository), with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_leased: Vec<String>,
}

/// `tasks start`: the session (`CLAUDE_CODE_SESSION_ID`) works on `task`
/// of `feature` and leases the task's files; a file another live session
/// holds with equal or higher priority refuses the start (nothing leased).
/// Without a session id nothing is leased (None).
pub fn task_started(
    project: &Project,
    env: &Env,
    feature: &str,
    task: &phasegate_core::tasks::Task,
    code_dir: &Path,
) -> OpResult<Option<TaskLeases>> {
    let Some(session) = env.session(None)? else { return Ok(None) };
    let case = PathCase::native();
    let (mut me, _) =
        super::registry::alive(project, &session, &env.cwd, code_dir, super::registry::Beat::at(env.now))?;
    super::registry::working(project, &mut me, Some(feature), Some(&task.id), task.priority, env.now)?;
    let mut out = TaskLeases { session: session.to_string(), leased: Vec::new(), not_leased: Vec::new() };
    let mut taken = Vec::new();
    let root = phasegate_store::files::canonical_or_same(code_dir);
    for file in &task.files {
        // The file the task names, as an edit of it will name it (links
        // resolved): one file, one lease.
        let path = match LeasePath::parse(file).and_then(|p| {
            let resolved = phasegate_store::coordination::leases::resolve_file(&root.join(p.as_str()));
            lease_of(project, &resolved, &root)
        }) {
            Ok(p) => p,
            Err(e) => {
                out.not_leased.push(e.to_string());
                continue;
            }
        };
        let got = acquire(project, &me, &path, LeaseReason::TaskStart, case, env)?;
        match got.decision {
            LeaseDecision::Grant { .. } | LeaseDecision::Preempt { .. } => {
                taken.push(path.clone());
                out.leased.push(path.to_string());
            }
            LeaseDecision::Deny { owner, .. } => {
                // All or nothing: what this start leased goes back.
                if let Ok(_lock) = project.coordination().leases_lock(env.lock_timeout) {
                    for p in &taken {
                        project.coordination().remove_lease(p, Some(&session), case);
                    }
                }
                return Err(Refusal::FileLeased {
                    task: task.id.clone(),
                    message: deny_message(&path, &owner, got.owner.as_ref(), env.now),
                }
                .into());
            }
        }
    }
    Ok(Some(out))
}

/// `tasks complete|skip|fail`: the session's leases for the task go back,
/// and it works on no task any more.
pub fn task_settled(project: &Project, env: &Env, task: &str) {
    let Ok(Some(session)) = env.session(None) else { return };
    release_task(project, &session, task, PathCase::native(), env.lock_timeout);
    if let Ok(Some(mut r)) = project.coordination().session(&session)
        && r.task.as_deref() == Some(task)
    {
        r.task = None;
        r.heartbeat(env.now);
        let _ = project.coordination().save_session(&r);
    }
}

/// Takes a lease by hand (`workflow-state lease take`).
pub fn take(env: &Env, raw: &str) -> OpResult<Acquired> {
    let project = session::project(env)?;
    let Some(session) = env.session(None)? else {
        return Err(Invalid::LeaseWithoutSession.into());
    };
    let path = lease_path(&project, env, raw)?;
    let root = project.repo().map(|r| r.current_root.clone()).unwrap_or_else(|| project.root().to_owned());
    let (mut me, _) = super::registry::alive(&project, &session, &env.cwd, &root, super::registry::Beat::at(env.now))?;
    super::registry::working(&project, &mut me, None, None, None, env.now)?;
    acquire(&project, &me, &path, LeaseReason::FirstEdit, PathCase::native(), env)
}

/// Releases a lease by hand: this session's, or another's with `--session`.
pub fn release(env: &Env, raw: Option<&str>, holder: Option<&str>) -> OpResult<Vec<String>> {
    let project = session::project(env)?;
    let case = PathCase::native();
    let holder = match holder {
        Some(h) => super::registry::session_arg(&project, h)?,
        None => env.session(None)?.ok_or(Invalid::ReleaseWhose)?,
    };
    let released = match raw {
        Some(raw) => {
            // A lease listed under a path that no longer leads anywhere is
            // released by that name.
            let path = lease_path(&project, env, raw).or_else(|e| LeasePath::parse(raw).map_err(|_| e))?;
            let _lock = project.coordination().leases_lock(env.lock_timeout)?;
            match project.coordination().remove_lease(&path, Some(&holder), case) {
                true => {
                    project.coordination().remove_waits_where(|w| w.holder == holder && w.path.same_file(&path, case));
                    vec![path]
                }
                false => Vec::new(),
            }
        }
        None => release_all(&project, &holder, case, env.lock_timeout),
    };
    Ok(released.iter().map(ToString::to_string).collect())
}

/// A path given on the command line, as leases know the file: relative to
/// the working directory (or absolute), read as the edit hook reads a tool
/// call's path (`..` applied, links resolved, a hard link to a leased file
/// is that file: [`lease_of`]), relative to the root of the working tree
/// that holds the file. A lease names the file, never one spelling of it,
/// so `lease take` through a link and an edit through another name meet at
/// one lease. A link out of the repository leases nothing: refused.
fn lease_path(project: &Project, env: &Env, raw: &str) -> OpResult<LeasePath> {
    let given = env.cwd.join(raw);
    let file = phasegate_store::coordination::leases::resolve_file(&given);
    let same_repo = |l: &phasegate_store::git::RepoLayout| {
        project.repo().is_some_and(|mine| {
            phasegate_store::files::canonical_or_same(&mine.common_dir)
                == phasegate_store::files::canonical_or_same(&l.common_dir)
        })
    };
    let Some(layout) = phasegate_store::locate::locate(&file).filter(same_repo) else {
        let lexical = phasegate_core::paths::lexical(&given);
        let link = (file != lexical).then(|| file.clone());
        return Err(Invalid::LeaseOutsideRepo { given: raw.to_owned(), link, root: project.root().to_owned() }.into());
    };
    let root = phasegate_store::files::canonical_or_same(&layout.current_root);
    lease_of(project, &file, &root).invalid_input()
}

/// The lease of `file` (a path already resolved as [`resolve_file`] does)
/// in the working tree at `root` (resolved too): its path below the root,
/// or, for a file with several hard links, the path of a lease another of
/// its names holds.
///
/// [`resolve_file`]: phasegate_store::coordination::leases::resolve_file
pub fn lease_of(project: &Project, file: &Path, root: &Path) -> Result<LeasePath, LeasePathError> {
    let path = LeasePath::within(&file.display().to_string(), &root.display().to_string(), PathCase::native())?;
    Ok(phasegate_store::coordination::leases::hard_linked_lease(project, file, root).unwrap_or(path))
}
